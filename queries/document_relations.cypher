// The supersession relation as plain rows, for scoring retrieved sets (strict TCA) with the
// reference semantics (car_graph/semantics.py): every edge with its rule, and the newer
// document's publication date (an edge is in force only once its newer document exists).
// params: $domain string|null
// returns: newer string, older string, rule string, effective date|null, partial boolean,
//          newer_published date|null
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE $domain IS NULL OR older.domain = $domain OR newer.domain = $domain
RETURN newer.id AS newer, older.id AS older, s.rule AS rule, s.effective AS effective,
       coalesce(s.partial, false) AS partial, newer.published AS newer_published
