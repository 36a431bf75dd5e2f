// Lexical anchors over closed document versions, for --known-at questions only (current
// questions use document_fulltext, which holds current versions alone).
// params: (none)
// returns: (nothing)
CREATE FULLTEXT INDEX document_version_fulltext IF NOT EXISTS
FOR (v:DocumentVersion) ON EACH [v.title, v.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}}
