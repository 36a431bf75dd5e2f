// The edges one run opened and closed, by rule (and, for closed ones, the reason): what an
// ingest, a rules change or a delete reports. An edge a run closed and made again unchanged was
// reopened (reopen_edges.cypher) and counts as neither.
// params: $run int, $now datetime (the run's transaction time)
// returns: rule string, change string ('opened' or 'closed'), reason string|null, edges int
CALL () {
  MATCH ()-[s:SUPERSEDES]->()
  WHERE s.recorded_from = $now
  RETURN s.rule AS rule, 'opened' AS change, null AS reason, count(*) AS edges
  UNION ALL
  MATCH ()-[c:CLOSED_SUPERSEDES]->()
  WHERE c.recorded_until = $now AND c.closed_by_run = $run
  RETURN c.rule AS rule, 'closed' AS change, c.closed_reason AS reason, count(*) AS edges
}
RETURN rule, change, reason, edges
ORDER BY change DESC, rule, reason
