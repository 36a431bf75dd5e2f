// Entities whose normalised key is exactly one of the given keys, any type: how a question's
// identifiers (and identifier-like tokens) link. Exact only: an identifier is never fuzzy.
// Only entities some document is scoped to, identified by, named by or mentions can anchor a search.
// params: $keys list<string> (normalised keys)
// returns: type, key, name
UNWIND $keys AS wanted
MATCH (e:Entity {key: wanted})
WHERE EXISTS { (e)<-[:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]-(:Document) }
RETURN e.type AS type, e.key AS key, e.name AS name
