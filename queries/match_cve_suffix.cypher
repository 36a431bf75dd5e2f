// CVE entities a partial identifier may name ("the CVE ending in 16845", "CVE-2021-...115").
// Keys whose whole last part is the suffix come first: "ending in 6574" names CVE-2018-6574
// before CVE-2019-16574.
// params: $year string ('' = any year), $suffix string (digits)
// returns: type, key, name
MATCH (e:Entity {type: 'cve'})
WHERE e.key ENDS WITH $suffix
  AND ($year = '' OR e.key STARTS WITH 'cve-' + $year + '-')
  AND EXISTS { (e)<-[:IN_SCOPE]-(:Document) }
WITH e, CASE WHEN e.key ENDS WITH '-' + $suffix THEN 0 ELSE 1 END AS looseness
ORDER BY looseness, e.key
RETURN e.type AS type, e.key AS key, e.name AS name
LIMIT 3
