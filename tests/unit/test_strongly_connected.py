"""ingest/pipeline.py ``strongly_connected`` (Tarjan's algorithm, iterative), which decides the
maybe_cycle marks ``mark_cycles`` writes, against the definition (tests/cycle_reference.py:
plain reachability) and against components read off by hand."""

from __future__ import annotations

from cycle_reference import cycle_members, reached
from hypothesis import given, settings
from hypothesis import strategies as st

from car_graph.ingest.pipeline import strongly_connected

NODES = [f"d{i}" for i in range(8)]


def as_sets(component: dict[str, int]) -> set[frozenset[str]]:
    """The components as sets of nodes (their numbers are arbitrary)."""
    groups: dict[int, set[str]] = {}
    for node, number in component.items():
        groups.setdefault(number, set()).add(node)
    return {frozenset(nodes) for nodes in groups.values()}


def test_the_reference_reads_cycles_off_small_graphs_as_a_person_would() -> None:
    # the reference itself must be right before anything is checked against it
    assert reached({"a": ["b"], "b": ["c"], "c": []}, "a") == {"b", "c"}
    assert reached({"a": ["a"]}, "a") == set()
    assert cycle_members({"a": ["b"], "b": ["a", "c"], "c": ["c"]}) == {
        "a": frozenset({"a", "b"}), "b": frozenset({"a", "b"})}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)), max_size=20))
def test_components_are_the_nodes_that_reach_each_other(edges: list[tuple[str, str]]) -> None:
    graph: dict[str, list[str]] = {}
    for newer, older in edges:  # self-loops and repeated edges included
        graph.setdefault(newer, []).append(older)
    component = strongly_connected(graph)
    expected = cycle_members(graph)
    assert set(component) == set(expected), (graph, component)
    for a in component:
        for b in component:
            assert (component[a] == component[b]) == (b in expected[a]), (graph, a, b)


def test_a_ring_thousands_long_is_one_component_and_an_open_chain_none() -> None:
    n = 5000  # iterative: a recursive Tarjan would exceed Python's recursion limit here
    chain = {f"c{i}": [f"c{i + 1}"] for i in range(n - 1)}
    assert strongly_connected(chain) == {}
    ring = {**chain, f"c{n - 1}": ["c0"]}
    assert as_sets(strongly_connected(ring)) == {frozenset(f"c{i}" for i in range(n))}


def test_a_back_edge_in_a_long_chain_makes_a_component_of_the_span_it_closes() -> None:
    chain: dict[str, list[str]] = {f"c{i}": [f"c{i + 1}"] for i in range(2999)}
    chain["c2000"].append("c1000")
    assert as_sets(strongly_connected(chain)) == {frozenset(f"c{i}" for i in range(1000, 2001))}


def test_a_self_loop_alone_is_no_cycle_and_changes_no_component() -> None:
    # a reference to itself is ignored (semantics.py), so it supersedes nothing in a cycle
    assert strongly_connected({"a": ["a"]}) == {}
    assert strongly_connected({"a": ["a", "b"], "b": ["c"]}) == {}
    assert as_sets(strongly_connected({"a": ["a", "b"], "b": ["a", "b"]})) == {frozenset({"a", "b"})}


def test_separate_cycles_are_separate_components_and_their_bridge_is_in_neither() -> None:
    graph = {"a": ["b"], "b": ["a", "x"], "x": ["p"], "p": ["q"], "q": ["p"], "lone": []}
    assert as_sets(strongly_connected(graph)) == {frozenset({"a", "b"}), frozenset({"p", "q"})}

