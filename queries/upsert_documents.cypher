// Upsert a batch of documents (idempotent: MERGE on the unique id, SET the same values again).
// params: $rows list<map>: {id: string, title: string, text: string, kind: string|null,
//           domain: string|null, published: date|null, published_at: localdatetime|null,
//           withdrawn: date|null,
//           attributes: string (JSON of every input attribute), props: map (attr_<name> scalar or
//           list properties the rules match on), supersedes_ids: list<string>,
//           supersedes_effective: list<string> ('' = none), supersedes_evidence: list<string>,
//           supersedes_partial: list<boolean>, embedding: list<float>}
// returns: documents int
UNWIND $rows AS row
MERGE (d:Document {id: row.id})
SET d.title = row.title,
    d.text = row.text,
    d.kind = row.kind,
    d.domain = row.domain,
    d.published = row.published,
    d.published_at = row.published_at,
    d.withdrawn = row.withdrawn,
    d.attributes = row.attributes,
    d.supersedes_ids = row.supersedes_ids,
    d.supersedes_effective = row.supersedes_effective,
    d.supersedes_evidence = row.supersedes_evidence,
    d.supersedes_partial = row.supersedes_partial
SET d += row.props
WITH d, row
CALL db.create.setNodeVectorProperty(d, 'embedding', row.embedding)
RETURN count(d) AS documents
