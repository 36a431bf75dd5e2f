// Purpose: stale crowding: superseded or withdrawn documents among the best semantic matches
//   for a question (the top $k of the vector index), with the documents that control them and
//   whether those made it into the same top $k. A stale match whose controller is missing from
//   the top k is what misleads plain semantic search (crowded_out = true). Statuses and
//   controlling documents are those of `car-graph explain` (the fragments @status, @in_force
//   and @voided of queries/fragments/). With $known_at, as car-graph recorded the graph then:
//   the matches are the versions recorded then (closed ones from their own index), scored by
//   their exact cosine as `retrieve --known-at` scores them, and the statuses are those then.
// params: $embedding list<float> (the question's embedding; `car-graph query stale_crowding
//         --embed embedding="QUESTION"` computes it), $k int, $as_of date|null, $domain string|null,
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param embedding => [0.0, 0.1];
// :param k => 10;
// :param as_of => null;
// :param domain => null;
// :param known_at => null;
// returns: rank int, doc_id string, title string, score float, status string ('superseded' or
//          'withdrawn'), controlled_by list<string> (its controlling documents but itself),
//          controller_ranks list<int|null>, crowded_out boolean
WITH date($as_of) AS as_of, @known_instant(value: $known_at) AS known_at
CALL (known_at) {
  CALL db.index.vector.queryNodes('document_embedding', $k, $embedding) YIELD node, score
  RETURN node AS found, score
  UNION ALL
  // as recorded at known_at: closed versions too, from their own index
  WITH known_at WHERE known_at IS NOT NULL
  CALL db.index.vector.queryNodes('document_version_embedding', $k, $embedding) YIELD node, score
  RETURN node AS found, score
}
// a match is a document's current version or (with known_at) a closed one: the version
// recorded at known_at counts, any other is dropped (@known_version)
WITH as_of, known_at, found, score, @identity(found: found) AS node
WITH as_of, known_at, found, node,
     // the exact cosine with known_at: the two indexes score one vector a little differently
     CASE WHEN known_at IS NULL THEN score ELSE vector.similarity.cosine(found.embedding, $embedding) END AS score
WHERE @known_version(doc: node, known_at: known_at) = found
  AND @visible(doc: node, as_of: as_of, known_at: known_at)
  AND ($domain IS NULL OR found.domain = $domain)
WITH as_of, known_at, node, score
ORDER BY score DESC, node.id
WITH as_of, known_at, collect(node)[..$k] AS hits, collect(score)[..$k] AS scores
UNWIND range(0, size(hits) - 1) AS i
WITH as_of, known_at, hits, i, hits[i] AS d, scores[i] AS score
WITH as_of, known_at, hits, i, d, score, @status(doc: d, as_of: as_of, known_at: known_at) AS status
WHERE status IN ['superseded', 'withdrawn']
WITH hits, i, d, score, status, @known_version(doc: d, known_at: known_at) AS facts,
     COLLECT {
       // the frontier of d's closure (closure.cypher's walk), d itself left out
       MATCH ANY SHORTEST (d)(()<-[hop:SUPERSEDES|CLOSED_SUPERSEDES]-(later)
           WHERE @in_force(edge: hop, newer: later, as_of: as_of, known_at: known_at))+(c)
       WHERE c <> d AND NOT @voided(doc: c, as_of: as_of, known_at: known_at)
       RETURN DISTINCT c AS controller ORDER BY controller.id
     } AS controllers
WITH i, d, facts, score, status, controllers,
     [c IN controllers | CASE WHEN c IN hits THEN [j IN range(0, size(hits) - 1) WHERE hits[j] = c][0] + 1 END] AS ranks
RETURN i + 1 AS rank,
       d.id AS doc_id,
       facts.title AS title,
       score,
       status,
       [c IN controllers | c.id] AS controlled_by,
       ranks AS controller_ranks,
       all(r IN ranks WHERE r IS NULL) AS crowded_out
ORDER BY rank
