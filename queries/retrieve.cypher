// Controlling Authority Retrieval in ONE statement.
//   1. anchors: dense (vector index), lexical (fulltext index) and entity-scoped candidates
//      (entities named in the question, typo-tolerant), fused by reciprocal rank fusion;
//   2. closure: from each anchor, walk SUPERSEDES towards newer documents (bounded, cycle-safe:
//      a path never repeats an edge), keeping only edges in force on $as_of;
//   3. frontier: keep documents no full superseder in force has voided (partial supersession and
//      edges inside a detected cycle do not void), ranked at their best anchor's rank; each
//      controlling document appears once however many anchors close onto it.
// params: $embedding list<float>, $fulltext string (Lucene query, '' = no lexical source),
//         $entity_query string (Lucene fuzzy query on entity names, '' = none),
//         $entity_keys list<map {type, key}> (identifiers found in the question),
//         $entity_ratio float (keep entities scoring >= ratio x best), $as_of date|null,
//         $domain string|null, $k int (results), $anchors int (fused anchors to close over),
//         $candidates int (candidates per source), $rrf_k int (RRF constant, e.g. 60)
// returns: doc_id, title, kind, domain, published, text, status, score, anchor_id, chain
//          (list<map {from_id, to_id, rule, effective, evidence, partial}>), anchor_scope
//          (list<string>), anchor_scope_docs int, anchor_closure int, anchor_ids (list<string>)
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
LIMIT $anchors
WITH collect({doc: doc, fused: fused}) AS fused_anchors
WITH fused_anchors, [a IN fused_anchors | a.doc.id] AS anchor_ids
UNWIND range(0, size(fused_anchors) - 1) AS arank
WITH anchor_ids, arank, fused_anchors[arank].doc AS anchor, fused_anchors[arank].fused AS fused
MATCH path = (anchor)<-[:SUPERSEDES*0..8]-(d:Document)
WHERE all(h IN relationships(path) WHERE $as_of IS NULL OR h.effective IS NULL OR h.effective <= $as_of)
  AND ($as_of IS NULL OR d.published IS NULL OR d.published <= $as_of)
  AND NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.in_cycle, false)
      AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
      AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
  }
WITH anchor_ids, d, arank, anchor, fused, path
ORDER BY arank, length(path)
WITH anchor_ids, d, collect({arank: arank, anchor: anchor, fused: fused, path: path})[0] AS best
ORDER BY best.arank, length(best.path), d.id
LIMIT $k
WITH anchor_ids, d, best, best.anchor AS anchor
RETURN d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.domain AS domain,
       d.published AS published,
       d.text AS text,
       CASE
         WHEN d.withdrawn IS NOT NULL AND ($as_of IS NULL OR d.withdrawn <= $as_of) THEN 'withdrawn'
         WHEN EXISTS { (d)<-[s:SUPERSEDES {in_cycle: true}]-(:Document) } THEN 'unresolved'
         WHEN EXISTS {
           MATCH (d)<-[s:SUPERSEDES]-(n:Document)
           WHERE coalesce(s.partial, false)
             AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
             AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
         } THEN 'partially_superseded'
         WHEN coalesce(d.unresolved, false) THEN 'unresolved'
         ELSE 'active'
       END AS status,
       best.fused AS score,
       anchor.id AS anchor_id,
       [r IN relationships(best.path) | {from_id: endNode(r).id, to_id: startNode(r).id,
         rule: r.rule, effective: r.effective, evidence: r.evidence,
         partial: coalesce(r.partial, false)}] AS chain,
       COLLECT { MATCH (anchor)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key } AS anchor_scope,
       size(COLLECT {
         MATCH (anchor)-[:IN_SCOPE]->(:Entity)<-[:IN_SCOPE]-(o:Document)
         WHERE $as_of IS NULL OR o.published IS NULL OR o.published <= $as_of
         RETURN DISTINCT o.id
       }) AS anchor_scope_docs,
       size(COLLECT {
         MATCH (anchor)<-[:SUPERSEDES*0..8]-(c:Document)
         WHERE $as_of IS NULL OR c.published IS NULL OR c.published <= $as_of
         RETURN DISTINCT c.id
       }) AS anchor_closure,
       anchor_ids
