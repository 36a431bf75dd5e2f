// Fragment: the status of any document on a date (car_graph/semantics.py:
//   AuthorityGraph.status): superseded if voided, else its frontier status -- in the graph as
//   recorded at known_at (null: the current graph).
// slots: doc node, as_of date|null, known_at datetime|null
// locals: (none)
// params: (none)
// returns: string ('superseded', 'withdrawn', 'unresolved', 'partially_superseded' or 'active')
CASE
  WHEN @voided(doc: doc, as_of: as_of, known_at: known_at) THEN 'superseded'
  ELSE @frontier_status(doc: doc, as_of: as_of, known_at: known_at)
END
