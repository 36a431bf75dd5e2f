// Relationship properties by type, with their value types (the `schema` tool of
// `car-graph mcp`).
// params: (none)
// returns: type string, property string|null, types list<string>|null, mandatory boolean
CALL db.schema.relTypeProperties() YIELD relType, propertyName, propertyTypes, mandatory
RETURN substring(relType, 2, size(relType) - 3) AS type, propertyName AS property,
       propertyTypes AS types, mandatory
ORDER BY type, property
