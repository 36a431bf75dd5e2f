// Fragment: a document is visible on a date -- it has no published date, or was published on
//   or before that date (car_graph/semantics.py: DocFacts.visible). A null date is no cut-off.
//   With known_at, the facts are the version recorded then (@known_version), and a document
//   not recorded then is not visible at all.
// slots: doc node, as_of date|null, known_at datetime|null
// locals: recorded_then
// params: (none)
// returns: boolean
//@if known_at
any(recorded_then IN [@known_version(doc: doc, known_at: known_at)]
    WHERE recorded_then IS NOT NULL AND (as_of IS NULL OR recorded_then.published IS NULL OR recorded_then.published <= as_of))
//@else
(as_of IS NULL OR doc.published IS NULL OR doc.published <= as_of)
//@end
