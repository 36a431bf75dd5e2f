// Delete documents with their edges and links. Reports what must be re-evaluated: documents
// that shared a scope with them (their unresolved date may change) and documents they were
// linked with (cycle marks may change). A document whose explicit reference now points at
// nothing is marked PendingRefs, so a later ingest of that id links it again.
// params: $ids list<string>
// returns: deleted list<string>, neighbours list<string>, linked list<string>
UNWIND $ids AS id
MATCH (d:Document {id: id})
WITH collect(d) AS docs
CALL (docs) {
  UNWIND docs AS d
  OPTIONAL MATCH (d)-[:IN_SCOPE]->(:Entity)<-[:IN_SCOPE]-(n:Document)
  WHERE NOT n IN docs
  RETURN collect(DISTINCT n.id) AS neighbours
}
CALL (docs) {
  UNWIND docs AS d
  OPTIONAL MATCH (d)-[:SUPERSEDES]-(n:Document)
  WHERE NOT n IN docs
  RETURN collect(DISTINCT n.id) AS linked
}
CALL (docs) {
  UNWIND docs AS d
  OPTIONAL MATCH (d)<-[:SUPERSEDES {rule: 'explicit'}]-(n:Document)
  WHERE NOT n IN docs
  FOREACH (x IN CASE WHEN n IS NULL THEN [] ELSE [n] END | SET x:PendingRefs)
  RETURN count(n) AS referrers
}
WITH docs, neighbours, linked, [d IN docs | d.id] AS deleted
CALL (docs) {
  UNWIND docs AS d
  DETACH DELETE d
}
RETURN deleted, neighbours, linked
