"""Metrics on hand-made supersession graphs whose right answers can be read off the drawing."""

from __future__ import annotations

import math
from datetime import date

import pytest

from car_graph.metrics import (
    Edge,
    QueryScore,
    SupersessionGraph,
    SystemScores,
    aggregate,
    anchor_recall,
    gold_at_k,
    kappa,
    phi,
    reciprocal_rank,
    score_query,
    strict_tca,
    superseded_leak,
    wilson_interval,
)

D = date.fromisoformat


@pytest.fixture
def chain() -> SupersessionGraph:
    """d1 ⇝ d2 ⇝ d3 (d2 supersedes d1 from 2020-03-01, d3 supersedes d2 from 2021-06-01)."""
    return SupersessionGraph(
        [("d2", "d1", D("2020-03-01"), False), Edge("d3", "d2", D("2021-06-01"))]
    )


# --- graph ---------------------------------------------------------------------------------------


def test_chain_closure_and_frontier(chain: SupersessionGraph) -> None:
    assert chain.closure({"d1"}) == {"d1", "d2", "d3"}
    assert chain.closure({"d2"}) == {"d2", "d3"}
    assert chain.frontier({"d1", "d2", "d3"}) == {"d3"}
    assert chain.controlling({"d1"}) == {"d3"}
    # transitive: d3 supersedes d1 through d2 even when d2 is not in the set
    assert chain.frontier({"d1", "d3"}) == {"d3"}
    assert chain.reaches("d1", "d3") and not chain.reaches("d3", "d1")
    assert not chain.reaches("d1", "d1")


def test_unknown_document_is_active_and_alone() -> None:
    graph = SupersessionGraph()
    assert graph.controlling({"x"}) == {"x"}
    assert not graph.is_superseded("x")


def test_as_of_superseded_later_is_active_before(chain: SupersessionGraph) -> None:
    assert not chain.is_superseded("d1", D("2020-02-29"))
    assert chain.is_superseded("d1", D("2020-03-01"))  # effective on the day
    assert chain.controlling({"d1"}, D("2020-01-01")) == {"d1"}
    assert chain.controlling({"d1"}, D("2020-12-31")) == {"d2"}
    assert chain.controlling({"d1"}, D("2022-01-01")) == {"d3"}
    assert chain.controlling({"d1"}, None) == {"d3"}
    assert [e.newer for e in chain.superseders("d2", D("2021-01-01"))] == []


def test_edge_without_effective_date_is_always_in_force() -> None:
    graph = SupersessionGraph([("b", "a", None, False)])
    assert graph.is_superseded("a", D("1900-01-01"))


def test_partial_edges_extend_closure_but_keep_the_older_in_the_frontier() -> None:
    graph = SupersessionGraph([Edge("recall", "label", partial=True)])
    assert [e.partial for e in graph.superseders("label")] == [True]
    assert not graph.is_superseded("label")
    assert graph.closure({"label"}) == {"label", "recall"}
    assert graph.controlling({"label"}) == {"label", "recall"}


def test_partial_then_full_does_not_supersede_the_original() -> None:
    # a --partial--> b --full--> c : c replaces the amendment b; a still controls in part
    graph = SupersessionGraph([Edge("b", "a", partial=True), Edge("c", "b")])
    assert graph.controlling({"a"}) == {"a", "c"}


def test_cycles_terminate_and_keep_their_members() -> None:
    graph = SupersessionGraph([Edge("b", "a"), Edge("a", "b")])
    assert graph.closure({"a"}) == {"a", "b"}
    assert graph.controlling({"a"}) == {"a", "b"}
    assert graph.reaches("a", "a")
    # anchor x superseded into a cycle: x leaves, the cycle stays
    graph = SupersessionGraph([Edge("y", "x"), Edge("z", "y"), Edge("y", "z")])
    assert graph.controlling({"x"}) == {"y", "z"}
    # a cycle with an exit is not a sink: the exit controls
    graph = SupersessionGraph([Edge("b", "a"), Edge("a", "b"), Edge("c", "b")])
    assert graph.controlling({"a"}) == {"c"}


def test_fork_has_two_controlling_documents() -> None:
    graph = SupersessionGraph([Edge("r24", "adv"), Edge("r31", "adv"), Edge("r32", "r31")])
    assert graph.controlling({"adv"}) == {"r24", "r32"}


def test_self_loop_is_rejected() -> None:
    with pytest.raises(ValueError):
        SupersessionGraph([Edge("a", "a")])


# --- strict TCA (Theorem 4) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("retrieved", "expected"),
    [
        (["d3"], True),  # the frontier alone
        (["d1", "d3"], True),  # d1 is superseded, but d3 (transitively) is there
        (["d1", "d2"], False),  # frontier d3 missing; d2 ignored superseded
        (["d1"], False),  # the anchor alone
        (["d2", "d3"], True),
        (["x", "d3", "y"], True),  # unrelated active documents do no harm
    ],
)
def test_strict_tca_on_chain(
    chain: SupersessionGraph, retrieved: list[str], expected: bool
) -> None:
    assert strict_tca(retrieved, 5, {"d3"}, chain) is expected
    assert strict_tca(retrieved, 5, {"d3"}, chain, anchors={"d1"}) is expected


def test_gold_present_but_ignored_superseded_document_fails_tca() -> None:
    # the gold d3 is in the top 3, but so is an unrelated stale e1 whose superseder e2 is not
    graph = SupersessionGraph([Edge("d2", "d1"), Edge("d3", "d2"), Edge("e2", "e1")])
    retrieved = ["d3", "e1", "z"]
    assert gold_at_k(retrieved, 3, {"d3"})
    assert not strict_tca(retrieved, 3, {"d3"}, graph)
    assert strict_tca(["d3", "e1", "e2"], 3, {"d3"}, graph)


def test_strict_tca_cut_at_k(chain: SupersessionGraph) -> None:
    assert not strict_tca(["a", "b", "d3"], 2, {"d3"}, chain)
    assert strict_tca(["a", "b", "d3"], 3, {"d3"}, chain)
    # a superseder beyond k does not rescue a stale document within k
    assert not strict_tca(["d3", "d1", "x", "d2"], 3, {"d3"}, SupersessionGraph([Edge("d2", "d1")]))


def test_strict_tca_as_of(chain: SupersessionGraph) -> None:
    before = D("2020-01-15")
    assert strict_tca(["d1"], 5, {"d1"}, chain, as_of=before, anchors={"d1"})
    # as of then, d1 is not superseded, so returning it alone is right; d2 does not exist yet
    assert not strict_tca(["d1"], 5, {"d1"}, chain, anchors={"d1"})


def test_strict_tca_requires_anchor_frontier_and_gold(chain: SupersessionGraph) -> None:
    # anchors given: the required set comes from the graph, not the (wrong) gold label
    assert not strict_tca(["d2"], 5, {"d2"}, chain, anchors={"d1"})
    # without anchors only gold is required
    assert not strict_tca(["d3"], 5, {"d3", "q"}, chain)


def test_strict_tca_on_partial_and_cycle() -> None:
    partial = SupersessionGraph([Edge("recall", "label", partial=True)])
    assert strict_tca(["label", "recall"], 5, {"label", "recall"}, partial, anchors={"label"})
    assert not strict_tca(["recall"], 5, {"recall"}, partial, anchors={"label"})
    cycle = SupersessionGraph([Edge("b", "a"), Edge("a", "b")])
    assert strict_tca(["a", "b"], 5, {"a", "b"}, cycle, anchors={"a"})
    assert not strict_tca(["a"], 5, {"a"}, cycle, anchors={"a"})


# --- relevance and anchor metrics ----------------------------------------------------------------


def test_gold_at_k_means_all_gold() -> None:
    assert gold_at_k(["a", "b", "c"], 2, {"a", "b"})
    assert not gold_at_k(["a", "c", "b"], 2, {"a", "b"})
    assert not gold_at_k(["a"], 5, set())


def test_anchor_recall() -> None:
    assert anchor_recall(["a1", "x", "a2"], 2, {"a1", "a2"}) == 0.5
    assert anchor_recall(["a1", "x", "a2"], 3, {"a1", "a2"}) == 1.0
    assert anchor_recall(["x"], 3, set()) is None


def test_reciprocal_rank() -> None:
    assert reciprocal_rank(["x", "y", "g"], {"g"}) == pytest.approx(1 / 3)
    assert reciprocal_rank(["g", "g2"], {"g2", "g"}) == 1.0
    assert reciprocal_rank(["x"], {"g"}) == 0.0
    assert reciprocal_rank(["x", "y", "g"], {"g"}, k=2) == 0.0


def test_superseded_leak(chain: SupersessionGraph) -> None:
    assert superseded_leak(["d1", "d3", "x", "d2"], 4, chain) == 0.5
    assert superseded_leak([], 4, chain) == 0.0


# --- Wilson, kappa, phi --------------------------------------------------------------------------


def _wilson_reference(s: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The textbook form, (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p = s / n
    lo = (p + z**2 / (2 * n) - z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))) / (1 + z**2 / n)
    hi = (p + z**2 / (2 * n) + z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))) / (1 + z**2 / n)
    return lo, hi


@pytest.mark.parametrize(
    ("s", "n", "published"),
    # published Wilson 95% intervals (e.g. Newcombe 1998, Table I; any statistics package)
    [(0, 10, (0.0, 0.2775)), (10, 10, (0.7225, 1.0)), (5, 10, (0.2366, 0.7634))],
)
def test_wilson_known_values(s: int, n: int, published: tuple[float, float]) -> None:
    lo, hi = wilson_interval(s, n)
    assert (lo, hi) == pytest.approx(published, abs=1e-4)
    ref_lo, ref_hi = _wilson_reference(s, n)
    assert lo == pytest.approx(max(0.0, ref_lo), abs=1e-12)
    assert hi == pytest.approx(min(1.0, ref_hi), abs=1e-12)


def test_wilson_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(37, 120)
    assert lo < 37 / 120 < hi
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_kappa_and_phi() -> None:
    assert kappa(3, 3) == 1.0
    assert kappa(6, 3) == 2.0
    assert phi(kappa(6, 3)) == 0.5
    assert phi(1.0) == 1.0
    assert phi(0.5) == 1.0
    with pytest.raises(ValueError):
        kappa(3, 0)


# --- aggregation ---------------------------------------------------------------------------------


def test_score_query_and_aggregate(chain: SupersessionGraph) -> None:
    rows = [
        score_query(
            "q1", ["d3", "x"], 5, {"d3"}, chain, anchors={"d1"}, retrieved_anchor_ids=["d1"]
        ),
        score_query(
            "q2", ["d1", "d2"], 5, {"d3"}, chain, anchors={"d1"}, retrieved_anchor_ids=["z"]
        ),
    ]
    assert rows[0] == QueryScore("q1", True, True, 1.0, 1.0)
    assert rows[1] == QueryScore("q2", False, False, 0.0, 0.0)
    summary = aggregate(rows + [{"tca": True, "gold_at_k": True, "rr": 0.5}])
    assert summary["n"] == 3
    assert summary["tca"] == pytest.approx(2 / 3)
    assert summary["gold_at_k"] == pytest.approx(2 / 3)
    assert summary["mrr"] == pytest.approx(0.5)
    assert summary["anchor_recall"] == pytest.approx(0.5)  # the mapping row had none
    assert summary["tca_ci95"] == pytest.approx(list(wilson_interval(2, 3)))
    assert set(summary) == {"tca", "gold_at_k", "anchor_recall", "mrr", "tca_ci95", "n"}


def test_aggregate_of_nothing() -> None:
    scores = SystemScores.from_rows([])
    assert scores.n == 0 and scores.tca_ci95 == (0.0, 1.0) and scores.anchor_recall is None
