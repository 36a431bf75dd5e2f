// The rules the graph was last built with (name and a fingerprint of every parameter), so an
// ingest applies a new or changed rule to the whole graph once, and an unchanged one only to
// what the ingest wrote.
// params: (none)
// returns: name string, fingerprint string, parameters string (JSON: the rule as apply_rule's
//          parameters, so a deletion can re-evaluate unresolved dates without the rules file)
MATCH (r:Rule)
RETURN r.name AS name, r.fingerprint AS fingerprint, r.parameters AS parameters
