// Totals for the ingest summary and `car-graph status`.
// params: (none)
// returns: documents int, entities int, supersedes int
CALL () { MATCH (d:Document) RETURN count(d) AS documents }
CALL () { MATCH (e:Entity) RETURN count(e) AS entities }
CALL () { MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS supersedes }
RETURN documents, entities, supersedes
