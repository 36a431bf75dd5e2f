"""The synthetic benchmark scales linearly and its output does not drift.

Generation used to be quadratic (every release line rescanned the whole corpus and every intended
edge; every as-of query rescanned every edge), so ``car-graph synthetic --docs 100000`` never
finished. These tests pin what made it linear without timing anything (timings flake on shared
machines): the generator makes a fixed number of passes over its documents and over the graph's
edges, whatever the corpus size. docs/notes/synthetic-scale.md has the timings.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from car_graph.semantics import AuthorityGraph
from car_graph_benchmarks import synthetic
from car_graph_benchmarks.synthetic import generate, write

# sha256 of the files `car-graph synthetic OUT` writes (2,400 documents, seed 7). They are the
# bytes the quadratic generator wrote before it was made linear; a change here changes every
# published synthetic result, so update these only on purpose and say so in the changelog.
DEFAULT_DIGESTS = {
    "documents.jsonl": "05c03e6ce4cd238b667df0fe42599269cd8ae2f7734db95ed4e680d97c0e8a07",
    "queries.jsonl": "6d9eda4930f61471536e829621457441161adb5b8ea77ed6a734401f20db9f58",
}


def test_default_benchmark_bytes_are_unchanged(tmp_path: Path) -> None:
    paths = write(generate(), tmp_path)
    digests = {name: hashlib.sha256(paths[name].read_bytes()).hexdigest() for name in DEFAULT_DIGESTS}
    assert digests == DEFAULT_DIGESTS


class _CountingList(list):  # type: ignore[type-arg]
    """A list that counts how often it is iterated from the start."""

    passes = 0

    def __iter__(self) -> Any:
        type(self).passes += 1
        return super().__iter__()


def _passes(monkeypatch: pytest.MonkeyPatch, n_docs: int) -> tuple[int, int]:
    """(passes over the generator's documents, reads of the whole edge list) for one run."""
    original_init = synthetic._Generator.__init__

    def init(self: Any, seed: int) -> None:
        original_init(self, seed)
        self.docs = _CountingList()

    edge_reads = 0
    original_edges = AuthorityGraph.edges

    def edges(self: AuthorityGraph) -> Any:
        nonlocal edge_reads
        edge_reads += 1
        return original_edges.fget(self)  # type: ignore[attr-defined]

    _CountingList.passes = 0
    with monkeypatch.context() as patch:
        patch.setattr(synthetic._Generator, "__init__", init)
        patch.setattr(AuthorityGraph, "edges", property(edges))
        generate(n_docs, seed=7)
    return _CountingList.passes, edge_reads


def test_generation_makes_a_fixed_number_of_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """No step walks the whole corpus or the whole edge list once per document or per query."""
    small = _passes(monkeypatch, 600)
    large = _passes(monkeypatch, 3000)
    assert small == large
    docs_passes, edge_reads = large
    assert docs_passes <= 10 and edge_reads <= 3
