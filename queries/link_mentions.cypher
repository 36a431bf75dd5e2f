// Link documents to entities they merely mention (found by the spaCy pipeline); not scope.
// params: $rows list<map>: {doc_id: string, type: string, key: string, name: string}
//         $now datetime (links are recorded from the run that makes them)
// returns: links int
UNWIND $rows AS row
MATCH (d:Document {id: row.doc_id})
MERGE (e:Entity {type: row.type, key: row.key})
  ON CREATE SET e.name = row.name
MERGE (d)-[link:MENTIONS]->(e)
  ON CREATE SET link.recorded_from = $now
RETURN count(*) AS links
