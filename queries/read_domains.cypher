// The user domains declared in rules/domain YAML files at ingest (identifier patterns, name
// types), so that any process answering questions links them the same way.
// params: (none)
// returns: name string, spec string (JSON, see car_graph.domains.domain_to_mapping)
MATCH (d:Domain)
RETURN d.name AS name, d.spec AS spec
ORDER BY name
