// An entity is identified by its type and normalised key (the same key can name two types).
// params: (none)
// returns: (nothing)
CREATE CONSTRAINT entity_type_key IF NOT EXISTS
FOR (e:Entity) REQUIRE (e.type, e.key) IS UNIQUE
