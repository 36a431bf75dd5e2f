// Keep a rule set (a new version of it when it exists) and record the change as a
// :RuleChange of the run that applied it: which rules were added, changed and removed, and
// the edges the run opened and closed ($opened, $closed: JSON maps rule -> count, reason).
// params: $name string, $source string, $origin string|null, $rules string (JSON),
//         $fingerprint string, $added list<string>, $changed list<string>,
//         $removed list<string>, $opened string (JSON), $closed string (JSON), $now datetime,
//         $run int
// returns: version int
MERGE (s:RuleSet {name: $name})
SET s.version = coalesce(s.version, 0) + 1,
    s.source = $source, s.origin = $origin, s.rules = $rules, s.fingerprint = $fingerprint,
    s.recorded_from = $now, s.recorded_by_run = $run
CREATE (c:RuleChange {ruleset: $name, version: s.version, source: $source, origin: $origin,
                      rules: $rules, added: $added, changed: $changed, removed: $removed,
                      opened: $opened, closed: $closed, at: $now, run: $run})
CREATE (c)-[:CHANGED]->(s)
RETURN s.version AS version
