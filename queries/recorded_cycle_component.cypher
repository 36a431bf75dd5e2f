// The component of the recorded graph that holds one document: every full supersession edge
// ever recorded (SUPERSEDES and CLOSED_SUPERSEDES alike, ignoring when), through current
// and retired documents. A cycle of any state car-graph recorded is a cycle of this graph, so its
// strongly connected components bound the cycles a --known-at read can meet
// (mark_recorded_cycles.cypher). Nodes are named by elementId: a retired document and a
// re-ingested one can share an id. One breadth-first walk, as supersession_component.cypher.
// params: $id string
// returns: members list<map {node string (elementId), id string, mark boolean|null (the
//          current maybe_cycle_recorded)}>, edges list<map {newer string, older string}> (elementIds)
MATCH (t:Document {id: $id})
MATCH (t)-[walked:SUPERSEDES|CLOSED_SUPERSEDES*0..]-(x)
WHERE all(step IN walked WHERE @full(edge: step))
WITH collect(DISTINCT x) AS members
RETURN [m IN members | {node: elementId(m), id: m.id, mark: m.maybe_cycle_recorded}] AS members,
       COLLECT {
         UNWIND members AS m
         MATCH (m)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(y)
         WHERE @full(edge: s)
         RETURN {newer: elementId(m), older: elementId(y)}
       } AS edges
