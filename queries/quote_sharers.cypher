// The other documents that hold a passage a question quotes from $doc_id (its title, or a run of
// its text): those the fulltext index finds for the passage as a phrase, of $doc_id's kind and
// sharing a scope entity with it, outside its supersession chain (no path of up to 4
// SUPERSEDES edges in force, either way: a later document repeating the one it supersedes is
// that one's answer, not another reading). The caller checks each hit's words against the
// passage (the English analyser stems and drops stop words) and counts them: a passage many
// such documents hold is a family's boilerplate, not a quote that singles $doc_id out.
// The corpus is the one the verdict's retrieval read: documents visible on $as_of, edges in
// force then and, with $known_at, as car-graph recorded it at that instant -- versions, scopes
// and deleted documents of then (@known_version, @visible, @in_force).
// params: $doc_id string, $lucene string (a Lucene phrase query), $limit int (the most
//         fulltext hits read per index), $as_of date|null, $known_at datetime|null
// returns: id, title, text (as of then)
//@if known_at
CALL () {
  MATCH (subject:Document {id: $doc_id})
  RETURN subject
  UNION
  // a document deleted since was a candidate then
  MATCH (subject:RetiredDocument {id: $doc_id})
  WHERE $known_at IS NOT NULL
  RETURN subject
}
WITH subject
//@else
MATCH (subject:Document {id: $doc_id})
//@end
WITH subject, @known_version(doc: subject, known_at: $known_at) AS subject_facts
WHERE subject_facts IS NOT NULL
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
WITH subject, subject_facts, found, @identity(found: found) AS doc
//@else
WITH subject, subject_facts, found, found AS doc
//@end
WHERE doc <> subject AND found.kind = subject_facts.kind
  AND @known_version(doc: doc, known_at: $known_at) = found
  AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
//@if known_at
  AND EXISTS {
    (subject_facts)-[held:IN_SCOPE|WAS_LINKED]->(:Entity)<-[shared:IN_SCOPE|WAS_LINKED]-(found)
    WHERE (type(held) = 'IN_SCOPE' OR held.kind = 'IN_SCOPE')
      AND (type(shared) = 'IN_SCOPE' OR shared.kind = 'IN_SCOPE')
  }
//@else
  AND EXISTS { (subject)-[:IN_SCOPE]->(:Entity)<-[:IN_SCOPE]-(doc) }
//@end
  AND NOT EXISTS {
    MATCH (subject)((x)-[edge:SUPERSEDES|CLOSED_SUPERSEDES]-(y)
        // either way: the edge's newer document is x or y
        WHERE (startNode(edge) = x AND @in_force(edge: edge, newer: x, as_of: $as_of, known_at: $known_at))
           OR (startNode(edge) = y AND @in_force(edge: edge, newer: y, as_of: $as_of, known_at: $known_at))){1,4}(doc)
  }
RETURN doc.id AS id, found.title AS title, found.text AS text
