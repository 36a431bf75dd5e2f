// Fragment: a rule could have superseded the document and none did -- a later document of a
//   superseding kind shares its scope since unresolved_from (queries/mark_unresolved.cypher)
//   and no edge in force supersedes it (car_graph/semantics.py: the last 'unresolved' of
//   AuthorityGraph.status).
// slots: doc node, as_of date|null
// locals: deciding, decider
// params: (none)
// returns: boolean
doc.unresolved_from IS NOT NULL
  AND (as_of IS NULL OR doc.unresolved_from <= as_of)
  AND NOT EXISTS {
    MATCH (doc)<-[deciding:SUPERSEDES]-(decider:Document)
    WHERE @in_force(edge: deciding, newer: decider, as_of: as_of)
  }
