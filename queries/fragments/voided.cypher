// Fragment: a document is voided on a date -- some document supersedes it, transitively along
//   full edges in force, without being superseded by it in turn (car_graph/semantics.py:
//   AuthorityGraph.is_superseded): the frontier is what is not voided. On acyclic data that is
//   "a full edge in force supersedes it"; a cycle nothing leaves stays on the frontier (its
//   members report unresolved), a cycle with an exit is voided by what lies beyond the exit.
//   The cheap test comes first: an unmarked full edge in force (cycle_marked.cypher) voids at
//   once. Only behind a marked edge runs the cycle test: is anything ahead, along full edges in
//   force, that does not lead back? Edges and facts are those recorded at known_at (null: the
//   current graph; @recorded, @known_version); there the current marks say nothing, and a
//   document on no cycle of any recorded state (@recorded_acyclic) is voided at once instead.
// slots: doc node, as_of date|null, known_at datetime|null
// locals: voiding, voider, forward, forward_newer, ahead, backward, backward_newer
// params: (none)
// returns: boolean
EXISTS {
  MATCH (doc)<-[voiding:SUPERSEDES|CLOSED_SUPERSEDES]-(voider)
  WHERE @full(edge: voiding)
    AND (NOT @cycle_marked(edge: voiding, known_at: known_at)
         OR @recorded_acyclic(doc: doc, voider: voider, known_at: known_at))
    AND @in_force(edge: voiding, newer: voider, as_of: as_of, known_at: known_at)
}
OR (
  EXISTS {
    MATCH (doc)<-[voiding:SUPERSEDES|CLOSED_SUPERSEDES]-(voider)
    WHERE @full(edge: voiding) AND @cycle_marked(edge: voiding, known_at: known_at)
      AND @in_force(edge: voiding, newer: voider, as_of: as_of, known_at: known_at)
  }
  AND EXISTS {
    MATCH ANY SHORTEST (doc)(()<-[forward:SUPERSEDES|CLOSED_SUPERSEDES]-(forward_newer)
      WHERE @full(edge: forward) AND @in_force(edge: forward, newer: forward_newer, as_of: as_of, known_at: known_at))+(ahead)
    WHERE NOT EXISTS {
      MATCH ANY SHORTEST (ahead)(()<-[backward:SUPERSEDES|CLOSED_SUPERSEDES]-(backward_newer)
        WHERE @full(edge: backward) AND @in_force(edge: backward, newer: backward_newer, as_of: as_of, known_at: known_at))+(doc)
    }
  }
)
