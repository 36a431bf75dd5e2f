// A rule that is new or changed is applied to the whole graph once (apply_rule.cypher with
// $ids null); the edges of that rule it did not make again in this run no longer follow from
// the rules file. They are closed, not erased: a CLOSED_SUPERSEDES recorded until $now, with
// the rule (its own rule property) and the run that closed it.
// params: $rule string, $now datetime, $run int
// returns: closed int
MATCH (newer:Document)-[s:SUPERSEDES {rule: $rule}]->(older:Document)
WHERE coalesce(s.applied_by_run, -1) <> $run
CALL (s, newer, older) {
  WITH s, newer, older WHERE coalesce(s.recorded_from < $now, true)
  CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
  SET closed = properties(s), closed.recorded_until = $now, closed.closed_by_run = $run,
      closed.closed_reason = 'rule changed'
}
DELETE s
RETURN count(s) AS closed
