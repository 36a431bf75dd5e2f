// Anchor discovery: the documents a question is about, before any supersession is followed.
// Candidates: the dense top $candidates (vector index), the lexical top $candidates (fulltext
// index) and, for each entity the question names whose documents are few (at most
// $scope_cap), all of them -- a hub scope (a name shared by thousands of documents) is not
// enumerated: its boost goes to the semantic candidates inside it. Each candidate's score is
// the CombSUM of its min-max normalised dense and lexical scores plus, per linked entity, the
// entity's weight if the document is scoped to it, identified or named by it (half if it only mentions
// a linked identifier), plus $coverage_boost for each linked entity beyond the first that the
// document holds: a question naming two things is about the document holding both, ahead of
// one holding either with more of the question's words. Ties go to the closer embedding, never to the id alone. Alone, this
// statement is the `hybrid` baseline; `car` hands its rows to closure.cypher in the same read
// transaction.
// params: $embedding list<float>, $fulltext string (Lucene query, '' = no lexical source),
//         $entities list<map {type, key, weight float, mentions boolean, documents list<string>}>
//         (entities linked from the question; `documents`: the ids that hold a name defined
//         by their titles -- "The Point-to-Point Protocol (PPP)" holds "PPP" -- and no Entity
//         node), $entity_boost float, $coverage_boost float, $as_of date|null,
//         $known_at datetime|null (the graph as recorded then: closed versions are candidates
//         through their own indexes and links; each index gives its top $candidates, of which
//         the versions recorded then are kept),
//         $domain string|null,
//         $anchors int (anchors returned), $candidates int (candidates per source),
//         $scope_cap int (largest scope enumerated whole),
//         $holders int (a question linking two or more entities also returns, per entity, its
//         best $holders holders wherever they rank -- a question naming several documents is
//         about each, and the words of one may outrank the other's; 0: none beyond the top ones)
// returns: doc_id string, score float (fused), rank int (0 = best; a holder returned beyond the
//          top ones keeps its rank among all candidates), held list<string> ("type:key"
//          of the linked entities the document is scoped to, identified or named by: the
//          verdict's evidence that the question names it), holder boolean (one of a linked
//          entity's best $holders holders: a reading the verdict needs)
CALL () {
  CALL db.index.vector.queryNodes('document_embedding', $candidates, $embedding) YIELD node, score
  RETURN node AS found, score AS dense, null AS lexical
  UNION ALL
  WITH $fulltext AS lucene WHERE lucene <> ''
  CALL db.index.fulltext.queryNodes('document_fulltext', lucene, {limit: $candidates}) YIELD node, score
  RETURN node AS found, null AS dense, score AS lexical
  UNION ALL
  UNWIND $entities AS named
  MATCH (e:Entity {type: named.type, key: named.key})
  WHERE COUNT { (e)<-[:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]-() } <= $scope_cap
  MATCH (e)<-[link:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]-(node:Document)
  WHERE type(link) <> 'MENTIONS' OR named.mentions
  RETURN node AS found, null AS dense, null AS lexical
  UNION ALL
  // documents whose titles define a name the question writes (no Entity node: linking.py)
  UNWIND $entities AS named
  UNWIND coalesce(named.documents, []) AS defining
  MATCH (node:Document {id: defining})
  RETURN node AS found, null AS dense, null AS lexical
  // as recorded at $known_at: closed versions too, from their own indexes and links
//@if known_at
  UNION ALL
  WITH $known_at AS known_at WHERE known_at IS NOT NULL
  CALL db.index.vector.queryNodes('document_version_embedding', $candidates, $embedding) YIELD node, score
  RETURN node AS found, score AS dense, null AS lexical
  UNION ALL
  WITH $fulltext AS lucene WHERE lucene <> '' AND $known_at IS NOT NULL
  CALL db.index.fulltext.queryNodes('document_version_fulltext', lucene, {limit: $candidates}) YIELD node, score
  RETURN node AS found, null AS dense, score AS lexical
  UNION ALL
  // closed versions linked to the entity, under the same cap: a hub now (its current links) or
  // in its history (its closed versions' links) is not enumerated -- ten rounds of corrections
  // would otherwise enumerate thousands of a hub's versions for every question naming it
  UNWIND CASE WHEN $known_at IS NULL THEN [] ELSE $entities END AS named
  MATCH (e:Entity {type: named.type, key: named.key})
  WHERE COUNT { (e)<-[:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]-() } <= $scope_cap
    AND COUNT { (e)<-[:WAS_LINKED]-() } <= $scope_cap
  MATCH (e)<-[link:WAS_LINKED]-(node:DocumentVersion)
  WHERE link.kind <> 'MENTIONS' OR named.mentions
  RETURN node AS found, null AS dense, null AS lexical
//@end
}
// a candidate is a document's current version or (with $known_at) a closed one: the version
// recorded at $known_at counts, any other is dropped (@known_version)
//@if known_at
WITH found, dense, lexical, @identity(found: found) AS doc
//@else
WITH found, dense, lexical, found AS doc
//@end
WITH doc, found, dense, lexical
WHERE @known_version(doc: doc, known_at: $known_at) = found
  AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
  AND ($domain IS NULL OR found.domain = $domain)
WITH doc, found, max(dense) AS dense, max(lexical) AS lexical
// a dense candidate's exact cosine, not the index's score: the approximate index (quantized
// per segment) scores one vector a little differently in document_embedding and
// document_version_embedding, and as segments merge -- enough to swap two near-tied candidates,
// so an answer read --known-at would not be the one given then (same value scale: both [0, 1])
WITH doc, found, lexical,
     CASE WHEN dense IS NULL THEN null
          ELSE vector.similarity.cosine(found.embedding, $embedding) END AS dense
// per linked entity: 1.0 if it holds the document (or the document's title defines it), 0.5 if
// the document only mentions it (the links of the version found: a closed one keeps them as
// WAS_LINKED {kind})
WITH doc, found, dense, lexical,
     [named IN $entities | CASE
       WHEN doc.id IN coalesce(named.documents, []) THEN 1.0
       WHEN found = doc AND EXISTS { (doc)-[:IN_SCOPE|IDENTIFIED_BY|NAMED]->(:Entity {type: named.type, key: named.key}) } THEN 1.0
//@if known_at
       WHEN found <> doc AND EXISTS { (found)-[held:WAS_LINKED]->(:Entity {type: named.type, key: named.key}) WHERE held.kind <> 'MENTIONS' } THEN 1.0
//@end
       WHEN named.mentions AND found = doc AND EXISTS { (doc)-[:MENTIONS]->(:Entity {type: named.type, key: named.key}) } THEN 0.5
//@if known_at
       WHEN named.mentions AND found <> doc AND EXISTS { (found)-[:WAS_LINKED {kind: 'MENTIONS'}]->(:Entity {type: named.type, key: named.key}) } THEN 0.5
//@end
       ELSE 0.0 END] AS holds
// the summed weights of the linked entities that hold the document, and the extra ones it holds
WITH doc, found, dense, lexical,
     reduce(acc = 0.0, i IN range(0, size($entities) - 1) | acc + $entities[i].weight * holds[i]) AS weighted,
     [i IN range(0, size($entities) - 1) WHERE holds[i] = 1.0
       | $entities[i].type + ':' + $entities[i].key] AS held
WITH doc, found, dense, lexical, held,
     $entity_boost * weighted
       + $coverage_boost * CASE WHEN size(held) > 1 THEN size(held) - 1 ELSE 0 END AS scoped
// CombSUM of min-max normalised scores: each source's best candidate counts 1, its last 0 --
// unless the fulltext index ran out of hits before $candidates: then every other document
// scores 0 lexically, and a rare word's last match keeps its share instead of ranking as none.
WITH collect({doc: doc, found: found, dense: dense, lexical: lexical, scoped: scoped,
              held: held}) AS pool,
     max(dense) AS dense_max, min(dense) AS dense_min,
     max(lexical) AS lexical_max, min(lexical) AS lexical_min, count(lexical) AS lexical_hits
WITH pool, dense_max, dense_min, lexical_max,
     CASE WHEN lexical_hits < $candidates THEN 0.0 ELSE lexical_min END AS lexical_min
UNWIND pool AS candidate
WITH candidate.doc AS doc, candidate.scoped AS scoped, candidate.held AS held,
     coalesce(candidate.dense, vector.similarity.cosine(candidate.found.embedding, $embedding)) AS dense,
     candidate.lexical AS lexical, dense_max, dense_min, lexical_max, lexical_min
WITH doc, dense, held,
     CASE
       WHEN dense_max IS NULL THEN 0.0
       WHEN dense_max = dense_min THEN 1.0
       WHEN dense < dense_min THEN 0.0
       // a document enumerated from a linked entity's scope, closer than any the approximate
       // index returned (near-duplicates it missed): counts as its best, never above -- over a
       // narrow range the excess would outweigh every other signal
       WHEN dense > dense_max THEN 1.0
       ELSE (dense - dense_min) / (dense_max - dense_min)
     END
     + CASE
         WHEN lexical IS NULL THEN 0.0
         WHEN lexical_max = lexical_min THEN 1.0
         ELSE (lexical - lexical_min) / (lexical_max - lexical_min)
       END
     + scoped AS fused
ORDER BY fused DESC, dense DESC, doc.id
// the top $anchors, or every candidate when holders beyond them are asked for (the LIMIT keeps
// every other question a top-k sort)
LIMIT CASE WHEN size($entities) >= 2 AND $holders > 0 THEN 2147483647 ELSE $anchors END
WITH collect({id: doc.id, score: fused, held: held}) AS ranked
WITH ranked, CASE WHEN size($entities) >= 2 AND $holders > 0
  THEN reduce(acc = [], named IN $entities | acc
         + [i IN range(0, size(ranked) - 1) WHERE named.type + ':' + named.key IN ranked[i].held][..$holders])
  ELSE [] END AS holders
WITH [i IN range(0, size(ranked) - 1) | {id: ranked[i].id, score: ranked[i].score,
        held: ranked[i].held, holder: i IN holders}] AS ranked, holders
UNWIND range(0, size(ranked) - 1) AS rank
WITH ranked, rank WHERE rank < $anchors OR rank IN holders
RETURN ranked[rank].id AS doc_id, ranked[rank].score AS score, rank, ranked[rank].held AS held,
       ranked[rank].holder AS holder
