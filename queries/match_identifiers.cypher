// Every identifier look-up a question needs, in one round trip: its exact keys
// (match_entity_keys.cypher) and, for each partial identifier, the keys ending in its digits
// (match_key_suffix.cypher) -- among the documents of the scopes the question names when
// `scoped`, and in the whole corpus -- so the linker picks without asking again.
// params: $keys list<string> (normalised keys), $partials list<map {suffix string, prefix
//         string ('' = any), scoped boolean, types list<string> (the partial-capable types
//         whose identifiers the suffix is long enough to name)}>, $scopes list<map {type, key}>
//         (the named scopes), $limit int (per partial look-up)
// returns: kind string ('key' | 'partial'), partial int (index into $partials; null for keys),
//          scoped boolean (null for keys), type, key, name
CALL () {
  CALL () {
    //@include match_entity_keys
  }
  RETURN 'key' AS kind, null AS partial, null AS scoped, type, key, name
  UNION ALL
  UNWIND range(0, size($partials) - 1) AS partial
  UNWIND CASE WHEN $partials[partial].scoped THEN [true, false] ELSE [false] END AS scoped
  WITH partial, scoped, $partials[partial].suffix AS suffix,
       CASE WHEN scoped THEN '' ELSE $partials[partial].prefix END AS prefix,
       CASE WHEN scoped THEN $scopes ELSE [] END AS scopes,
       $partials[partial].types AS types
  CALL (suffix, prefix, scopes, types) {
    //@include match_key_suffix $suffix=suffix $prefix=prefix $scopes=scopes $types=types
  }
  RETURN 'partial' AS kind, partial, scoped, type, key, name
}
RETURN kind, partial, scoped, type, key, name
