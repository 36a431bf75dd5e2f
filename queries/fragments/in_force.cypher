// Fragment: a SUPERSEDES edge is in force on a date -- its effective date is absent or on or
//   before that date, and its newer document is visible then (car_graph/semantics.py:
//   AuthorityGraph.in_force) -- in the graph as recorded at known_at (@recorded; null: the
//   current graph). A null date is no cut-off.
// slots: edge relationship, newer node (the edge's start node), as_of date|null,
//        known_at datetime|null
// locals: (none)
// params: (none)
// returns: boolean
(as_of IS NULL OR edge.effective IS NULL OR edge.effective <= as_of)
  AND @recorded(edge: edge, known_at: known_at)
  AND @visible(doc: newer, as_of: as_of, known_at: known_at)
