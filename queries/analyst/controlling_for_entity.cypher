// Purpose: the controlling documents for one entity of any scope type (a package, a case, a
//   drug, a CVE ...): the documents in its scope that are not voided (now, or on $as_of), each
//   with its status and the documents it supersedes, transitively along edges in force (the
//   fragments @visible, @in_force, @voided and @frontier_status of queries/fragments/). With
//   $known_at, as car-graph recorded the graph then: the scope's members then (@scope_members),
//   their versions of that time and the edges recorded then.
// params: $entity_key string (the entity's key or name, case-insensitive),
//         $entity_type string|null (null = any type), $as_of date|null,
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param entity_key => 'bowers v. hardwick';
// :param entity_type => null;
// :param as_of => null;
// :param known_at => null;
// returns: entity string (type:key), doc_id string, title string, kind string, published date,
//          status string, supersedes list<string>, rules list<string>
WITH date($as_of) AS as_of, @known_instant(value: $known_at) AS known_at, toLower($entity_key) AS wanted
MATCH (e:Entity)
WHERE (e.key = wanted OR toLower(e.name) = wanted)
  AND ($entity_type IS NULL OR e.type = $entity_type)
UNWIND @scope_members(entity: e, known_at: known_at) AS d
WITH as_of, known_at, e, d
WHERE @visible(doc: d, as_of: as_of, known_at: known_at)
  AND NOT @voided(doc: d, as_of: as_of, known_at: known_at)
WITH as_of, known_at, e, d, @known_version(doc: d, known_at: known_at) AS facts,
     COLLECT {
       // one shortest path per document reached: every chain length, no path enumeration
       MATCH ANY SHORTEST (d)((newer)-[hop:SUPERSEDES|CLOSED_SUPERSEDES]->()
           WHERE @in_force(edge: hop, newer: newer, as_of: as_of, known_at: known_at))+(o)
       WHERE o <> d
       RETURN DISTINCT o.id AS id ORDER BY id
     } AS supersedes,
     COLLECT {
       MATCH (d)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->()
       WHERE @in_force(edge: s, newer: d, as_of: as_of, known_at: known_at)
       RETURN DISTINCT s.rule AS rule ORDER BY rule
     } AS rules
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       facts.title AS title,
       facts.kind AS kind,
       facts.published AS published,
       @frontier_status(doc: d, as_of: as_of, known_at: known_at) AS status,
       supersedes,
       rules
ORDER BY entity, size(supersedes) DESC, published DESC, doc_id
