// The documents sharing a scope entity with these documents (themselves left out): the ones
// whose unresolved date a batch can lower in place (mark_unresolved.cypher sets it on the
// older end of any pair involving the batch), watched so such a change closes a version.
// params: $ids list<string>
// returns: id string
// The batch's scope entities are collected first: a hub entity is walked once, not once per
// batch document (2,000 documents of one 10,000-member scope were 20M rows).
UNWIND $ids AS id
MATCH (:Document {id: id})-[:IN_SCOPE]->(scope:Entity)
WITH DISTINCT scope
MATCH (scope)<-[:IN_SCOPE]-(other:Document)
WHERE NOT other.id IN $ids
RETURN DISTINCT other.id AS id
