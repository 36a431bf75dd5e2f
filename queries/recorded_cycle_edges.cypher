// Every full supersession edge ever recorded (SUPERSEDES and CLOSED_SUPERSEDES), and the marks
// of their documents: the whole-graph form of recorded_cycle_component.cypher, for the cycle
// pass after a rule was applied everywhere.
// params: (none)
// returns: newer string, older string (elementIds), newer_mark boolean|null, older_mark
//          boolean|null (the current maybe_cycle_recorded of each end)
MATCH (x)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(y)
WHERE @full(edge: s)
RETURN elementId(x) AS newer, elementId(y) AS older,
       x.maybe_cycle_recorded AS newer_mark, y.maybe_cycle_recorded AS older_mark
