// Where one document stands as of a date: its status, what it supersedes, what supersedes it,
// and every controlling document its authority closure reaches, each with the shortest chain.
// params: $doc_id string, $as_of date|null
// returns: doc_id, title, status, scope list<string>, superseded_by list<map>, supersedes list<map>,
//          controlling list<map {doc_id, title, kind, domain, published, status, chain}>
MATCH (doc:Document {id: $doc_id})
MATCH path = (doc)<-[:SUPERSEDES*0..8]-(d:Document)
WHERE all(h IN relationships(path) WHERE $as_of IS NULL OR h.effective IS NULL OR h.effective <= $as_of)
  AND ($as_of IS NULL OR d.published IS NULL OR d.published <= $as_of)
  AND NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.in_cycle, false)
      AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
      AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
  }
WITH doc, d, path
ORDER BY length(path)
WITH doc, d, collect(path)[0] AS path
WITH doc, d, path,
     CASE
       WHEN d.withdrawn IS NOT NULL AND ($as_of IS NULL OR d.withdrawn <= $as_of) THEN 'withdrawn'
       WHEN EXISTS { (d)<-[:SUPERSEDES {in_cycle: true}]-(:Document) } THEN 'unresolved'
       WHEN EXISTS {
         MATCH (d)<-[s:SUPERSEDES]-(n:Document)
         WHERE coalesce(s.partial, false)
           AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
           AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
       } THEN 'partially_superseded'
       WHEN coalesce(d.unresolved, false) THEN 'unresolved'
       ELSE 'active'
     END AS d_status
WITH doc, collect({doc_id: d.id, title: d.title, kind: d.kind, domain: d.domain,
                   published: d.published, status: d_status,
                   chain: [r IN relationships(path) | {from_id: endNode(r).id, to_id: startNode(r).id,
                            rule: r.rule, effective: r.effective, evidence: r.evidence,
                            partial: coalesce(r.partial, false)}]}) AS controlling
RETURN doc.id AS doc_id,
       doc.title AS title,
       CASE
         WHEN EXISTS {
           MATCH (doc)<-[s:SUPERSEDES]-(n:Document)
           WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.in_cycle, false)
             AND ($as_of IS NULL OR s.effective IS NULL OR s.effective <= $as_of)
             AND ($as_of IS NULL OR n.published IS NULL OR n.published <= $as_of)
         } THEN 'superseded'
         ELSE [c IN controlling WHERE c.doc_id = doc.id | c.status][0]
       END AS status,
       COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key } AS scope,
       COLLECT {
         MATCH (doc)<-[s:SUPERSEDES]-(n:Document)
         RETURN {from_id: doc.id, to_id: n.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS superseded_by,
       COLLECT {
         MATCH (doc)-[s:SUPERSEDES]->(o:Document)
         RETURN {from_id: o.id, to_id: doc.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS supersedes,
       controlling
