// `car-graph neo4j compact`: create a batch of copied nodes in the fresh store. The labels come
// from the source store's own nodes (compact_read_nodes), never from user input.
// params: $rows list<map{key string, labels list<string>, props map}>
// returns: key string (the source element id), element_id string (the copy's)
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props
RETURN row.key AS key, elementId(n) AS element_id
