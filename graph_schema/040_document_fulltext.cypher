// Lexical anchors: Lucene full-text over title and text. eventually_consistent false so a
// document is searchable as soon as its transaction commits.
// params: (none)
// returns: (nothing)
CREATE FULLTEXT INDEX document_fulltext IF NOT EXISTS
FOR (d:Document) ON EACH [d.title, d.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}}
