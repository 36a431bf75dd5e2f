// Before a changed record is written again: drop everything derived from its old version -- its
// scope, identifier, name and mention links, the rule edges it takes part in, and the explicit edges
// it made. Explicit edges other documents point at it stay: they name it by id.
// params: $ids list<string>
// returns: links int, edges int
UNWIND $ids AS id
MATCH (d:Document {id: id})
CALL (d) {
  OPTIONAL MATCH (d)-[l:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]->(:Entity)
  DELETE l
  RETURN count(l) AS links
}
CALL (d) {
  OPTIONAL MATCH (d)-[s:SUPERSEDES]-(:Document)
  WHERE s.rule <> 'explicit' OR startNode(s) = d
  DELETE s
  RETURN count(s) AS edges
}
RETURN sum(links) AS links, sum(edges) AS edges
