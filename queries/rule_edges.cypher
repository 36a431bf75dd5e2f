// Supersession edges with the rule that made each (benchmarks/links.py: rule precision/recall).
// One edge per (newer, older, rule): a pair two rules link appears once per rule.
// params: $domain string|null
// returns: newer string, older string, rule string, partial boolean
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE $domain IS NULL OR older.domain = $domain OR newer.domain = $domain
RETURN newer.id AS newer, older.id AS older, s.rule AS rule,
       coalesce(s.partial, false) AS partial
ORDER BY newer, older
