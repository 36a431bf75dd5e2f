// Purpose: what controlled an entity's scope on a past date, and what has changed since: the
//   documents in the scope that were visible and not voided on $on, each with the
//   supersessions not yet in force on $on (by whom, rule, date) and whether it still controls
//   (is not voided with no date cut-off, as `car-graph explain` without --as-of). The
//   fragments @visible, @in_force and @voided of queries/fragments/ decide.
// params: $entity_key string (key or name, case-insensitive), $entity_type string|null,
//         $on date (a date or 'YYYY-MM-DD')
// :param entity_key => 'bowers v. hardwick';
// :param entity_type => null;
// :param on => '1999-01-01';
// returns: entity string, doc_id string, title string, kind string, published date,
//          still_controls boolean, superseded_since list<map {by, title, rule, effective, partial}>
WITH date($on) AS on, toLower($entity_key) AS wanted
MATCH (e:Entity)<-[:IN_SCOPE]-(d:Document)
WHERE (e.key = wanted OR toLower(e.name) = wanted)
  AND ($entity_type IS NULL OR e.type = $entity_type)
  AND @visible(doc: d, as_of: on, known_at: null)
  AND NOT @voided(doc: d, as_of: on, known_at: null)
WITH e, d,
     COLLECT {
       MATCH (d)<-[s:SUPERSEDES]-(n:Document)
       WHERE NOT @in_force(edge: s, newer: n, as_of: on, known_at: null)
       RETURN {by: n.id, title: n.title, rule: s.rule, effective: s.effective,
               partial: coalesce(s.partial, false)} AS change
       ORDER BY change.effective, change.by
     } AS superseded_since
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.published AS published,
       NOT @voided(doc: d, as_of: null, known_at: null) AS still_controls,
       superseded_since
ORDER BY entity, published DESC, doc_id
