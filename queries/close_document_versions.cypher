// Close the current version of documents before they change (a corrected record, a changed
// unresolved date, a delete): a copy of the version, with its entity links, becomes a
// :DocumentVersion (-[:VERSION_OF]-> the document) recorded until $now; the document itself is
// then recorded from $now. Only --known-at reads and `car-graph history` look at versions; the
// current version stays where current reads look. A version opened in this same run is not
// closed (it was never seen by another run): history has no empty intervals, and replaying a
// batch closes nothing twice.
// params: $rows list<map {id string, before map}> (before: property values the version had
//           that this run already overwrote, e.g. {unresolved_from: date|null}; {} for none),
//         $now datetime, $run int, $reason string ('updated', 'deleted', 'rederived')
// returns: closed int
UNWIND $rows AS row
MATCH (d:Document {id: row.id})
WHERE coalesce(d.recorded_from < $now, true)
CREATE (version:DocumentVersion)-[:VERSION_OF]->(d)
SET version = properties(d)
SET version += row.before
SET version.recorded_until = $now, version.closed_by_run = $run, version.closed_reason = $reason
REMOVE version.pending
WITH d, version
CALL (d, version) {
  MATCH (d)-[link:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]->(e:Entity)
  CREATE (version)-[was:WAS_LINKED]->(e)
  SET was.kind = type(link),
      was.recorded_from = coalesce(link.recorded_from, version.recorded_from),
      was.recorded_until = $now
}
SET d.recorded_from = $now
RETURN count(version) AS closed
