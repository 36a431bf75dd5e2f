// Forget a rule set (`car-graph domains remove`): its node goes; its recorded changes stay as
// history, with one more recording the removal. Run after close_rule_edges.cypher has closed
// its edges and delete_rules.cypher forgotten its rules.
// params: $name string, $removed list<string>, $closed string (JSON), $now datetime, $run int
// returns: removed int
MATCH (s:RuleSet {name: $name})
CREATE (c:RuleChange {ruleset: $name, version: s.version + 1, source: 'removed', origin: null,
                      rules: '[]', added: [], changed: [], removed: $removed, opened: '{}',
                      closed: $closed, at: $now, run: $run})
DETACH DELETE s
RETURN count(c) AS removed
