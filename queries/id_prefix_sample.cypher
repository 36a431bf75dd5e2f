// Benchmark helper: the first document ids (in id order) that start with a prefix, e.g. one
// batch of a generated release line (benchmarks/profile_supersession.py).
// params: $prefix string, $limit int
// returns: id string
MATCH (d:Document)
WHERE d.id STARTS WITH $prefix
RETURN d.id AS id
ORDER BY id
LIMIT $limit
