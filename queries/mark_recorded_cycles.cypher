// Set maybe_cycle_recorded on documents (current or retired): true when the document lies on a
// cycle of the recorded graph -- every full supersession edge ever recorded, current or closed
// (recorded_cycle_component.cypher) -- false when it lies on none. A cycle of any state
// car-graph recorded is a cycle of that graph, so a document marked false was on no cycle at any
// recorded instant, and a --known-at read may let a full edge in force void it at once
// (fragments/recorded_acyclic.cypher) instead of searching for a way back. Only documents with
// an edge in and an edge out are marked (no other can lie on a cycle, and the read tells them by
// their edges); unmarked ones (written before this pass, or not yet walked) get the exact test.
// params: $rows list<map {node string (elementId), mark boolean}>
// returns: marked int
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.node
SET n.maybe_cycle_recorded = row.mark
RETURN count(n) AS marked
