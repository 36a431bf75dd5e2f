// Closed document versions (graph_schema/README.md, "Two clocks") keep their embedding in an
// index of their own, so current-state retrieval (document_embedding) never sees history and
// a --known-at question still finds a version that was current then.
// params: $dimensions int
// returns: (nothing)
CREATE VECTOR INDEX document_version_embedding IF NOT EXISTS
FOR (v:DocumentVersion) ON v.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
