// Delete the SUPERSEDES edges made by rules (explicit edges stay), so that rules can be re-applied
// one at a time to see each rule's own edges (benchmarks/links.py: rule precision/recall).
// params: (none)
// returns: deleted int
MATCH ()-[s:SUPERSEDES]->()
WHERE coalesce(s.rule, '') <> 'explicit'
WITH s
DELETE s
RETURN count(*) AS deleted
