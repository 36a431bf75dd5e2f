// `car-graph history DOC_ID` and purge find a document's closed versions by id.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX document_version_id IF NOT EXISTS
FOR (v:DocumentVersion) ON (v.id)
