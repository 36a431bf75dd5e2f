// Fragment: as recorded at known_at, the full edge from voider to doc lies on no supersession
//   cycle, so it voids doc at once (voided.cypher) -- the --known-at counterpart of an edge
//   without a maybe_cycle mark (cycle_marked.cypher), whose marks describe only the current
//   graph. doc lies on no cycle of any recorded state when the cycle pass found it on none in
//   the graph of every edge ever recorded (maybe_cycle_recorded false,
//   mark_recorded_cycles.cypher); unmarked, when no edge, current or closed, leaves doc or
//   enters voider (no way back can exist). In the current graph (known_at null): false, the
//   current marks decide.
// slots: doc node, voider node, known_at datetime|null
// locals: (none)
// params: (none)
// returns: boolean
//@if known_at
known_at IS NOT NULL
  AND coalesce(NOT doc.maybe_cycle_recorded,
               NOT EXISTS { (doc)-[:SUPERSEDES|CLOSED_SUPERSEDES]->() }
               OR NOT EXISTS { (voider)<-[:SUPERSEDES|CLOSED_SUPERSEDES]-() })
//@else
false
//@end
