// The documents in the scope of these entities (those whose unresolved date a departing
// neighbour may change).
// params: $scopes list<map {type, key}>
// returns: id string
UNWIND $scopes AS scope
MATCH (:Entity {type: scope.type, key: scope.key})<-[:IN_SCOPE]-(d:Document)
RETURN DISTINCT d.id AS id
