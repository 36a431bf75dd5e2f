// Lexical baseline (BM25 over Lucene's English analyser): the fulltext index alone.
// params: $fulltext string (Lucene query; must not be empty), $k int, $candidates int (pool drawn from the index, >= k; fixed so the
//         ranking does not depend on k), $as_of date|null,
//         $domain string|null
// returns: doc_id, title, kind, score
CALL db.index.fulltext.queryNodes('document_fulltext', $fulltext, {limit: $candidates}) YIELD node, score
WITH node, score
WHERE @visible(doc: node, as_of: $as_of, known_at: null)
  AND ($domain IS NULL OR node.domain = $domain)
RETURN node.id AS doc_id, node.title AS title, node.kind AS kind, score
ORDER BY score DESC, doc_id
LIMIT $k
