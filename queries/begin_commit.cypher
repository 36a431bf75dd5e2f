// Open one commit of a recorded run: the transaction time of the writes one batch (or one
// closing step) of the run makes. Every write the commit makes carries recorded_from = at or
// recorded_until = at; the commit becomes visible to --known-at only once end_commit.cypher
// records when its last transaction committed (known_at_pin.cypher). Same clock as
// begin_run.cypher: the database's, strictly increasing, ordered across concurrent runs.
// params: $run int (the run the commit belongs to)
// returns: run int, at datetime (the commit's transaction time)
MERGE (clock:RunClock {name: 'transaction time'})
SET clock.commits = coalesce(clock.commits, 0) + 1
WITH clock, datetime.truncate('microsecond', datetime.realtime()) AS now
SET clock.at = CASE WHEN clock.at IS NULL OR now > clock.at THEN now
                    ELSE clock.at + duration({nanoseconds: 1000}) END
CREATE (c:Commit {run: $run, at: clock.at})
RETURN c.run AS run, c.at AS at
