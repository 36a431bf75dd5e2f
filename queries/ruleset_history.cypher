// The recorded changes of one rule set, newest first (`car-graph domains show`).
// params: $name string
// returns: version int, at datetime, run int, source string, origin string|null,
//          added list<string>, changed list<string>, removed list<string>,
//          opened string (JSON: rule -> edges), closed string (JSON: rule -> reason -> edges)
MATCH (c:RuleChange {ruleset: $name})
RETURN c.version AS version, c.at AS at, c.run AS run, c.source AS source, c.origin AS origin,
       c.added AS added, c.changed AS changed, c.removed AS removed,
       c.opened AS opened, c.closed AS closed
ORDER BY version DESC
