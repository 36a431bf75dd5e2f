// Find supersession cycles (at most 10 edges long) and mark their edges, so that retrieval keeps
// every member of a cycle on the frontier instead of walking in circles or dropping them all.
// params: (none)
// returns: cycle list<string> (document ids around one cycle, starting at its smallest id)
MATCH (d:Document)
WHERE EXISTS { (d)-[:SUPERSEDES]->(:Document) } AND EXISTS { (:Document)-[:SUPERSEDES]->(d) }
MATCH p = (d)-[:SUPERSEDES*1..10]->(d)
WITH p, [n IN nodes(p) | n.id][0..-1] AS ids
WHERE ids[0] = reduce(m = ids[0], x IN ids | CASE WHEN x < m THEN x ELSE m END)
FOREACH (r IN relationships(p) | SET r.in_cycle = true)
RETURN ids AS cycle
