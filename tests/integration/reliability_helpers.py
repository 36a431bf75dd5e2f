"""Shared by the reliability tests: a deterministic embedder, graph snapshots, figure recording."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import neo4j
import pytest

from car_graph import cypher

DIMENSIONS = 384


class HashEmbedder:
    """Bag of hashed words, L2-normalised: deterministic, fast, and good enough to rank a word
    overlap first. For tests where the embedding model is not what is being tested."""

    model_name = "hash-embedder (tests)"
    dimensions = DIMENSIONS

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        vector = [0.0] * DIMENSIONS
        for word in re.findall(r"\w+", text.lower()):
            digest = hashlib.blake2b(word.encode("utf-8", "replace"), digest_size=4).digest()
            vector[int.from_bytes(digest, "big") % DIMENSIONS] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        if norm == 1.0 and not any(vector):
            vector[0] = 1.0
        return [v / norm for v in vector]


@dataclass(frozen=True)
class GraphSnapshot:
    """Every node (labels, properties) and relationship (type, ends, properties) of a database."""

    nodes: int
    relationships: int
    digest: str
    node_rows: tuple[str, ...]
    relationship_rows: tuple[str, ...]


# Transaction-time values (graph_schema/README.md, "Two clocks"): when a run happened differs
# between any two runs of the same input, so exports compare everything but them.
# Where a rules file was read from (a kept rule set's origin) is provenance, not content.
CLOCK_VALUES = frozenset({"at", "committed", "recorded_from", "recorded_until", "retired_at", "origin"})
# What only the history holds: the runs, closed versions, retired documents and closed edges,
# and which run wrote or closed a thing. Two ways to the same current graph (an interrupted
# ingest resumed, and a clean one) record different histories; snapshot(current_only=True)
# compares the current graph alone.
HISTORY_LABELS = ("Run", "Commit", "DocumentVersion", "RetiredDocument", "RuleChange")
HISTORY_TYPES = ("VERSION_OF", "WAS_LINKED", "CLOSED_SUPERSEDES", "CHANGED")
RUN_VALUES = frozenset({"applied_by_run", "closed_by_run", "retired_by_run", "recorded_by_run"})


def _stable(value: Any, skip: frozenset[str] = CLOCK_VALUES) -> Any:
    if isinstance(value, (list, tuple)):
        return [_stable(v, skip) for v in value]
    if isinstance(value, dict):
        return {k: _stable(v, skip) for k, v in sorted(value.items()) if k not in skip}
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    return str(value)  # neo4j dates and the like


def _node_key(labels: list[str], props: dict[str, Any]) -> str:
    ident = props.get("id") if "id" in props else (props.get("type"), props.get("key"))
    return json.dumps([sorted(labels), _stable(ident)], sort_keys=True)


def snapshot(driver: neo4j.Driver, database: str | None = None,
             with_properties: bool = True, current_only: bool = False) -> GraphSnapshot:
    """A full export, independent of internal ids, and its SHA-256; ``current_only``: the
    current graph without its recorded history (HISTORY_LABELS, HISTORY_TYPES, RUN_VALUES)."""
    # Test-only export statements: fixed text, no input in them.
    # The GraphVersion node is bookkeeping: a fresh random token per write (stamp_graph_version),
    # so two runs writing the same graph differ only there; it is not part of the graph's content.
    # So is RunClock, the counter that numbers the runs.
    nodes, _, _ = driver.execute_query(
        "MATCH (n) WHERE NOT n:GraphVersion AND NOT n:RunClock "
        "RETURN labels(n) AS labels, properties(n) AS props",
        database_=database, routing_=neo4j.RoutingControl.READ)
    rels, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN type(r) AS type, labels(a) AS al, properties(a) AS ap, "
        "labels(b) AS bl, properties(b) AS bp, properties(r) AS props",
        database_=database, routing_=neo4j.RoutingControl.READ)
    skip = CLOCK_VALUES | RUN_VALUES if current_only else CLOCK_VALUES

    def kept(*labels: list[str]) -> bool:
        return not current_only or not any(set(HISTORY_LABELS) & set(ls) for ls in labels)

    node_rows = sorted(
        json.dumps([_node_key(r["labels"], r["props"]),
                    _stable(r["props"], skip) if with_properties else None], sort_keys=True)
        for r in nodes if kept(r["labels"]))
    rel_rows = sorted(
        json.dumps([r["type"], _node_key(r["al"], r["ap"]), _node_key(r["bl"], r["bp"]),
                    _stable(r["props"], skip) if with_properties else None], sort_keys=True)
        for r in rels if kept(r["al"], r["bl"]) and not (current_only and r["type"] in HISTORY_TYPES))
    digest = hashlib.sha256("\n".join([*node_rows, "--", *rel_rows]).encode()).hexdigest()
    return GraphSnapshot(len(node_rows), len(rel_rows), digest, tuple(node_rows), tuple(rel_rows))


def record_figure(item: str, **figures: Any) -> None:
    """Append measured figures for docs/reliability.md (only when the generator asks for them)."""
    path = os.environ.get("CAR_RELIABILITY_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"item": item, **figures}, default=str) + "\n")


class ConstantEmbedder:
    """For graph-shape tests where the model is not what is being tested."""

    model_name = "constant"
    dimensions = 384

    def embed_documents(self, texts):
        return [[1 / 384 ** 0.5] * 384 for _ in texts]

    def embed_query(self, text):
        return [1 / 384 ** 0.5] * 384


# A property test replaces its graph with the next one, so label and edge counts swing past
# Neo4j's divergence threshold and every statement, the ingest's and the reads', is planned
# again every 10 s: 0.3-1.2 s per statement, about half of such a test's time (measured on the
# semantics property test). A plan's results do not depend on the statistics it was chosen
# with, so there every catalogue statement keeps its first plan (Cypher's replan=skip).
KEEP_PLAN = "CYPHER replan=skip "


@contextmanager
def first_plans_kept() -> Iterator[None]:
    statement = cypher.statement

    def kept(name: str, package: str = cypher.QUERY_PACKAGE, *, profile: bool = False,
             history: bool = True) -> str:
        text = statement(name, package, profile=profile, history=history)
        return KEEP_PLAN + text if package == cypher.QUERY_PACKAGE and not profile else text

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cypher, "statement", kept)
        yield
