// `car-graph neo4j compact`: create a batch of copied relationships in the fresh store between
// nodes already copied (their ends given as the copies' element ids). The type comes from the
// source store's own relationships, never from user input.
// params: $rows list<map{source string, target string, type string, props map}>
// returns: created int
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.source
MATCH (b) WHERE elementId(b) = row.target
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(r) AS created
