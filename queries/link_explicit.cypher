// Turn the explicit 'supersedes' references stored on documents into SUPERSEDES edges (rule
// 'explicit'), for the documents written now ($ids) and for earlier documents still waiting on a
// reference to one of them (label PendingRefs), so a reference to a document ingested later is
// linked by the later run. A document's first reference to a target wins; a reference to itself
// makes no edge and is reported.
// params: $ids list<string> (documents written by this ingest), $now datetime, $run int (the
//         recorded run: new edges are recorded from $now, a changed one closes its old version)
// returns: edges int, missing list<string> ("newer -> target"), self list<string>
CALL () {
  UNWIND $ids AS id
  MATCH (newer:Document {id: id})
  WHERE size(coalesce(newer.supersedes_ids, [])) > 0
  RETURN newer
  UNION
  MATCH (newer:PendingRefs)
  WHERE any(x IN newer.supersedes_ids WHERE x IN $ids)
  RETURN newer
}
UNWIND range(0, size(newer.supersedes_ids) - 1) AS i
WITH newer, i, newer.supersedes_ids[i] AS target
WHERE NOT target IN newer.supersedes_ids[0..i]
OPTIONAL MATCH (older:Document {id: target})
CALL (newer, older, i) {
  WITH newer, older, i WHERE older IS NOT NULL AND older <> newer
  WITH newer, older,
       {effective: CASE newer.supersedes_effective[i]
                     WHEN '' THEN newer.published
                     ELSE date(newer.supersedes_effective[i]) END,
        evidence: CASE newer.supersedes_evidence[i]
                    WHEN '' THEN 'given in the input'
                    ELSE newer.supersedes_evidence[i] END,
        confidence: 1.0,
        partial: newer.supersedes_partial[i]} AS content
  // an edge whose content changes closes its old version first
  CALL (newer, older, content) {
    MATCH (newer)-[old:SUPERSEDES {rule: 'explicit'}]->(older)
    WHERE coalesce(old.recorded_from < $now, true)
      AND any(key IN keys(content) WHERE NOT coalesce(old[key] = content[key], old[key] IS NULL AND content[key] IS NULL))
    CREATE (newer)-[closed:CLOSED_SUPERSEDES]->(older)
    SET closed = properties(old), closed.recorded_until = $now, closed.closed_by_run = $run,
        closed.closed_reason = 'record changed'
    SET old.recorded_from = $now
  }
  MERGE (newer)-[s:SUPERSEDES {rule: 'explicit'}]->(older)
    ON CREATE SET s.recorded_from = $now
  SET s += content,
      s.back = NOT coalesce(newer.published > older.published, false)
  RETURN count(s) AS linked
}
WITH newer, sum(linked) AS linked,
     [x IN collect(CASE WHEN older IS NULL THEN target END) WHERE x IS NOT NULL] AS missing,
     [x IN collect(CASE WHEN older = newer THEN target END) WHERE x IS NOT NULL] AS self
FOREACH (_ IN CASE WHEN size(missing) > 0 THEN [1] ELSE [] END | SET newer:PendingRefs)
FOREACH (_ IN CASE WHEN size(missing) = 0 THEN [1] ELSE [] END | REMOVE newer:PendingRefs)
RETURN sum(linked) AS edges,
       reduce(acc = [], m IN collect([x IN missing | newer.id + ' -> ' + x]) | acc + m) AS missing,
       reduce(acc = [], m IN collect([x IN self | newer.id]) | acc + m) AS self
