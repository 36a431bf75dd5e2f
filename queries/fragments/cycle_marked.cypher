// Fragment: a SUPERSEDES edge is marked as possibly lying on a cycle (maybe_cycle, set by the
//   strongly-connected-components pass, queries/mark_cycle_edges.cypher, ignoring dates). An
//   unmarked full edge in force voids its older document at once; only behind a marked one
//   does voided.cypher need its costlier cycle test. The marks describe the current graph:
//   read as known at an earlier time (known_at not null) every edge counts as marked, so the
//   exact cycle test decides.
// slots: edge relationship, known_at datetime|null
// locals: (none)
// params: (none)
// returns: boolean
//@if known_at
known_at IS NOT NULL OR coalesce(edge.maybe_cycle, false)
//@else
coalesce(edge.maybe_cycle, false)
//@end
