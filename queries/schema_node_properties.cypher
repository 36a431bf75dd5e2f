// Node properties by label combination, with their value types (the `schema` tool of
// `car-graph mcp`).
// params: (none)
// returns: labels list<string>, property string|null, types list<string>|null, mandatory boolean
CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes, mandatory
RETURN nodeLabels AS labels, propertyName AS property, propertyTypes AS types, mandatory
ORDER BY labels, property
