// `car-graph runs`: every recorded run, oldest first -- what started it, where its writes came
// from, when it began and when its last commit closed (end_commit.cypher: its writes are
// visible to --known-at from then), how many commits it made, and its counts as recorded
// (record_run_counts.cypher; a purge's from record_purge.cypher).
// params: (none)
// returns: run int, command string, source string|null, client string|null, started datetime,
//          committed datetime|null (null: a commit never closed -- the process stopped),
//          commits int, first_commit datetime|null, last_commit datetime|null (transaction
//          times of its first and last commit), added int|null, updated int|null,
//          deleted int|null, versions int|null, edges int|null, retired int|null,
//          cutoff datetime|null, documents list<string>|null, reason string|null
MATCH (r:Run)
WITH r, COLLECT { MATCH (c:Commit {run: r.number}) RETURN c ORDER BY c.at } AS commits
RETURN r.number AS run, r.command AS command, r.source AS source, r.client AS client,
       r.at AS started,
       CASE WHEN size(commits) = 0 OR any(c IN commits WHERE c.committed IS NULL) THEN null
            ELSE reduce(last = null, c IN commits |
                   CASE WHEN last IS NULL OR c.committed > last THEN c.committed ELSE last END)
       END AS committed,
       size(commits) AS commits, commits[0].at AS first_commit, commits[-1].at AS last_commit,
       r.added AS added, r.updated AS updated, r.deleted AS deleted, r.versions AS versions,
       r.edges AS edges, r.retired AS retired, r.cutoff AS cutoff, r.documents AS documents,
       r.reason AS reason
ORDER BY run
