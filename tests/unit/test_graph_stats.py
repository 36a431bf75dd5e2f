"""Chain lengths from edge lists whose longest chains can be read off the drawing."""

from __future__ import annotations

import pytest

from car_graph.errors import MissingExtraError
from car_graph.stats import GraphStats, chain_lengths


def test_one_chain_of_two_hops_has_one_head() -> None:
    # A <- B <- C
    assert chain_lengths([("B", "A"), ("C", "B")]) == ({2: 1}, 3)


def test_a_head_counts_its_longest_branch() -> None:
    # R supersedes X and Y directly; Y supersedes Z: the longest path from R is R->Y->Z
    assert chain_lengths([("R", "X"), ("R", "Y"), ("Y", "Z")]) == ({2: 1}, 4)


def test_two_heads_sharing_an_older_document_are_two_chains() -> None:
    # N1 -> O <- N2, and a separate pair P -> Q
    assert chain_lengths([("N1", "O"), ("N2", "O"), ("P", "Q")]) == ({1: 3}, 5)


def test_an_unmarked_cycle_below_a_head_ends_the_walk() -> None:
    # H -> A -> B -> A: the walk cuts the cycle where it meets A again
    assert chain_lengths([("H", "A"), ("A", "B"), ("B", "A")]) == ({2: 1}, 3)


def test_a_very_long_chain_needs_no_recursion() -> None:
    edges = [(f"d{i + 1}", f"d{i}") for i in range(5000)]
    assert chain_lengths(edges) == ({5000: 1}, 5001)


def test_no_edges_no_chains() -> None:
    assert chain_lengths([]) == ({}, 0)


def test_scope_size_totals_add_the_entity_types() -> None:
    stats = GraphStats(4, 3, 1, 0, {1: 1}, 2, {"case": {1: 2, 3: 1}, "package": {1: 1}}, {"x": 1})
    assert stats.scope_size_totals() == {1: 3, 3: 1}
    assert stats.to_json()["scope_sizes"] == {"case": {"1": 2, "3": 1}, "package": {"1": 1}}


def test_missing_matplotlib_names_the_plot_extra(monkeypatch) -> None:
    import sys

    from car_graph import plots

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails
    with pytest.raises(MissingExtraError, match=r"pip install 'car-graph\[plot\]'"):
        plots.new_figure(1, 1)
