// Fragment: an entity's scope holds several supersession chains (kappa > 1) on a date: two or
//   more of its documents visible then head a chain (@chain_head) -- exactly the scopes
//   queries/analyst/multi_chain_scopes.cypher reports (with its default $min_chains). Stops at
//   the second head found, so a hub of many independent documents costs two tests, and only a
//   scope holding one chain is read whole. Members as recorded at known_at (@scope_members:
//   listed first, one property comparison each; the head tests still stop at the second).
// slots: entity node, as_of date|null, known_at datetime|null
// locals: scope_head
// params: (none)
// returns: boolean
//@if known_at
size(COLLECT {
  UNWIND @scope_members(entity: entity, known_at: known_at) AS scope_head
  WITH scope_head
  WHERE @visible(doc: scope_head, as_of: as_of, known_at: known_at)
    AND @chain_head(doc: scope_head, entity: entity, as_of: as_of, known_at: known_at)
  RETURN scope_head LIMIT 2
}) >= 2
//@else
size(COLLECT {
  MATCH (entity)<-[:IN_SCOPE]-(scope_head:Document)
  WHERE @visible(doc: scope_head, as_of: as_of, known_at: known_at)
    AND @chain_head(doc: scope_head, entity: entity, as_of: as_of, known_at: known_at)
  RETURN scope_head LIMIT 2
}) >= 2
//@end
