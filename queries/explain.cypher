// One document as of a date: its scope and the SUPERSEDES edges in force on that date around it
// (what supersedes it, what it supersedes). Its status and controlling documents come from
// closure.cypher with the document as the only anchor (one place for the semantics); visibility
// and "in force" are the fragments @visible and @in_force (queries/fragments/).
// With $known_at, the document and its edges as car-graph recorded them then: its version of
// that time (@known_version), the edges recorded then (@recorded, closed ones too), its scope
// links of that version; no row when it was not recorded then.
// params: $doc_id string, $as_of date|null, $known_at datetime|null
// returns: doc_id, title, kind, text, visible boolean (published on or before $as_of), scope list<string>,
//          several_chains list<string> (the scope entities holding several supersession chains
//          on $as_of, @several_chains: the rows of analyst/multi_chain_scopes),
//          superseded_by list<map>, supersedes list<map> (maps: {from_id, to_id, rule,
//          effective, evidence, partial})
//@if known_at
CALL () {
  MATCH (doc:Document {id: $doc_id})
  RETURN doc
  UNION
  MATCH (doc:RetiredDocument {id: $doc_id})
  WHERE $known_at IS NOT NULL
  RETURN doc
}
//@else
MATCH (doc:Document {id: $doc_id})
//@end
WITH doc, @known_version(doc: doc, known_at: $known_at) AS facts
WHERE facts IS NOT NULL
RETURN doc.id AS doc_id,
       facts.title AS title,
       doc.kind AS kind,
       facts.text AS text,
       @visible(doc: doc, as_of: $as_of, known_at: $known_at) AS visible,
//@if known_at
       CASE WHEN facts = doc
            THEN COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key }
            ELSE COLLECT { MATCH (facts)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(e:Entity) RETURN e.type + ':' + e.key }
       END AS scope,
       CASE WHEN facts = doc
            THEN COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity)
                           WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                           RETURN e.type + ':' + e.key }
            ELSE COLLECT { MATCH (facts)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(e:Entity)
                           WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                           RETURN e.type + ':' + e.key }
       END AS several_chains,
//@else
       COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key } AS scope,
       COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity)
                 WHERE @several_chains(entity: e, as_of: $as_of, known_at: $known_at)
                 RETURN e.type + ':' + e.key } AS several_chains,
//@end
       COLLECT {
         MATCH (doc)<-[s:SUPERSEDES|CLOSED_SUPERSEDES]-(n)
         WHERE @in_force(edge: s, newer: n, as_of: $as_of, known_at: $known_at)
         RETURN {from_id: doc.id, to_id: n.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS superseded_by,
       COLLECT {
         MATCH (doc)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(o)
         WHERE @in_force(edge: s, newer: doc, as_of: $as_of, known_at: $known_at)
         RETURN {from_id: o.id, to_id: doc.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS supersedes
