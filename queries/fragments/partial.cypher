// Fragment: a SUPERSEDES edge supersedes its older document only in part (an edge without the
//   flag is full: car_graph/semantics.py Edge.partial defaults to False).
// slots: edge relationship
// locals: (none)
// params: (none)
// returns: boolean
coalesce(edge.partial, false)
