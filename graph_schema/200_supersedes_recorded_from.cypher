// An ingest reports the edges its run opened (recorded_from = the run's time) without a scan
// of every edge (queries/run_edge_changes.cypher).
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX supersedes_recorded_from IF NOT EXISTS
FOR ()-[s:SUPERSEDES]-() ON (s.recorded_from)
