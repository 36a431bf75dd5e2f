// Fragment: a full edge in force supersedes the document. Of a document not voided this means
//   it is on a supersession cycle (car_graph/semantics.py: AuthorityGraph.in_cycle).
// slots: doc node, as_of date|null, known_at datetime|null
// locals: full_edge, full_newer
// params: (none)
// returns: boolean
EXISTS {
  MATCH (doc)<-[full_edge:SUPERSEDES|CLOSED_SUPERSEDES]-(full_newer)
  WHERE @full(edge: full_edge) AND @in_force(edge: full_edge, newer: full_newer, as_of: as_of, known_at: known_at)
}
