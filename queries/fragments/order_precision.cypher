// Fragment: the words an edge's evidence adds when `order: later` could only compare two
//   documents' dates at a coarser precision than the day ('' when both days are known).
// slots: newer node, older node
// locals: (none)
// params: (none)
// returns: string
CASE
  WHEN 'year' IN [coalesce(newer.published_precision, 'day'), coalesce(older.published_precision, 'day')]
    THEN '; order by the year alone'
  WHEN 'month' IN [coalesce(newer.published_precision, 'day'), coalesce(older.published_precision, 'day')]
    THEN '; order by the month alone'
  ELSE ''
END
