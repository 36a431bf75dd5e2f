// Fragment: a document is in an entity's scope as car-graph recorded it at known_at: one of
//   @scope_members(entity, known_at), tested for one document instead of listed. In the
//   current graph (known_at null) that is the document's IN_SCOPE link, all scope_members
//   lists then, so the form that reads the current graph tests the link alone.
// slots: doc node, entity node, known_at datetime|null
// locals: (none)
// params: (none)
// returns: boolean
//@if known_at
CASE WHEN known_at IS NULL THEN EXISTS { (doc:Document)-[:IN_SCOPE]->(entity) }
     ELSE doc IN @scope_members(entity: entity, known_at: known_at) END
//@else
EXISTS { (doc:Document)-[:IN_SCOPE]->(entity) }
//@end
