// Drop one constraint, and the index it owns, by name (a parameter; Neo4j 5.26 accepts it).
// Only called with names from car-graph's own graph_schema/ allow-list.
// params: $name string
// returns: (nothing)
DROP CONSTRAINT $name IF EXISTS
