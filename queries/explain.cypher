// One document as of a date: its scope and the SUPERSEDES edges in force on that date around it
// (what supersedes it, what it supersedes). Its status and controlling documents come from
// closure.cypher with the document as the only anchor (one place for the semantics); visibility
// and "in force" are the fragments @visible and @in_force (queries/fragments/).
// params: $doc_id string, $as_of date|null
// returns: doc_id, title, visible boolean (published on or before $as_of), scope list<string>,
//          superseded_by list<map>, supersedes list<map> (maps: {from_id, to_id, rule,
//          effective, evidence, partial})
MATCH (doc:Document {id: $doc_id})
RETURN doc.id AS doc_id,
       doc.title AS title,
       @visible(doc: doc, as_of: $as_of) AS visible,
       COLLECT { MATCH (doc)-[:IN_SCOPE]->(e:Entity) RETURN e.type + ':' + e.key } AS scope,
       COLLECT {
         MATCH (doc)<-[s:SUPERSEDES]-(n:Document)
         WHERE @in_force(edge: s, newer: n, as_of: $as_of)
         RETURN {from_id: doc.id, to_id: n.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS superseded_by,
       COLLECT {
         MATCH (doc)-[s:SUPERSEDES]->(o:Document)
         WHERE @in_force(edge: s, newer: doc, as_of: $as_of)
         RETURN {from_id: o.id, to_id: doc.id, rule: s.rule, effective: s.effective,
                 evidence: s.evidence, partial: coalesce(s.partial, false)}
       } AS supersedes
