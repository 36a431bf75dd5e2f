// Forget rules (their :Rule records, see read_rules) that were removed from their rule set.
// params: $rules list<string>
// returns: deleted int
MATCH (r:Rule)
WHERE r.name IN $rules
DELETE r
RETURN count(r) AS deleted
