// `car-graph neo4j compact`: how many nodes and relationships a store holds, to check the copy.
// params: (none)
// returns: nodes int, relationships int
CALL () { MATCH (n) RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
RETURN nodes, relationships
