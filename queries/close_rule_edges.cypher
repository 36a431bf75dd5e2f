// Close every edge of rules that no longer apply (a rule removed from its rules file, or its
// rule set removed): each SUPERSEDES of such a rule becomes a CLOSED_SUPERSEDES recorded until
// $now with the run and $reason ('rule removed'); an edge opened in this same run is dropped.
// params: $rules list<string>, $reason string, $now datetime, $run int
// returns: closed int, older list<string> (the documents those edges superseded)
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE s.rule IN $rules
CALL (s, newer, older) {
  WITH s, newer, older WHERE coalesce(s.recorded_from < $now, true)
  CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
  SET closed = properties(s), closed.recorded_until = $now, closed.closed_by_run = $run,
      closed.closed_reason = $reason
}
WITH s, older.id AS older
DELETE s
RETURN count(*) AS closed, collect(DISTINCT older) AS older
