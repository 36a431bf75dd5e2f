// When does a document become "unresolved" under one rule? From the publication date of the
// earliest later document of the rule's newer kind that shares its scope (the rule's scope
// types, any or all; attribute conditions ignored): from then on, unless an edge in force
// decides it, a rule could have superseded it and none did. Stored as unresolved_from (the
// minimum over rules); closure.cypher reads it as of the question's date. With $ids only pairs
// involving those documents are considered (run reset_unresolved on the same ids first).
// params: $newer_kinds list<string>, $older_kinds list<string>, $scope_types list<string>,
//         $scope_all boolean, $domain string|null, $ids list<string>|null
// returns: flagged int (documents whose unresolved_from this rule set or lowered)
CALL () {
  UNWIND coalesce($ids, []) AS id
  MATCH (t:Document {id: id})-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(other:Document)
  WHERE e.type IN $scope_types AND other <> t
  UNWIND [[t, other], [other, t]] AS pair
  RETURN pair[0] AS newer, pair[1] AS older
  UNION
  MATCH (older:Document)-[:IN_SCOPE]->(e:Entity)<-[:IN_SCOPE]-(newer:Document)
  WHERE $ids IS NULL AND e.type IN $scope_types AND newer <> older
  RETURN newer, older
}
WITH DISTINCT newer, older
WHERE older.kind IN $older_kinds
  AND newer.kind IN $newer_kinds
  AND ($domain IS NULL OR (older.domain = $domain AND newer.domain = $domain))
  AND @later(newer: newer, older: older)
  AND (NOT $scope_all OR all(t IN $scope_types WHERE EXISTS {
        (newer)-[:IN_SCOPE]->(:Entity {type: t})<-[:IN_SCOPE]-(older) }))
WITH older, min(newer.published) AS earliest
WHERE older.unresolved_from IS NULL OR earliest < older.unresolved_from
SET older.unresolved_from = earliest
RETURN count(older) AS flagged
