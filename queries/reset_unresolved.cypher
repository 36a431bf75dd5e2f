// Forget unresolved_from for these documents (null: all) before mark_unresolved recomputes it.
// params: $ids list<string>|null
// returns: reset int
CALL () {
  UNWIND coalesce($ids, []) AS id
  MATCH (d:Document {id: id})
  RETURN d
  UNION
  MATCH (d:Document)
  WHERE $ids IS NULL AND d.unresolved_from IS NOT NULL
  RETURN d
}
REMOVE d.unresolved_from
RETURN count(d) AS reset
