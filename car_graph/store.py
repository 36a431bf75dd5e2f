"""The Neo4j side of car-graph: every read and write goes through a catalogue statement.

Access modes: ``read`` runs its statement in a READ session as one auto-commit transaction, so
the server itself refuses a write reached through a read path (retrieval, explain, analyst
statements), and an outage surfaces at once instead of behind the driver's 30 s of retries.
``write_batch`` is the one place that retries (tenacity, a few seconds): its statements are
idempotent MERGEs in one transaction, so replaying a batch whose commit was lost is harmless.
Losing the server becomes ServerUnavailableError, which names the URI and what to do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from neo4j import READ_ACCESS, WRITE_ACCESS, Driver, ManagedTransaction, Record, Session
from neo4j.exceptions import Neo4jError, ServiceUnavailable, SessionExpired, TransientError
from tenacity import (
    before_sleep_log,
    retry,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
)

from car_graph import cypher
from car_graph.errors import ServerUnavailableError

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class RecordedRun:
    """One recorded run (an ingest, a delete, a purge): its number and its transaction time,
    from the database's clock and strictly increasing (queries/begin_run.cypher). What the run
    opens is recorded from ``at``; what it closes is recorded until ``at``, by run ``number``."""

    number: int
    at: Any  # neo4j.time.DateTime (UTC, microseconds)

    def params(self) -> dict[str, Any]:
        """The $now and $run parameters of the statements that record or close history."""
        return {"now": self.at, "run": self.number}
# Raised by the driver when the server went away or is restarting: worth a bounded retry for
# idempotent batches, and a ServerUnavailableError for everything else.
CONNECTION_LOST = (ServiceUnavailable, SessionExpired)
BATCH_ATTEMPTS = 4
BATCH_RETRY_SECONDS = 15.0
BATCH_WAIT = wait_exponential(multiplier=0.5, max=4)  # 0.5 s, 1 s, 2 s between attempts


def _is_database_unavailable(exc: Neo4jError) -> bool:
    return (exc.code or "").endswith("DatabaseUnavailable")


class GraphStore:
    """Runs the catalogue's statements against one database. The driver is owned by the caller.

    ``uri`` only names the server in error messages.

    Every write that can change what question analysis reads from the graph (documents' entity
    links and names, stored domains) stamps a new graph version in the same transaction
    (queries/stamp_graph_version.cypher): ``write_batch`` always, ``write`` and
    ``write_in_one_transaction`` for the statements in ``STAMPED``. Retrievers cache the corpus's names per version and compare it with the version
    car's snapshot returns, so another process's ingest never leaves them silently stale.
    """

    STAMPED = frozenset({"delete_documents", "upsert_domain"})

    def __init__(self, driver: Driver, database: str | None = None, uri: str | None = None) -> None:
        self.driver = driver
        self.database = database
        self.uri = uri

    @contextmanager
    def _session(self, access_mode: str, what: str) -> Iterator[Session]:
        try:
            # The driver's execute_query bookmark manager, so a read sees every write made
            # before it, here or through execute_query, on a cluster as on a single server.
            with self.driver.session(
                database=self.database, default_access_mode=access_mode,
                bookmark_manager=self.driver.execute_query_bookmark_manager,
            ) as s:
                yield s
        except CONNECTION_LOST as exc:
            raise self.unavailable(exc, what) from exc
        except Neo4jError as exc:
            if _is_database_unavailable(exc):
                raise self.unavailable(exc, what) from exc
            raise

    def unavailable(self, exc: Exception, what: str) -> ServerUnavailableError:
        return ServerUnavailableError(self.uri or "the configured Neo4j server", what, str(exc))

    # -- reads ---------------------------------------------------------------------------------
    # Positional-only statement name: a statement may itself take a $name parameter.
    def read(self, name: str, /, **params: Any) -> list[Record]:
        """The rows of a read-only catalogue statement; a write inside it fails on the server."""
        with self._session(READ_ACCESS, f"read {name}") as session:
            params = cypher.clock_defaults(name) | params
            return list(session.run(cypher.load(name, history=cypher.reads_history(name, params)),
                                    params))

    def in_read_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Several catalogue statements in one read transaction (one consistent snapshot); a
        write inside fails on the server."""
        with self._session(READ_ACCESS, "read") as session:
            return session.execute_read(work)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        def work(tx: ManagedTransaction) -> list[Record]:
            rows = list(tx.run(cypher.statement(name), params))
            if name in self.STAMPED:
                tx.run(cypher.statement("stamp_graph_version")).consume()
            return rows

        with self._session(WRITE_ACCESS, f"write {name}") as session:
            return session.execute_write(work)

    def write_in_one_transaction(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Record]]:
        """Several catalogue statements in one write transaction: all commit or none (stamped
        like ``write`` when one of them is in ``STAMPED``)."""

        def work(tx: ManagedTransaction) -> list[list[Record]]:
            rows = [list(tx.run(cypher.statement(name), dict(params))) for name, params in statements]
            if any(name in self.STAMPED for name, _ in statements):
                tx.run(cypher.statement("stamp_graph_version")).consume()
            return rows

        with self._session(WRITE_ACCESS, "write " + ", ".join(n for n, _ in statements)) as session:
            return session.execute_write(work)

    def begin_run(self, command: str, embedder: str | None = None) -> RecordedRun:
        """Start a recorded run: the transaction time of everything it writes. ``embedder``: an
        ingest's record of what embeds its vectors (``embedding.provenance_of``, as JSON)."""
        row = self.write("begin_run", command=command, embedder=embedder)[0]
        return RecordedRun(int(row["run"]), row["at"])

    def begin_commit(self, run: int) -> RecordedRun:
        """Open another commit of run ``run`` (a batch, a run's closing step): its writes carry
        the returned instant, and become visible to --known-at when ``end_commit`` closes it
        (begin_run opens a run's first commit)."""
        row = self.write("begin_commit", run=run)[0]
        return RecordedRun(int(row["run"]), row["at"])

    def end_commit(self, commit: RecordedRun) -> None:
        """Close a commit once its last write transaction committed (queries/end_commit.cypher)."""
        self.write("end_commit", run=commit.number, at=commit.at)

    # -- ingestion -----------------------------------------------------------------------------
    def write_batch(
        self,
        documents: Sequence[Mapping[str, Any]],
        scope: Sequence[Mapping[str, Any]],
        mentions: Sequence[Mapping[str, Any]],
        identifiers: Sequence[Mapping[str, Any]] = (),
        replace: Sequence[str] = (),
        names: Sequence[Mapping[str, Any]] = (),
        *,
        run: RecordedRun | None = None,
    ) -> None:
        """One transaction per batch: documents, their scope, identifier, name and mention links.
        ``replace``: ids whose old links and edges go first (they are written again): their
        current versions are closed first (kept as :DocumentVersion), their edges closed.
        ``run``: the recorded run writing the batch (None: a run of its own).

        Either the whole batch commits or none of it; a lost connection is retried for a few
        seconds (the statements are MERGEs, so a replay changes nothing), then reported.
        """

        own = self.begin_run("ingest") if run is None else None
        self._commit_batch(self._batch_statements(documents, scope, mentions, identifiers, replace,
                                                  names, (run or own).params()),  # type: ignore[union-attr]
                           f"write a batch of {len(documents)} documents")
        if own is not None:
            self.end_commit(own)

    def _commit_batch(self, statements: Sequence[tuple[str, dict[str, Any]]], what: str) -> None:
        def work(session: Session) -> None:
            with session.begin_transaction() as tx:
                for name, params in statements:
                    tx.run(cypher.statement(name), params).consume()
                tx.commit()

        with self._session(WRITE_ACCESS, what) as s:
            _retrying_idempotent(lambda: work(s))

    @staticmethod
    def _batch_statements(
        documents: Sequence[Mapping[str, Any]], scope: Sequence[Mapping[str, Any]],
        mentions: Sequence[Mapping[str, Any]], identifiers: Sequence[Mapping[str, Any]],
        replace: Sequence[str], names: Sequence[Mapping[str, Any]], recorded: Mapping[str, Any],
    ) -> list[tuple[str, dict[str, Any]]]:
        """The statements of one batch, in order: the replaced ids' versions closed and links
        dropped, the documents, their links, and last the graph version stamp (so the one node
        every batch locks is held only while committing)."""
        statements: list[tuple[str, dict[str, Any]]] = []
        if replace:
            statements.append(("close_document_versions", {
                "rows": [{"id": i, "before": {}} for i in replace], "reason": "updated", **recorded}))
            statements.append(("unlink_documents", {"ids": list(replace), **recorded}))
        statements.append(("upsert_documents", {"rows": list(documents), **recorded}))
        for name, rows in (("link_scope", scope), ("link_identifiers", identifiers),
                           ("link_names", names), ("link_mentions", mentions)):
            if rows:
                statements.append((name, {"rows": list(rows), **recorded}))
        statements.append(("stamp_graph_version", {}))
        return statements

    def counts(self) -> dict[str, int]:
        record = self.read("count_graph")[0]
        return {k: int(record[k]) for k in ("documents", "entities", "supersedes", "unresolved")}

    def edges_by_rule(self) -> dict[str, int]:
        return {r["rule"]: int(r["edges"]) for r in self.read("count_edges_by_rule")}


class RehearsalStore(GraphStore):
    """A GraphStore whose every read and write runs in one explicit write transaction that is
    rolled back at the end: a dry run goes through exactly the code of the real run (the same
    statements, the same order) and sees its own writes, then leaves the graph as it was.

        with RehearsalStore.over(store) as rehearsal:
            summary = ingest_records(records, rehearsal, ...)   # nothing is committed

    One transaction holds all of it, so a rehearsal of a very large change needs the server's
    transaction memory (the heap) to hold it."""

    def __init__(self, driver: Driver, database: str | None = None, uri: str | None = None) -> None:
        super().__init__(driver, database, uri)
        self._tx: Any = None

    @classmethod
    @contextmanager
    def over(cls, store: GraphStore) -> Iterator[RehearsalStore]:
        rehearsal = cls(store.driver, store.database, store.uri)
        with rehearsal._session(WRITE_ACCESS, "rehearse a change") as session:
            tx = session.begin_transaction()
            rehearsal._tx = tx
            try:
                yield rehearsal
            finally:
                rehearsal._tx = None
                tx.rollback()

    def _run(self, name: str, params: Mapping[str, Any], *, history: bool = False) -> list[Record]:
        text = cypher.load(name, history=history) if history else cypher.statement(name)
        rows = list(self._tx.run(text, dict(params)))
        if name in self.STAMPED:
            self._tx.run(cypher.statement("stamp_graph_version")).consume()
        return rows

    def read(self, name: str, /, **params: Any) -> list[Record]:
        params = cypher.clock_defaults(name) | params
        return self._run(name, params, history=cypher.reads_history(name, params))

    def in_read_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        return work(self._tx)

    def write(self, name: str, /, **params: Any) -> list[Record]:
        return self._run(name, params)

    def write_in_one_transaction(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Record]]:
        return [self._run(name, params) for name, params in statements]

    def _commit_batch(self, statements: Sequence[tuple[str, dict[str, Any]]], what: str) -> None:
        for name, params in statements:
            self._tx.run(cypher.statement(name), params).consume()


def _retrying_idempotent(call: Callable[[], T]) -> T:
    """Run an idempotent write again after a lost connection or a transient server error."""
    retrying = retry(
        retry=retry_if_exception_type((*CONNECTION_LOST, TransientError)),
        stop=stop_after_attempt(BATCH_ATTEMPTS) | stop_after_delay(BATCH_RETRY_SECONDS),
        wait=BATCH_WAIT,
        before_sleep=before_sleep_log(logger, logging.INFO),
        reraise=True,
    )
    return retrying(call)()
