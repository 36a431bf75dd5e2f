// Every recorded version of one document and every supersession edge it was ever an end of --
// current and closed alike -- with both clocks: valid time (published, withdrawn, an edge's
// effective date) and transaction time (recorded_from / recorded_until, the run that closed
// it and why). What `car-graph history DOC_ID` prints (graph_schema/README.md, "Two clocks").
// A deleted document (:RetiredDocument) has its closed versions and edges; no row for an id
// car-graph never recorded, or whose history was purged away entirely.
// params: $doc_id string
// returns: doc_id string, current boolean (a :Document now; false: deleted), retired_at
//          datetime|null, versions list<map {title, kind, domain, published, withdrawn,
//          unresolved_from, recorded_from, recorded_until, closed_by_run, closed_reason,
//          current boolean}> (oldest first; the current version last, recorded_until null),
//          edges list<map {direction ('incoming': the other document supersedes this one;
//          'outgoing': this one supersedes it), other_id, rule, effective, partial, evidence,
//          confidence, recorded_from, recorded_until, applied_by_run, closed_by_run,
//          closed_reason, current boolean}> (by recorded_from, then the other id)
MATCH (doc {id: $doc_id})
WHERE doc:Document OR doc:RetiredDocument
WITH doc,
     COLLECT {
       MATCH (doc)<-[:VERSION_OF]-(version:DocumentVersion)
       RETURN version {.title, .kind, .domain, .published, .withdrawn, .unresolved_from,
                       .recorded_from, .recorded_until, .closed_by_run, .closed_reason,
                       current: false} AS version
       ORDER BY version.recorded_until
     } + CASE WHEN doc:Document THEN [doc {.title, .kind, .domain, .published, .withdrawn,
                                           .unresolved_from, .recorded_from,
                                           recorded_until: null, closed_by_run: null,
                                           closed_reason: null, current: true}]
              ELSE [] END AS versions,
     COLLECT {
       MATCH (doc)-[edge:SUPERSEDES|CLOSED_SUPERSEDES]-(other)
       RETURN edge {direction: CASE WHEN startNode(edge) = doc THEN 'outgoing' ELSE 'incoming' END,
                    other_id: other.id, .rule, .effective,
                    partial: coalesce(edge.partial, false), .evidence, .confidence,
                    .recorded_from, .recorded_until, .applied_by_run, .closed_by_run,
                    .closed_reason, current: type(edge) = 'SUPERSEDES'} AS edge
       ORDER BY edge.recorded_from, other.id
     } AS edges
RETURN doc.id AS doc_id, doc:Document AS current, doc.retired_at AS retired_at, versions, edges
