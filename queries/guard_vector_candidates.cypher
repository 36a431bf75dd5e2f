// The guard's near-duplicate matching (car_graph/guard.py): for each item that no document
// holds word for word, the documents closest to its embedding; the guard compares their text
// with the item's before it names one. Visibility plays no part: a document is what it is.
// params: $items list<map {item int, embedding list<float>}>, $candidates int (documents drawn per item)
// returns: item int, doc_id string, title string, text string, score float (cosine, in [0, 1])
UNWIND $items AS item
CALL (item) {
  CALL db.index.vector.queryNodes('document_embedding', $candidates, item.embedding)
    YIELD node, score
  RETURN node, score
}
RETURN item.item AS item, node.id AS doc_id, node.title AS title, node.text AS text, score
ORDER BY item, score DESC, doc_id
