// Anchor discovery: the documents a question is about, before any supersession is followed.
// Dense (vector index), lexical (fulltext index) and entity candidates (documents scoped to,
// identified by or -- for identifiers -- mentioning the entities the question names) are fused
// by CombSUM of min-max normalised scores plus the entities' boost; ties go to the closer
// embedding, never to the id alone. Alone, this statement is the `hybrid` baseline; `car` hands
// its rows to closure.cypher in the same read transaction.
// params: $embedding list<float>, $fulltext string (Lucene query, '' = no lexical source),
//         $entities list<map {type, key, weight float, mentions boolean}> (entities linked
//         from the question; mentions: documents that merely mention it count, at half),
//         $entity_boost float, $as_of date|null, $domain string|null,
//         $anchors int (anchors returned), $candidates int (candidates per source)
// returns: doc_id string, score float (fused), rank int (0 = best)
CALL () {
  CALL db.index.vector.queryNodes('document_embedding', $candidates, $embedding) YIELD node, score
  WITH node, score
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  RETURN node AS doc, score AS dense, null AS lexical, 0 AS scoped
  UNION ALL
  WITH $fulltext AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', lucene, {limit: $candidates}) YIELD node, score
  WITH node, score
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  RETURN node AS doc, null AS dense, score AS lexical, 0 AS scoped
  UNION ALL
  UNWIND $entities AS named
  MATCH (:Entity {type: named.type, key: named.key})<-[link:IN_SCOPE|IDENTIFIED_BY|MENTIONS]-(node:Document)
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
    AND (type(link) <> 'MENTIONS' OR named.mentions)
  // one entity counts once per document: in scope or identified by it fully, mentioned by half
  WITH node, named, max(CASE type(link) WHEN 'MENTIONS' THEN 0.5 ELSE 1.0 END) * named.weight AS w
  RETURN node AS doc, null AS dense, null AS lexical, w AS scoped
}
// scoped = the summed weights of the entities the question names that hold the document
WITH doc, max(dense) AS dense, max(lexical) AS lexical, sum(scoped) AS scoped
// CombSUM of min-max normalised scores: each source's best candidate counts 1, its last 0;
// each named entity whose scope holds the document adds $entity_boost.
WITH collect({doc: doc, dense: dense, lexical: lexical, scoped: scoped}) AS pool,
     max(dense) AS dense_max, min(dense) AS dense_min,
     max(lexical) AS lexical_max, min(lexical) AS lexical_min
UNWIND pool AS candidate
WITH candidate.doc AS doc, candidate.scoped AS scoped,
     coalesce(candidate.dense, vector.similarity.cosine(candidate.doc.embedding, $embedding)) AS dense,
     candidate.lexical AS lexical, dense_max, dense_min, lexical_max, lexical_min
WITH doc, dense,
     CASE
       WHEN dense_max IS NULL THEN 0.0
       WHEN dense_max = dense_min THEN 1.0
       WHEN dense < dense_min THEN 0.0
       ELSE (dense - dense_min) / (dense_max - dense_min)
     END
     + CASE
         WHEN lexical IS NULL THEN 0.0
         WHEN lexical_max = lexical_min THEN 1.0
         ELSE (lexical - lexical_min) / (lexical_max - lexical_min)
       END
     + $entity_boost * scoped AS fused
// ties (equally boosted documents outside both candidate lists) go to the closer embedding
ORDER BY fused DESC, dense DESC, doc.id
LIMIT $anchors
WITH collect({id: doc.id, score: fused}) AS ranked
UNWIND range(0, size(ranked) - 1) AS rank
RETURN ranked[rank].id AS doc_id, ranked[rank].score AS score, rank
