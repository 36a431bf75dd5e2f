// `car-graph neo4j compact`: every relationship of the source store, streamed, with the
// element ids of its ends.
// params: (none)
// returns: source string, target string, type string, props map
MATCH (a)-[r]->(b)
RETURN elementId(a) AS source, elementId(b) AS target, type(r) AS type, properties(r) AS props
