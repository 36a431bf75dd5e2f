// Purpose: what controlled an entity's scope on a past date, and what has changed since: the
//   documents in the scope that were visible and not voided on $on, each with the
//   supersessions not yet in force on $on (by whom, rule, date) and whether it still controls
//   (is not voided with no date cut-off, as `car-graph explain` without --as-of). The
//   fragments @visible, @in_force and @voided of queries/fragments/ decide. With $known_at,
//   all of it as car-graph recorded the graph then (the scope's members, their versions and
//   the edges recorded then; "still controls" as it would have been answered then).
// params: $entity_key string (key or name, case-insensitive), $entity_type string|null,
//         $on date (a date or 'YYYY-MM-DD'),
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param entity_key => 'bowers v. hardwick';
// :param entity_type => null;
// :param on => '1999-01-01';
// :param known_at => null;
// returns: entity string, doc_id string, title string, kind string, published date,
//          still_controls boolean, superseded_since list<map {by, title, rule, effective, partial}>
WITH date($on) AS on, @known_instant(value: $known_at) AS known_at, toLower($entity_key) AS wanted
MATCH (e:Entity)
WHERE (e.key = wanted OR toLower(e.name) = wanted)
  AND ($entity_type IS NULL OR e.type = $entity_type)
UNWIND @scope_members(entity: e, known_at: known_at) AS d
WITH on, known_at, e, d
WHERE @visible(doc: d, as_of: on, known_at: known_at)
  AND NOT @voided(doc: d, as_of: on, known_at: known_at)
WITH known_at, e, d, @known_version(doc: d, known_at: known_at) AS facts,
     COLLECT {
       // the edges recorded at known_at that were not yet in force on $on
       MATCH (d)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(n)
       WHERE @recorded(edge: s, known_at: known_at)
         AND NOT @in_force(edge: s, newer: n, as_of: on, known_at: known_at)
       RETURN {by: n.id, title: [by_facts IN [@known_version(doc: n, known_at: known_at)] | by_facts.title][0],
               rule: s.rule, effective: s.effective, partial: coalesce(s.partial, false)} AS change
       ORDER BY change.effective, change.by
     } AS superseded_since
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       facts.title AS title,
       facts.kind AS kind,
       facts.published AS published,
       NOT @voided(doc: d, as_of: null, known_at: known_at) AS still_controls,
       superseded_since
ORDER BY entity, published DESC, doc_id
