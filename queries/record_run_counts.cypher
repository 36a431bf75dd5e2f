// Keep a run's counts on it, when it ends: what `car-graph runs` lists.
// params: $run int, $added int|null, $updated int|null, $deleted int|null
// returns: run int
MATCH (r:Run {number: $run})
SET r.added = $added, r.updated = $updated, r.deleted = $deleted
RETURN r.number AS run
