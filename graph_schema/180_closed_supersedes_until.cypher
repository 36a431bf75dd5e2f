// A run finds the edges it closed (to reopen one it wrote again unchanged) and purge the edges
// closed before a date by recorded_until.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX closed_supersedes_until IF NOT EXISTS
FOR ()-[c:CLOSED_SUPERSEDES]-() ON (c.recorded_until)
