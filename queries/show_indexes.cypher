// Every index in the database, with the fields `car-graph schema show` prints (no counters).
// params: (none)
// returns: name string, type string, entity_type string, labels list<string>|null,
//          properties list<string>|null, options map, owning_constraint string|null
SHOW INDEXES
YIELD name, type, entityType, labelsOrTypes, properties, options, owningConstraint
RETURN name, type, entityType AS entity_type, labelsOrTypes AS labels, properties, options,
       owningConstraint AS owning_constraint
ORDER BY name
