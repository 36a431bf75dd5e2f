// Document ids starting with a prefix (index-backed by the id constraint), to suggest the
// nearest ids when a requested document does not exist.
// params: $prefix string ('' = any), $limit int
// returns: doc_id string
MATCH (d:Document)
WHERE d.id STARTS WITH $prefix
RETURN d.id AS doc_id
LIMIT $limit
