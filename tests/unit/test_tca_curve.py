"""TCA@k for k = 1..k_max, read from ranked lists retrieved once, on hand-made rankings.

    a <- b          b supersedes a (a is stale; b controls)
    c               stands alone
    x, y            unrelated documents

q1 (gold b) ranked [a, x, b, y]: a is in the top k without b until k = 3, so TCA@1..2 = 0,
                                 TCA@3.. = 1
q2 (gold c) ranked [c, a, y]:    c alone passes at k = 1; from k = 2 the stale a is listed
                                 without its superseder b, so TCA@2.. = 0
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

import pytest

from car_graph.errors import ConfigError
from car_graph.evaluation import EvalQuery, SystemRun, evaluate
from car_graph.metrics import Edge, SupersessionGraph, SystemScores

GRAPH = SupersessionGraph([Edge("b", "a")])
QUERIES = [EvalQuery("q1", "first?", frozenset({"b"})), EvalQuery("q2", "second?", frozenset({"c"}))]
RANKED = {"q1": ["a", "x", "b", "y"], "q2": ["c", "a", "y"]}


def run_of(ranked: dict[str, list[str]]) -> SystemRun:
    return SystemRun(SystemScores.from_rows([]), [], ranked, 0.0)


def test_curve_reads_every_cut_off_from_one_ranking() -> None:
    curve = run_of(RANKED).tca_curve(QUERIES, GRAPH, 5)
    # k=1: q2 only; k=2: neither; k>=3: q1 only (q2 keeps the stale a without b)
    assert curve == (0.5, 0.0, 0.5, 0.5, 0.5)


def test_curve_point_equals_the_score_at_that_k() -> None:
    run = run_of(RANKED)
    curve = run.tca_curve(QUERIES, GRAPH, 4)
    assert [run.rescore(QUERIES, GRAPH, k).tca for k in (1, 2, 3, 4)] == list(curve)


def test_superseder_listed_first_passes_as_soon_as_both_are_in() -> None:
    curve = run_of({"q1": ["b", "a"], "q2": ["c"]}).tca_curve(QUERIES, GRAPH, 3)
    assert curve == (1.0, 1.0, 1.0)


class FakeStore:
    def read(self, name: str, **_params: Any) -> list[dict[str, Any]]:
        if name == "ingest_embedders":
            return [{"embedder": '{"model": "hand-made", "variant": "none", "dimensions": 2}',
                     "runs": 3, "first_run": 1, "last_run": 4}]
        assert name == "document_relations"
        return [{"newer": "b", "older": "a", "newer_published": None, "effective": None,
                 "partial": False, "rule": "explicit"}]


class FakeEmbedder:
    model_name = "hand-made"
    variant = "none"
    dimensions = 2


class FakeRetriever:
    """Returns fixed rankings cut at the depth asked for, and counts the calls."""

    def __init__(self) -> None:
        self.store = FakeStore()
        self.embedder = FakeEmbedder()
        self.calls: list[tuple[str, str, int]] = []

    def prepare(self, questions: Iterable[str]) -> None:
        list(questions)

    def search(self, system: str, question: str, k: int, as_of: date | None,
               domain: str | None, known_at: Any = None) -> tuple[list[str], list[str]]:
        self.calls.append((system, question, k))
        qid = "q1" if question == "first?" else "q2"
        return RANKED[qid][:k], []


def test_evaluate_at_depth_searches_once_per_query_and_keeps_the_scores_at_k() -> None:
    shallow = evaluate(FakeRetriever(), QUERIES, k=1, systems=["car"])
    retriever = FakeRetriever()
    deep = evaluate(retriever, QUERIES, k=1, systems=["car"], depth=4)
    assert retriever.calls == [("car", "first?", 4), ("car", "second?", 4)]
    assert deep.systems["car"].scores == shallow.systems["car"].scores  # MRR too: cut at k
    assert deep.tca_curves() == {"car": (0.5, 0.0, 0.5, 0.5)}
    assert deep.to_json()["depth"] == 4


def test_the_report_records_the_embedders_of_its_questions_and_of_the_graphs_documents() -> None:
    report = evaluate(FakeRetriever(), QUERIES, k=1, systems=["car"]).to_json()
    assert report["embedder"] == {"model": "hand-made", "variant": "none", "dimensions": 2}
    assert report["graph_embedders"] == [{"embedder": report["embedder"], "runs": 3,
                                          "first_run": 1, "last_run": 4}]


def test_curve_beyond_the_retrieved_depth_is_refused() -> None:
    report = evaluate(FakeRetriever(), QUERIES, k=2, systems=["car"])
    with pytest.raises(ConfigError, match="depth >= 20"):
        report.tca_curves(20)


def test_questions_whose_answer_exceeds_k_are_counted_as_unanswerable() -> None:
    # q1's answer is {b} and q3's is {b, c}: at k = 1 only q3 cannot be answered by any system
    queries = [*QUERIES, EvalQuery("q3", "first?", frozenset({"b", "c"}))]
    report = evaluate(FakeRetriever(), queries, k=1, systems=["car"])
    assert report.unanswerable == 1 and report.to_json()["unanswerable_at_k"] == 1
    assert "1 of them need more than 1 documents" in report.table()
    assert evaluate(FakeRetriever(), queries, k=2, systems=["car"]).unanswerable == 0
