// Record the rules an ingest applied to the whole graph (see read_rules).
// params: $rules list<map {name, fingerprint, parameters (JSON)}>
// returns: rules int
UNWIND $rules AS rule
MERGE (r:Rule {name: rule.name})
SET r.fingerprint = rule.fingerprint, r.parameters = rule.parameters
RETURN count(r) AS rules
