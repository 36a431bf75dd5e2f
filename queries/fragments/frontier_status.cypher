// Fragment: the status of a document that is not voided (a frontier document), in
//   car_graph/semantics.py's precedence (AuthorityGraph.status): withdrawn on or before the
//   date; else unresolved if a full edge in force supersedes it (it is on a cycle); else
//   partially superseded if a partial edge in force does; else unresolved if a rule could
//   have superseded it and no edge decided; else active. status.cypher adds 'superseded';
//   closure.cypher, which has already dropped voided documents, uses this one directly. The
//   facts and edges are those recorded at known_at (null: the current graph).
// slots: doc node, as_of date|null, known_at datetime|null
// locals: partial_edge, partial_newer, withdrawn_fact
// params: (none)
// returns: string ('withdrawn', 'unresolved', 'partially_superseded' or 'active')
CASE
//@if known_at
  WHEN any(withdrawn_fact IN [@known_version(doc: doc, known_at: known_at)]
           WHERE withdrawn_fact.withdrawn IS NOT NULL
             AND (as_of IS NULL OR withdrawn_fact.withdrawn <= as_of)) THEN 'withdrawn'
//@else
  WHEN doc.withdrawn IS NOT NULL AND (as_of IS NULL OR doc.withdrawn <= as_of) THEN 'withdrawn'
//@end
  WHEN @superseded_in_full(doc: doc, as_of: as_of, known_at: known_at) THEN 'unresolved'
  WHEN EXISTS {
    MATCH (doc)<-[partial_edge:SUPERSEDES|CLOSED_SUPERSEDES]-(partial_newer)
    WHERE @partial(edge: partial_edge) AND @in_force(edge: partial_edge, newer: partial_newer, as_of: as_of, known_at: known_at)
  } THEN 'partially_superseded'
  WHEN @undecided(doc: doc, as_of: as_of, known_at: known_at) THEN 'unresolved'
  ELSE 'active'
END
