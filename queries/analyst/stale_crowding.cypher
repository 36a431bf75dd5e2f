// Purpose: stale crowding: superseded or withdrawn documents among the best semantic matches
//   for a question (the top $k of the vector index), with the documents that control them and
//   whether those made it into the same top $k. A stale match whose controller is missing from
//   the top k is what misleads plain semantic search (crowded_out = true).
// params: $embedding list<float> (the question's embedding; `car-graph query stale_crowding
//         --embed embedding="QUESTION"` computes it), $k int, $as_of date|null, $domain string|null
// :param embedding => [0.0, 0.1];
// :param k => 10;
// :param as_of => null;
// :param domain => null;
// returns: rank int, doc_id string, title string, score float, status string,
//          controlled_by list<string>, controller_ranks list<int|null>, crowded_out boolean
WITH date($as_of) AS as_of
CALL db.index.vector.queryNodes('document_embedding', $k, $embedding) YIELD node, score
WITH as_of, node, score
WHERE (as_of IS NULL OR node.published IS NULL OR node.published <= as_of)
  AND ($domain IS NULL OR node.domain = $domain)
WITH as_of, node, score
ORDER BY score DESC, node.id
WITH as_of, collect(node) AS hits, collect(score) AS scores
UNWIND range(0, size(hits) - 1) AS i
WITH as_of, hits, i, hits[i] AS d, scores[i] AS score
WITH as_of, hits, i, d, score,
     CASE
       WHEN EXISTS {
         MATCH (d)<-[s:SUPERSEDES]-(n:Document)
         WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
           AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
           AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
       } THEN 'superseded'
       WHEN d.withdrawn IS NOT NULL AND (as_of IS NULL OR d.withdrawn <= as_of) THEN 'withdrawn'
       ELSE 'in_force'
     END AS status
WHERE status <> 'in_force'
WITH hits, i, d, score, status,
     COLLECT {
       MATCH p = (d)<-[:SUPERSEDES*1..8]-(c:Document)
       WHERE all(h IN relationships(p) WHERE NOT coalesce(h.partial, false)
                 AND (as_of IS NULL OR h.effective IS NULL OR h.effective <= as_of))
         AND (as_of IS NULL OR c.published IS NULL OR c.published <= as_of)
         AND NOT EXISTS {
           MATCH (c)<-[s:SUPERSEDES]-(n:Document)
           WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
             AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
             AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
         }
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
