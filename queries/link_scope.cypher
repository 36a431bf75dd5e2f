// Link documents to the entities that define their scope (what supersession is keyed on).
// params: $rows list<map>: {doc_id: string, type: string, key: string, name: string}
// returns: links int
UNWIND $rows AS row
MATCH (d:Document {id: row.doc_id})
MERGE (e:Entity {type: row.type, key: row.key})
  ON CREATE SET e.name = row.name
MERGE (d)-[:IN_SCOPE]->(e)
RETURN count(*) AS links
