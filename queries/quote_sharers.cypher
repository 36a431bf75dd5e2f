// The other documents that hold a passage a question quotes from $doc_id (its title, or a run of
// its text): those the fulltext index finds for the passage as a phrase, of $doc_id's kind and
// sharing a scope entity with it, outside its supersession chain (no SUPERSEDES path of up to
// 4 hops either way: a later document repeating the one it supersedes is that one's
// answer, not another reading). The caller checks each hit's words against the passage (the English
// analyser stems and drops stop words) and counts them: a passage many such documents hold is
// a family's boilerplate, not a quote that singles $doc_id out.
// params: $doc_id string, $lucene string (a Lucene phrase query), $limit int
// returns: id, title, text
MATCH (subject:Document {id: $doc_id})
CALL db.index.fulltext.queryNodes('document_fulltext', $lucene, {limit: $limit}) YIELD node
WHERE node <> subject AND node.kind = subject.kind
  AND EXISTS { (subject)-[:IN_SCOPE]->(:Entity)<-[:IN_SCOPE]-(node) }
  AND NOT EXISTS { (subject)-[:SUPERSEDES*1..4]-(node) }
RETURN node.id AS id, node.title AS title, node.text AS text
