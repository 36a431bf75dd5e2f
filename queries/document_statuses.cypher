// The status of documents with no date cut-off (the @status fragment, car_graph/semantics.py):
// a dry run reads them before and after a change to list the verdicts that would flip.
// params: $ids list<string>|null (null: every document)
// returns: id string, title string|null, status string
MATCH (d:Document)
WHERE $ids IS NULL OR d.id IN $ids
RETURN d.id AS id, d.title AS title, @status(doc: d, as_of: null, known_at: null) AS status
ORDER BY id
