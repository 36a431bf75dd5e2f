// The node labels in use (the `schema` tool of `car-graph mcp`).
// params: (none)
// returns: label string
CALL db.labels() YIELD label
RETURN label
ORDER BY label
