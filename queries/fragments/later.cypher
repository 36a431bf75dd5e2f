// Fragment: newer is later than older, as a rule's `order: later` asks: by instants when both
//   documents carry one (two events of one day are ordered), else by dates; when either date is
//   known only to the year (or the month), at that precision, where the same year is not earlier
//   (car_graph/semantics.py: _later). A document without a date is never later nor earlier.
// slots: newer node, older node
// locals: (none)
// params: (none)
// returns: boolean
CASE
  WHEN newer.published IS NULL OR older.published IS NULL THEN false
  WHEN 'year' IN [coalesce(newer.published_precision, 'day'), coalesce(older.published_precision, 'day')]
    THEN newer.published.year >= older.published.year
  WHEN 'month' IN [coalesce(newer.published_precision, 'day'), coalesce(older.published_precision, 'day')]
    THEN date.truncate('month', newer.published) >= date.truncate('month', older.published)
  ELSE coalesce(CASE WHEN newer.published_at IS NOT NULL AND older.published_at IS NOT NULL
                     THEN newer.published_at > older.published_at END,
                newer.published > older.published)
END
