// Purpose: documents that no chain resolves: withdrawn documents nothing voids, and unresolved
//   ones (on a supersession cycle, or sharing a scope with a later document of a superseding
//   kind while no rule decided), each with the reason and the documents involved. Statuses are
//   those of `car-graph explain` (the fragments @status and @superseded_in_full of
//   queries/fragments/).
// params: $as_of date|null, $domain string|null
// :param as_of => null;
// :param domain => null;
// returns: doc_id string, title string, domain string, kind string, published date,
//          status string, withdrawn date, reason string, involved list<string> (the other
//          documents of its cycle that supersede it in full), scope list<string>
WITH date($as_of) AS as_of
MATCH (d:Document)
WHERE ($domain IS NULL OR d.domain = $domain)
  AND @visible(doc: d, as_of: as_of, known_at: null)
WITH as_of, d, @status(doc: d, as_of: as_of, known_at: null) AS status
WHERE status IN ['withdrawn', 'unresolved']
// unresolved and superseded in full without being voided: it is on a cycle
WITH as_of, d, status,
     status = 'unresolved' AND @superseded_in_full(doc: d, as_of: as_of, known_at: null) AS on_cycle
RETURN d.id AS doc_id,
       d.title AS title,
       d.domain AS domain,
       d.kind AS kind,
       d.published AS published,
       status,
       d.withdrawn AS withdrawn,
       CASE
         WHEN status = 'withdrawn' THEN 'withdrawn and nothing voids it'
         WHEN on_cycle THEN 'on a supersession cycle'
         ELSE 'a later document of a superseding kind shares its scope; no rule decided'
       END AS reason,
       CASE
         WHEN on_cycle THEN COLLECT {
           MATCH (d)<-[s:SUPERSEDES]-(n:Document)
           WHERE @full(edge: s) AND @in_force(edge: s, newer: n, as_of: as_of, known_at: null)
           RETURN DISTINCT n.id AS id ORDER BY id
         }
         ELSE []
       END AS involved,
       COLLECT { MATCH (d)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key AS entity ORDER BY entity } AS scope
ORDER BY status, domain, doc_id
