// Which of the given ids are car-graph documents, whether or not they are published by a date:
// the guard (car_graph/guard.py) asks it only for ids its status statement (closure.cypher)
// returned nothing for, to tell a document not yet published from an id the graph never held.
// params: $ids list<string>
// returns: doc_id string, title string, published date|null
UNWIND $ids AS id
MATCH (d:Document {id: id})
RETURN d.id AS doc_id, d.title AS title, d.published AS published
