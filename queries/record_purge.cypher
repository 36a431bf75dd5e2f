// Record a purge on its run (begin_run.cypher with command 'purge'): what it erased and why,
// so a --known-at read before its cut-off (or about its documents) says that history is
// missing (known_at_pin.cypher) and `car-graph runs` lists it.
// params: $run int, $cutoff datetime|null (--before), $documents list<string>|null (DOC_IDs),
//         $reason string|null, $versions int, $edges int, $retired int
// returns: run int, at datetime
MATCH (r:Run {number: $run})
SET r.cutoff = $cutoff, r.documents = $documents, r.reason = $reason,
    r.versions = $versions, r.edges = $edges, r.retired = $retired
RETURN r.number AS run, r.at AS at
