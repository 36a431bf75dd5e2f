// Delete every node and relationship in batches. Must run as an auto-commit query
// (session.run), because CALL ... IN TRANSACTIONS opens its own transactions.
// params: $batch_size int
// returns: (nothing; see the summary counters for nodes_deleted)
MATCH (n)
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF $batch_size ROWS
