// Totals for the ingest summary and `car-graph status`.
// params: (none)
// returns: documents int, entities int (those some document links now; an entity only a closed
//          version was linked to is history), supersedes int, unresolved int (documents a rule could
//          have superseded, later documents sharing their scope, yet no edge decides: the
//          @undecided fragment of queries/fragments/, with no date cut-off)
CALL () { MATCH (d:Document) RETURN count(d) AS documents }
CALL () { MATCH (e:Entity) WHERE EXISTS { (e)<-[:IN_SCOPE|IDENTIFIED_BY|NAMED|MENTIONS]-(:Document) } RETURN count(e) AS entities }
CALL () { MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS supersedes }
CALL () {
  MATCH (d:Document)
  WHERE @undecided(doc: d, as_of: null, known_at: null)
  RETURN count(d) AS unresolved
}
RETURN documents, entities, supersedes, unresolved
