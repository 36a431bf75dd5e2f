// Of the documents an ingest batch (or a deletion) touched, those with a full SUPERSEDES edge in
// and a full one out: every new supersession cycle runs through a touched document (each new or
// changed edge has one at an end), and a document on a cycle has both. Only these documents'
// components are walked for cycles; a batch of new single documents or chain heads walks none.
// params: $ids list<string>
// returns: id string (in the order of $ids)
UNWIND $ids AS id
MATCH (d:Document {id: id})
WHERE EXISTS { MATCH (d)<-[incoming:SUPERSEDES]-(:Document) WHERE @full(edge: incoming) }
  AND EXISTS { MATCH (d)-[outgoing:SUPERSEDES]->(:Document) WHERE @full(edge: outgoing) }
RETURN d.id AS id
