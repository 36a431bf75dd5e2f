// Drop one index by name (the name is a parameter; Neo4j 5.26 accepts it in DROP).
// Only called with names from car-graph's own graph_schema/ allow-list.
// params: $name string
// returns: (nothing)
DROP INDEX $name IF EXISTS
