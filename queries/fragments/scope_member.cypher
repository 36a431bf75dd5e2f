// Fragment: a document is in an entity's scope as car-graph recorded it at known_at: one of
//   @scope_members(entity, known_at), tested for one document instead of listed. In the
//   current graph (known_at null) that is the document's IN_SCOPE link, all scope_members
//   lists then, so the form that reads the current graph tests the link alone. As recorded at
//   known_at: the document's version then (@known_version) held the entity in scope -- the
//   current version's IN_SCOPE link, or a closed version's WAS_LINKED {kind: 'IN_SCOPE'}. Read
//   from the one document, never by listing the scope: chain_head asks it for every edge into
//   every member, and listing made that quadratic in the scope (3.2 million db hits for one
//   question on a 2,000-document graph with ten rounds of history).
// slots: doc node, entity node, known_at datetime|null
// locals: member_then
// params: (none)
// returns: boolean
//@if known_at
CASE WHEN known_at IS NULL THEN EXISTS { (doc:Document)-[:IN_SCOPE]->(entity) }
     ELSE any(member_then IN [@known_version(doc: doc, known_at: known_at)]
              WHERE CASE WHEN member_then = doc
                           THEN EXISTS { (doc:Document)-[:IN_SCOPE]->(entity) }
                         ELSE EXISTS { (member_then:DocumentVersion)-[:WAS_LINKED {kind: 'IN_SCOPE'}]->(entity) }
                    END) END
//@else
EXISTS { (doc:Document)-[:IN_SCOPE]->(entity) }
//@end
