// The embedders the ingest runs recorded (Run.embedder: embedding.provenance_of as JSON), in the
// order each first ingested: a graph whose vectors came from two machines or exports lists both.
// params: (none)
// returns: embedder string, runs int (ingest runs that recorded it), first_run int, last_run int
MATCH (r:Run)
WHERE r.embedder IS NOT NULL
RETURN r.embedder AS embedder, count(r) AS runs, min(r.number) AS first_run,
       max(r.number) AS last_run
ORDER BY first_run
