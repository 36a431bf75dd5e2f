// The ids among $ids that the graph holds already, as a document or as a deleted one
// (:RetiredDocument, whose id coming again would revive it): what `car-graph mcp` refuses to
// overwrite or to supersede without --allow-overwrite.
// params: $ids list<string>
// returns: doc_id string
UNWIND $ids AS id
OPTIONAL MATCH (d:Document {id: id})
OPTIONAL MATCH (r:RetiredDocument {id: id})
WITH id, d, r
WHERE d IS NOT NULL OR r IS NOT NULL
RETURN DISTINCT id AS doc_id
ORDER BY doc_id
