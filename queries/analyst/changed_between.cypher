// Purpose: what changed between two known-at dates, for an auditor: the documents whose answer
//   -- status, or controlling documents (`car-graph explain`'s, as of $as_of) -- differs
//   between the graph as car-graph recorded it at $known_from and at $known_to, both answers
//   side by side, with what was recorded or closed in between that reaches the document's
//   closure at either time: SUPERSEDES edges recorded or closed (rule, run, why) and document
//   versions recorded or closed. Statuses and controlling documents are the fragments' (@status,
//   @in_force, @voided, @visible, each with known_at); only documents whose closure holds
//   something that changed in between can differ, so only those are computed.
// params: $known_from datetime (an instant, or 'YYYY-MM-DD' for the end of that day),
//         $known_to datetime (the same), $as_of date|null (a date or 'YYYY-MM-DD'; null = no
//         valid-time cut-off)
// :param known_from => '2019-06-01';
// :param known_to => '2019-07-01';
// :param as_of => null;
// returns: doc_id string, title string (its version at $known_to, else at $known_from),
//          status_from string|null, status_to string|null (null: not recorded then),
//          controlling_from list<string>, controlling_to list<string>,
//          changes list<map {at datetime, run int, what ('edge recorded', 'edge closed',
//          'version recorded', 'version closed'), doc_id, newer, older, rule, partial,
//          effective, reason}> (oldest first)
WITH date($as_of) AS as_of,
     @known_instant(value: $known_from) AS known_from,
     @known_instant(value: $known_to) AS known_to
// what car-graph recorded or closed in between, and the documents each change touched
CALL (known_from, known_to) {
  MATCH (newer)-[edge:SUPERSEDES|CLOSED_SUPERSEDES]->(older)
  WHERE known_from < edge.recorded_from <= known_to OR known_from < edge.recorded_until <= known_to
  UNWIND [[edge.recorded_from, 'edge recorded', edge.applied_by_run],
          [edge.recorded_until, 'edge closed', edge.closed_by_run]] AS happened
  WITH newer, older, edge, happened
  WHERE known_from < happened[0] <= known_to
  RETURN {at: happened[0], what: happened[1], run: happened[2], doc_id: null,
          newer: newer.id, older: older.id, rule: edge.rule, partial: coalesce(edge.partial, false),
          effective: edge.effective,
          reason: CASE WHEN happened[1] = 'edge closed' THEN edge.closed_reason END} AS change,
         older AS touched
  UNION ALL
  MATCH (closed_version:DocumentVersion)-[:VERSION_OF]->(doc)
  WHERE known_from < closed_version.recorded_from <= known_to OR known_from < closed_version.recorded_until <= known_to
  UNWIND [[closed_version.recorded_from, 'version recorded', null],
          [closed_version.recorded_until, 'version closed', closed_version.closed_by_run]] AS happened
  WITH doc, closed_version, happened
  WHERE known_from < happened[0] <= known_to
  RETURN {at: happened[0], what: happened[1], run: happened[2], doc_id: doc.id, newer: null,
          older: null, rule: null, partial: null, effective: null,
          reason: CASE WHEN happened[1] = 'version closed' THEN closed_version.closed_reason END} AS change,
         doc AS touched
  UNION ALL
  MATCH (doc:Document)
  WHERE known_from < doc.recorded_from <= known_to
  RETURN {at: doc.recorded_from, what: 'version recorded', run: null, doc_id: doc.id,
          newer: null, older: null, rule: null, partial: null, effective: null,
          reason: null} AS change,
         doc AS touched
}
WITH as_of, known_from, known_to, change, touched
ORDER BY change.at, change.what, change.older, change.newer, change.doc_id
WITH as_of, known_from, known_to, collect(change) AS changes, collect(DISTINCT touched) AS touched
// the run of a change whose node or edge does not name it: the run of the commit that wrote
// at that instant (a run commits per batch), or -- a graph recorded before commits -- the run
// started then (compared as instants: = on datetimes also compares the zone's spelling)
WITH as_of, known_from, known_to, touched, changes,
     COLLECT { MATCH (c:Commit) WHERE known_from < c.at <= known_to RETURN c } AS commits,
     COLLECT { MATCH (run:Run) WHERE known_from < run.at <= known_to RETURN run } AS runs
WITH as_of, known_from, known_to, touched,
     [change IN changes | change {.*, run: coalesce(change.run,
       [c IN commits WHERE c.at.epochSeconds = change.at.epochSeconds
                     AND c.at.nanosecond = change.at.nanosecond | c.run][0],
       [run IN runs WHERE run.at.epochSeconds = change.at.epochSeconds
                    AND run.at.nanosecond = change.at.nanosecond | run.number][0])}] AS changes
UNWIND touched AS changed
// the documents whose closure (at either time) holds a changed one: it, or what it supersedes
MATCH ANY SHORTEST (changed)(()-[:SUPERSEDES|CLOSED_SUPERSEDES]->())*(doc)
WITH DISTINCT as_of, known_from, known_to, changes, doc
UNWIND [known_from, known_to] AS known_at
// each answer as `explain` gives it as of $as_of, in the graph as recorded at known_at
WITH as_of, known_from, known_at, changes, doc, @known_version(doc: doc, known_at: known_at) AS facts,
     COLLECT {
       MATCH ANY SHORTEST (doc)(()<-[hop:SUPERSEDES|CLOSED_SUPERSEDES]-(later)
           WHERE @in_force(edge: hop, newer: later, as_of: as_of, known_at: known_at))*(reached)
       WHERE @visible(doc: doc, as_of: as_of, known_at: known_at)
       RETURN DISTINCT reached
     } AS closure
WITH as_of, known_from, known_at, changes, doc, facts, closure,
     CASE WHEN facts IS NULL THEN null
          ELSE @status(doc: doc, as_of: as_of, known_at: known_at) END AS status,
     COLLECT {
       UNWIND closure AS member
       WITH member
       WHERE NOT @voided(doc: member, as_of: as_of, known_at: known_at)
       RETURN member.id AS id ORDER BY id
     } AS controlling
ORDER BY doc.id, known_at = known_from DESC
WITH doc, changes,
     collect({facts: facts, status: status, controlling: controlling,
              reached: [member IN closure | member.id]}) AS answers
WITH doc, changes, answers[0] AS before, answers[1] AS after
WHERE coalesce(before.status, '') <> coalesce(after.status, '')
   OR before.controlling <> after.controlling
WITH doc, before, after, before.reached + after.reached AS reached, changes
RETURN doc.id AS doc_id,
       coalesce(after.facts, before.facts).title AS title,
       before.status AS status_from,
       after.status AS status_to,
       before.controlling AS controlling_from,
       after.controlling AS controlling_to,
       // the changes that reach the answer: an edge into a document of either closure, or a
       // version of one
       [change IN changes WHERE change.older IN reached OR change.doc_id IN reached] AS changes
ORDER BY doc_id
