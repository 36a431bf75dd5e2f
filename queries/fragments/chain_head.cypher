// Fragment: a document heads a supersession chain of an entity's scope: no other document of
//   the scope (@scope_member) supersedes it, in full or in part, along an edge in force
//   (@in_force). An edge marked as possibly lying on a cycle (@cycle_marked, read as it stands:
//   the marks are a hint, not a recorded fact) decides nothing, so both ends of a cycle are
//   heads. A scope with two heads or more holds several chains (kappa > 1): "the newest
//   document of the scope" is not the answer there, each chain has its own controller.
//   queries/analyst/multi_chain_scopes.cypher lists such scopes; @several_chains (retrieval's
//   and the verdict's caution, explain) asks it of one scope -- the one test for both.
// slots: doc node, entity node, as_of date|null, known_at datetime|null
// locals: head_edge, head_newer
// params: (none)
// returns: boolean
NOT EXISTS {
  MATCH (doc)<-[head_edge:SUPERSEDES|CLOSED_SUPERSEDES]-(head_newer)
  WHERE NOT @cycle_marked(edge: head_edge, known_at: null)
    AND @in_force(edge: head_edge, newer: head_newer, as_of: as_of, known_at: known_at)
    AND @scope_member(doc: head_newer, entity: entity, known_at: known_at)
}
