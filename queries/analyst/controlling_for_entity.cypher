// Purpose: the controlling documents for one entity of any scope type (a package, a case, a
//   drug, a CVE ...): the documents in its scope that are not voided (now, or on $as_of), each
//   with its status and the documents it supersedes, transitively along edges in force (the
//   fragments @visible, @in_force, @voided and @frontier_status of queries/fragments/).
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
  AND @visible(doc: d, as_of: as_of, known_at: null)
  AND NOT @voided(doc: d, as_of: as_of, known_at: null)
WITH as_of, e, d,
     COLLECT {
       // one shortest path per document reached: every chain length, no path enumeration
       MATCH ANY SHORTEST (d)((newer:Document)-[hop:SUPERSEDES]->(:Document)
           WHERE @in_force(edge: hop, newer: newer, as_of: as_of, known_at: null))+(o:Document)
       WHERE o <> d
       RETURN DISTINCT o.id AS id ORDER BY id
     } AS supersedes,
     COLLECT {
       MATCH (d)-[s:SUPERSEDES]->(:Document)
       WHERE @in_force(edge: s, newer: d, as_of: as_of, known_at: null)
       RETURN DISTINCT s.rule AS rule ORDER BY rule
     } AS rules
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.published AS published,
       @frontier_status(doc: d, as_of: as_of, known_at: null) AS status,
       supersedes,
       rules
ORDER BY entity, size(supersedes) DESC, published DESC, doc_id
