// Typo-tolerant entity lookup with Lucene fuzzy queries (term~1). No stop words, so names
// such as "A" or "The Act" keep every token.
// params: (none)
// returns: (nothing)
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS
FOR (e:Entity) ON EACH [e.name, e.key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}}
