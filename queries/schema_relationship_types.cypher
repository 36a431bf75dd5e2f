// The relationship types in use (the `schema` tool of `car-graph mcp`).
// params: (none)
// returns: type string
CALL db.relationshipTypes() YIELD relationshipType
RETURN relationshipType AS type
ORDER BY type
