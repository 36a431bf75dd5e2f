// Of the documents an ingest batch (or a deletion) touched, those with a full supersession edge in
// and a full one out, current or closed: the documents through which a cycle of some recorded
// state can run (mark_recorded_cycles.cypher says why such marks are kept). Only their components
// of the recorded graph are walked.
// params: $ids list<string>
// returns: id string (in the order of $ids)
UNWIND $ids AS id
MATCH (d:Document {id: id})
WHERE EXISTS { MATCH (d)<-[incoming:SUPERSEDES|CLOSED_SUPERSEDES]-() WHERE @full(edge: incoming) }
  AND EXISTS { MATCH (d)-[outgoing:SUPERSEDES|CLOSED_SUPERSEDES]->() WHERE @full(edge: outgoing) }
RETURN d.id AS id
