// The full (non-partial) SUPERSEDES edges of the connected components that hold these
// documents: what cycle detection (a strongly-connected-components pass in Python) needs to
// know after an ingest touched them.
// params: $ids list<string>
// returns: newer string, older string, rule string, maybe_cycle boolean (the current mark)
UNWIND $ids AS id
MATCH (t:Document {id: id})
MATCH ANY SHORTEST (t)((:Document)-[:SUPERSEDES]-(:Document))*(x:Document)
WITH DISTINCT x
MATCH (x)-[s:SUPERSEDES]->(y:Document)
WHERE NOT coalesce(s.partial, false)
RETURN x.id AS newer, y.id AS older, s.rule AS rule, coalesce(s.maybe_cycle, false) AS maybe_cycle
