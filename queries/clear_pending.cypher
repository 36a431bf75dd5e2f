// Mark documents as resolved: their batch's supersession (explicit links, rules, unresolved
// dates, cycle marks) is committed. A document still pending after a crash is redone by the
// next ingest of the same input; one that is not is skipped.
// params: $ids list<string>
// returns: cleared int
UNWIND $ids AS id
MATCH (d:Document {id: id})
REMOVE d.pending
RETURN count(d) AS cleared
