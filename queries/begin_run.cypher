// Start a recorded run (an ingest, a delete, a purge): the transaction time of everything it
// writes. Times come from the database's clock (datetime.realtime(), microseconds) and are
// strictly increasing even within one microsecond or after a clock step back: the run clock
// node is locked by the SET, so concurrent runs are ordered too. Every version, link and edge
// a run opens carries recorded_from = at; what it closes gets recorded_until = at and
// closed_by_run = run (graph_schema/README.md, "Two clocks").
// params: $command string (what started the run: 'ingest', 'delete', 'purge'),
//         $embedder string or null (an ingest: what embeds the vectors it writes,
//         embedding.provenance_of as JSON; null for the others, which embed nothing)
// The run's first commit opens with it (begin_commit.cypher: later ones); what the run writes
// is visible to --known-at once that commit is closed (end_commit.cypher).
// returns: run int (1, 2, ... per graph), at datetime (its transaction time)
MERGE (clock:RunClock {name: 'transaction time'})
SET clock.run = coalesce(clock.run, 0) + 1
WITH clock, datetime.truncate('microsecond', datetime.realtime()) AS now
SET clock.at = CASE WHEN clock.at IS NULL OR now > clock.at THEN now
                    ELSE clock.at + duration({nanoseconds: 1000}) END
CREATE (r:Run {number: clock.run, at: clock.at, command: $command, embedder: $embedder})
CREATE (:Commit {run: clock.run, at: clock.at})
RETURN r.number AS run, r.at AS at
