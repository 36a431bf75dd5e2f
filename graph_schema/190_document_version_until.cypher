// purge --before DATE erases closed document versions by recorded_until.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX document_version_until IF NOT EXISTS
FOR (v:DocumentVersion) ON (v.recorded_until)
