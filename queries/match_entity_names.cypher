// Scope (or name) entities whose display name is exactly one of the given strings (case-sensitive: the
// caller passes short tokens as written, so "GS" finds the ticker GS and not the word "gs").
// params: $names list<string>
// returns: type, key, name
UNWIND $names AS wanted
MATCH (e:Entity {name: wanted})
WHERE EXISTS { (e)<-[:IN_SCOPE|NAMED]-(:Document) }
RETURN e.type AS type, e.key AS key, e.name AS name
