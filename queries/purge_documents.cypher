// `car-graph purge DOC_ID...`: erase the recorded history of some documents -- every closed
// version, every closed edge they were an end of, and, for a deleted one, the retired node
// itself with its last version: nothing of what they were stays readable through car-graph.
// A current document keeps its current version and current edges. Run inside a recorded purge
// run (record_purge.cypher), which names the ids.
// params: $ids list<string>
// returns: versions int, edges int, retired int, found list<string> (the ids that had
//          anything to erase or are current)
UNWIND $ids AS id
OPTIONAL MATCH (doc {id: id})
WHERE doc:Document OR doc:RetiredDocument
WITH collect(doc) AS docs
WITH docs, [d IN docs | d.id] AS found
CALL (docs) {
  UNWIND docs AS doc
  MATCH (doc)-[closed:CLOSED_SUPERSEDES]-()
  WITH DISTINCT closed
  DELETE closed
  RETURN count(closed) AS edges
}
CALL (docs) {
  UNWIND docs AS doc
  MATCH (doc)<-[:VERSION_OF]-(version:DocumentVersion)
  DETACH DELETE version
  RETURN count(version) AS versions
}
CALL (docs) {
  UNWIND docs AS doc
  WITH doc WHERE doc:RetiredDocument
  DETACH DELETE doc
  RETURN count(doc) AS retired
}
RETURN versions, edges, retired, found
