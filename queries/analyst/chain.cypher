// Purpose: the chain of one document: every path from it through the documents that supersede
//   it to the documents that control it (now, or on $as_of), with each hop's rule, date and
//   evidence. Returns paths, so Neo4j Browser draws the chain; one row per controlling document
//   (its shortest chain). An unsuperseded document is its own controlling document (0 hops).
// params: $doc_id string, $as_of date|null (a date or 'YYYY-MM-DD')
// :param doc_id => 'scotus:478-us-186';
// :param as_of => null;
// returns: path path, controlling_id string, controlling_title string, controlling_status string,
//          hops int, doc_ids list<string>, rules list<string>, effective list<date>,
//          evidence list<string>
WITH date($as_of) AS as_of
MATCH (doc:Document {id: $doc_id})
MATCH path = ANY SHORTEST (doc)((:Document)<-[hop:SUPERSEDES]-(later:Document)
    WHERE (as_of IS NULL OR hop.effective IS NULL OR hop.effective <= as_of)
      AND (as_of IS NULL OR later.published IS NULL OR later.published <= as_of))*(ctrl:Document)
WHERE NOT EXISTS {
    MATCH (ctrl)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
      AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
      AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
  }
WITH as_of, ctrl, path
ORDER BY length(path)
WITH as_of, ctrl, collect(path)[0] AS path
RETURN path,
       ctrl.id AS controlling_id,
       ctrl.title AS controlling_title,
       CASE
         WHEN ctrl.withdrawn IS NOT NULL AND (as_of IS NULL OR ctrl.withdrawn <= as_of) THEN 'withdrawn'
         WHEN EXISTS { (ctrl)<-[:SUPERSEDES {maybe_cycle: true}]-(:Document) } THEN 'unresolved'
         WHEN EXISTS {
           MATCH (ctrl)<-[s:SUPERSEDES]-(n:Document)
           WHERE coalesce(s.partial, false)
             AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
             AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
         } THEN 'partially_superseded'
         WHEN (ctrl.unresolved_from IS NOT NULL AND (as_of IS NULL OR ctrl.unresolved_from <= as_of)) THEN 'unresolved'
         ELSE 'active'
       END AS controlling_status,
       length(path) AS hops,
       [n IN nodes(path) | n.id] AS doc_ids,
       [r IN relationships(path) | r.rule] AS rules,
       [r IN relationships(path) | r.effective] AS effective,
       [r IN relationships(path) | r.evidence] AS evidence
ORDER BY hops, controlling_id
