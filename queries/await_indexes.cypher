// Block until every index is ONLINE (vector and full-text indexes populate in the background).
// params: $timeout_seconds int
// returns: (nothing)
CALL db.awaitIndexes($timeout_seconds)
