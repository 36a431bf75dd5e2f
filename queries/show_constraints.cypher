// Every constraint in the database, with the fields `car-graph schema show` prints.
// params: (none)
// returns: name string, type string, entity_type string, labels list<string>,
//          properties list<string>, options map, owned_index string|null
SHOW CONSTRAINTS
YIELD name, type, entityType, labelsOrTypes, properties, options, ownedIndex
RETURN name, type, entityType AS entity_type, labelsOrTypes AS labels, properties, options,
       ownedIndex AS owned_index
ORDER BY name
