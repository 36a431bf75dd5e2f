"""The per-batch cycle pass (ingest/pipeline.py mark_cycles) against a real Neo4j.

What it must keep: after every ingest, batched or not, with records changed and deleted in
between, exactly the full SUPERSEDES edges that lie inside a strongly connected component of
the full edges carry maybe_cycle (closure.cypher trusts an unmarked full edge to void at once).
What it must not do: walk partial edges, or walk a component once per document of the batch.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from cycle_reference import cycle_members, same_cycle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_helpers import ConstantEmbedder, first_plans_kept

from car_graph.extraction import EntityExtractor
from car_graph.history import pin_known_at
from car_graph.ingest.pipeline import delete_documents, ingest_records, mark_recorded_cycles
from car_graph.records import parse_record
from car_graph.store import GraphStore
from car_graph.types import RunRef

pytestmark = [pytest.mark.neo4j, pytest.mark.long(60)]

EXAMPLES = int(os.environ.get("CAR_PROPERTY_EXAMPLES", "200" if os.environ.get("CI") else "25"))


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


@pytest.fixture(scope="module", autouse=True)
def keep_first_plans() -> Iterator[None]:
    with first_plans_kept():  # each graph replaces the last (reliability_helpers.KEEP_PLAN)
        yield


class CountingStore(GraphStore):
    """Records each statement's name and parameters (reads only: the walks)."""

    def __init__(self, driver: Any) -> None:
        super().__init__(driver)
        self.calls: list[tuple[str, dict[str, Any], list[Any]]] = []

    def read(self, name: str, /, **params: Any) -> list[Any]:
        rows = super().read(name, **params)
        self.calls.append((name, params, rows))
        return rows


def marks_match_the_strongly_connected_components(db: Any) -> None:
    records, _, _ = db.execute_query(
        "MATCH (x:Document)-[s:SUPERSEDES]->(y:Document) "
        "RETURN x.id AS newer, y.id AS older, coalesce(s.partial, false) AS partial, "
        "coalesce(s.maybe_cycle, false) AS marked")
    graph: dict[str, list[str]] = {}
    for r in records:
        if not r["partial"]:
            graph.setdefault(r["newer"], []).append(r["older"])
    # the cycles by reachability alone (tests/cycle_reference.py), not by the Tarjan's
    # algorithm that mark_cycles itself runs
    members = cycle_members(graph)
    for r in records:
        on_cycle = not r["partial"] and same_cycle(members, r["newer"], r["older"])
        assert r["marked"] == on_cycle, (r["newer"], r["older"], r["partial"], r["marked"])


def rec(doc_id: str, refs: list[tuple[str, bool]], text: str = "") -> Any:
    return parse_record({"id": doc_id, "text": text or f"document {doc_id}", "kind": "x",
                         "supersedes": [{"id": r, "partial": p} for r, p in refs]})


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_marks_equal_the_cycles_of_full_edges_after_batched_ingests_updates_and_deletes(
        db, extractor, data) -> None:
    db.execute_query("MATCH (n) DETACH DELETE n")
    store = GraphStore(db)
    n = data.draw(st.integers(3, 9))
    ids = [f"d{i}" for i in range(n)]
    refs = st.lists(st.tuples(st.sampled_from(ids), st.booleans()), max_size=3)
    corpus = [rec(i, data.draw(refs)) for i in ids]
    batch = data.draw(st.integers(1, 4))
    ingest_records(corpus, store, ConstantEmbedder(), extractor, [], batch_size=batch, progress=False)
    marks_match_the_strongly_connected_components(db)
    # changed records (new references: cycles made and broken), some new ids, in small batches
    changed = [rec(i, data.draw(refs), text=f"revised {i}")
               for i in data.draw(st.lists(st.sampled_from(ids), max_size=4, unique=True))]
    ingest_records(changed, store, ConstantEmbedder(), extractor, [],
                   batch_size=data.draw(st.integers(1, 3)), progress=False)
    marks_match_the_strongly_connected_components(db)
    gone = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
    if gone:
        delete_documents(store, gone)
        marks_match_the_strongly_connected_components(db)


def test_a_cycle_closed_by_a_later_batch_is_marked_and_broken_by_an_update(db, extractor) -> None:
    store = GraphStore(db)
    chain = [rec("A", [("C", False)]), rec("B", [("A", False)])]
    ingest_records(chain, store, ConstantEmbedder(), extractor, [], batch_size=1, progress=False)
    summary = ingest_records([rec("C", [("B", False)])], store, ConstantEmbedder(), extractor, [],
                             progress=False)
    assert summary.cycles == [["A", "B", "C"]]
    marks_match_the_strongly_connected_components(db)
    # C now amends B only in part: no full cycle is left, every mark is cleared
    summary = ingest_records([rec("C", [("B", True)], text="revised")], store, ConstantEmbedder(),
                             extractor, [], progress=False)
    assert summary.cycles == []
    marks_match_the_strongly_connected_components(db)
    marked, _, _ = db.execute_query("MATCH ()-[s:SUPERSEDES {maybe_cycle: true}]->() RETURN count(s) AS n")
    assert marked[0]["n"] == 0


def test_the_walk_follows_full_edges_only_and_each_component_once(db, extractor) -> None:
    """300 amendments join one document in part (one partial component of 301), beside a full
    chain of 40 written in one batch: the chain is walked once, the amendments never."""
    store = CountingStore(db)
    base = rec("STD", [])
    amendments = [rec(f"AM{i}", [("STD", True)] + ([(f"AM{i - 1}", True)] if i else []))
                  for i in range(300)]
    chain = [rec("CH0", [])] + [rec(f"CH{i}", [(f"CH{i - 1}", False)]) for i in range(1, 40)]
    # one amendment also amends the chain's middle in part: partial edges join it all
    bridge = rec("BRIDGE", [("CH20", True), ("AM150", True)])
    ingest_records([base, *amendments, *chain, bridge], store, ConstantEmbedder(), extractor, [],
                   batch_size=400, progress=False)
    walks = [(params, rows) for name, params, rows in store.calls if name == "supersession_component"]
    assert len(walks) == 1, "the chain's 38 inner documents share one walk"
    members = set(walks[0][1][0]["members"])
    assert members == {f"CH{i}" for i in range(40)}, "partial edges are not walked"
    candidates = [rows for name, _, rows in store.calls if name == "cycle_candidates"]
    assert {r["id"] for rows in candidates for r in rows} == {f"CH{i}" for i in range(1, 39)}
    marks_match_the_strongly_connected_components(db)


def recorded_marks(db: Any) -> dict[str, Any]:
    records, _, _ = db.execute_query(
        "MATCH (d) WHERE d:Document OR d:RetiredDocument RETURN d.id AS id, d.maybe_cycle_recorded AS mark")
    return {r["id"]: r["mark"] for r in records}


def frontier_as_known(store: GraphStore, anchor: str, known_at: Any) -> dict[str, str]:
    rows = store.read("closure", anchors=[{"id": anchor, "rank": 0, "score": 1.0}], as_of=None,
                      known_at=known_at, embedding=None, k=10)
    return {r["doc_id"]: r["status"] for r in rows if r["doc_id"] is not None}


def test_a_cycle_broken_since_still_decides_a_read_as_known_before_it_broke(db, extractor) -> None:
    """Current marks describe the current graph; a --known-at read lets a full edge void at
    once only where the recorded graph (every edge ever recorded) has no cycle. A and B
    superseded each other (no exit: both unresolved); then B was revised without its
    reference. Read as known before the revision, the cycle must still hold -- a read trusting
    the current (cleared) mark of A -> B would call B voided."""
    store = GraphStore(db)
    first = ingest_records(
        [rec("A", [("B", False)]), rec("B", [("A", False)]),
         rec("C1", []), rec("C2", [("C1", False)]), rec("C3", [("C2", False)])],
        store, ConstantEmbedder(), extractor, [], progress=False)
    then = pin_known_at(store, RunRef(first.run)).instant
    ingest_records([rec("B", [], text="revised B")], store, ConstantEmbedder(), extractor, [],
                   progress=False)
    marks = recorded_marks(db)
    assert marks["A"] is True and marks["B"] is True, marks
    # the chain's inner document is marked; its ends, with an edge on one side only, are not
    assert [marks[c] for c in ("C1", "C2", "C3")] == [None, False, None], marks
    marks_match_the_strongly_connected_components(db)  # the current marks: the cycle is gone
    assert frontier_as_known(store, "A", then) == {"A": "unresolved", "B": "unresolved"}
    assert frontier_as_known(store, "A", None) == {"A": "active"}
    assert frontier_as_known(store, "C1", then) == {"C3": "active"}


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_document_on_a_cycle_of_the_recorded_graph_is_marked_acyclic(db, extractor, data) -> None:
    """The recorded graph: every full edge ever recorded, current or closed, through current and
    retired documents. A document marked maybe_cycle_recorded = false must lie on none of its
    cycles (checked by reachability, tests/cycle_reference.py); after changes, deletions and
    re-ingests, and after the pass over the whole graph that a change of rules runs."""
    db.execute_query("MATCH (n) DETACH DELETE n")
    store = GraphStore(db)
    ids = [f"d{i}" for i in range(data.draw(st.integers(3, 8)))]
    refs = st.lists(st.tuples(st.sampled_from(ids), st.booleans()), max_size=3)
    for round_number in range(data.draw(st.integers(1, 3))):
        chosen = data.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
        ingest_records([rec(i, data.draw(refs), text=f"{i} round {round_number}") for i in chosen],
                       store, ConstantEmbedder(), extractor, [],
                       batch_size=data.draw(st.integers(1, 3)), progress=False)
        gone = data.draw(st.lists(st.sampled_from(ids), max_size=1, unique=True))
        if gone:
            delete_documents(store, gone)
    whole = data.draw(st.booleans())
    if whole:
        mark_recorded_cycles(store, None)
    records, _, _ = db.execute_query(
        "MATCH (x)-[s:SUPERSEDES|CLOSED_SUPERSEDES]->(y) WHERE NOT coalesce(s.partial, false) "
        "RETURN elementId(x) AS newer, elementId(y) AS older")
    graph: dict[str, list[str]] = {}
    for r in records:
        graph.setdefault(r["newer"], []).append(r["older"])
    members = cycle_members(graph)
    marked, _, _ = db.execute_query(
        "MATCH (d) WHERE d.maybe_cycle_recorded IS NOT NULL "
        "RETURN elementId(d) AS node, d.id AS id, d.maybe_cycle_recorded AS mark")
    for r in marked:
        if r["mark"] is False:
            assert r["node"] not in members, f"{r['id']} lies on a recorded cycle but is marked acyclic"
    if whole:  # the whole-graph pass marks every document with an edge in and out, each rightly
        inner = {r["newer"] for r in records} & {r["older"] for r in records}
        assert {r["node"]: r["mark"] for r in marked if r["node"] in inner} == {
            node: node in members for node in inner}
