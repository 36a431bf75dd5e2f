// The documents a text's mentions cite (car_graph/citator.py): for an identifier, the documents
// it identifies (IDENTIFIED_BY) and a document whose id it is; for a name, the documents the
// name is scope of or names, with their titles (the citator keeps those whose title is the
// name: an opinion also carries the names of the cases it overrules; at most 200 per name).
// params: $mentions list<map {mention int, type string, key string, ids list<string>, name boolean}>
//         (ids: document ids the mention may be written as; name: a name, not an identifier)
// returns: mention int, doc_id string, title string, link string (identified_by | id | named)
UNWIND $mentions AS m
CALL (m) {
  MATCH (:Entity {type: m.type, key: m.key})<-[:IDENTIFIED_BY]-(d:Document)
  WHERE NOT m.name
  RETURN d, 'identified_by' AS link
  UNION
  UNWIND m.ids AS id
  MATCH (d:Document {id: id})
  WHERE NOT m.name
  RETURN d, 'id' AS link
  UNION
  MATCH (:Entity {type: m.type, key: m.key})<-[:IN_SCOPE|NAMED]-(d:Document)
  WHERE m.name
  // a name that is the scope of a crowd (a package, a drug) names no one authority
  RETURN d, 'named' AS link LIMIT 200
}
RETURN m.mention AS mention, d.id AS doc_id, d.title AS title, link
ORDER BY mention, doc_id
