// Dense baseline: the vector index alone, no supersession (what plain semantic search returns).
// params: $embedding list<float>, $k int, $candidates int (pool drawn from the index, >= k; fixed so the
//         ranking does not depend on k), $as_of date|null, $domain string|null
// returns: doc_id, title, kind, score
CALL db.index.vector.queryNodes('document_embedding', $candidates, $embedding) YIELD node, score
WITH node, score
WHERE @visible(doc: node, as_of: $as_of, known_at: null)
  AND ($domain IS NULL OR node.domain = $domain)
RETURN node.id AS doc_id, node.title AS title, node.kind AS kind, score
ORDER BY score DESC, doc_id
LIMIT $k
