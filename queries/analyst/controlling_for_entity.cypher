// Purpose: the controlling documents for one entity of any scope type (a package, a case, a
//   drug, a CVE ...): the documents in its scope that no full superseder has voided (now, or
//   on $as_of), each with its status and the documents it supersedes, transitively.
// params: $entity_key string (the entity's key or name, case-insensitive),
//         $entity_type string|null (null = any type), $as_of date|null
// :param entity_key => 'bowers v. hardwick';
// :param entity_type => null;
// :param as_of => null;
// returns: entity string (type:key), doc_id string, title string, kind string, published date,
//          status string, supersedes list<string>, rules list<string>
WITH date($as_of) AS as_of, toLower($entity_key) AS wanted
MATCH (e:Entity)<-[:IN_SCOPE]-(d:Document)
WHERE (e.key = wanted OR toLower(e.name) = wanted)
  AND ($entity_type IS NULL OR e.type = $entity_type)
  AND (as_of IS NULL OR d.published IS NULL OR d.published <= as_of)
  AND NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
      AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
      AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
  }
WITH as_of, e, d,
     COLLECT {
       MATCH p = (d)-[:SUPERSEDES*1..8]->(o:Document)
       WHERE all(h IN relationships(p) WHERE as_of IS NULL OR h.effective IS NULL OR h.effective <= as_of)
       RETURN DISTINCT o.id AS id ORDER BY id
     } AS supersedes,
     COLLECT {
       MATCH (d)-[s:SUPERSEDES]->(:Document)
       WHERE as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of
       RETURN DISTINCT s.rule AS rule ORDER BY rule
     } AS rules
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.published AS published,
       CASE
         WHEN d.withdrawn IS NOT NULL AND (as_of IS NULL OR d.withdrawn <= as_of) THEN 'withdrawn'
         WHEN EXISTS { (d)<-[:SUPERSEDES {maybe_cycle: true}]-(:Document) } THEN 'unresolved'
         WHEN EXISTS {
           MATCH (d)<-[s:SUPERSEDES]-(n:Document)
           WHERE coalesce(s.partial, false)
             AND (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)
             AND (as_of IS NULL OR n.published IS NULL OR n.published <= as_of)
         } THEN 'partially_superseded'
         WHEN (d.unresolved_from IS NOT NULL AND (as_of IS NULL OR d.unresolved_from <= as_of)) THEN 'unresolved'
         ELSE 'active'
       END AS status,
       supersedes,
       rules
ORDER BY entity, size(supersedes) DESC, published DESC, doc_id
