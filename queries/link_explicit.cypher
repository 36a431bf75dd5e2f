// Turn the explicit 'supersedes' references stored on documents into SUPERSEDES edges (rule
// 'explicit'), for the documents written now ($ids) and for earlier documents still waiting on a
// reference to one of them (label PendingRefs), so a reference to a document ingested later is
// linked by the later run. A document's first reference to a target wins; a reference to itself
// makes no edge and is reported.
// params: $ids list<string> (documents written by this ingest)
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
  MERGE (newer)-[s:SUPERSEDES {rule: 'explicit'}]->(older)
  SET s.effective = CASE newer.supersedes_effective[i]
                      WHEN '' THEN newer.published
                      ELSE date(newer.supersedes_effective[i]) END,
      s.evidence = CASE newer.supersedes_evidence[i]
                     WHEN '' THEN 'given in the input'
                     ELSE newer.supersedes_evidence[i] END,
      s.confidence = 1.0,
      s.back = NOT coalesce(newer.published > older.published, false),
      s.partial = newer.supersedes_partial[i]
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
