// A new version token for what question analysis reads from the graph (documents' entity links,
// entity names, stored domains): every write that can change it stamps one in its own
// transaction (GraphStore.write_batch, and the writes GraphStore.STAMPED names). A client that
// caches that per corpus (car_graph.linking.NameIndex) sees another token in car's snapshot and
// reads the graph again instead of answering from a stale copy. A random token, not a counter:
// a graph reset and filled again never repeats a version an old cache holds. MERGE without a
// constraint may leave two such nodes under concurrent first writes; readers take every token.
// params: (none)
// returns: token string
MERGE (v:GraphVersion {of: 'question_analysis'})
SET v.token = randomUUID()
RETURN v.token AS token
