// Forget a user domain's stored declaration (`car-graph domains remove`): later questions and
// ingests no longer read its identifier patterns and names. Its documents stay.
// params: $domain string
// returns: deleted int
MATCH (d:Domain {name: $domain})
DELETE d
RETURN count(d) AS deleted
