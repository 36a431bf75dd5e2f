// Controlling Authority Retrieval in one statement: the fused anchors of anchors.cypher handed,
// inside the server, to closure.cypher's walk to the active frontier -- one round trip and one
// snapshot (two statements in a read transaction measured a third slower).
// Each `//@include NAME` line stands for the named statement; `$p=v` binds its parameter $p
// to this statement's variable v. The catalogue (car_graph/cypher.py) expands them on loading;
// `car-graph query --show car` prints the expanded text to paste into Neo4j Browser.
// Readings: CarClient.answer needs, besides the results, the whole closure of each anchor it may
// name as the subject -- the top $readings anchors whose fused score is within $reading_margin
// of the best, and, when the question links two or more entities, the top $readings anchors
// holding any of them (a question naming several documents), and each entity's best $holders
// holders, wherever they rank (anchors.cypher returns them). Their anchor maps carry
// `reading: $reading_limit` and closure.cypher returns their closures from the same walk, so a
// verdict costs no second statement. $readings = 0 (plain retrieval) asks for none.
// params: those of anchors.cypher and closure.cypher, but closure's list of anchors (bound to
//         the anchors found here); $readings int, $reading_margin float, $reading_limit int
//         (controlling documents listed per reading)
// returns: graph_version list<string> (graph_version.cypher's, in the same snapshot: the
//          question was analysed against the graph as of this version, or must be again),
//          anchors list<map {id, rank, score, held, holder, reading}> (the same on every row), then
//          closure.cypher's columns, one row per controlling document (one row of nulls when no
//          anchor is found)
CALL () {
  //@include graph_version
}
WITH version AS graph_version
CALL () {
  //@include anchors
}
WITH graph_version, collect({id: doc_id, rank: rank, score: score, held: held, holder: holder}) AS anchors
WITH graph_version, [a IN anchors | a {.*, reading: CASE
        WHEN a.rank < $readings
             AND (a.score >= anchors[0].score - $reading_margin
                  OR (size($entities) >= 2 AND size(a.held) > 0)) THEN $reading_limit
        // one of a linked entity's best holders (anchors.cypher's $holders), wherever it ranks
        WHEN a.holder THEN $reading_limit
        ELSE 0 END}] AS anchors
OPTIONAL CALL (anchors) {
  //@include closure $anchors=anchors
}
RETURN *
