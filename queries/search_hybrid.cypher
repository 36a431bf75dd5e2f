// Hybrid baseline: the same fused anchors as retrieve.cypher (dense + fulltext + entity-scoped
// candidates, reciprocal rank fusion), returned as they are: no closure, no frontier.
// params: $embedding list<float>, $fulltext string ('' = none), $entity_query string ('' = none),
//         $entity_keys list<map {type, key}>, $entity_ratio float, $as_of date|null,
//         $domain string|null, $k int, $candidates int, $rrf_k int
// returns: doc_id, title, kind, score
CALL () {
  CALL db.index.vector.queryNodes('document_embedding', $candidates, $embedding) YIELD node
  WITH node
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  WITH collect(node) AS ranked
  UNWIND range(0, size(ranked) - 1) AS i
  RETURN ranked[i] AS doc, i + 1 AS rank
  UNION ALL
  WITH $fulltext AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', lucene, {limit: $candidates}) YIELD node
  WITH node
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  WITH collect(node) AS ranked
  UNWIND range(0, size(ranked) - 1) AS i
  RETURN ranked[i] AS doc, i + 1 AS rank
  UNION ALL
  CALL () {
    WITH $entity_query AS lucene WHERE lucene <> ''
    CALL db.index.fulltext.queryNodes('entity_names', lucene, {limit: 25}) YIELD node, score
    RETURN node AS entity, score
    UNION ALL
    UNWIND $entity_keys AS wanted
    MATCH (entity:Entity {type: wanted.type, key: wanted.key})
    RETURN entity, 1000.0 AS score
  }
  WITH entity, max(score) AS score
  WITH collect({entity: entity, score: score}) AS found, max(score) AS best
  UNWIND found AS hit
  WITH hit.entity AS entity, hit.score / best AS match
  WHERE match >= $entity_ratio
  MATCH (entity)<-[:IN_SCOPE]-(node:Document)
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  WITH node, max(match) AS match
  WITH node, match, vector.similarity.cosine(node.embedding, $embedding) AS similarity
  ORDER BY match DESC, similarity DESC, node.id
  LIMIT $candidates
  WITH collect(node) AS ranked
  UNWIND range(0, size(ranked) - 1) AS i
  RETURN ranked[i] AS doc, i + 1 AS rank
}
WITH doc, sum(1.0 / ($rrf_k + rank)) AS fused
ORDER BY fused DESC, doc.id
LIMIT $k
RETURN doc.id AS doc_id, doc.title AS title, doc.kind AS kind, fused AS score
