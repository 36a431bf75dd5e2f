// Controlling Authority Retrieval in ONE statement.
//   1. anchors: dense (vector index), lexical (fulltext index) and entity candidates
//      (documents scoped to, identified by or -- for identifiers -- mentioning entities the
//      question names), fused by CombSUM of min-max normalised scores plus the entities' boost;
//      ties go to the closer embedding, never to the id alone;
//   2. closure: from each anchor, walk SUPERSEDES towards newer documents (bounded, cycle-safe:
//      a path never repeats an edge), keeping only edges in force on $as_of;
//   3. frontier: keep documents no full superseder in force has voided (partial supersession and
//      edges inside a detected cycle do not void), ranked at their best anchor's rank; each
//      controlling document appears once however many anchors close onto it.
// With $closure = false the statement stops after step 1 and returns the fused anchors as they
// are: that is the `hybrid` baseline, so it is compared on exactly the same anchors.
// params: $embedding list<float>, $fulltext string (Lucene query, '' = no lexical source),
//         $entities list<map {type, key, weight float, mentions boolean}> (entities linked
//         from the question; mentions: also documents that merely mention it count, at half),
//         $entity_boost float, $as_of date|null, $domain string|null, $k int (results),
//         $anchors int (fused anchors to close over), $candidates int (candidates per source),
//         $closure boolean
// returns: doc_id, title, kind, domain, published, text, status, score, anchor_id, chain
//          (list<map {from_id, to_id, rule, effective, evidence, partial}>), anchor_scope
//          (list<string>), anchor_scope_docs int, anchor_closure int, anchor_ids (list<string>)
CALL () {
  CALL db.index.vector.queryNodes('document_embedding', $candidates, $embedding) YIELD node, score
  WITH node, score
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  RETURN node AS doc, score AS dense, null AS lexical, 0 AS scoped
  UNION ALL
  WITH $fulltext AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', lucene, {limit: $candidates}) YIELD node, score
  WITH node, score
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
  RETURN node AS doc, null AS dense, score AS lexical, 0 AS scoped
  UNION ALL
  UNWIND $entities AS named
  MATCH (:Entity {type: named.type, key: named.key})<-[link:IN_SCOPE|IDENTIFIED_BY|MENTIONS]-(node:Document)
  WHERE ($as_of IS NULL OR node.published IS NULL OR node.published <= $as_of)
    AND ($domain IS NULL OR node.domain = $domain)
    AND (type(link) <> 'MENTIONS' OR named.mentions)
  // one entity counts once per document: in scope or identified by it fully, mentioned by half
  WITH node, named, max(CASE type(link) WHEN 'MENTIONS' THEN 0.5 ELSE 1.0 END) * named.weight AS w
  RETURN node AS doc, null AS dense, null AS lexical, w AS scoped
}
// scoped = the summed weights of the entities the question names that hold the document
WITH doc, max(dense) AS dense, max(lexical) AS lexical, sum(scoped) AS scoped
// CombSUM of min-max normalised scores: each source's best candidate counts 1, its last 0;
// each named entity whose scope holds the document adds $entity_boost.
WITH collect({doc: doc, dense: dense, lexical: lexical, scoped: scoped}) AS pool,
     max(dense) AS dense_max, min(dense) AS dense_min,
     max(lexical) AS lexical_max, min(lexical) AS lexical_min
UNWIND pool AS candidate
WITH candidate.doc AS doc, candidate.scoped AS scoped,
     coalesce(candidate.dense, vector.similarity.cosine(candidate.doc.embedding, $embedding)) AS dense,
     candidate.lexical AS lexical, dense_max, dense_min, lexical_max, lexical_min
WITH doc, dense,
     CASE
       WHEN dense_max IS NULL THEN 0.0
       WHEN dense_max = dense_min THEN 1.0
       WHEN dense < dense_min THEN 0.0
       ELSE (dense - dense_min) / (dense_max - dense_min)
     END
     + CASE
         WHEN lexical IS NULL THEN 0.0
         WHEN lexical_max = lexical_min THEN 1.0
         ELSE (lexical - lexical_min) / (lexical_max - lexical_min)
       END
     + $entity_boost * scoped AS fused
// ties (equally boosted documents outside both candidate lists) go to the closer embedding
ORDER BY fused DESC, dense DESC, doc.id
LIMIT $anchors
WITH collect({doc: doc, fused: fused}) AS fused_anchors
WITH fused_anchors, [a IN fused_anchors | a.doc.id] AS anchor_ids
UNWIND range(0, size(fused_anchors) - 1) AS arank
WITH anchor_ids, arank, fused_anchors[arank].doc AS anchor, fused_anchors[arank].fused AS fused
MATCH path = (anchor)<-[:SUPERSEDES*0..8]-(d:Document)
WHERE ($closure OR length(path) = 0)
  AND all(h IN relationships(path) WHERE $as_of IS NULL OR h.effective IS NULL OR h.effective <= $as_of)
  AND ($as_of IS NULL OR d.published IS NULL OR d.published <= $as_of)
  AND (NOT $closure OR NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.in_cycle, false)
      AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
      AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
  })
WITH anchor_ids, d, arank, anchor, fused, path
ORDER BY arank, length(path)
WITH anchor_ids, d, collect({arank: arank, anchor: anchor, fused: fused, path: path})[0] AS best
// several controlling documents of one anchor: the one closer to the question first
ORDER BY best.arank, vector.similarity.cosine(d.embedding, $embedding) DESC, length(best.path), d.id
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
