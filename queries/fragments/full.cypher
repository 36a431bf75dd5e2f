// Fragment: a SUPERSEDES edge supersedes its older document in full (not partial); only full
//   edges void a document, and only they can form a supersession cycle.
// slots: edge relationship
// locals: (none)
// params: (none)
// returns: boolean
NOT @partial(edge: edge)
