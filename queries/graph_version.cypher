// The graph's question-analysis version (queries/stamp_graph_version.cypher): its tokens, sorted
// ([] for a graph no current writer has touched yet).
// params: (none)
// returns: version list<string>
OPTIONAL MATCH (v:GraphVersion)
WITH v.token AS token ORDER BY token
RETURN collect(token) AS version
