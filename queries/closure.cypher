// The controlling documents of given anchors: the active frontier of their authority closure
// as of a date, each with the shortest chain from its best anchor (car_graph/semantics.py is the
// reference this statement is property-tested against).
//   closure: one breadth-first walk per anchor along SUPERSEDES edges in force on $as_of (an
//     edge is in force once its effective date has come and its newer document exists); every
//     reachable document is visited once, with its shortest chain, whatever the chain length;
//   frontier: documents nothing supersedes (transitively, along full edges in force) without
//     being superseded by them in turn -- the maximal elements; on acyclic data, documents no
//     full edge in force supersedes. maybe_cycle marks the only edges that can lie on a cycle,
//     so the costlier cycle test runs only behind them;
//   ranking: a frontier document takes the rank of its best anchor; several frontier documents
//     of one anchor: the one closer to the question first (when $embedding is given).
//   readings: an anchor whose map carries `reading: n` (n > 0) also gets its own closure
//     returned whole -- its scope, the edges in force that supersede it and up to n of its
//     controlling documents with their chains from it -- what `explain` would say of it, from the
//     same walk (CarClient.answer judges its verdict on these; car.cypher sets the flags). They
//     come on the first row only (null on the others): each is a few documents with their text.
// Status is computed here, as of $as_of: withdrawn, unresolved (on a cycle, or a later document
// of a superseding kind shares its scope and no edge decided: unresolved_from), partially
// superseded (partial edges only), active.
// The semantics -- @visible, @in_force, @voided, @frontier_status -- are the fragments of
// queries/fragments/, shared with explain, label_status and the analyst queries; `car-graph
// query closure --show` prints this statement with them expanded.
// params: $anchors list<map {id string, rank int, score float}>, $as_of date|null,
//         $embedding list<float>|null, $k int
// returns: doc_id, title, kind, domain, published, text, status, score, anchor_id,
//          chain (list<map {from_id, to_id, rule, effective, evidence, partial}>),
//          anchor_closure int (documents in the anchor's closure),
//          anchor_scope (list<map {entity string, docs int}>: the anchor's scope entities and how
//          many documents visible on $as_of share each, counted up to 1001),
//          readings (first row only, else null: list<map {doc_id, title, scope list<string>,
//          superseded_by list<hop map>, supersedes list<hop map>, controlling list<map {doc_id,
//          title, kind, domain, published, text, status, chain}>}>, one per anchor asked for)
UNWIND $anchors AS a
MATCH (anchor:Document {id: a.id})
WHERE @visible(doc: anchor, as_of: $as_of)
MATCH path = ANY SHORTEST (anchor)((older:Document)<-[s:SUPERSEDES]-(newer:Document)
    WHERE @in_force(edge: s, newer: newer, as_of: $as_of))*(d:Document)
WITH a, anchor, collect({d: d, path: path}) AS reached
UNWIND reached AS r
WITH a, anchor, size(reached) AS closure_size, r.d AS d, r.path AS path
WHERE NOT @voided(doc: d, as_of: $as_of)
// each anchor's frontier (never empty: its closure's maximal documents are not voided)
WITH a, anchor, closure_size, collect({d: d, path: path}) AS frontier
WITH collect({a: a, anchor: anchor, closure_size: closure_size, frontier: frontier}) AS walked
CALL (walked) {
  UNWIND walked AS w
  WITH w WHERE coalesce(w.a.reading, 0) > 0
  WITH w.a AS a, w.anchor AS doc, w.frontier AS frontier
  UNWIND frontier AS f
  WITH a, doc, f.d AS d, f.path AS path
  ORDER BY a.rank, length(path), d.id
  WITH a, doc, collect({doc_id: d.id, title: d.title, kind: d.kind, domain: d.domain,
         published: d.published, text: d.text,
         status: @frontier_status(doc: d, as_of: $as_of),
         chain: [r IN relationships(path) | {from_id: endNode(r).id, to_id: startNode(r).id,
           rule: r.rule, effective: r.effective, evidence: r.evidence,
           partial: coalesce(r.partial, false)}]}) AS controlling
  WITH a, doc, controlling[..a.reading] AS controlling
  ORDER BY a.rank
  RETURN collect({
    doc_id: doc.id,
    title: doc.title,
    scope: COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key },
    superseded_by: COLLECT {
      MATCH (doc)<-[s:SUPERSEDES]-(n:Document)
      WHERE @in_force(edge: s, newer: n, as_of: $as_of)
      RETURN {from_id: doc.id, to_id: n.id, rule: s.rule, effective: s.effective,
              evidence: s.evidence, partial: coalesce(s.partial, false)}
    },
    supersedes: COLLECT {
      MATCH (doc)-[s:SUPERSEDES]->(o:Document)
      WHERE @in_force(edge: s, newer: doc, as_of: $as_of)
      RETURN {from_id: o.id, to_id: doc.id, rule: s.rule, effective: s.effective,
              evidence: s.evidence, partial: coalesce(s.partial, false)}
    },
    controlling: controlling}) AS readings
}
CALL (walked) {
  UNWIND walked AS w
  UNWIND w.frontier AS f
  WITH f.d AS d, w.a AS a, w.anchor AS anchor, w.closure_size AS closure_size, f.path AS path
  ORDER BY a.rank, length(path)
  WITH d, collect({a: a, anchor: anchor, closure_size: closure_size, path: path})[0] AS best
  ORDER BY best.a.rank,
           CASE WHEN $embedding IS NULL THEN 0.0
                ELSE vector.similarity.cosine(d.embedding, $embedding) END DESC,
           length(best.path), d.id
  LIMIT $k
  RETURN collect({d: d, best: best}) AS top
}
UNWIND range(0, size(top) - 1) AS i
WITH top[i].d AS d, top[i].best AS best, top[i].best.anchor AS anchor,
     CASE WHEN i = 0 THEN readings END AS readings
RETURN d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.domain AS domain,
       d.published AS published,
       d.text AS text,
       // d is not voided (above), so its status is its frontier status
       @frontier_status(doc: d, as_of: $as_of) AS status,
       best.a.score AS score,
       anchor.id AS anchor_id,
       [r IN relationships(best.path) | {from_id: endNode(r).id, to_id: startNode(r).id,
         rule: r.rule, effective: r.effective, evidence: r.evidence,
         partial: coalesce(r.partial, false)}] AS chain,
       best.closure_size AS anchor_closure,
       COLLECT {
         MATCH (anchor)-[:IN_SCOPE]->(e:Entity)
         // without a date every member counts: the entity's IN_SCOPE degree (link_scope.cypher,
         // the only writer, draws them from documents), read in O(1) instead of walking a hub
         RETURN {entity: e.type + ':' + e.key,
                 docs: CASE
                   WHEN $as_of IS NULL AND COUNT { (e)<-[:IN_SCOPE]-() } > 1001 THEN 1001
                   WHEN $as_of IS NULL THEN COUNT { (e)<-[:IN_SCOPE]-() }
                   ELSE size(COLLECT {
                     MATCH (e)<-[:IN_SCOPE]-(o:Document)
                     WHERE @visible(doc: o, as_of: $as_of)
                     RETURN o.id LIMIT 1001
                   })
                 END}
       } AS anchor_scope,
       readings
