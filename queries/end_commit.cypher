// Close one commit of a recorded run, after its last write transaction committed: from
// `committed` on, --known-at sees what the commit wrote (known_at_pin.cypher). The instant is
// read after the commit, so it is never before any of the commit's writes became readable.
// params: $run int, $at datetime (the commit's transaction time, begin_commit.cypher)
// returns: run int, at datetime, committed datetime
MATCH (c:Commit {run: $run})
// the same instant, whatever zone spelling the driver sent it in ('Z' and 'UTC' compare unequal)
WHERE c.at.epochSeconds = $at.epochSeconds AND c.at.nanosecond = $at.nanosecond
SET c.committed = datetime.truncate('microsecond', datetime.realtime())
RETURN c.run AS run, c.at AS at, c.committed AS committed
