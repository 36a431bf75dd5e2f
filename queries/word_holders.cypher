// For each asked word of a question: the documents of $kind the fulltext index finds for it --
// the English analyser stems, so "symlink" finds a text writing "symlinks" -- whether $doc_id
// is among them (`own`: the document holds the word, in some form), how many others are
// (`holders`), and how many hits were read (`read`: the most any one index gave; at the limit
// there may be more). A verdict asks this of a lead among the documents of a name the question
// links, for the rare words of the question the lead does not write: a word many documents of
// its kind hold, and it not, is what the question is about, not what the lead is about.
// The corpus is the one the verdict's retrieval read: documents visible on $as_of and, with
// $known_at, as car-graph recorded them at that instant -- the versions of then, found through
// both fulltext indexes, deleted documents as they were (@known_version). A word no document
// holds returns no row.
// params: $asks list of {i int, lucene string (a Lucene term query)}, $doc_id string,
//         $kind string, $limit int (the most fulltext hits read per index),
//         $as_of date|null, $known_at datetime|null
// returns: i, read int, own boolean, holders int
UNWIND $asks AS ask
CALL (ask) {
  CALL db.index.fulltext.queryNodes('document_fulltext', ask.lucene, {limit: $limit}) YIELD node
  RETURN collect(node) AS current
}
//@if known_at
CALL (ask) {
  CALL db.index.fulltext.queryNodes('document_version_fulltext', ask.lucene, {limit: $limit}) YIELD node
  RETURN collect(node) AS closed
}
//@else
WITH ask, current, [] AS closed
//@end
UNWIND current + closed AS found
//@if known_at
WITH ask, current, closed, found, @identity(found: found) AS doc
//@else
WITH ask, current, closed, found, found AS doc
//@end
// a hit counts as the version recorded then, of a document visible then, of the asked kind
WITH ask, current, closed,
     collect(DISTINCT CASE
       WHEN @known_version(doc: doc, known_at: $known_at) = found
            AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
            AND found.kind = $kind
       THEN doc.id
     END) AS ids
RETURN ask.i AS i, CASE WHEN size(current) > size(closed) THEN size(current) ELSE size(closed) END AS read,
       $doc_id IN ids AS own, size([id IN ids WHERE id <> $doc_id]) AS holders
