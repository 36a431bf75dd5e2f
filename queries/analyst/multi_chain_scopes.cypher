// Purpose: scopes holding more than one supersession chain (kappa > 1): entities whose scope
//   has several chain heads, documents no other in-scope document supersedes (in full or in
//   part, along edges in force: @in_force of queries/fragments/; edges marked as possibly on a
//   cycle, @cycle_marked, decide nothing, so both ends of a cycle are heads). For such a scope,
//   "the newest document of the scope" is not the answer: each chain has its own controller.
//   kappa = documents in the scope / documents in its largest chain (the paper's Def. 5 with
//   the best anchor).
// params: $entity_type string|null (null = any), $min_chains int|null (default 2),
//         $as_of date|null, $limit int|null (default 50)
// :param entity_type => null;
// :param min_chains => 2;
// :param as_of => null;
// :param limit => 50;
// returns: entity_type string, entity_key string, name string, documents int, chains int,
//          largest_chain int, kappa float, heads list<string>
WITH date($as_of) AS as_of
MATCH (e:Entity)<-[:IN_SCOPE]-(d:Document)
WHERE ($entity_type IS NULL OR e.type = $entity_type)
  AND @visible(doc: d, as_of: as_of, known_at: null)
WITH as_of, e, collect(d) AS docs
WHERE size(docs) >= coalesce($min_chains, 2)
UNWIND docs AS head
WITH as_of, e, docs, head
WHERE NOT EXISTS {
  MATCH (head)<-[s:SUPERSEDES]-(n:Document)
  WHERE n IN docs AND NOT @cycle_marked(edge: s, known_at: null) AND @in_force(edge: s, newer: n, as_of: as_of, known_at: null)
}
WITH e, docs, head,
     1 + COUNT {
       MATCH p = (head)-[:SUPERSEDES*1..8]->(o:Document)
       WHERE o IN docs AND all(n IN nodes(p) WHERE n IN docs)
         // the newer end bound to a variable: the fragment reads its facts through a pattern
         AND all(h IN relationships(p) WHERE any(h_newer IN [startNode(h)]
                 WHERE @in_force(edge: h, newer: h_newer, as_of: as_of, known_at: null)))
       RETURN DISTINCT o
     } AS chain_size
WITH e, size(docs) AS documents, collect(head.id) AS heads, max(chain_size) AS largest_chain
WHERE size(heads) >= coalesce($min_chains, 2)
RETURN e.type AS entity_type,
       e.key AS entity_key,
       e.name AS name,
       documents,
       size(heads) AS chains,
       largest_chain,
       round(toFloat(documents) / largest_chain, 2) AS kappa,
       heads[..20] AS heads
ORDER BY chains DESC, documents DESC, entity_type, entity_key
LIMIT coalesce($limit, 50)
