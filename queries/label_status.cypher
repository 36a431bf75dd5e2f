// Status labels for Neo4j Browser's style (graph_schema/browser.grass), which can colour nodes
// by label only: every Document gets exactly one of :Active, :Superseded, :PartiallySuperseded,
// :Withdrawn, :Unresolved -- its status today (the @status fragment, queries/fragments/, with
// date() for its date: the semantics retrieval and the analyst queries use).
// Browser alone reads these labels (retrieval computes statuses as of each query's date);
// `car-graph browser` refreshes them, so rerun it after an ingest.
// params: (none)
// returns: status string, documents int
MATCH (d:Document)
WITH d, @status(doc: d, as_of: date(), known_at: null) AS status
REMOVE d:Active:Superseded:PartiallySuperseded:Withdrawn:Unresolved
FOREACH (_ IN CASE WHEN status = 'active' THEN [1] ELSE [] END | SET d:Active)
FOREACH (_ IN CASE WHEN status = 'superseded' THEN [1] ELSE [] END | SET d:Superseded)
FOREACH (_ IN CASE WHEN status = 'partially_superseded' THEN [1] ELSE [] END | SET d:PartiallySuperseded)
FOREACH (_ IN CASE WHEN status = 'withdrawn' THEN [1] ELSE [] END | SET d:Withdrawn)
FOREACH (_ IN CASE WHEN status = 'unresolved' THEN [1] ELSE [] END | SET d:Unresolved)
RETURN status, count(d) AS documents
ORDER BY status
