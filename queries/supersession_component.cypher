// The full (non-partial) SUPERSEDES edges of the component that holds one document, counting
// only full edges as connections, and the component's documents: what cycle detection (a
// strongly-connected-components pass in Python) needs after an ingest touched it. Partial edges
// can never close a cycle, so they neither extend the walk nor appear in it (a corpus whose
// partial amendments join thousands of documents still walks only its full chains). One
// breadth-first walk: with only the distinct end nodes used, Neo4j plans the var-length pattern
// as VarLengthExpand(Pruning,BFS), each document and edge visited once -- linear in the
// component, unlike a shortest path per member. The caller asks once per component, not per
// document (a release line of 250 versions is one component, walked once).
// params: $id string
// returns: members list<string> (the component's document ids), edges list<map {newer, older,
//          rule, maybe_cycle, full}> (maybe_cycle: the current mark; full: always true here)
MATCH (t:Document {id: $id})
MATCH (t)-[walked:SUPERSEDES*0..]-(x:Document)
WHERE all(step IN walked WHERE @full(edge: step))
WITH collect(DISTINCT x) AS members
RETURN [m IN members | m.id] AS members,
       COLLECT {
         UNWIND members AS m
         MATCH (m)-[s:SUPERSEDES]->(y:Document)
         WHERE @full(edge: s)
         RETURN {newer: m.id, older: y.id, rule: s.rule, maybe_cycle: coalesce(s.maybe_cycle, false),
                 full: true}
       } AS edges
