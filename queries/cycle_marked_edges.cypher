// The edges currently marked maybe_cycle (so a cycle pass can clear marks a change made stale).
// full: whether the edge is still a full one (a partial edge never lies on a cycle: its mark
// is cleared, and it is not an edge of the cycle search).
// params: (none)
// returns: newer string, older string, rule string, maybe_cycle boolean, full boolean
MATCH (x:Document)-[s:SUPERSEDES {maybe_cycle: true}]->(y:Document)
RETURN x.id AS newer, y.id AS older, s.rule AS rule, true AS maybe_cycle, @full(edge: s) AS full
