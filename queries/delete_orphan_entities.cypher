// Entities nothing refers to any more -- no document links them, no recorded version was
// linked to them -- go (after a delete or a correction dropped their last link). An entity a
// closed version was linked to stays for --known-at reads; current reads never see it
// (name_index.cypher and the linking statements ask for a document's link).
// params: (none)
// returns: deleted int
MATCH (e:Entity)
WHERE NOT EXISTS { (e)<--() }
DELETE e
RETURN count(e) AS deleted
