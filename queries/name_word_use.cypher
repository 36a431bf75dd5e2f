// How the corpus uses the words of some names: for each (entity, word), the documents whose title
// or text holds the word (document_fulltext, at most $limit) although no entity whose name or key
// holds the word as a token scopes or names them -- the word used as an ordinary word, not as a name --
// and how many documents the entity itself scopes or names. car_graph.linking reads it to keep a
// name whose every significant word is such an ordinary word ("memory", "internet protocol")
// from linking on those words alone.
// params: $names list<map {type string, key string, words list<map {word string, lucene string,
//         pattern string (a regex matching a name that holds the word as a token)}>}>,
//         $limit int (fulltext hits counted per word)
// returns: type, key, word, ordinary int (documents using the word not as a name, capped by
//          the $limit hits read), own int (documents the entity scopes or names)
UNWIND $names AS named
MATCH (e:Entity {type: named.type, key: named.key})
WITH named, COUNT { (e)<-[:IN_SCOPE|NAMED]-(:Document) } AS own
UNWIND named.words AS w
CALL (w) {
  CALL db.index.fulltext.queryNodes('document_fulltext', w.lucene, {limit: $limit}) YIELD node
  WHERE NOT EXISTS {
    (node)-[:IN_SCOPE|NAMED]->(holder:Entity)
    WHERE toLower(coalesce(holder.name, '') + ' ' + holder.key) =~ w.pattern
  }
  RETURN count(node) AS ordinary
}
RETURN named.type AS type, named.key AS key, w.word AS word, ordinary, own
