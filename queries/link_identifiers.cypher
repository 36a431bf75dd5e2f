// Link documents to the identifiers their structured fields carry (a CVE alias, an application
// number, a docket): what a question naming that id links to, even when the text never says it.
// Not scope: rules never key on these links.
// params: $rows list<map>: {doc_id: string, type: string, key: string, name: string}
//         $now datetime (links are recorded from the run that makes them)
// returns: links int
UNWIND $rows AS row
MATCH (d:Document {id: row.doc_id})
MERGE (e:Entity {type: row.type, key: row.key})
  ON CREATE SET e.name = row.name
MERGE (d)-[link:IDENTIFIED_BY]->(e)
  ON CREATE SET link.recorded_from = $now
RETURN count(*) AS links
