// Candidate entities for the words of a question, typo-tolerant (Lucene fuzzy terms on the
// entity_names index). Only entities that scope some document, or name its subject (a brand),
// are candidates: mention-only entities (version strings, ...) cannot anchor a search. The caller keeps a candidate only if
// the question covers its name (car_graph.linking.covering).
// params: $lucene string (non-empty Lucene query), $limit int
// returns: type, key, name, score
CALL db.index.fulltext.queryNodes('entity_names', $lucene, {limit: $limit}) YIELD node, score
WHERE EXISTS { (node)<-[:IN_SCOPE|NAMED]-(:Document) }
RETURN node.type AS type, node.key AS key, node.name AS name, score
ORDER BY score DESC
