// The supersession relation as plain rows, for scoring retrieved sets (strict TCA).
// params: $domain string|null
// returns: newer string, older string, effective date|null, partial boolean, in_cycle boolean
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE $domain IS NULL OR older.domain = $domain OR newer.domain = $domain
RETURN newer.id AS newer, older.id AS older, s.effective AS effective,
       coalesce(s.partial, false) AS partial, coalesce(s.in_cycle, false) AS in_cycle
