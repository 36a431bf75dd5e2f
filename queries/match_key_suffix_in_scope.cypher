// Identifiers a partial identifier may name, among the documents of the scopes the question also
// names ("is django still affected by 2718?": the identifiers ending in 2718 of django's
// documents). Used when the digits alone end too many identifiers to link them all. Keys whose
// whole last digit group is the suffix are preferred, as in match_key_suffix.
// params: $suffix string (digits), $types list<string>, $scopes list<map {type, key}>, $limit int
// returns: type, key, name
UNWIND $scopes AS named
MATCH (:Entity {type: named.type, key: named.key})<-[:IN_SCOPE]-(d:Document)
      -[:IDENTIFIED_BY|IN_SCOPE|MENTIONS]->(e:Entity)
WHERE e.type IN $types AND e.key ENDS WITH $suffix
WITH DISTINCT e, CASE
                   WHEN size(e.key) = size($suffix) THEN 0
                   WHEN substring(e.key, size(e.key) - size($suffix) - 1, 1) =~ '\\d' THEN 1
                   ELSE 0
                 END AS looseness
ORDER BY looseness, e.key
WITH collect({e: e, looseness: looseness})[..$limit] AS found
UNWIND found AS hit
WITH hit, reduce(best = 1, h IN found | CASE WHEN h.looseness < best THEN h.looseness ELSE best END) AS best
WHERE hit.looseness = best
RETURN hit.e.type AS type, hit.e.key AS key, hit.e.name AS name
