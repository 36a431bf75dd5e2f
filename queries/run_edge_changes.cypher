// The edges one run opened and closed, by rule (and, for closed ones, the reason): what an
// ingest, a rules change or a delete reports. An edge a run closed and made again unchanged was
// reopened (reopen_edges.cypher) and counts as neither.
// A run commits several times (a batch each, then its rules: begin_commit.cypher), so its
// edges carry the transaction times of all its commits (and, before commits were kept, the
// run's own instant).
// params: $run int, $now datetime (one of the run's transaction times; unused, kept so callers
//         pass RecordedRun.params() as before)
// returns: rule string, change string ('opened' or 'closed'), reason string|null, edges int
MATCH (r:Run {number: $run})
WITH r.at AS started, COLLECT { MATCH (c:Commit {run: $run}) RETURN c.at } AS ats
WITH ats + [started] AS ats
CALL (ats) {
  MATCH ()-[s:SUPERSEDES]->()
  WHERE s.recorded_from IN ats
  RETURN s.rule AS rule, 'opened' AS change, null AS reason, count(*) AS edges
  UNION ALL
  MATCH ()-[c:CLOSED_SUPERSEDES]->()
  WHERE c.closed_by_run = $run AND c.recorded_until IN ats
  RETURN c.rule AS rule, 'closed' AS change, c.closed_reason AS reason, count(*) AS edges
}
RETURN rule, change, reason, edges
ORDER BY change DESC, rule, reason
