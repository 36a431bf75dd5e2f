// Store (or replace) a user domain's declaration, read back by read_domains.
// params: $domain string, $spec string (JSON)
// returns: name string
MERGE (d:Domain {name: $domain})
SET d.spec = $spec
RETURN d.name AS name
