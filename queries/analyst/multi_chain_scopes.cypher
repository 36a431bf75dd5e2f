// Purpose: scopes holding more than one supersession chain (kappa > 1): entities whose scope
//   has several chain heads, documents no other in-scope document supersedes (in full or in
//   part, along edges in force: @chain_head of queries/fragments/; edges marked as possibly on
//   a cycle decide nothing, so both ends of a cycle are heads). The same test gives retrieve's,
//   ask's and explain's caution "several chains share the scope" (@several_chains), so a scope
//   is cautioned there exactly when it has a row here (default $min_chains). For such a scope,
//   "the newest document of the scope" is not the answer: each chain has its own controller.
//   kappa = documents in the scope / documents in its largest chain (the paper's Def. 5 with
//   the best anchor). With $known_at, as car-graph recorded the graph then (the scopes'
//   members then, @scope_members, and the edges recorded then); the cycle marks are read as
//   they stand (a closed edge keeps its last mark): they are a hint, not a recorded fact.
// params: $entity_type string|null (null = any), $min_chains int|null (default 2),
//         $as_of date|null, $limit int|null (default 50),
//         $known_at datetime|null (an instant, or 'YYYY-MM-DD' for the end of that day; null =
//         the current graph)
// :param entity_type => null;
// :param min_chains => 2;
// :param as_of => null;
// :param limit => 50;
// :param known_at => null;
// returns: entity_type string, entity_key string, name string, documents int, chains int,
//          largest_chain int, kappa float, heads list<string>
WITH date($as_of) AS as_of, @known_instant(value: $known_at) AS known_at
MATCH (e:Entity)
WHERE $entity_type IS NULL OR e.type = $entity_type
UNWIND @scope_members(entity: e, known_at: known_at) AS d
WITH as_of, known_at, e, d
WHERE @visible(doc: d, as_of: as_of, known_at: known_at)
WITH as_of, known_at, e, collect(d) AS docs
WHERE size(docs) >= coalesce($min_chains, 2)
UNWIND docs AS head
WITH as_of, known_at, e, docs, head
WHERE @chain_head(doc: head, entity: e, as_of: as_of, known_at: known_at)
WITH e, docs, head,
     1 + COUNT {
       // the newer end of each hop bound to a variable: the fragment reads its facts through a pattern
       MATCH (head)((h_newer)-[h:SUPERSEDES|CLOSED_SUPERSEDES]->(h_older)
           WHERE h_newer IN docs AND h_older IN docs
             AND @in_force(edge: h, newer: h_newer, as_of: as_of, known_at: known_at)){1,8}(o)
       RETURN DISTINCT o
     } AS chain_size
// heads listed by id (the first 20 of them, the same ones on every run)
ORDER BY head.id
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
