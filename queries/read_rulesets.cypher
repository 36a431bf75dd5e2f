// The rule sets the graph keeps (one per domain, '*' for rules of every domain): what every
// later ingest applies to its records without --rules, what a delete re-derives edges with,
// and what `car-graph domains` shows.
// params: (none)
// returns: name string, version int, source string ('file', 'bundled' or 'api'),
//          origin string|null (the file it came from), rules string (JSON: a list of rules in
//          their YAML form, car_graph.rules.rule_to_mapping), fingerprint string,
//          recorded_at datetime, run int
MATCH (s:RuleSet)
RETURN s.name AS name, s.version AS version, s.source AS source, s.origin AS origin,
       s.rules AS rules, s.fingerprint AS fingerprint, s.recorded_from AS recorded_at, s.recorded_by_run AS run
ORDER BY name
