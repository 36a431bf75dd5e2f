// Apply one declarative supersession rule (car_graph/semantics.py defines it): a document of a
// newer kind supersedes a document of an older kind when both are in the scope of the same
// entity of an allowed type -- of any one type, or with $scope_all of every type -- (never across
// scopes) and the optional date / attribute conditions hold ('later' compares published_at
// instants when both documents have one, else dates, at the coarser precision of the two:
// @later). One edge per (newer, older, rule):
// MERGE on the rule's name, properties set every time, so a changed rule or record updates its
// edge. With $ids only pairs involving one of those documents are considered (what an ingest
// wrote); null means every pair.
// params: $rule string, $newer_kinds list<string>, $older_kinds list<string>,
//         $scope_types list<string>, $scope_all boolean, $require_later boolean,
//         $match_op 'in'|'intersects'|'equals'|null, $newer_attr string|null,
//         $older_attr string|null, $partial boolean, $partial_attr string|null,
//         $confidence float, $domain string|null,
//         $ids list<string>|null, $now datetime, $run int (the recorded run: new edges are
//         recorded from $now, changed ones close their old version, every edge written
//         carries applied_by_run, so close_stale_rule_edges.cypher finds those not made again),
//         $reason string (why an edge it re-derives differently closes: 'rule changed' when a
//         rule is applied to the whole graph, 'record changed' for the documents of $ids)
// returns: rule string, edges int (edges this rule accounts for among these pairs)
CALL () {
  UNWIND coalesce($ids, []) AS id
  MATCH (t:Document {id: id})-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(other:Document)
  WHERE e.type IN $scope_types AND other <> t
  UNWIND [[t, other], [other, t]] AS pair
  RETURN pair[0] AS newer, pair[1] AS older
  UNION
  MATCH (older:Document)-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(newer:Document)
  WHERE $ids IS NULL AND e.type IN $scope_types AND newer <> older
  RETURN newer, older
}
WITH DISTINCT newer, older
WHERE older.kind IN $older_kinds
  AND newer.kind IN $newer_kinds
  AND ($domain IS NULL OR (older.domain = $domain AND newer.domain = $domain))
  AND (NOT $require_later OR @later(newer: newer, older: older))
  AND (NOT $scope_all OR all(t IN $scope_types WHERE EXISTS {
        (newer)-[:IN_SCOPE]->(:Entity {type: t})<-[:IN_SCOPE]-(older) }))
  AND ($match_op IS NULL
       OR ($match_op = 'in' AND newer[$newer_attr] IS NOT NULL
           AND NOT newer[$newer_attr] IS :: LIST<ANY> NOT NULL
           AND any(o IN CASE WHEN older[$older_attr] IS :: LIST<ANY> NOT NULL THEN older[$older_attr]
                             ELSE [older[$older_attr]] END
                   WHERE o = newer[$newer_attr]))
       OR ($match_op = 'intersects'
           AND any(n IN CASE WHEN newer[$newer_attr] IS :: LIST<ANY> NOT NULL THEN newer[$newer_attr]
                             ELSE [newer[$newer_attr]] END
                   WHERE any(o IN CASE WHEN older[$older_attr] IS :: LIST<ANY> NOT NULL THEN older[$older_attr]
                                       ELSE [older[$older_attr]] END
                             WHERE o = n)))
       OR ($match_op = 'equals' AND newer[$newer_attr] = older[$older_attr]))
WITH newer, older,
     COLLECT {
       MATCH (newer)-[:IN_SCOPE]->(x:Entity)<-[:IN_SCOPE]-(older)
       WHERE x.type IN $scope_types
       RETURN x.type + ' ' + x.key ORDER BY x.type, x.key
     } AS shared,
     CASE
       WHEN $match_op IS NULL THEN []
       WHEN $match_op = 'intersects' THEN
         [n IN CASE WHEN newer[$newer_attr] IS :: LIST<ANY> NOT NULL THEN newer[$newer_attr]
                    ELSE [newer[$newer_attr]] END
          WHERE any(o IN CASE WHEN older[$older_attr] IS :: LIST<ANY> NOT NULL THEN older[$older_attr]
                              ELSE [older[$older_attr]] END WHERE o = n) | toString(n)]
       ELSE [toString(newer[$newer_attr])]
     END AS matched
WITH newer, older,
     {effective: newer.published,
      confidence: $confidence,
      partial: coalesce(CASE WHEN $partial_attr IS NOT NULL
                                  AND newer[$partial_attr] IS :: BOOLEAN NOT NULL
                             THEN newer[$partial_attr] END, $partial),
      evidence: 'same ' + reduce(acc = '', x IN shared |
                  acc + CASE acc WHEN '' THEN '' ELSE ', ' END + x)
                + CASE WHEN $match_op IS NULL THEN ''
                       ELSE '; ' + substring($newer_attr, 5) + ' '
                            + reduce(acc = '', x IN matched |
                                acc + CASE acc WHEN '' THEN '' ELSE ', ' END + x)
                            + ' ' + $match_op + ' ' + substring($older_attr, 5) END
                + CASE WHEN $require_later THEN @order_precision(newer: newer, older: older) ELSE '' END} AS content
// an edge whose content changes (a changed rule or record) closes its old version first
CALL (newer, older, content) {
  MATCH (newer)-[old:SUPERSEDES {rule: $rule}]->(older)
  WHERE coalesce(old.recorded_from < $now, true)
    AND any(key IN keys(content) WHERE NOT coalesce(old[key] = content[key], old[key] IS NULL AND content[key] IS NULL))
  CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
  SET closed = properties(old), closed.recorded_until = $now, closed.closed_by_run = $run,
      closed.closed_reason = $reason
  SET old.recorded_from = $now
}
MERGE (newer)-[s:SUPERSEDES {rule: $rule}]->(older)
  ON CREATE SET s.recorded_from = $now
SET s += content,
    s.back = NOT coalesce(newer.published > older.published, false),
    s.applied_by_run = $run
RETURN $rule AS rule, count(s) AS edges
