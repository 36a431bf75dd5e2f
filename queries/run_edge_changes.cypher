// The edges one run opened and closed, by rule (and, for closed ones, the reason): what an
// ingest, a rules change or a delete reports. An edge a run closed and made again unchanged was
// reopened (reopen_edges.cypher) and counts as neither.
// A run commits several times (a batch each, then its rules: begin_commit.cypher), so its
// edges carry the transaction times of all its commits (and, before commits were kept, the
// run's own instant).
// params: $run int, $now datetime (one of the run's transaction times; unused, kept so callers
//         pass RecordedRun.params() as before)
// returns: rule string, change string ('opened' or 'closed'), reason string|null, edges int
// Instants are compared as microseconds since the epoch: = and IN on datetimes also compare the
// zone's spelling ('Z' from the server's clock, 'UTC' from the driver), which may differ.
MATCH (r:Run {number: $run})
WITH r.at AS started, COLLECT { MATCH (c:Commit {run: $run}) RETURN c.at } AS ats
WITH [t IN ats + [started] | t.epochSeconds * 1000000 + t.nanosecond / 1000] AS ats
CALL (ats) {
  MATCH ()-[s:SUPERSEDES]->()
  WHERE s.recorded_from.epochSeconds * 1000000 + s.recorded_from.nanosecond / 1000 IN ats
  RETURN s.rule AS rule, 'opened' AS change, null AS reason, count(*) AS edges
  UNION ALL
  MATCH ()-[c:CLOSED_SUPERSEDES]->()
  WHERE c.closed_by_run = $run
    AND c.recorded_until.epochSeconds * 1000000 + c.recorded_until.nanosecond / 1000 IN ats
  RETURN c.rule AS rule, 'closed' AS change, c.closed_reason AS reason, count(*) AS edges
}
RETURN rule, change, reason, edges
ORDER BY change DESC, rule, reason
