// The documents the fulltext index finds for a stretch of a question's words that none of the
// verdict's subjects writes (a Lucene query of its terms, best first): where a question naming
// several documents quotes one no linked name led to ("... single machine Dask clusters started
// with dask.distributed.LocalCluster ... in distributed", a product named by a common word).
// The caller keeps a hit only if its title and text hold a sentence of the stretch word for
// word. The corpus is the one the verdict's retrieval read: documents visible on $as_of and,
// with $known_at, as car-graph recorded them at that instant (@known_version, @visible).
// params: $lucene string (a Lucene query), $limit int (the most fulltext hits read per index),
//         $as_of date|null, $known_at datetime|null
// returns: id, title, text (as of then)
CALL () {
  CALL db.index.fulltext.queryNodes('document_fulltext', $lucene, {limit: $limit}) YIELD node
  RETURN node AS found
//@if known_at
  UNION ALL
  WITH $known_at AS known_at WHERE known_at IS NOT NULL
  CALL db.index.fulltext.queryNodes('document_version_fulltext', $lucene, {limit: $limit}) YIELD node
  RETURN node AS found
//@end
}
//@if known_at
WITH found, @identity(found: found) AS doc
//@else
WITH found, found AS doc
//@end
WHERE @known_version(doc: doc, known_at: $known_at) = found
  AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
RETURN DISTINCT doc.id AS id, found.title AS title, found.text AS text
