// Set or clear maybe_cycle on SUPERSEDES edges: true exactly on the full edges that lie inside a
// strongly connected component (a cycle, ignoring dates). closure.cypher runs its as-of cycle
// test only on these edges, so every other edge voids at once.
// params: $rows list<map {newer, older, rule, flag boolean}>
// returns: marked int
UNWIND $rows AS row
MATCH (:Document {id: row.newer})-[s:SUPERSEDES {rule: row.rule}]->(:Document {id: row.older})
SET s.maybe_cycle = row.flag
RETURN count(s) AS marked
