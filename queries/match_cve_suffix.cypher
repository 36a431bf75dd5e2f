// CVE entities a partial identifier may name ("the CVE ending in 16845", "CVE-2021-...115").
// params: $year string ('' = any year), $suffix string (digits)
// returns: type, key, name
MATCH (e:Entity {type: 'cve'})
WHERE e.key ENDS WITH $suffix
  AND ($year = '' OR e.key STARTS WITH 'cve-' + $year + '-')
  AND EXISTS { (e)<-[:IN_SCOPE]-(:Document) }
RETURN e.type AS type, e.key AS key, e.name AS name
LIMIT 5
