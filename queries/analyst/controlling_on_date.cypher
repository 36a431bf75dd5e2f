// Purpose: what controlled an entity's scope on a past date, and what has changed since: the
//   documents in the scope that were published and not yet voided by a full superseder on $on,
//   each with the supersessions that took effect after $on (by whom, rule, date).
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
  AND (d.published IS NULL OR d.published <= on)
  AND NOT EXISTS {
    MATCH (d)<-[s:SUPERSEDES]-(n:Document)
    WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
      AND (s.effective IS NULL OR s.effective <= on)
      AND (n.published IS NULL OR n.published <= on)
  }
WITH e, d,
     COLLECT {
       MATCH (d)<-[s:SUPERSEDES]-(n:Document)
       WHERE (s.effective IS NOT NULL AND s.effective > on) OR (n.published IS NOT NULL AND n.published > on)
       RETURN {by: n.id, title: n.title, rule: s.rule, effective: s.effective,
               partial: coalesce(s.partial, false)} AS change
       ORDER BY change.effective, change.by
     } AS superseded_since
RETURN e.type + ':' + e.key AS entity,
       d.id AS doc_id,
       d.title AS title,
       d.kind AS kind,
       d.published AS published,
       none(c IN superseded_since WHERE NOT c.partial) AS still_controls,
       superseded_since
ORDER BY entity, published DESC, doc_id
