// Write a batch of documents, replacing every property of an existing one (so an attribute a
// corrected record no longer has is gone); an unchanged text keeps its stored embedding.
// params: $rows list<map>: {id, props: map (every stored property: title, text, kind, domain,
//           published, withdrawn, attributes (JSON), attr_<name> values, supersedes_* lists,
//           content_hash, text_hash), embedding: list<float>|null (null: keep the stored one)}
// returns: documents int
UNWIND $rows AS row
MERGE (d:Document {id: row.id})
WITH d, row, d.embedding AS kept
SET d = row.props
SET d.id = row.id
WITH d, row, kept
CALL db.create.setNodeVectorProperty(d, 'embedding', coalesce(row.embedding, kept))
RETURN count(d) AS documents
