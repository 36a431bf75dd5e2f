// The documents sharing a scope entity with these documents (themselves left out): the ones
// whose unresolved date a batch can lower in place (mark_unresolved.cypher sets it on the
// older end of any pair involving the batch), watched so such a change closes a version.
// params: $ids list<string>
// returns: id string
UNWIND $ids AS id
MATCH (:Document {id: id})-[:IN_SCOPE]->(:Entity)<-[:IN_SCOPE]-(other:Document)
WHERE NOT other.id IN $ids
RETURN DISTINCT other.id AS id
