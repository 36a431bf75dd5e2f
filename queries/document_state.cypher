// What the graph already holds for these ids: the content hash of the record last written (an
// unchanged record is skipped), the hash of its embedded text (a changed record whose text is
// the same keeps its embedding) and the scope entities it had (scopes it leaves are
// re-evaluated); pending: written, but its supersession not yet resolved (a killed ingest).
// params: $ids list<string>
// returns: id, content_hash, text_hash, pending boolean, scope list<map {type, key}>
UNWIND $ids AS id
MATCH (d:Document {id: id})
RETURN d.id AS id, d.content_hash AS content_hash, d.text_hash AS text_hash,
       coalesce(d.pending, false) AS pending,
       COLLECT { MATCH (d)-[:IN_SCOPE]->(e:Entity) RETURN {type: e.type, key: e.key} } AS scope
