// Exact lookup of a question's identifiers by key, whatever their type (the composite
// entity_type_key constraint needs the type too).
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX entity_key IF NOT EXISTS
FOR (e:Entity) ON (e.key)
