// Which of the question's linked entities each given document holds (is scoped to, identified by
// or named by): the verdict's evidence that the question names a document (car_graph/verdict.py;
// anchors.cypher boosts the same links).
// params: $ids list<string> (document ids), $entities list<map {type, key}>
// returns: doc_id string, held list<string> ("type:key" of the entities it holds)
UNWIND $ids AS id
MATCH (d:Document {id: id})
RETURN d.id AS doc_id,
       [named IN $entities WHERE EXISTS {
          (d)-[:IN_SCOPE|IDENTIFIED_BY|NAMED]->(:Entity {type: named.type, key: named.key})
        } | named.type + ':' + named.key] AS held
