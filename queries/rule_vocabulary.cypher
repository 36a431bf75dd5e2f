// What the graph's documents offer rules, per domain and kind: how many, how many lack a
// published date, their scope entity types and attribute names. An ingest checks every rule
// in force against it (car_graph.ingest.rulesets.diagnose), so a misspelt kind, scope type,
// attribute or domain is reported with the nearest name the graph holds.
// params: $domains list<string|null>|null (null: every domain)
// returns: domain string|null, kind string, documents int, unpublished int,
//          scope_types list<string>, attributes list<string>
MATCH (d:Document)
WHERE $domains IS NULL OR d.domain IN $domains OR (d.domain IS NULL AND null IN $domains)
WITH d.domain AS domain, d.kind AS kind, collect(d) AS docs
RETURN domain, kind, size(docs) AS documents,
       size([d IN docs WHERE d.published IS NULL]) AS unpublished,
       COLLECT {
         UNWIND docs AS d
         MATCH (d)-[:IN_SCOPE]->(e:Entity)
         RETURN DISTINCT e.type
       } AS scope_types,
       COLLECT {
         UNWIND docs AS d
         UNWIND keys(d) AS key
         WITH key WHERE key STARTS WITH 'attr_'
         RETURN DISTINCT substring(key, 5)
       } AS attributes
ORDER BY domain, kind
