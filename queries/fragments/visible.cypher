// Fragment: a document is visible on a date -- it has no published date, or was published on
//   or before that date (car_graph/semantics.py: DocFacts.visible). A null date is no cut-off.
// slots: doc node, as_of date|null
// locals: (none)
// params: (none)
// returns: boolean
as_of IS NULL OR doc.published IS NULL OR doc.published <= as_of
