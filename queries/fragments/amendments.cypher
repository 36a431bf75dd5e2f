// Fragment: the partial edges in force into the documents of a chain that the chain does not
//   take itself: the amendments shown beside it (a memo that amended version 1 and version 2 in
//   part, beside the chain version 1 -> 2 -> 3 -> 4). Hop maps as the chain's.
// slots: chain path, as_of date|null, known_at datetime|null
// locals: amended, amendment, amender
// params: (none)
// returns: list<map {from_id, to_id, rule, effective, evidence, partial}>
COLLECT {
  UNWIND nodes(chain) AS amended
  MATCH (amended)<-[amendment:SUPERSEDES|CLOSED_SUPERSEDES]-(amender)
  WHERE @partial(edge: amendment) AND NOT amendment IN relationships(chain)
    AND @in_force(edge: amendment, newer: amender, as_of: as_of, known_at: known_at)
  RETURN {from_id: amended.id, to_id: amender.id, rule: amendment.rule,
          effective: amendment.effective, evidence: amendment.evidence, partial: true}
  ORDER BY amendment.effective, amender.id, amended.id
}
