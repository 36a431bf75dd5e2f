// Of these documents, the ones with any SUPERSEDES edge (only they can be on a cycle).
// params: $ids list<string>
// returns: id string
UNWIND $ids AS id
MATCH (d:Document {id: id})
WHERE EXISTS { (d)-[:SUPERSEDES]-(:Document) }
RETURN d.id AS id
