// The supersession relation as plain rows, for scoring retrieved sets (strict TCA) with the
// reference semantics (car_graph/semantics.py): every edge with its rule, and the newer
// document's publication date (an edge is in force only once its newer document exists). With
// $known_at, the edges car-graph had recorded then (@recorded) and the newer document's
// publication date as recorded then (@known_version).
// params: $domain string|null, $known_at datetime|null
// returns: newer string, older string, rule string, effective date|null, partial boolean,
//          newer_published date|null
MATCH (newer)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(older)
WHERE @recorded(edge: s, known_at: $known_at)
WITH newer, older, s,
     @known_version(doc: newer, known_at: $known_at) AS newer_facts,
     @known_version(doc: older, known_at: $known_at) AS older_facts
WHERE $domain IS NULL OR older_facts.domain = $domain OR newer_facts.domain = $domain
RETURN newer.id AS newer, older.id AS older, s.rule AS rule, s.effective AS effective,
       coalesce(s.partial, false) AS partial, newer_facts.published AS newer_published
