// Purpose: the chain of one document: every path from it through the documents that supersede
//   it to the documents that control it (now, or on $as_of), with each hop's rule, date and
//   evidence. Returns paths, so Neo4j Browser draws the chain; one row per controlling document
//   (its shortest chain). An unsuperseded document is its own controlling document (0 hops).
//   The controlling documents and their statuses are those of `car-graph explain` (the
//   fragments @in_force, @voided and @frontier_status of queries/fragments/).
// params: $doc_id string, $as_of date|null (a date or 'YYYY-MM-DD')
// :param doc_id => 'scotus:478-us-186';
// :param as_of => null;
// returns: path path, controlling_id string, controlling_title string, controlling_status string,
//          hops int, doc_ids list<string>, rules list<string>, effective list<date>,
//          evidence list<string>
WITH date($as_of) AS as_of
MATCH (doc:Document {id: $doc_id})
WHERE @visible(doc: doc, as_of: as_of, known_at: null)
MATCH path = ANY SHORTEST (doc)((:Document)<-[hop:SUPERSEDES]-(later:Document)
    WHERE @in_force(edge: hop, newer: later, as_of: as_of, known_at: null))*(ctrl:Document)
WHERE NOT @voided(doc: ctrl, as_of: as_of, known_at: null)
WITH as_of, ctrl, path
ORDER BY length(path)
WITH as_of, ctrl, collect(path)[0] AS path
RETURN path,
       ctrl.id AS controlling_id,
       ctrl.title AS controlling_title,
       @frontier_status(doc: ctrl, as_of: as_of, known_at: null) AS controlling_status,
       length(path) AS hops,
       [n IN nodes(path) | n.id] AS doc_ids,
       [r IN relationships(path) | r.rule] AS rules,
       [r IN relationships(path) | r.effective] AS effective,
       [r IN relationships(path) | r.evidence] AS evidence
ORDER BY hops, controlling_id
