// Fragment: the documents in an entity's scope as car-graph recorded them at known_at
//   (car_graph/semantics.py: History.known_at). With a null known_at (the current graph): the
//   current documents linked IN_SCOPE to it, read as before. With a date: the documents whose
//   version recorded then (@known_version) held the entity in scope -- the current version's
//   IN_SCOPE link, or a closed version's WAS_LINKED {kind: 'IN_SCOPE'}; a document deleted
//   since counts by its version of that time. The recorded intervals of a document's versions
//   and of its current node never overlap (a version closes the instant the next one starts),
//   so "the version recorded then" is tested on the linked node's own interval -- a property
//   comparison per member instead of @known_version's look-up of every version (@several_chains
//   and the closure's scope counts read whole scopes this way).
// slots: entity node, known_at datetime|null
// locals: member, member_link, member_version
// params: (none)
// returns: list<node> (each a :Document or a :RetiredDocument, once)
COLLECT {
  MATCH (entity)<-[:IN_SCOPE]-(member:Document)
  WHERE known_at IS NULL
  RETURN member
  UNION
  MATCH (entity)<-[:IN_SCOPE]-(member:Document)
  WHERE known_at IS NOT NULL AND coalesce(member.recorded_from <= known_at, true)
  RETURN member
  UNION
  MATCH (entity)<-[member_link:WAS_LINKED]-(member_version:DocumentVersion)-[:VERSION_OF]->(member)
  WHERE known_at IS NOT NULL AND member_link.kind = 'IN_SCOPE'
    AND coalesce(member_version.recorded_from <= known_at, true)
    AND member_version.recorded_until > known_at
  RETURN member
}
