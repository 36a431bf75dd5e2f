// Link documents to the further names their structured fields give their subject (a brand
// beside the generic name): what a question naming that brand -- even misspelt -- links to.
// Not scope: rules never key on these links.
// params: $rows list<map>: {doc_id: string, type: string, key: string, name: string}
//         $now datetime (links are recorded from the run that makes them)
// returns: links int
UNWIND $rows AS row
MATCH (d:Document {id: row.doc_id})
MERGE (e:Entity {type: row.type, key: row.key})
  ON CREATE SET e.name = row.name
MERGE (d)-[link:NAMED]->(e)
  ON CREATE SET link.recorded_from = $now
RETURN count(*) AS links
