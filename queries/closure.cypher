// The controlling documents of given anchors: the active frontier of their authority closure
// as of a date, each with the shortest chain from its best anchor (car_graph/semantics.py is the
// reference this statement is property-tested against).
//   closure: breadth-first walks along SUPERSEDES edges in force on $as_of (an edge is in
//     force once its effective date has come and its newer document exists), one per
//     supersession component: anchors in rank order, each walking past only what better anchors
//     reached (an anchor they reached is not walked), so every reachable document is visited
//     once, with its shortest chain from its best anchor, whatever the chain length;
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
// With $known_at, everything is read as car-graph recorded it then: the documents' versions
// of that time, the edges recorded then (closed ones too), deleted documents as they were;
// readings too (their anchors' and controlling documents' versions, scopes and edges then).
// params: $anchors list<map {id string, rank int, score float}>, $as_of date|null,
//         $known_at datetime|null,
//         $embedding list<float>|null, $k int
// returns: doc_id, title, kind, domain, published, text, status, score, anchor_id,
//          chain (list<map {from_id, to_id, rule, effective, evidence, partial}>: the anchor's
//          chain to the document, along full edges when they lead there, @chain_path),
//          amendments (list<hop map>: partial edges in force into the chain's documents that
//          it does not take, @amendments),
//          anchor_closure int (documents in the anchor's closure),
//          anchor_scope (list<map {entity string, docs int, several_chains boolean}>: the
//          anchor's scope entities, how many documents visible on $as_of share each, counted up
//          to 1001, and whether the scope holds several chains, @several_chains: the rows of
//          analyst/multi_chain_scopes),
//          readings (first row only, else null: list<map {doc_id, title, kind, text, scope list<string>,
//          several_chains list<string> (the scope entities holding several chains),
//          superseded_by list<hop map>, supersedes list<hop map>, controlling list<map {doc_id,
//          title, kind, domain, published, text, status, chain, amendments}>}>, one per anchor
//          asked for)
UNWIND $anchors AS a
//@if known_at
CALL (a) {
  MATCH (anchor:Document {id: a.id})
  RETURN anchor
  UNION
  // a document deleted since was an anchor then
  MATCH (anchor:RetiredDocument {id: a.id})
  WHERE $known_at IS NOT NULL
  RETURN anchor
}
WITH a, anchor
//@else
MATCH (anchor:Document {id: a.id})
//@end
WHERE @visible(doc: anchor, as_of: $as_of, known_at: $known_at)
WITH a, anchor ORDER BY a.rank
WITH collect({a: a, anchor: anchor}) AS found
// One walk per supersession component: the anchors in rank order, each walking only past what
// the better anchors' walks reached (`covered`, a union of closures, so closed under the walk). A
// document a better anchor reaches takes that anchor as its best, so a worse anchor's walk
// there is wasted: an anchor a better one reached is not walked at all (its closure lies
// inside), and the others stop at covered documents -- every document of the component is
// visited once, and a new document's shortest chain never runs through a covered one (it would
// be covered). An anchor with a reading is walked whole: its own closure is returned.
WITH reduce(acc = {covered: [], walks: []}, x IN found |
  CASE WHEN coalesce(x.a.reading, 0) = 0 AND x.anchor IN acc.covered THEN acc
  ELSE [reached IN [COLLECT {
          WITH x.anchor AS start,
               CASE WHEN coalesce(x.a.reading, 0) > 0 THEN [] ELSE acc.covered END AS walked
          MATCH path = ANY SHORTEST (start)((older)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(newer)
              WHERE @in_force(edge: s, newer: newer, as_of: $as_of, known_at: $known_at)
                AND NOT newer IN walked)*(d)
          RETURN {d: d, path: path}
        }] | {covered: acc.covered + [r IN reached WHERE NOT r.d IN acc.covered | r.d],
              walks: acc.walks + [{a: x.a, anchor: x.anchor, reached: reached,
                                   cut: coalesce(x.a.reading, 0) = 0 AND size(acc.covered) > 0}]}][0]
  END).walks AS walks
UNWIND walks AS w
WITH w.a AS a, w.anchor AS anchor, w.reached AS reached, w.cut AS cut
UNWIND reached AS r
// closure_size: the anchor's closure, when its walk was not cut short (else counted below,
// for the few rows that name it)
WITH a, anchor, size(reached) AS closure_size, cut, r.d AS d, r.path AS path
WHERE NOT @voided(doc: d, as_of: $as_of, known_at: $known_at)
// the chain each controlling document is shown with: along full edges when they lead to it
// (the supersession that voids the anchor), else the walk's shortest path
WITH a, anchor, closure_size, cut, d,
     @chain_path(doc: anchor, controller: d, shortest: path, as_of: $as_of, known_at: $known_at) AS path
// each anchor's frontier (never empty for a whole walk: its closure's maximal documents are not
// voided; a cut walk may find none new), each document with its status, computed here once for
// the readings and the rows alike: d is not voided, so its status is its frontier status
WITH a, anchor, closure_size, cut,
     collect({d: d, path: path, status: @frontier_status(doc: d, as_of: $as_of, known_at: $known_at)}) AS frontier
WITH collect({a: a, anchor: anchor, closure_size: closure_size, cut: cut, frontier: frontier}) AS walked
CALL (walked) {
  UNWIND walked AS w
  WITH w WHERE coalesce(w.a.reading, 0) > 0
  WITH w.a AS a, w.anchor AS doc, w.frontier AS frontier
  UNWIND frontier AS f
  WITH a, doc, f.d AS d, f.path AS path, f.status AS status
  ORDER BY a.rank, length(path), d.id
  // each controlling document's facts as recorded at $known_at (itself when null)
  WITH a, doc, d, path, status, @known_version(doc: d, known_at: $known_at) AS facts
  WITH a, doc, collect({doc_id: d.id, title: facts.title, kind: facts.kind,
         domain: facts.domain, published: facts.published, text: facts.text,
         status: status,
         chain: [r IN relationships(path) | {from_id: endNode(r).id, to_id: startNode(r).id,
           rule: r.rule, effective: r.effective, evidence: r.evidence,
           partial: coalesce(r.partial, false)}],
         amendments: @amendments(chain: path, as_of: $as_of, known_at: $known_at)}) AS controlling
  WITH a, doc, controlling[..a.reading] AS controlling
  // the anchor as explain.cypher reads it: its version of $known_at and that version's scope
  WITH a, doc, controlling, @known_version(doc: doc, known_at: $known_at) AS doc_facts
  ORDER BY a.rank
  RETURN collect({
    doc_id: doc.id,
    title: doc_facts.title,
    kind: doc.kind,
    text: doc_facts.text,
//@if known_at
    scope: CASE WHEN doc_facts = doc
      THEN COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key }
      ELSE COLLECT { MATCH (doc_facts)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(e:Entity)
                     RETURN e.type + ':' + e.key }
    END,
    several_chains: CASE WHEN doc_facts = doc
      THEN COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity)
                     WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                     RETURN e.type + ':' + e.key }
      ELSE COLLECT { MATCH (doc_facts)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(e:Entity)
                     WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                     RETURN e.type + ':' + e.key }
    END,
//@else
    scope: COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key },
    several_chains: COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity)
                              WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                              RETURN e.type + ':' + e.key },
//@end
    superseded_by: COLLECT {
      MATCH (doc)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(n)
      WHERE @in_force(edge: s, newer: n, as_of: $as_of, known_at: $known_at)
      RETURN {from_id: doc.id, to_id: n.id, rule: s.rule, effective: s.effective,
              evidence: s.evidence, partial: coalesce(s.partial, false)}
    },
    supersedes: COLLECT {
      MATCH (doc)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(o)
      WHERE @in_force(edge: s, newer: doc, as_of: $as_of, known_at: $known_at)
      RETURN {from_id: o.id, to_id: doc.id, rule: s.rule, effective: s.effective,
              evidence: s.evidence, partial: coalesce(s.partial, false)}
    },
    controlling: controlling}) AS readings
}
CALL (walked) {
  UNWIND walked AS w
  UNWIND w.frontier AS f
  WITH f.d AS d, f.status AS status, w.a AS a, w.anchor AS anchor, w.closure_size AS closure_size,
       w.cut AS cut, f.path AS path
  ORDER BY a.rank, length(path)
  WITH d, status, collect({a: a, anchor: anchor, closure_size: closure_size, cut: cut, path: path})[0] AS best
  // the document's facts: itself, or as recorded at $known_at
  WITH d, status, best, @known_version(doc: d, known_at: $known_at) AS facts
  ORDER BY best.a.rank,
           CASE WHEN $embedding IS NULL THEN 0.0
                ELSE vector.similarity.cosine(facts.embedding, $embedding) END DESC,
           length(best.path), d.id
  LIMIT $k
  RETURN collect({d: d, facts: facts, best: best, status: status}) AS top
}
UNWIND range(0, size(top) - 1) AS i
WITH top[i].d AS d, top[i].facts AS facts, top[i].best AS best, top[i].best.anchor AS anchor,
     top[i].best.path AS chain_taken, top[i].status AS status,
     CASE WHEN i = 0 THEN readings END AS readings
RETURN d.id AS doc_id,
       facts.title AS title,
       facts.kind AS kind,
       facts.domain AS domain,
       facts.published AS published,
       facts.text AS text,
       status,
       best.a.score AS score,
       anchor.id AS anchor_id,
       [r IN relationships(best.path) | {from_id: endNode(r).id, to_id: startNode(r).id,
         rule: r.rule, effective: r.effective, evidence: r.evidence,
         partial: coalesce(r.partial, false)}] AS chain,
       @amendments(chain: chain_taken, as_of: $as_of, known_at: $known_at) AS amendments,
       CASE WHEN best.cut
         THEN COUNT { MATCH ANY SHORTEST (anchor)((older)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(newer)
                        WHERE @in_force(edge: s, newer: newer, as_of: $as_of, known_at: $known_at))*(reached)
                      RETURN reached }
         ELSE best.closure_size END AS anchor_closure,
       COLLECT {
         MATCH (anchor)-[:IN_SCOPE]->(e:Entity)
//@if known_at
         WHERE $known_at IS NULL
//@end
         // without a date every member counts: the entity's IN_SCOPE degree (link_scope.cypher,
         // the only writer, draws them from documents), read in O(1) instead of walking a hub
         RETURN {entity: e.type + ':' + e.key,
                 docs: CASE
                   WHEN $as_of IS NULL AND COUNT { (e)<-[:IN_SCOPE]-() } > 1001 THEN 1001
                   WHEN $as_of IS NULL THEN COUNT { (e)<-[:IN_SCOPE]-() }
                   ELSE size(COLLECT {
                     MATCH (e)<-[:IN_SCOPE]-(o:Document)
                     WHERE @visible(doc: o, as_of: $as_of, known_at: null)
                     RETURN o.id LIMIT 1001
                   })
                 END,
                 several_chains: @several_chains(entity: e, as_of: $as_of, known_at: null)} AS scope_entry
//@if known_at
         UNION
         // as recorded at $known_at: the anchor version's scope links, and the members whose
         // version of that time held the same entity in scope
         WITH anchor WHERE $known_at IS NOT NULL
         WITH anchor, @known_version(doc: anchor, known_at: $known_at) AS anchor_facts
         MATCH (anchor_facts)-[link:IN_SCOPE|WAS_LINKED]->(e:Entity)
         WHERE type(link) = 'IN_SCOPE' OR link.kind = 'IN_SCOPE'
         RETURN {entity: e.type + ':' + e.key,
                 // (@scope_members, its members' versions then: a linked node counts when its
                 // own recorded interval holds $known_at -- intervals of one document's nodes never
                 // overlap, so each member counts once; its facts then are the linked node's)
                 docs: size(COLLECT {
                   UNWIND @scope_members(entity: e, known_at: $known_at) AS member_doc
                   WITH member_doc
                   // a member then was recorded then: only a date can hide it
                   WHERE $as_of IS NULL OR @visible(doc: member_doc, as_of: $as_of, known_at: $known_at)
                   RETURN member_doc.id LIMIT 1001
                 }),
                 several_chains: @several_chains(entity: e, as_of: $as_of, known_at: $known_at)} AS scope_entry
//@end
       } AS anchor_scope,
       readings
