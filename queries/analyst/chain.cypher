// Purpose: the chain of one document: every path from it through the documents that supersede
//   it to the documents that control it (now, or on $as_of), with each hop's rule, date and
//   evidence. Returns paths, so Neo4j Browser draws the chain; one row per controlling document:
//   its chain along full edges when they lead there (the supersession the verdict names: version
//   1 -> 2 -> 3 -> 4, not 1 -> a memo amending it in part -> 4), else its shortest chain
//   (@chain_path), with the partial edges into the chain's documents beside it as amendments
//   (@amendments). An unsuperseded document is its own controlling document (0 hops).
//   The controlling documents and their statuses are those of `car-graph explain` (the
//   fragments @in_force, @voided and @frontier_status of queries/fragments/). With $known_at,
//   as car-graph recorded the graph then (`explain --known-at`): the edges recorded then, closed
//   ones too, and each document's version of that time; a document deleted since is found.
// params: $doc_id string, $as_of date|null (a date or 'YYYY-MM-DD'),
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param doc_id => 'scotus:478-us-186';
// :param as_of => null;
// :param known_at => null;
// returns: path path, controlling_id string, controlling_title string, controlling_status string,
//          hops int, doc_ids list<string>, rules list<string>, effective list<date>,
//          evidence list<string>, amendments list<map {from_id, to_id, rule, effective,
//          evidence, partial}> (partial edges in force into the chain's documents)
WITH date($as_of) AS as_of, @known_instant(value: $known_at) AS known_at
CALL (known_at) {
  MATCH (doc:Document {id: $doc_id})
  RETURN doc
  UNION ALL
  // a document deleted since was there then
  MATCH (doc:RetiredDocument {id: $doc_id})
  WHERE known_at IS NOT NULL
  RETURN doc
}
WITH as_of, known_at, doc
WHERE @visible(doc: doc, as_of: as_of, known_at: known_at)
MATCH path = ANY SHORTEST (doc)(()<-[hop:SUPERSEDES|CLOSED_SUPERSEDES]-(later)
    WHERE @in_force(edge: hop, newer: later, as_of: as_of, known_at: known_at))*(ctrl)
WHERE NOT @voided(doc: ctrl, as_of: as_of, known_at: known_at)
WITH as_of, known_at, doc, ctrl, path
ORDER BY length(path)
WITH as_of, known_at, doc, ctrl, collect(path)[0] AS path
WITH as_of, known_at, ctrl,
     @chain_path(doc: doc, controller: ctrl, shortest: path, as_of: as_of, known_at: known_at) AS path
WITH as_of, known_at, ctrl, path, @known_version(doc: ctrl, known_at: known_at) AS facts
RETURN path,
       ctrl.id AS controlling_id,
       facts.title AS controlling_title,
       @frontier_status(doc: ctrl, as_of: as_of, known_at: known_at) AS controlling_status,
       length(path) AS hops,
       [n IN nodes(path) | n.id] AS doc_ids,
       [r IN relationships(path) | r.rule] AS rules,
       [r IN relationships(path) | r.effective] AS effective,
       [r IN relationships(path) | r.evidence] AS evidence,
       @amendments(chain: path, as_of: as_of, known_at: known_at) AS amendments
ORDER BY hops, controlling_id
