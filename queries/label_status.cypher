// Status labels for Neo4j Browser's style (graph_schema/browser.grass), which can colour nodes
// by label only: every Document gets exactly one of :Active, :Superseded, :PartiallySuperseded,
// :Withdrawn, :Unresolved -- its status today, with the precedence explain.cypher uses.
// Browser alone reads these labels (retrieval computes statuses as of each query's date);
// `car-graph browser` refreshes them, so rerun it after an ingest.
// params: (none)
// returns: status string, documents int
MATCH (d:Document)
WITH d,
     CASE
       WHEN EXISTS {
         MATCH (d)<-[s:SUPERSEDES]-(:Document)
         WHERE NOT coalesce(s.partial, false) AND NOT coalesce(s.maybe_cycle, false)
       } THEN 'superseded'
       WHEN d.withdrawn IS NOT NULL AND d.withdrawn <= date() THEN 'withdrawn'
       WHEN EXISTS { (d)<-[:SUPERSEDES {maybe_cycle: true}]-(:Document) } THEN 'unresolved'
       WHEN EXISTS {
         MATCH (d)<-[s:SUPERSEDES]-(:Document) WHERE coalesce(s.partial, false)
       } THEN 'partially_superseded'
       WHEN d.unresolved_from IS NOT NULL AND d.unresolved_from <= date() THEN 'unresolved'
       ELSE 'active'
     END AS status
REMOVE d:Active:Superseded:PartiallySuperseded:Withdrawn:Unresolved
FOREACH (_ IN CASE WHEN status = 'active' THEN [1] ELSE [] END | SET d:Active)
FOREACH (_ IN CASE WHEN status = 'superseded' THEN [1] ELSE [] END | SET d:Superseded)
FOREACH (_ IN CASE WHEN status = 'partially_superseded' THEN [1] ELSE [] END | SET d:PartiallySuperseded)
FOREACH (_ IN CASE WHEN status = 'withdrawn' THEN [1] ELSE [] END | SET d:Withdrawn)
FOREACH (_ IN CASE WHEN status = 'unresolved' THEN [1] ELSE [] END | SET d:Unresolved)
RETURN status, count(d) AS documents
ORDER BY status
