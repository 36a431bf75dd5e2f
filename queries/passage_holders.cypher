// For each asked passage of a document's title or text: the documents of that document's kind
// anywhere in the corpus that the fulltext index finds for the passage as a phrase, outside its
// supersession chain (no path of up to 4 SUPERSEDES edges in force, either way) -- the document
// itself included, flagged `own`: a passage the index does not find in it (stop words only)
// vouches for nothing -- and how many hits were read (`read`: the most any one index gave; at
// the ask's limit there may be more holders). One statement for every passage a verdict asks
// about. The caller checks each hit's words against the passage (the English analyser stems
// and drops stop words): a passage no other document of the kind holds names that document
// (one approval in the corpus says "Indication: Gout").
// The corpus is the one the verdict's retrieval read: documents visible on $as_of, edges in
// force then (@visible, @in_force) and, with $known_at, as car-graph recorded it at that
// instant -- the versions of then, found through both fulltext indexes, deleted documents as
// they were (@known_version). A document published or ingested later does not make a
// passage common.
// params: $asks list of {i int, doc_id string, lucene string (a Lucene phrase query), limit int
//         (the most fulltext hits read per index)}, $as_of date|null, $known_at datetime|null
// returns: i, read, hits (list of {id, own, title, text}: the title and text as of then)
UNWIND $asks AS ask
//@if known_at
CALL (ask) {
  MATCH (subject:Document {id: ask.doc_id})
  RETURN subject
  UNION
  // a document deleted since was a candidate then
  MATCH (subject:RetiredDocument {id: ask.doc_id})
  WHERE $known_at IS NOT NULL
  RETURN subject
}
WITH ask, subject
//@else
MATCH (subject:Document {id: ask.doc_id})
//@end
WITH ask, subject, @known_version(doc: subject, known_at: $known_at) AS subject_facts
WHERE subject_facts IS NOT NULL
CALL (ask) {
  CALL db.index.fulltext.queryNodes('document_fulltext', ask.lucene, {limit: ask.limit}) YIELD node
  RETURN collect(node) AS current
}
//@if known_at
CALL (ask) {
  CALL db.index.fulltext.queryNodes('document_version_fulltext', ask.lucene, {limit: ask.limit}) YIELD node
  RETURN collect(node) AS closed
}
//@else
WITH ask, subject, subject_facts, current, [] AS closed
//@end
// the chain once per ask, not a path search per hit; the subject itself may lie on it (a
// triangle of an advisory and two releases superseding it and each other)
WITH ask, subject, subject_facts, current, closed,
     COLLECT {
       MATCH (subject)((x)-[edge:SUPERSEDES|CLOSED_SUPERSEDES]-(y)
           // either way: the edge's newer document is x or y
           WHERE (startNode(edge) = x AND @in_force(edge: edge, newer: x, as_of: $as_of, known_at: $known_at))
              OR (startNode(edge) = y AND @in_force(edge: edge, newer: y, as_of: $as_of, known_at: $known_at))){1,4}(other)
       RETURN DISTINCT other
     } AS chain
UNWIND current + closed AS found
//@if known_at
WITH ask, subject, subject_facts, current, closed, chain, found,
     @identity(found: found) AS doc
//@else
WITH ask, subject, subject_facts, current, closed, chain, found, found AS doc
//@end
// a hit counts as the version recorded then, of a document visible then, of the subject's kind
WITH ask, subject, current, closed,
     collect(CASE
       WHEN @known_version(doc: doc, known_at: $known_at) = found
            AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
            AND found.kind = subject_facts.kind AND (doc = subject OR NOT doc IN chain)
       THEN {id: doc.id, own: doc = subject, title: found.title, text: found.text}
     END) AS hits
RETURN ask.i AS i, CASE WHEN size(current) > size(closed) THEN size(current) ELSE size(closed) END AS read,
       hits
