"""car-graph: Controlling Authority Retrieval on Neo4j."""
