// Fragment: an entity's scope holds several supersession chains (kappa > 1) on a date: two or
//   more of its documents visible then head a chain (@chain_head) -- exactly the scopes
//   queries/analyst/multi_chain_scopes.cypher reports (with its default $min_chains). Stops at
//   the second head found, so a hub of many independent documents costs two tests, and only a
//   scope holding one chain is read whole. Members as recorded at known_at (@scope_members).
// slots: entity node, as_of date|null, known_at datetime|null
// locals: scope_head, scope_link, scope_version
// params: (none)
// returns: boolean
//@if known_at
size(COLLECT {
  // @scope_members, streamed instead of listed first, so that the second head found ends the
  // search here too: as recorded at known_at, the current documents recorded by then, and the
  // closed versions whose recorded interval holds it (scope_members.cypher says why that is the
  // version then)
  CALL (entity) {
    MATCH (entity)<-[:IN_SCOPE]-(scope_head:Document)
    WHERE known_at IS NULL OR coalesce(scope_head.recorded_from <= known_at, true)
    RETURN scope_head
    UNION
    MATCH (entity)<-[scope_link:WAS_LINKED]-(scope_version:DocumentVersion)-[:VERSION_OF]->(scope_head)
    WHERE known_at IS NOT NULL AND scope_link.kind = 'IN_SCOPE'
      AND coalesce(scope_version.recorded_from <= known_at, true)
      AND scope_version.recorded_until > known_at
    RETURN scope_head
  }
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
