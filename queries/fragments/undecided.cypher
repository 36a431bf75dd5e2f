// Fragment: a rule could have superseded the document and none did -- a later document of a
//   superseding kind shares its scope since unresolved_from (queries/mark_unresolved.cypher;
//   as recorded at known_at: @known_version) and no edge in force supersedes it
//   (car_graph/semantics.py: the last 'unresolved' of AuthorityGraph.status).
// slots: doc node, as_of date|null, known_at datetime|null
// locals: deciding, decider, undecided_fact
// params: (none)
// returns: boolean
//@if known_at
any(undecided_fact IN [@known_version(doc: doc, known_at: known_at)]
    WHERE undecided_fact.unresolved_from IS NOT NULL
      AND (as_of IS NULL OR undecided_fact.unresolved_from <= as_of))
//@else
(doc.unresolved_from IS NOT NULL AND (as_of IS NULL OR doc.unresolved_from <= as_of))
//@end
  AND NOT EXISTS {
    MATCH (doc)<-[deciding:SUPERSEDES|CLOSED_SUPERSEDES]-(decider)
    WHERE @in_force(edge: deciding, newer: decider, as_of: as_of, known_at: known_at)
  }
