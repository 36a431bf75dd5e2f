// Fragment: a SUPERSEDES edge is marked as possibly lying on a cycle (maybe_cycle, set by the
//   strongly-connected-components pass, queries/mark_cycle_edges.cypher, ignoring dates). An
//   unmarked full edge in force voids its older document at once; only behind a marked one
//   does voided.cypher need its costlier cycle test.
// slots: edge relationship
// locals: (none)
// params: (none)
// returns: boolean
coalesce(edge.maybe_cycle, false)
