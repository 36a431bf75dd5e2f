// Fragment: a supersession edge belongs to the graph as car-graph recorded it at known_at
//   (car_graph/semantics.py: History.known_at). Statements match
//   [edge:SUPERSEDES|CLOSED_SUPERSEDES]: with a null known_at (the current state) only the
//   current SUPERSEDES edges count -- closed ones are rejected by their type, before any
//   property is read; with a date, an edge of either type counts when it was recorded on or
//   before known_at and not closed by then.
// slots: edge relationship, known_at datetime|null
// locals: (none)
// params: (none)
// returns: boolean
//@if known_at
CASE
  WHEN known_at IS NULL THEN type(edge) = 'SUPERSEDES'
  ELSE coalesce(edge.recorded_from <= known_at, true) AND coalesce(edge.recorded_until > known_at, true)
END
//@else
type(edge) = 'SUPERSEDES'
//@end
