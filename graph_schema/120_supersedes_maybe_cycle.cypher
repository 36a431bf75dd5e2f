// The few edges marked as possibly on a cycle, found without scanning every edge.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX supersedes_maybe_cycle IF NOT EXISTS
FOR ()-[s:SUPERSEDES]-() ON (s.maybe_cycle)
