"""The graph schema: constraints and indexes from ``graph_schema/*.cypher``, applied in order.

Why a check before the vector index: ``CREATE VECTOR INDEX ... IF NOT EXISTS`` silently keeps
an existing index with another dimension, and every later vector query would then fail or
return nonsense. So ``apply`` compares dimensions first and raises SchemaMismatchError; it never
drops or rebuilds an index on its own. Rebuilding is an explicit ``car-graph reset --yes``.

Every statement is a catalogue file; nothing here builds Cypher. Dropping uses
``DROP INDEX $name`` / ``DROP CONSTRAINT $name`` (names as parameters, accepted by Neo4j 5.26),
and only for names defined in graph_schema/ (an allow-list read from our own package data).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import neo4j

from car_graph import cypher
from car_graph.connection import ensure_local_target, wipe_database
from car_graph.errors import EmbedderMismatchError, SchemaMismatchError
from car_graph.store import GraphStore

VECTOR_INDEX = "document_embedding"
# The variant every graph embedded before car-graph recorded embedders was written with.
LEGACY_VARIANT = "torch-fp32"
AWAIT_INDEXES_SECONDS = 300

_DDL_NAME = re.compile(
    r"^\s*CREATE\s+(?:(?:VECTOR|FULLTEXT|RANGE|TEXT|POINT|LOOKUP)\s+)?(INDEX|CONSTRAINT)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.IGNORECASE | re.MULTILINE,
)
_PARAMS_LINE = re.compile(r"^//\s*params:(.*)$", re.IGNORECASE | re.MULTILINE)
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class SchemaStatement:
    """One graph_schema file: what it creates and which parameters its header declares."""

    file: str          # e.g. "030_document_embedding"
    kind: str          # "index" or "constraint"
    name: str          # the index or constraint name, e.g. "document_embedding"
    params: tuple[str, ...]


@dataclass(frozen=True)
class SchemaReport:
    """What ``apply`` did: every statement run, and the names that did not exist before."""

    dimensions: int
    applied: tuple[str, ...]
    created: tuple[str, ...]


@dataclass(frozen=True)
class SchemaObject:
    """One constraint or index as ``SHOW`` reports it (no counters, so it compares stably)."""

    kind: str                  # "constraint" or "index"
    name: str
    type: str                  # UNIQUENESS, RANGE, VECTOR, FULLTEXT, LOOKUP, ...
    entity_type: str
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    owner: str | None = None   # owning constraint (index) or owned index (constraint)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "name": self.name, "type": self.type,
            "entity_type": self.entity_type, "labels": list(self.labels),
            "properties": list(self.properties), "options": dict(self.options), "owner": self.owner,
        }


@dataclass(frozen=True)
class ResetReport:
    nodes_deleted: int
    dropped: tuple[str, ...]


def statements() -> list[SchemaStatement]:
    """Every graph_schema file in application order, parsed from our own package data."""
    result = []
    for file in cypher.schema_names():
        text = cypher.text(file, cypher.SCHEMA_PACKAGE)
        match = _DDL_NAME.search(text)
        if match is None:
            raise ValueError(f"graph_schema/{file}.cypher does not CREATE a named INDEX or CONSTRAINT")
        header = _PARAMS_LINE.search(text)
        params = tuple(_PARAM.findall(header.group(1))) if header else ()
        result.append(SchemaStatement(file, match.group(1).lower(), match.group(2), params))
    return result


def managed_names() -> tuple[str, ...]:
    """The allow-list: names of the indexes and constraints car-graph creates."""
    return tuple(s.name for s in statements())


def apply(driver: neo4j.Driver, database: str | None, dimensions: int) -> SchemaReport:
    """Create whatever is missing, refuse a vector dimension mismatch, wait for indexes.

    Idempotent: every statement is ``IF NOT EXISTS``, so a second call changes nothing.
    """
    if dimensions < 1 or dimensions > 4096:
        raise ValueError(f"vector dimensions must be 1..4096, not {dimensions}")
    available = {"dimensions": dimensions}
    applied, created = [], []
    for statement in statements():
        if statement.name == VECTOR_INDEX:
            check_vector_index(driver, database, dimensions)
        missing = [p for p in statement.params if p not in available]
        if missing:
            raise ValueError(f"graph_schema/{statement.file}.cypher needs unknown parameters {missing}")
        summary = driver.execute_query(
            cypher.load_schema(statement.file),
            {p: available[p] for p in statement.params},
            database_=database,
        ).summary
        applied.append(statement.file)
        if summary.counters.indexes_added or summary.counters.constraints_added:
            created.append(statement.name)
    driver.execute_query(
        cypher.load("await_indexes"), {"timeout_seconds": AWAIT_INDEXES_SECONDS}, database_=database
    )
    return SchemaReport(dimensions, tuple(applied), tuple(created))


def check_vector_index(driver: neo4j.Driver, database: str | None, dimensions: int) -> int | None:
    """The existing vector index's dimension (None if absent); SchemaMismatchError if it differs."""
    records = GraphStore(driver, database).read("show_vector_index", name=VECTOR_INDEX)
    if not records:
        return None
    found = records[0]["dimensions"]
    if found is None or int(found) != dimensions:
        # An index without a declared dimension cannot be trusted to match either.
        raise SchemaMismatchError(VECTOR_INDEX, dimensions, int(found or 0))
    return int(found)


@dataclass(frozen=True)
class RecordedEmbedder:
    """The embedder a graph records for its document vectors (``inferred``: from a graph that
    predates the records)."""

    model: str
    variant: str
    dimensions: int
    inferred: bool = False

    def describe(self) -> str:
        return f"{self.model} [{self.variant}, {self.dimensions} dimensions]"


def claim_embedder(store: GraphStore, model: str, variant: str, dimensions: int) -> RecordedEmbedder:
    """Record the embedder about to write vectors, or raise EmbedderMismatchError if the graph's
    vectors came from another model or variant (then nothing but a missing record is written).

    Close variants (onnx-int8 and torch-fp32 agree to ~0.994 cosine) are still refused: mixed
    vectors would make a document's rank depend on which ingest wrote it.
    """
    row = store.write("claim_embedder", index=VECTOR_INDEX, model=model, variant=variant,
                      dimensions=dimensions, legacy_variant=LEGACY_VARIANT)[0]
    recorded = RecordedEmbedder(row["model"], row["variant"], int(row["dimensions"]),
                                bool(row["inferred"]))
    wanted = RecordedEmbedder(model, variant, dimensions)
    if (recorded.model, recorded.variant, recorded.dimensions) != (model, variant, dimensions):
        raise EmbedderMismatchError(recorded.describe(), wanted.describe(), recorded.inferred)
    return recorded


def recorded_embedder(store: GraphStore) -> RecordedEmbedder | None:
    """What the graph records about its vectors' embedder; None before the first ingest."""
    rows = store.read("read_embedder", index=VECTOR_INDEX)
    if not rows:
        return None
    r = rows[0]
    return RecordedEmbedder(r["model"], r["variant"], int(r["dimensions"]), bool(r["inferred"]))


def describe(driver: neo4j.Driver, database: str) -> list[SchemaObject]:
    """Every constraint, then every index, sorted by name within each kind."""
    store = GraphStore(driver, database)  # read transactions: a catalogue read cannot write
    constraints = store.read("show_constraints")
    indexes = store.read("show_indexes")
    objects = [
        SchemaObject("constraint", r["name"], r["type"], r["entity_type"], tuple(r["labels"] or ()),
                     tuple(r["properties"] or ()), dict(r["options"] or {}), r["owned_index"])
        for r in constraints
    ]
    objects += [
        SchemaObject("index", r["name"], r["type"], r["entity_type"], tuple(r["labels"] or ()),
                     tuple(r["properties"] or ()), dict(r["options"] or {}), r["owning_constraint"])
        for r in indexes
    ]
    return objects


def drop_schema(driver: neo4j.Driver, database: str, uri: str, allow_remote: bool = False) -> tuple[str, ...]:
    """Drop car-graph's own constraints and indexes (allow-list), nothing else; return the names.

    Constraints go first because dropping one also drops the index it owns.
    """
    ensure_local_target(uri, allow_remote, "drop the schema of")
    ours = set(managed_names())
    dropped: list[str] = []
    for kind, query in (("constraint", "drop_constraint"), ("index", "drop_index")):
        # Re-read before the indexes: the constraints just dropped took their indexes along.
        present = {o.name for o in describe(driver, database) if o.kind == kind}
        for name in sorted(present & ours):
            driver.execute_query(cypher.load(query), {"name": name}, database_=database)
            dropped.append(name)
    return tuple(dropped)


def reset(driver: neo4j.Driver, database: str, uri: str, allow_remote: bool = False) -> ResetReport:
    """Delete all data and drop car-graph's schema (``car-graph reset --yes``); loopback only."""
    ensure_local_target(uri, allow_remote, "reset")
    nodes = wipe_database(driver, database, uri, allow_remote)
    dropped = drop_schema(driver, database, uri, allow_remote)
    return ResetReport(nodes, dropped)
