// One record of the embedder that wrote the document vectors, per vector index: the constraint
// makes concurrent first ingests agree on a single record (claim_embedder.cypher MERGEs it).
// params: (none)
// returns: (nothing)
CREATE CONSTRAINT embedder_index IF NOT EXISTS
FOR (e:Embedder) REQUIRE e.index IS UNIQUE
