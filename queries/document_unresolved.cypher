// The stored unresolved dates of documents (null ids: every document that has one), read
// before and after a run recomputes them, so a changed date closes the version that had the
// old one (close_document_versions.cypher with before: {unresolved_from}).
// params: $ids list<string>|null
// returns: id string, unresolved_from date|null
CALL () {
  UNWIND coalesce($ids, []) AS id
  MATCH (d:Document {id: id})
  RETURN d
  UNION
  MATCH (d:Document)
  WHERE $ids IS NULL AND d.unresolved_from IS NOT NULL
  RETURN d
}
RETURN d.id AS id, d.unresolved_from AS unresolved_from
