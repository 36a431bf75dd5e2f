// Every SUPERSEDES edge that decides something, for `car-graph stats`' chain lengths (computed
// in car_graph/stats.py: the longest path from each chain head is linear in Python, exponential
// as a variable-length Cypher pattern). Edges marked as possibly lying on a cycle decide nothing
// (@cycle_marked, queries/fragments/).
// params: (none)
// returns: newer string, older string
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE NOT @cycle_marked(edge: s, known_at: null)
RETURN newer.id AS newer, older.id AS older
