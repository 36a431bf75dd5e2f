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
from car_graph.ingest.pipeline import delete_documents, ingest_records
from car_graph.records import parse_record
from car_graph.store import GraphStore

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
