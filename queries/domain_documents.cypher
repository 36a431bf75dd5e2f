// How many documents each domain holds (null: documents without a domain), for
// `car-graph domains list`.
// params: (none)
// returns: domain string|null, documents int
MATCH (d:Document)
RETURN d.domain AS domain, count(d) AS documents
ORDER BY domain
