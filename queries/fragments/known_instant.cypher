// Fragment: the instant a known-at parameter names (car_graph/types.py: known_at_instant, what
//   --known-at does): null stays null (the current graph); a 'YYYY-MM-DD' text stands for the
//   last microsecond of that day (everything recorded on that day); a datetime, or its ISO
//   text, is itself. What Browser users paste as :param known_at => '2019-06-01' then means
//   what `car-graph query ... --param known_at=2019-06-01` means.
// slots: value datetime|string|null
// locals: (none)
// params: (none)
// returns: datetime|null
CASE
  WHEN value IS :: STRING AND size(toString(value)) = 10
    THEN datetime(value) + duration({days: 1}) - duration({nanoseconds: 1000})
  ELSE datetime(value)
END
