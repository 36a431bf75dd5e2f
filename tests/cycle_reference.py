"""Which documents lie on a cycle of full supersession edges, by the definition alone: plain
reachability, no component algorithm. The reference for ingest/pipeline.py's
``strongly_connected`` (Tarjan's algorithm, which ``mark_cycles`` uses) in
tests/unit/test_strongly_connected.py and tests/integration/test_cycle_pass.py.

A reference to itself is no supersession (car_graph/semantics.py: "a reference to itself is
ignored"), so a self-loop is dropped before anything is reached: a document is on a cycle when
it reaches itself through at least one other document.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def reached(graph: Mapping[str, Sequence[str]], start: str) -> set[str]:
    """The nodes ``start`` reaches through one edge or more (self-loops dropped)."""
    seen: set[str] = set()
    todo = [target for target in graph.get(start, ()) if target != start]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        todo.extend(target for target in graph.get(node, ()) if target != node)
    return seen


def cycle_members(graph: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    """node -> the nodes of its cycle (those it reaches that reach it, itself included), for
    every node that reaches itself through another node; nodes on no such cycle are absent."""
    nodes = set(graph) | {target for targets in graph.values() for target in targets}
    reach = {node: reached(graph, node) for node in nodes}
    return {node: frozenset({node} | {other for other in reach[node] if node in reach[other]})
            for node in nodes if node in reach[node]}


def same_cycle(members: Mapping[str, frozenset[str]], a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` lie on one cycle (False when either lies on none)."""
    return a in members and b in members[a]
