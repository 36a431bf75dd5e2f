// Purpose: documents that no chain resolves: withdrawn documents nothing voids, and unresolved
//   ones (on a supersession cycle, or sharing a scope with a later document of a superseding
//   kind while no rule decided), each with the reason and the documents involved. Statuses are
//   those of `car-graph explain` (the fragments @status and @superseded_in_full of
//   queries/fragments/). With $known_at, as car-graph recorded the graph then: each document's
//   version of that time (deleted ones too, while they were recorded), the edges then.
// params: $as_of date|null, $domain string|null,
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param as_of => null;
// :param domain => null;
// :param known_at => null;
// returns: doc_id string, title string, domain string, kind string, published date,
//          status string, withdrawn date, reason string, involved list<string> (the other
//          documents of its cycle that supersede it in full), scope list<string>
WITH date($as_of) AS as_of, @known_instant(value: $known_at) AS known_at
CALL (known_at) {
  MATCH (d:Document)
  RETURN d
  UNION ALL
  // a document deleted since was there then
  MATCH (d:RetiredDocument)
  WHERE known_at IS NOT NULL
  RETURN d
}
WITH as_of, known_at, d, @known_version(doc: d, known_at: known_at) AS facts
WHERE facts IS NOT NULL
  AND ($domain IS NULL OR facts.domain = $domain)
  AND @visible(doc: d, as_of: as_of, known_at: known_at)
WITH as_of, known_at, d, facts, @status(doc: d, as_of: as_of, known_at: known_at) AS status
WHERE status IN ['withdrawn', 'unresolved']
// unresolved and superseded in full without being voided: it is on a cycle
WITH as_of, known_at, d, facts, status,
     status = 'unresolved' AND @superseded_in_full(doc: d, as_of: as_of, known_at: known_at) AS on_cycle
RETURN d.id AS doc_id,
       facts.title AS title,
       facts.domain AS domain,
       facts.kind AS kind,
       facts.published AS published,
       status,
       facts.withdrawn AS withdrawn,
       CASE
         WHEN status = 'withdrawn' THEN 'withdrawn and nothing voids it'
         WHEN on_cycle THEN 'on a supersession cycle'
         ELSE 'a later document of a superseding kind shares its scope; no rule decided'
       END AS reason,
       CASE
         WHEN on_cycle THEN COLLECT {
           MATCH (d)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(n)
           WHERE @full(edge: s) AND @in_force(edge: s, newer: n, as_of: as_of, known_at: known_at)
           RETURN DISTINCT n.id AS id ORDER BY id
         }
         ELSE []
       END AS involved,
       // the scope of the version read: the current links, or a closed version's
       CASE WHEN facts = d
         THEN COLLECT { MATCH (d)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key AS entity ORDER BY entity }
         ELSE COLLECT { MATCH (facts)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(e:Entity)
                        RETURN e.type + ':' + e.key AS entity ORDER BY entity }
       END AS scope
ORDER BY status, domain, doc_id
