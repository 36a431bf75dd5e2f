// Record where a run's writes came from: `car-graph mcp` stamps the runs of its ingest tool
// with source 'mcp' and the name the MCP client gave in its initialize request. Every document
// version the run wrote is recorded from the run's instant (recorded_from = run.at).
// params: $run int, $source string, $client string|null
// returns: run int, source string, client string|null
MATCH (r:Run {number: $run})
SET r.source = $source, r.client = $client
RETURN r.number AS run, r.source AS source, r.client AS client
