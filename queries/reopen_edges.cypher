// After a run's supersession writes: an edge the run closed (a document at one end was
// corrected, a rule re-chose its pairs) and then made again with the same content
// (effective, partial, evidence, confidence) was never really closed -- the closed copy goes
// and the edge keeps its original recorded_from, so history holds only real changes.
// params: $now datetime (the run's transaction time)
// returns: reopened int
MATCH (newer)-[closed:CLOSED_SUPERSEDES]->(older)
WHERE closed.recorded_until = $now
MATCH (newer)-[s:SUPERSEDES {rule: closed.rule}]->(older)
WHERE s.recorded_from = $now
  AND all(key IN ['effective', 'confidence', 'partial', 'evidence']
          WHERE coalesce(s[key] = closed[key], s[key] IS NULL AND closed[key] IS NULL))
WITH closed, s, closed.recorded_from AS since
ORDER BY since
WITH s, collect(closed) AS copies, collect(since) AS sinces
SET s.recorded_from = sinces[0]
FOREACH (c IN copies | DELETE c)
RETURN count(s) AS reopened
