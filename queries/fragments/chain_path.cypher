// Fragment: the chain a document is shown with to one of its controlling documents (explain,
//   retrieve's results, the analyst query chain; car_graph/semantics.py:
//   AuthorityGraph.chain_length): a shortest path along full edges in force when one leads
//   there -- the supersession that voids the document, which its verdict names -- else
//   `shortest`, the caller's shortest path along any edges in force (a controlling document
//   reached only through a partial amendment). A partial edge shortening the way (a memo that
//   amends version 1 and is absorbed by version 4) does not replace the versions between;
//   `shortest` itself is kept when it takes no partial edge (it is then a shortest full path).
// slots: doc node, controller node, shortest path, as_of date|null, known_at datetime|null
// locals: taken, full_route, route_older, route_hop, route_newer
// params: (none)
// returns: path
CASE
  WHEN all(taken IN relationships(shortest) WHERE @full(edge: taken)) THEN shortest
  ELSE coalesce(COLLECT {
    MATCH full_route = ANY SHORTEST (doc)((route_older)<-[route_hop:SUPERSEDES|CLOSED_SUPERSEDES]-(route_newer)
        WHERE @full(edge: route_hop) AND @in_force(edge: route_hop, newer: route_newer, as_of: as_of, known_at: known_at))*(controller)
    RETURN full_route
  }[0], shortest)
END
