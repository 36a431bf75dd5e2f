// Turn the explicit 'supersedes' references stored on documents into SUPERSEDES edges.
// Runs over every document that holds references, so a reference to a document ingested later
// is linked by the later run. Idempotent: MERGE, properties set on creation only.
// params: (none)
// returns: rule string, edges int (edges that exist for these references), missing list<string>
MATCH (newer:Document)
WHERE newer.supersedes_ids IS NOT NULL AND size(newer.supersedes_ids) > 0
UNWIND range(0, size(newer.supersedes_ids) - 1) AS i
OPTIONAL MATCH (older:Document {id: newer.supersedes_ids[i]})
CALL (newer, older, i) {
  WITH newer, older, i WHERE older IS NOT NULL AND older <> newer
  MERGE (newer)-[s:SUPERSEDES]->(older)
    ON CREATE SET s.rule = 'explicit',
                  s.effective = CASE newer.supersedes_effective[i]
                                  WHEN '' THEN newer.published
                                  ELSE date(newer.supersedes_effective[i]) END,
                  s.evidence = CASE newer.supersedes_evidence[i]
                                 WHEN '' THEN 'given in the input'
                                 ELSE newer.supersedes_evidence[i] END,
                  s.confidence = 1.0,
                  s.partial = newer.supersedes_partial[i]
  RETURN count(s) AS linked
}
RETURN 'explicit' AS rule,
       sum(linked) AS edges,
       [x IN collect(CASE WHEN older IS NULL THEN newer.id + ' -> ' + newer.supersedes_ids[i] END)
        WHERE x IS NOT NULL] AS missing
