"""The Neo4j side of car-graph: every read and write goes through a catalogue statement."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from neo4j import READ_ACCESS, Driver, ManagedTransaction, Record, RoutingControl

from car_graph import cypher

logger = logging.getLogger(__name__)
T = TypeVar("T")


class GraphStore:
    """Runs the catalogue's statements against one database. The driver is owned by the caller."""

    def __init__(self, driver: Driver, database: str | None = None) -> None:
        self.driver = driver
        self.database = database

    # -- reads ---------------------------------------------------------------------------------
    def read(self, name: str, **params: Any) -> list[Record]:
        records, _, _ = self.driver.execute_query(
            cypher.load(name), params, database_=self.database, routing_=RoutingControl.READ
        )
        return records

    def in_read_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Run several catalogue statements in one read transaction (one consistent snapshot)."""
        with self.driver.session(database=self.database, default_access_mode=READ_ACCESS) as session:
            return session.execute_read(work)

    def write(self, name: str, **params: Any) -> list[Record]:
        records, _, _ = self.driver.execute_query(
            cypher.load(name), params, database_=self.database, routing_=RoutingControl.WRITE
        )
        return records

    # -- ingestion -----------------------------------------------------------------------------
    def write_batch(
        self,
        documents: Sequence[Mapping[str, Any]],
        scope: Sequence[Mapping[str, Any]],
        mentions: Sequence[Mapping[str, Any]],
        identifiers: Sequence[Mapping[str, Any]] = (),
        replace: Sequence[str] = (),
    ) -> None:
        """One transaction per batch: documents, their scope, identifier and mention links.
        ``replace``: ids whose old links and edges go first (they are written again)."""

        def work(tx: ManagedTransaction) -> None:
            if replace:
                tx.run(cypher.statement("unlink_documents"), ids=list(replace)).consume()
            tx.run(cypher.statement("upsert_documents"), rows=list(documents)).consume()
            if scope:
                tx.run(cypher.statement("link_scope"), rows=list(scope)).consume()
            if identifiers:
                tx.run(cypher.statement("link_identifiers"), rows=list(identifiers)).consume()
            if mentions:
                tx.run(cypher.statement("link_mentions"), rows=list(mentions)).consume()

        with self.driver.session(database=self.database) as session:
            session.execute_write(work)

    def counts(self) -> dict[str, int]:
        record = self.read("count_graph")[0]
        return {k: int(record[k]) for k in ("documents", "entities", "supersedes", "unresolved")}

    def edges_by_rule(self) -> dict[str, int]:
        return {r["rule"]: int(r["edges"]) for r in self.read("count_edges_by_rule")}
