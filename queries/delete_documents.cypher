// Delete documents: close, never erase. Run after close_document_versions.cypher in the same
// transaction (the last version is kept as a :DocumentVersion with its links). The edges are
// closed (CLOSED_SUPERSEDES recorded until $now, closed_reason 'deleted'), the links go, and
// the node stays as a bare :RetiredDocument {id, retired_at, retired_by_run} -- out of every
// current read, still the end of its closed edges. Reports what must be re-evaluated: documents
// that shared a scope with them (their unresolved date may change) and documents they were
// linked with (cycle marks may change). A document whose explicit reference now points at
// nothing is marked PendingRefs, so a later ingest of that id links it again.
// params: $ids list<string>, $now datetime, $run int
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
  MATCH (d)-[s:SUPERSEDES]-(:Document)
  WITH DISTINCT s
  CALL (s) {
    WITH s, startNode(s) AS newer, endNode(s) AS older
    WHERE coalesce(s.recorded_from < $now, true)
    CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
    SET closed = properties(s), closed.recorded_until = $now, closed.closed_by_run = $run,
        closed.closed_reason = 'deleted'
  }
  DELETE s
}
CALL (docs) {
  UNWIND docs AS d
  OPTIONAL MATCH (d)-[link:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]->(:Entity)
  DELETE link
}
CALL (docs) {
  UNWIND docs AS d
  REMOVE d:Document:PendingRefs:Active:Superseded:PartiallySuperseded:Withdrawn:Unresolved
  SET d = {id: d.id, retired_at: $now, retired_by_run: $run}
  SET d:RetiredDocument
}
RETURN deleted, neighbours, linked
