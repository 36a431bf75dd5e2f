// Purpose: a rule audit: SUPERSEDES edges grouped by the rule that made them ('explicit' for
//   edges given in the input), with each rule's reach (documents it voids and that void, scope
//   entities and domains its edges cross) and sample edges with their evidence and confidence.
// params: $rule string|null (null = every rule), $samples int|null (edges listed per rule,
//         default 5)
// :param rule => null;
// :param samples => 5;
// returns: rule string, edges int, partial_edges int, cycle_edges int, min_confidence float,
//          mean_confidence float, documents_superseded int, superseding_documents int,
//          scope_entities int, domains list<string>,
//          sample_edges list<map {newer, older, effective, evidence, confidence, partial, maybe_cycle}>
MATCH (newer:Document)-[s:SUPERSEDES]->(older:Document)
WHERE $rule IS NULL OR s.rule = $rule
WITH newer, older, s,
     COLLECT {
       MATCH (newer)-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(older)
       RETURN e.type + ':' + e.key AS entity
     } AS shared
ORDER BY s.effective, newer.id, older.id
WITH s.rule AS rule,
     count(s) AS edges,
     sum(CASE WHEN @partial(edge: s) THEN 1 ELSE 0 END) AS partial_edges,
     sum(CASE WHEN @cycle_marked(edge: s, known_at: null) THEN 1 ELSE 0 END) AS cycle_edges,
     min(s.confidence) AS min_confidence,
     avg(s.confidence) AS mean_confidence,
     count(DISTINCT older) AS documents_superseded,
     count(DISTINCT newer) AS superseding_documents,
     collect(shared) AS shared_lists,
     collect(DISTINCT older.domain) AS domains,
     collect({newer: newer.id, older: older.id, effective: s.effective, evidence: s.evidence,
              confidence: s.confidence, partial: coalesce(s.partial, false),
              maybe_cycle: coalesce(s.maybe_cycle, false)}) AS all_edges
RETURN rule,
       edges,
       partial_edges,
       cycle_edges,
       min_confidence,
       round(mean_confidence, 3) AS mean_confidence,
       documents_superseded,
       superseding_documents,
       size(reduce(seen = [], entities IN shared_lists |
            seen + [x IN entities WHERE NOT x IN seen])) AS scope_entities,
       domains,
       all_edges[..coalesce($samples, 5)] AS sample_edges
ORDER BY edges DESC, rule
