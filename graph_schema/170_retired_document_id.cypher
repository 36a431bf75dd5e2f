// A deleted document keeps its node as :RetiredDocument (its closed edges still point at it);
// ingesting its id again finds it here and makes it a :Document again, one node per id.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX retired_document_id IF NOT EXISTS
FOR (r:RetiredDocument) ON (r.id)
