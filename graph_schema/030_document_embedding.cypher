// Dense retrieval over document embeddings. The dimension comes from the embedding model;
// schema.apply refuses to continue if an existing index has another dimension.
// params: $dimensions int
// returns: (nothing)
CREATE VECTOR INDEX document_embedding IF NOT EXISTS
FOR (d:Document) ON d.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
