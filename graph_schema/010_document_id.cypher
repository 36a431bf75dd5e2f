// Documents are identified by their input id; MERGE on it in ingest relies on this constraint.
// params: (none)
// returns: (nothing)
CREATE CONSTRAINT document_id IF NOT EXISTS
FOR (d:Document) REQUIRE d.id IS UNIQUE
