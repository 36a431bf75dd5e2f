// Of the documents whose explicit references an ingest found missing, the references still
// missing now: a reference to a document a later batch of the same run wrote has been linked
// since (link_explicit.cypher links a PendingRefs document when its target arrives), so the
// end-of-ingest report names only what is really absent.
// params: $ids list<string> (the documents reported with missing references)
// returns: missing string ("newer -> target")
UNWIND $ids AS id
MATCH (newer:Document {id: id})
WHERE newer:PendingRefs
UNWIND newer.supersedes_ids AS target
WITH newer, target
WHERE NOT EXISTS { MATCH (:Document {id: target}) }
RETURN newer.id + ' -> ' + target AS missing
