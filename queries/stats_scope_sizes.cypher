// Scope sizes for `car-graph stats`: how many scopes (entities with at least one document
// IN_SCOPE) hold how many documents, per entity type.
// params: (none)
// returns: entity_type string, documents int (documents in one scope), scopes int (scopes of
//          that type and size)
MATCH (e:Entity)
WITH e.type AS entity_type, COUNT { (e)<-[:IN_SCOPE]-(:Document) } AS documents
WHERE documents > 0
RETURN entity_type, documents, count(*) AS scopes
ORDER BY entity_type, documents
