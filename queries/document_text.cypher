// One document's stored text and metadata, for the MCP server's car://doc/{doc_id} resource
// (its status and chains come from explain.cypher and closure.cypher, as for `car-graph explain`).
// params: $doc_id string
// returns: doc_id string, title string, kind string, domain string, published date, text string
MATCH (d:Document {id: $doc_id})
RETURN d.id AS doc_id, d.title AS title, d.kind AS kind, d.domain AS domain,
       d.published AS published, d.text AS text
