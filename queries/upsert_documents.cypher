// Write a batch of documents, replacing every property of an existing one (so an attribute a
// corrected record no longer has is gone); an unchanged text keeps its stored embedding. The
// written version is recorded from $now (its previous one was closed first:
// close_document_versions.cypher). A deleted document (:RetiredDocument) whose id comes again
// becomes a :Document again: one node per id, so its closed edges and versions stay its own.
// params: $rows list<map>: {id, props: map (every stored property: title, text, kind, domain,
//           published, withdrawn, attributes (JSON), attr_<name> values, supersedes_* lists,
//           content_hash, text_hash), embedding: list<float>|null (null: keep the stored one)},
//         $now datetime
// returns: documents int
UNWIND $rows AS row
CALL (row) {
  MATCH (retired:RetiredDocument {id: row.id})
  REMOVE retired:RetiredDocument
  SET retired:Document
}
MERGE (d:Document {id: row.id})
WITH d, row, d.embedding AS kept
SET d = row.props
SET d.id = row.id, d.recorded_from = $now
WITH d, row, kept
CALL db.create.setNodeVectorProperty(d, 'embedding', coalesce(row.embedding, kept))
RETURN count(d) AS documents
