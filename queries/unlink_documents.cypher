// Before a changed record is written again: drop everything derived from its old version -- its
// scope, identifier, name and mention links (close_document_versions.cypher has kept them on
// the closed version), the rule edges it takes part in, and the explicit edges it made. Edges
// are closed, not erased: each becomes a CLOSED_SUPERSEDES recorded until $now (an edge this
// run opened is simply dropped); an edge the new version makes again unchanged is reopened by
// reopen_edges.cypher. Explicit edges other documents point at it stay: they name it by id.
// params: $ids list<string>, $now datetime, $run int
// returns: links int, edges int
UNWIND $ids AS id
MATCH (d:Document {id: id})
CALL (d) {
  OPTIONAL MATCH (d)-[l:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]->(:Entity)
  DELETE l
  RETURN count(l) AS links
}
CALL (d) {
  OPTIONAL MATCH (d)-[s:SUPERSEDES]-(:Document)
  WHERE s.rule <> 'explicit' OR startNode(s) = d
  CALL (s) {
    WITH s WHERE s IS NOT NULL AND coalesce(s.recorded_from < $now, true)
    WITH s, startNode(s) AS newer, endNode(s) AS older
    CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
    SET closed = properties(s), closed.recorded_until = $now, closed.closed_by_run = $run,
        closed.closed_reason = 'updated'
  }
  DELETE s
  RETURN count(s) AS edges
}
RETURN sum(links) AS links, sum(edges) AS edges
