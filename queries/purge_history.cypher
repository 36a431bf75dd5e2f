// `car-graph purge --before CUTOFF`: really erase closed history, for users who must (retention
// rules, a removed record that must not stay readable). Run inside a recorded purge run
// (record_purge.cypher). Erased: SUPERSEDES edges closed before $before; document versions
// closed before it that no kept edge needs; deleted documents (:RetiredDocument) retired
// before it that no longer hold a closed edge or version. No answer at an instant on or after
// $before changes: everything erased was closed before it. A version a kept edge (current, or
// closed on or after $before) was recorded beside stays, so that edge still leads to the
// document as it was then (an edge kept its start when its superseder was retitled). The
// current state is never touched.
// params: $before datetime (erase what was closed strictly before this instant)
// returns: versions int, edges int, retired int
CALL () {
  MATCH ()-[closed:CLOSED_SUPERSEDES]->()
  WHERE closed.recorded_until < $before
  DELETE closed
  RETURN count(closed) AS edges
}
CALL () {
  MATCH (doc)<-[:VERSION_OF]-(version:DocumentVersion)
  WHERE version.recorded_until < $before
    AND NOT EXISTS {
      MATCH (doc)-[kept:SUPERSEDES|CLOSED_SUPERSEDES]-()
      // kept: current, or closed on or after $before; recorded while the version was
      WHERE (type(kept) = 'SUPERSEDES' OR kept.recorded_until >= $before)
        AND (kept.recorded_from IS NULL OR kept.recorded_from < version.recorded_until)
    }
  DETACH DELETE version
  RETURN count(version) AS versions
}
CALL () {
  MATCH (retired:RetiredDocument)
  WHERE retired.retired_at < $before
    AND NOT EXISTS { (retired)-[:CLOSED_SUPERSEDES|VERSION_OF]-() }
  DETACH DELETE retired
  RETURN count(retired) AS retired
}
RETURN versions, edges, retired
