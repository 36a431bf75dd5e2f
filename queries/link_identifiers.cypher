// Link documents to the identifiers their structured fields carry (a CVE alias, an application
// number, a docket): what a question naming that id links to, even when the text never says it.
// Not scope: rules never key on these links.
// params: $rows list<map>: {doc_id: string, type: string, key: string, name: string}
// returns: links int
UNWIND $rows AS row
MATCH (d:Document {id: row.doc_id})
MERGE (e:Entity {type: row.type, key: row.key})
  ON CREATE SET e.name = row.name
MERGE (d)-[:IDENTIFIED_BY]->(e)
RETURN count(*) AS links
