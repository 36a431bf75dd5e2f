// Every entity a question may link by name: those that scope or name some document (what
// match_entities.cypher and match_entity_names.cypher filter the same way). Read once per corpus
// version into car_graph.linking.NameIndex, so a question's names link without a look-up.
// params: (none)
// returns: type, key, name
MATCH (e:Entity)
WHERE EXISTS { (e)<-[:IN_SCOPE|NAMED]-(:Document) }
RETURN e.type AS type, e.key AS key, e.name AS name
