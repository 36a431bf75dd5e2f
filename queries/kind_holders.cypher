// The other documents of $doc_id's kind that hold (are scoped to, identified or named by) an
// entity of every mention a question makes -- at most $limit of them. A verdict that would take
// $doc_id as the subject because the others it read only answer ("by elimination") asks this
// when every document it read holds the names: a product of many advisories fills the readings
// with its release notes, and its other advisories rank beyond them, unread.
// The corpus is the one the verdict's retrieval read: documents visible on $as_of and, with
// $known_at, as car-graph recorded them at that instant -- versions, links and deleted
// documents of then (@known_version, @visible).
// params: $doc_id string, $mentions list<list<map {type, key}>> (one list per mention: the
//         entities it was linked to, any of which counts; at least one mention),
//         $limit int, $as_of date|null, $known_at datetime|null
// returns: holders int (at most $limit)
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
UNWIND $mentions[0] AS named
//@if known_at
MATCH (:Entity {type: named.type, key: named.key})<-[link:IN_SCOPE|IDENTIFIED_BY|NAMED|WAS_LINKED]-(found)
WHERE type(link) <> 'WAS_LINKED' OR link.kind <> 'MENTIONS'
WITH subject, subject_facts, found, @identity(found: found) AS doc
//@else
MATCH (:Entity {type: named.type, key: named.key})<-[:IN_SCOPE|IDENTIFIED_BY|NAMED]-(found:Document)
WITH subject, subject_facts, found, found AS doc
//@end
WHERE doc <> subject AND found.kind = subject_facts.kind
  AND @known_version(doc: doc, known_at: $known_at) = found
  AND @visible(doc: doc, as_of: $as_of, known_at: $known_at)
  AND all(mention IN $mentions[1..] WHERE any(other IN mention WHERE EXISTS {
//@if known_at
        (found)-[held:IN_SCOPE|IDENTIFIED_BY|NAMED|WAS_LINKED]->(:Entity {type: other.type, key: other.key})
        WHERE type(held) <> 'WAS_LINKED' OR held.kind <> 'MENTIONS'
//@else
        (found)-[:IN_SCOPE|IDENTIFIED_BY|NAMED]->(:Entity {type: other.type, key: other.key})
//@end
      }))
WITH DISTINCT doc
LIMIT $limit
RETURN count(doc) AS holders
