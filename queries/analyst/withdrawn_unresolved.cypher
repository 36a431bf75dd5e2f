// Purpose: documents that no chain resolves: withdrawn documents nothing supersedes, and
//   unresolved ones (on a supersession cycle, or sharing a scope with a later document of a
//   superseding kind while no rule decided), each with the reason and the documents involved.
// params: $as_of date|null, $domain string|null
// :param as_of => null;
// :param domain => null;
// returns: doc_id string, title string, domain string, kind string, published date,
//          status string, withdrawn date, reason string, involved list<string>, scope list<string>
WITH date($as_of) AS as_of
MATCH (d:Document)
WHERE ($domain IS NULL OR d.domain = $domain)
  AND (as_of IS NULL OR d.published IS NULL OR d.published <= as_of)
  AND (d.withdrawn IS NOT NULL OR (d.unresolved_from IS NOT NULL AND (as_of IS NULL OR d.unresolved_from <= as_of)
           AND NOT EXISTS { (d)<-[:SUPERSEDES]-(:Document) })
       OR EXISTS { (d)<-[:SUPERSEDES {maybe_cycle: true}]-(:Document) })
  AND NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
      AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
      AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
  }
// the same precedence as every status in car-graph: withdrawn, cycle, partial, unresolved flag
WITH as_of, d,
     d.withdrawn IS NOT NULL AND (as_of IS NULL OR d.withdrawn <= as_of) AS is_withdrawn,
     EXISTS { (d)<-[:SUPERSEDES {maybe_cycle: true}]-(:Document) } AS on_cycle,
     EXISTS {
       MATCH (d)<-[s:SUPERSEDES]-(n:Document)
       WHERE coalesce(s.partial, false)
         AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
         AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
     } AS in_part
WHERE is_withdrawn OR on_cycle OR ((d.unresolved_from IS NOT NULL AND (as_of IS NULL OR d.unresolved_from <= as_of)
           AND NOT EXISTS { (d)<-[:SUPERSEDES]-(:Document) }) AND NOT in_part)
RETURN d.id AS doc_id,
       d.title AS title,
       d.domain AS domain,
       d.kind AS kind,
       d.published AS published,
       CASE WHEN is_withdrawn THEN 'withdrawn' ELSE 'unresolved' END AS status,
       d.withdrawn AS withdrawn,
       CASE
         WHEN is_withdrawn THEN 'withdrawn and nothing supersedes it'
         WHEN on_cycle THEN 'on a supersession cycle'
         ELSE 'a later document of a superseding kind shares its scope; no rule decided'
       END AS reason,
       CASE
         WHEN on_cycle AND NOT is_withdrawn THEN
           COLLECT { MATCH (d)<-[:SUPERSEDES {maybe_cycle: true}]-(n:Document) RETURN n.id AS id ORDER BY id }
         ELSE []
       END AS involved,
       COLLECT { MATCH (d)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key AS entity ORDER BY entity } AS scope
ORDER BY status, domain, doc_id
