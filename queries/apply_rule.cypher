// Apply one declarative supersession rule (ingest/rules.py): a document of a newer kind
// supersedes a document of an older kind when both are in the scope of the same entity of an
// allowed type (never across scopes) and the optional date / attribute conditions hold.
// $scope_mode 'any': one shared entity of any of $scope_types suffices; 'all': the two documents
// must share an entity of every type in $scope_types (e.g. the same employee AND the same ticker).
// 'later' compares the instants (published_at) when both documents have one, else the dates.
// params: $rule string, $newer_kinds list<string>, $older_kinds list<string>,
//         $scope_types list<string>, $scope_mode 'any'|'all', $require_later boolean,
//         $match_op 'in'|'intersects'|'equals'|null,
//         $newer_attr string|null, $older_attr string|null, $partial boolean,
//         $partial_attr string|null, $confidence float, $domain string|null
// returns: rule string, edges int (edges this rule accounts for, existing ones included)
MATCH (older:Document)-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(newer:Document)
WHERE e.type IN $scope_types
  AND older.kind IN $older_kinds
  AND newer.kind IN $newer_kinds
  AND newer <> older
  AND ($domain IS NULL OR (older.domain = $domain AND newer.domain = $domain))
  AND (NOT $require_later
       OR coalesce(newer.published_at > older.published_at, newer.published > older.published, false))
  AND ($match_op IS NULL
       OR ($match_op = 'in' AND newer[$newer_attr] IN coalesce(older[$older_attr], []))
       OR ($match_op = 'equals' AND newer[$newer_attr] = older[$older_attr])
       OR ($match_op = 'intersects'
           AND any(x IN coalesce(newer[$newer_attr], []) WHERE x IN coalesce(older[$older_attr], []))))
WITH newer, older, collect(DISTINCT e.type + ' ' + e.key) AS shared,
     collect(DISTINCT e.type) AS shared_types
WHERE $scope_mode = 'any' OR all(t IN $scope_types WHERE t IN shared_types)
WITH newer, older, shared,
     CASE
       WHEN $match_op IS NULL THEN []
       WHEN $match_op = 'intersects'
         THEN [x IN coalesce(newer[$newer_attr], []) WHERE x IN coalesce(older[$older_attr], []) | toString(x)]
       ELSE [toString(newer[$newer_attr])]
     END AS matched
CALL (newer, older, shared, matched) {
  MERGE (newer)-[s:SUPERSEDES]->(older)
    ON CREATE SET s.rule = $rule,
                  s.effective = newer.published,
                  s.confidence = $confidence,
                  s.partial = coalesce(CASE WHEN $partial_attr IS NULL THEN null
                                            ELSE newer[$partial_attr] END, $partial),
                  s.evidence = 'same ' + reduce(acc = '', x IN shared |
                                 acc + CASE acc WHEN '' THEN '' ELSE ', ' END + x)
                               + CASE WHEN $match_op IS NULL THEN ''
                                      ELSE '; ' + substring($newer_attr, 5) + ' '
                                           + reduce(acc = '', x IN matched |
                                               acc + CASE acc WHEN '' THEN '' ELSE ', ' END + x)
                                           + ' ' + $match_op + ' ' + substring($older_attr, 5) END
  RETURN s
}
RETURN $rule AS rule, count(s) AS edges
