// Fragment: a document is voided on a date -- some document supersedes it, transitively along
//   full edges in force, without being superseded by it in turn (car_graph/semantics.py:
//   AuthorityGraph.is_superseded): the frontier is what is not voided. On acyclic data that is
//   "a full edge in force supersedes it"; a cycle nothing leaves stays on the frontier (its
//   members report unresolved), a cycle with an exit is voided by what lies beyond the exit.
//   The cheap test comes first: an unmarked full edge in force (cycle_marked.cypher) voids at
//   once. Only behind a marked edge runs the cycle test: is anything ahead, along full edges in
//   force, that does not lead back?
// slots: doc node, as_of date|null
// locals: voiding, voider, forward, forward_newer, ahead, backward, backward_newer
// params: (none)
// returns: boolean
EXISTS {
  MATCH (doc)<-[voiding:SUPERSEDES]-(voider:Document)
  WHERE @full(edge: voiding) AND NOT @cycle_marked(edge: voiding)
    AND @in_force(edge: voiding, newer: voider, as_of: as_of)
}
OR (
  EXISTS {
    MATCH (doc)<-[voiding:SUPERSEDES {maybe_cycle: true}]-(voider:Document)
    WHERE @full(edge: voiding) AND @in_force(edge: voiding, newer: voider, as_of: as_of)
  }
  AND EXISTS {
    MATCH ANY SHORTEST (doc)((:Document)<-[forward:SUPERSEDES]-(forward_newer:Document)
      WHERE @full(edge: forward) AND @in_force(edge: forward, newer: forward_newer, as_of: as_of))+(ahead:Document)
    WHERE NOT EXISTS {
      MATCH ANY SHORTEST (ahead)((:Document)<-[backward:SUPERSEDES]-(backward_newer:Document)
        WHERE @full(edge: backward) AND @in_force(edge: backward, newer: backward_newer, as_of: as_of))+(doc)
    }
  }
)
