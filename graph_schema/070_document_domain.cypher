// Filter documents by domain, used by retrieval's $domain filter and the scope rules.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX document_domain IF NOT EXISTS
FOR (d:Document) ON (d.domain)
