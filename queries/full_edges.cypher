// Every full (non-partial) SUPERSEDES edge, for the whole-graph cycle pass after a rule was
// applied everywhere.
// params: (none)
// returns: newer string, older string, rule string, maybe_cycle boolean (the current mark),
//          full boolean (always true here)
MATCH (x:Document)-[s:SUPERSEDES]->(y:Document)
WHERE @full(edge: s)
RETURN x.id AS newer, y.id AS older, s.rule AS rule, coalesce(s.maybe_cycle, false) AS maybe_cycle,
       true AS full
