// The edges currently marked maybe_cycle (so a cycle pass can clear marks a change made stale).
// params: (none)
// returns: newer string, older string, rule string, maybe_cycle boolean
MATCH (x:Document)-[s:SUPERSEDES {maybe_cycle: true}]->(y:Document)
RETURN x.id AS newer, y.id AS older, s.rule AS rule, true AS maybe_cycle
