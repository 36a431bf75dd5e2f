// Kinds of document that, in the graph as of a date and as recorded at an instant, supersede
// others and are never superseded (withdrawals and recalls beside approvals; release notes where
// no release line chains releases): a candidate of such a kind answers "is it still in force?"
// about another document rather than being what the question asks about
// (car_graph.verdict.judge). The edges counted are those in force then (@in_force), as the
// verdict's own readings are. One pass over the edges, read once per graph version, date and
// instant, and only when a verdict has several close candidates.
// params: $as_of date|null, $known_at datetime|null
// returns: kinds list<string>
MATCH (newer)-[edge:SUPERSEDES|CLOSED_SUPERSEDES]->(older)
WHERE @in_force(edge: edge, newer: newer, as_of: $as_of, known_at: $known_at)
// a kind as recorded then: a deleted document keeps its kind only on its closed versions
WITH @known_version(doc: newer, known_at: $known_at) AS newer_facts,
     @known_version(doc: older, known_at: $known_at) AS older_facts
WITH collect(DISTINCT newer_facts.kind) AS voiding, collect(DISTINCT older_facts.kind) AS voided
RETURN [kind IN voiding WHERE NOT kind IN voided] AS kinds
