// Exact entity lookup by display name.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX entity_name IF NOT EXISTS
FOR (e:Entity) ON (e.name)
