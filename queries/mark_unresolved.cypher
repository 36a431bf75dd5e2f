// Flag documents that a rule could have superseded but did not: a later document of a
// superseding kind shares their scope, yet no rule or explicit edge decided.
// Run after every rule has been applied; statuses read the flag (superseded wins over it).
// $scope_mode 'all' requires a shared entity of every type in $scope_types (see apply_rule).
// params: $newer_kinds list<string>, $older_kinds list<string>, $scope_types list<string>,
//         $scope_mode 'any'|'all', $domain string|null
// returns: flagged int
MATCH (older:Document)-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(newer:Document)
WHERE e.type IN $scope_types
  AND older.kind IN $older_kinds
  AND newer.kind IN $newer_kinds
  AND newer <> older
  AND ($domain IS NULL OR (older.domain = $domain AND newer.domain = $domain))
  AND coalesce(newer.published_at > older.published_at, newer.published > older.published, false)
  AND NOT EXISTS { (older)<-[:SUPERSEDES]-(:Document) }
WITH older, newer, collect(DISTINCT e.type) AS shared_types
WHERE $scope_mode = 'any' OR all(t IN $scope_types WHERE t IN shared_types)
WITH DISTINCT older
SET older.unresolved = true
RETURN count(older) AS flagged
