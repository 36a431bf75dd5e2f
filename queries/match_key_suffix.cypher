// Identifiers a partial identifier may name: keys of the given (partial-capable) types that end
// with the digits, and start with $prefix when one is given ("CVE-2021-...042"); with $scopes,
// only keys held by documents in one of those scopes ("is django still affected by 2718?":
// django's identifiers ending in 2718). When some keys' whole last digit group is the suffix,
// only those are returned ("ending in 6574" names CVE-2018-6574, not CVE-2019-16574); the
// caller links them only when few are returned. Starts from the keys (ENDS WITH is served by the
// entity_key_text index), so a hub scope of many documents is never enumerated.
// params: $suffix string (digits), $prefix string ('' = any), $types list<string>,
//         $scopes list<map {type, key}> ([] = any scope), $limit int
// returns: type, key, name
MATCH (e:Entity)
WHERE e.key ENDS WITH $suffix
  AND e.type IN $types
  AND ($prefix = '' OR e.key STARTS WITH $prefix)
  AND EXISTS {
    MATCH (e)<-[:IN_SCOPE|IDENTIFIED_BY|MENTIONS]-(d:Document)
    WHERE size($scopes) = 0
       OR EXISTS { (d)-[:IN_SCOPE]->(s:Entity)
                   WHERE any(named IN $scopes WHERE s.type = named.type AND s.key = named.key) }
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
