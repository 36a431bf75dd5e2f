"""The fair peer of the benchmarks (benchmarks/peers.py): neo4j-graphrag's HybridCypherRetriever
walking the SUPERSEDES closure returns a chain's frontier, not the anchor the search found; its
as-of variant stops at the edges in force on the date. benchmarks/peer_speed.py scores car and
the peer side by side on the same questions."""

from __future__ import annotations

from datetime import date

import pytest

from car_graph.client import CarClient
from car_graph.evaluation import EvalQuery, supersession_graph
from car_graph.records import DocumentRecord, SupersedesRef
from car_graph_benchmarks import peer_speed
from car_graph_benchmarks.peers import peer_systems

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTION = "What is the torque specification of the frobnicator bolt?"


def _records() -> list[DocumentRecord]:
    return [
        DocumentRecord(id="spec-1", title="Frobnicator bolt torque specification",
                       text="The frobnicator bolt torque specification is 40 newton metres.",
                       published=date(2020, 1, 1)),
        DocumentRecord(id="spec-2", title="Frobnicator bolt torque, revised",
                       text="Revision: the fastening value is now 45 newton metres.",
                       published=date(2021, 1, 1), supersedes=(SupersedesRef("spec-1"),)),
        DocumentRecord(id="spec-3", title="Fastening value, second revision",
                       text="Second revision: the fastening value is now 50 newton metres.",
                       published=date(2022, 1, 1), supersedes=(SupersedesRef("spec-2"),)),
        DocumentRecord(id="other-1", title="Sprocket lubrication interval",
                       text="Lubricate the sprocket every 300 hours of operation.",
                       published=date(2020, 6, 1)),
    ]


def test_the_closure_peer_returns_the_frontier_not_the_anchor(car: CarClient) -> None:
    car.ingest(_records())
    vector = car.embedder.embed_query(QUESTION)
    vectors = {QUESTION: vector}

    dates = {QUESTION: date(2021, 6, 1)}
    peers = peer_systems(car.driver, car.embedder, vectors, 2, database=car.database, as_of=dates)
    # the plain hybrid search finds the anchor itself ...
    assert peers["graphrag_hybrid"](QUESTION)[0] == "spec-1"
    # ... the closure replaces it by the end of its chain, statement only and end to end
    for name in ("graphrag_hybrid_closure", "graphrag_hybrid_closure_e2e"):
        found = peers[name](QUESTION)
        assert found[0] == "spec-3", (name, found)
        assert "spec-1" not in found and "spec-2" not in found, (name, found)
    # as of mid-2021 the second revision is not yet published: the frontier is spec-2
    found = peers["graphrag_hybrid_closure_as_of"](QUESTION)
    assert found[0] == "spec-2" and "spec-3" not in found, found
    # without a date the as-of variant walks like the plain closure
    undated = peer_systems(car.driver, car.embedder, vectors, 2, database=car.database)
    assert undated["graphrag_hybrid_closure_as_of"](QUESTION)[0] == "spec-3"


def test_peer_speed_scores_car_and_the_peer_on_the_same_questions(car: CarClient) -> None:
    car.ingest(_records())
    graph = supersession_graph(car.retriever)
    queries = [EvalQuery(id=f"q{i}", question=QUESTION, gold=frozenset({"spec-3"}),
                         anchors=frozenset({"spec-1"})) for i in range(3)]
    [row] = peer_speed.measure(car, [("test", "main", queries)], graph, k=2)
    assert row.n == 3 and set(row.systems) == set(peer_speed.SYSTEMS)
    assert row.systems["graphrag_hybrid_closure"].tca == 1.0
    assert row.systems["graphrag_hybrid"].tca == 0.0  # the anchor, superseded, without spec-3
    assert row.systems["car"].tca == 1.0 and row.systems["car_e2e"].tca == 1.0
    assert all(s.p50_ms > 0 and s.p95_ms >= s.p50_ms for s in row.systems.values())
