// The guard's text matching (car_graph/guard.py): for each item a user's own retriever returned
// without a known car-graph id, the documents the fulltext index finds for it. Two queries per
// item: its words as a phrase (every document holding the passage, so that a passage several
// documents share is seen to be shared), and its first content words OR-ed (in case the index
// splits some word differently, so the phrase finds nothing). The guard then compares their
// text with the item's (the same text, a chunk of it, or close to it); scores only order them.
// Visibility plays no part: a document is what it is.
// params: $items list<map {item int, phrase string, fulltext string}> (phrase: a quoted Lucene
//         phrase or ""; fulltext: a Lucene query or ""), $candidates int (documents drawn per query)
// returns: item int, doc_id string, title string, text string, score float
UNWIND $items AS item
CALL (item) {
  WITH item WHERE item.phrase <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', item.phrase, {limit: $candidates})
    YIELD node, score
  RETURN node, score
  UNION
  WITH item WHERE item.fulltext <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', item.fulltext, {limit: $candidates})
    YIELD node, score
  RETURN node, score
}
WITH item, node, max(score) AS score
RETURN item.item AS item, node.id AS doc_id, node.title AS title, node.text AS text, score
ORDER BY item, score DESC, doc_id
