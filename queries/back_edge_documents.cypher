// Documents that make a full SUPERSEDES edge to a document published no earlier than
// themselves (or undated): "back" edges. Every cycle holds one, so cycle detection only walks
// the components these documents are in. Served by the supersedes_back index.
// params: (none)
// returns: id string
MATCH (n:Document)-[s:SUPERSEDES {back: true}]->(:Document)
WHERE @full(edge: s)
RETURN DISTINCT n.id AS id
