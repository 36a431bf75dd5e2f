// `car-graph neo4j compact`: every node of the source store, streamed, to be copied into a
// fresh store. Only live records are reachable through Cypher: that is the point.
// params: (none)
// returns: element_id string, labels list<string>, props map
MATCH (n)
RETURN elementId(n) AS element_id, labels(n) AS labels, properties(n) AS props
