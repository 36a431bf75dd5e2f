// Fragment: the instant a known-at parameter names (car_graph/types.py: known_at_instant, what
//   --known-at does): null stays null (the current graph); a 'YYYY-MM-DD' (or 'YYYYMMDD') text stands for the
//   last microsecond of that day (everything recorded on that day); a datetime, or its ISO
//   text, is itself. What Browser users paste as :param known_at => '2019-06-01' then means
//   what `car-graph query ... --param known_at=2019-06-01` means. The instant is spelt in the
//   'UTC' zone, as recorded_from and recorded_until are written: Neo4j orders two datetimes of
//   one instant by their zone's spelling ('Z' before 'UTC'), so a tie would otherwise depend
//   on how the text was written.
// slots: value datetime|string|null
// locals: (none)
// params: (none)
// returns: datetime|null
CASE
  WHEN value IS NULL THEN null
  ELSE datetime({
    datetime: CASE
      WHEN value IS :: STRING AND toString(value) =~ '\\d{4}-?\\d{2}-?\\d{2}'
        THEN datetime(value) + duration({days: 1}) - duration({nanoseconds: 1000})
      ELSE datetime(value)
    END,
    timezone: 'UTC'})
END
