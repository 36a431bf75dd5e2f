// `car-graph purge --before DATE`: really erase closed history, for users who must (retention
// rules, a removed record that must not stay readable). Erased: document versions and
// SUPERSEDES edges closed before $before, and deleted documents (:RetiredDocument) retired
// before it that no longer hold a closed edge or version. The current state is never touched;
// a --known-at read before $before no longer sees what was erased.
// params: $before datetime (erase what was closed strictly before this instant)
// returns: versions int, edges int, retired int
CALL () {
  MATCH ()-[closed:CLOSED_SUPERSEDES]->()
  WHERE closed.recorded_until < $before
  DELETE closed
  RETURN count(closed) AS edges
}
CALL () {
  MATCH (version:DocumentVersion)
  WHERE version.recorded_until < $before
  DETACH DELETE version
  RETURN count(version) AS versions
}
CALL () {
  MATCH (retired:RetiredDocument)
  WHERE retired.retired_at < $before
    AND NOT EXISTS { (retired)-[:CLOSED_SUPERSEDES|VERSION_OF]-() }
  DELETE retired
  RETURN count(retired) AS retired
}
RETURN versions, edges, retired
