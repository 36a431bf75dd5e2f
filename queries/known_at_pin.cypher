// The commit point a --known-at read is answered at (car_graph/history.py: pin_known_at). A
// run's writes become visible when each of its commits closes (end_commit.cypher), not when
// the run began: $known_at is pinned to the transaction time of the last commit closed by
// then, so a read at $known_at sees exactly what had committed by that instant, and asking
// again later never adds a commit that was still in flight. A commit never closed (its
// process died) counts as closed when the next commit opened. $run instead of $known_at
// names a run: its last closed commit.
// params: $known_at datetime|null, $run int|null (one of the two)
// returns: pinned datetime|null (null: no commit closed by then -- the graph as recorded
//          before commits were kept, read at $known_at itself), first datetime|null (the
//          first commit's transaction time, closed or not), pinned_run int|null,
//          last datetime|null (the last closed commit), last_committed datetime|null,
//          last_run int|null, run_found boolean ($run: whether that run has a closed commit),
//          purged list<map {run, at, cutoff, reason, documents}> (purges whose cut-off is
//          later than the pinned instant, newest first)
CALL () {
  OPTIONAL MATCH (c:Commit)
  WITH c ORDER BY c.at
  WITH collect(c) AS commits
  RETURN [i IN range(0, size(commits) - 1) | {
            run: commits[i].run, at: commits[i].at,
            done: coalesce(commits[i].committed,
                           CASE WHEN i + 1 < size(commits) THEN commits[i + 1].at END)}] AS commits
}
WITH commits, [c IN commits WHERE c.done IS NOT NULL] AS closed
WITH commits, closed,
     [c IN closed WHERE ($run IS NOT NULL AND c.run = $run)
                     OR ($run IS NULL AND c.done <= $known_at)] AS before
WITH closed, before, commits[0].at AS first,
     reduce(best = null, c IN before | CASE WHEN best IS NULL OR c.at > best.at THEN c ELSE best END) AS pin,
     reduce(best = null, c IN closed | CASE WHEN best IS NULL OR c.at > best.at THEN c ELSE best END) AS last
OPTIONAL MATCH (purge:Run {command: 'purge'})
WHERE (purge.cutoff IS NOT NULL
       AND purge.cutoff > coalesce(pin.at, $known_at, datetime('0001-01-01T00:00:00Z')))
   OR (purge.documents IS NOT NULL
       AND purge.at > coalesce(pin.at, $known_at, datetime('0001-01-01T00:00:00Z')))
WITH pin, last, first, purge ORDER BY purge.at DESC
RETURN pin.at AS pinned, first, pin.run AS pinned_run, last.at AS last, last.done AS last_committed,
       last.run AS last_run, pin IS NOT NULL AS run_found,
       [p IN collect(purge) | {run: p.number, at: p.at, cutoff: p.cutoff, reason: p.reason,
                                documents: p.documents}] AS purged
