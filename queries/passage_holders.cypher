// For each asked passage of a document's title or text: the documents of that document's kind
// anywhere in the corpus that the fulltext index finds for the passage as a phrase, outside its
// supersession chain (no SUPERSEDES path of up to 4 hops either way) -- the document itself
// included, flagged `own`: a passage the index does not find in it (stop words only) vouches for
// nothing -- and how many hits were read in all (`read` = the ask's limit: there may be more
// holders). One statement for every passage a verdict asks about. The caller checks each hit's
// words against the passage (the English analyser stems and drops stop words): a passage no
// other document of the kind holds names that document (one approval in the corpus says
// "Indication: Gout").
// params: $asks list of {i int, doc_id string, lucene string (a Lucene phrase query), limit int
//         (the most fulltext hits read)}
// returns: i, read, hits (list of {id, own, title, text})
UNWIND $asks AS ask
MATCH (subject:Document {id: ask.doc_id})
CALL (subject, ask) {
  CALL db.index.fulltext.queryNodes('document_fulltext', ask.lucene, {limit: ask.limit}) YIELD node
  RETURN collect(node) AS found
}
// the chain once per ask, not a path search per hit; the subject itself may lie on it (a
// triangle of an advisory and two releases superseding it and each other)
WITH ask, subject, found,
     COLLECT { MATCH (subject)-[:SUPERSEDES*1..4]-(other) RETURN DISTINCT other } AS chain
RETURN ask.i AS i, size(found) AS read,
       [node IN found WHERE node.kind = subject.kind AND (node = subject OR NOT node IN chain)
        | {id: node.id, own: node = subject, title: node.title, text: node.text}] AS hits
