// Controlling Authority Retrieval in one statement: the fused anchors of anchors.cypher handed,
// inside the server, to closure.cypher's walk to the active frontier -- one round trip and one
// snapshot (two statements in a read transaction measured a third slower).
// Each `//@include NAME` line stands for the named statement; `$p=v` binds its parameter $p
// to this statement's variable v. The catalogue (car_graph/cypher.py) expands them on loading;
// `car-graph query --show car` prints the expanded text to paste into Neo4j Browser.
// params: those of anchors.cypher and closure.cypher, but closure's list of anchors (bound to
//         the anchors found here)
// returns: graph_version list<string> (graph_version.cypher's, in the same snapshot: the
//          question was analysed against the graph as of this version, or must be again),
//          anchors list<map {id, rank, score}> (the same on every row), then closure.cypher's
//          columns, one row per controlling document (one row of nulls when no anchor is found)
CALL () {
  //@include graph_version
}
WITH version AS graph_version
CALL () {
  //@include anchors
}
WITH graph_version, collect({id: doc_id, rank: rank, score: score}) AS anchors
OPTIONAL CALL (anchors) {
  //@include closure $anchors=anchors
}
RETURN *
