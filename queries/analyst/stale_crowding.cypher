// Purpose: stale crowding: superseded or withdrawn documents among the best semantic matches
//   for a question (the top $k of the vector index), with the documents that control them and
//   whether those made it into the same top $k. A stale match whose controller is missing from
//   the top k is what misleads plain semantic search (crowded_out = true). Statuses and
//   controlling documents are those of `car-graph explain` (the fragments @status, @in_force
//   and @voided of queries/fragments/).
// params: $embedding list<float> (the question's embedding; `car-graph query stale_crowding
//         --embed embedding="QUESTION"` computes it), $k int, $as_of date|null, $domain string|null
// :param embedding => [0.0, 0.1];
// :param k => 10;
// :param as_of => null;
// :param domain => null;
// returns: rank int, doc_id string, title string, score float, status string ('superseded' or
//          'withdrawn'), controlled_by list<string> (its controlling documents but itself),
//          controller_ranks list<int|null>, crowded_out boolean
WITH date($as_of) AS as_of
CALL db.index.vector.queryNodes('document_embedding', $k, $embedding) YIELD node, score
WITH as_of, node, score
WHERE @visible(doc: node, as_of: as_of, known_at: null)
  AND ($domain IS NULL OR node.domain = $domain)
WITH as_of, node, score
ORDER BY score DESC, node.id
WITH as_of, collect(node) AS hits, collect(score) AS scores
UNWIND range(0, size(hits) - 1) AS i
WITH as_of, hits, i, hits[i] AS d, scores[i] AS score
WITH as_of, hits, i, d, score, @status(doc: d, as_of: as_of, known_at: null) AS status
WHERE status IN ['superseded', 'withdrawn']
WITH hits, i, d, score, status,
     COLLECT {
       // the frontier of d's closure (closure.cypher's walk), d itself left out
       MATCH ANY SHORTEST (d)((:Document)<-[hop:SUPERSEDES]-(later:Document)
           WHERE @in_force(edge: hop, newer: later, as_of: as_of, known_at: null))+(c:Document)
       WHERE c <> d AND NOT @voided(doc: c, as_of: as_of, known_at: null)
       RETURN DISTINCT c AS controller ORDER BY controller.id
     } AS controllers
WITH i, d, score, status, controllers,
     [c IN controllers | CASE WHEN c IN hits THEN [j IN range(0, size(hits) - 1) WHERE hits[j] = c][0] + 1 END] AS ranks
RETURN i + 1 AS rank,
       d.id AS doc_id,
       d.title AS title,
       score,
       status,
       [c IN controllers | c.id] AS controlled_by,
       ranks AS controller_ranks,
       all(r IN ranks WHERE r IS NULL) AS crowded_out
ORDER BY rank
