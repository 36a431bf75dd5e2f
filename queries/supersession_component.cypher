// The full (non-partial) SUPERSEDES edges of the connected component that holds one document,
// and the component's documents: what cycle detection (a strongly-connected-components pass in
// Python) needs after an ingest touched it. The caller asks once per component, not per
// document (a release line of 250 versions is one component, walked once).
// params: $id string
// returns: members list<string> (the component's document ids), edges list<map {newer, older,
//          rule, maybe_cycle}> (maybe_cycle: the current mark)
MATCH (t:Document {id: $id})
MATCH ANY SHORTEST (t)((:Document)-[:SUPERSEDES]-(:Document))*(x:Document)
WITH collect(DISTINCT x) AS members
RETURN [m IN members | m.id] AS members,
       COLLECT {
         UNWIND members AS m
         MATCH (m)-[s:SUPERSEDES]->(y:Document)
         WHERE @full(edge: s)
         RETURN {newer: m.id, older: y.id, rule: s.rule, maybe_cycle: coalesce(s.maybe_cycle, false)}
       } AS edges
