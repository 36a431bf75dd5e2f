// Partial identifiers: "ending in 62718" is ENDS WITH on the key, which a range index cannot
// serve and a text index can.
// params: (none)
// returns: (nothing)
CREATE TEXT INDEX entity_key_text IF NOT EXISTS
FOR (e:Entity) ON (e.key)
