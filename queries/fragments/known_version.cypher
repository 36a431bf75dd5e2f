// Fragment: the node holding a document's facts (published, withdrawn, unresolved_from, title,
//   text, kind, domain) as car-graph recorded them at known_at (car_graph/semantics.py:
//   History.known_at): the document itself when known_at is null (the current state) or its
//   current version was recorded by then; else its closed version (:DocumentVersion) whose
//   recorded interval holds known_at; null when the document was not recorded then (not yet
//   ingested, or deleted). Nodes written before transaction time was recorded count as
//   recorded from the beginning.
// slots: doc node, known_at datetime|null
// locals: version
// params: (none)
// returns: node|null
//@if known_at
CASE
  WHEN known_at IS NULL THEN doc
  WHEN doc:Document AND coalesce(doc.recorded_from <= known_at, true) THEN doc
  ELSE COLLECT {
    MATCH (doc)<-[:VERSION_OF]-(version:DocumentVersion)
    WHERE coalesce(version.recorded_from <= known_at, true) AND version.recorded_until > known_at
    RETURN version
  }[0]
END
//@else
doc
//@end
