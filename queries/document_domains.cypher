// The distinct domains of the documents in the graph (null: documents without a domain), read
// once per Retriever so that questions are linked only through the declarations of domains
// the graph holds documents of (car_graph.domains.DomainRegistry.for_graph).
// params: (none)
// returns: domain string|null
MATCH (d:Document)
RETURN DISTINCT d.domain AS domain
ORDER BY domain
