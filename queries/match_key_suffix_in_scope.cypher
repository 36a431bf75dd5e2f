// Identifiers a partial identifier may name, among the documents of the scopes the question also
// names ("is django still affected by 2718?": the identifiers ending in 2718 of django's
// documents). Keys whose whole last digit group is the suffix are preferred, as in
// match_key_suffix. Starts from the keys (ENDS WITH is served by the entity_key_text index) and
// checks their documents' scope, so a hub scope of many documents is never enumerated.
// params: $suffix string (digits), $types list<string>, $scopes list<map {type, key}>, $limit int
// returns: type, key, name
MATCH (e:Entity)
WHERE e.key ENDS WITH $suffix
  AND e.type IN $types
  AND EXISTS {
    MATCH (e)<-[:IDENTIFIED_BY|IN_SCOPE|MENTIONS]-(:Document)-[:IN_SCOPE]->(s:Entity)
    WHERE any(named IN $scopes WHERE s.type = named.type AND s.key = named.key)
  }
WITH e, CASE
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
