"""``car-graph stats``: the shape of the supersession graph -- chain lengths, scope sizes and
edges per rule -- read with queries/stats_*.cypher and queries/count_*.cypher.

A *chain head* is a document that supersedes at least one document and is superseded by none;
its *chain length* is the number of SUPERSEDES hops on the longest path from it to an older
document (A <- B <- C: one head, C, of length 2). Edges marked as lying on a cycle decide
nothing (see car_graph.semantics), so they are left out. A *scope* is an entity with at least
one document IN_SCOPE; its size is the number of those documents.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from car_graph.store import GraphStore


@dataclass(frozen=True)
class GraphStats:
    documents: int
    entities: int
    supersedes: int
    unresolved: int
    chain_lengths: dict[int, int]            # hops on a head's longest chain -> chain heads
    documents_in_chains: int                 # documents on at least one deciding edge
    scope_sizes: dict[str, dict[int, int]]   # entity type -> documents in scope -> scopes
    edges_by_rule: dict[str, int]

    @property
    def chains(self) -> int:
        return sum(self.chain_lengths.values())

    def scope_size_totals(self) -> dict[int, int]:
        """Documents in scope -> scopes, over every entity type."""
        totals: Counter[int] = Counter()
        for sizes in self.scope_sizes.values():
            totals.update(sizes)
        return dict(sorted(totals.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "entities": self.entities,
            "supersedes": self.supersedes,
            "unresolved": self.unresolved,
            "chains": self.chains,
            "documents_in_chains": self.documents_in_chains,
            "chain_lengths": {str(k): v for k, v in self.chain_lengths.items()},
            "scope_sizes": {t: {str(k): v for k, v in sizes.items()}
                            for t, sizes in self.scope_sizes.items()},
            "edges_by_rule": dict(self.edges_by_rule),
        }

    def text(self) -> str:
        lines = [
            f"{self.documents} documents, {self.entities} entities, {self.supersedes} SUPERSEDES "
            f"edges, {self.unresolved} unresolved",
            f"chains: {self.chains} heads over {self.documents_in_chains} documents",
        ]
        lines += [f"  length {hops}: {heads} chain(s)" for hops, heads in self.chain_lengths.items()]
        lines.append("scope sizes (documents in scope: scopes)")
        for entity_type, sizes in self.scope_sizes.items():
            described = ", ".join(f"{size}: {count}" for size, count in sizes.items())
            lines.append(f"  {entity_type} ({sum(sizes.values())} scopes) {described}")
        lines.append("edges by rule")
        lines += [f"  {rule}: {edges}" for rule, edges in self.edges_by_rule.items()]
        return "\n".join(lines)


def chain_lengths(edges: Iterable[tuple[str, str]]) -> tuple[dict[int, int], int]:
    """(hops of each head's longest chain -> heads, documents on any edge) for ``(newer, older)``
    edges. Linear in the edges; an unmarked cycle is cut where the walk meets it again."""
    older_of: dict[str, list[str]] = defaultdict(list)
    superseded: set[str] = set()
    nodes: set[str] = set()
    for newer, older in edges:
        older_of[newer].append(older)
        superseded.add(older)
        nodes.update((newer, older))
    depth: dict[str, int] = {}
    on_path: set[str] = set()

    def longest(start: str) -> int:
        # Iterative post-order walk: chains may be far longer than Python's recursion limit.
        stack = [(start, iter(older_of.get(start, ())))]
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                on_path.discard(node)
                depth[node] = max((depth[c] + 1 for c in older_of.get(node, ()) if c in depth),
                                  default=0)
            elif child not in depth and child not in on_path:
                on_path.add(child)
                stack.append((child, iter(older_of.get(child, ()))))
        return depth[start]

    heads = sorted(n for n in older_of if n not in superseded)
    histogram = Counter(longest(head) for head in heads)
    return dict(sorted(histogram.items())), len(nodes)


def graph_stats(store: GraphStore) -> GraphStats:
    counts = store.counts()
    lengths, in_chains = chain_lengths(
        (r["newer"], r["older"]) for r in store.read("stats_chain_edges"))
    scope_sizes: dict[str, dict[int, int]] = defaultdict(dict)
    for row in store.read("stats_scope_sizes"):
        scope_sizes[row["entity_type"]][int(row["documents"])] = int(row["scopes"])
    return GraphStats(
        documents=counts["documents"],
        entities=counts["entities"],
        supersedes=counts["supersedes"],
        unresolved=counts["unresolved"],
        chain_lengths=lengths,
        documents_in_chains=in_chains,
        scope_sizes=dict(sorted(scope_sizes.items())),
        edges_by_rule=_sorted_by_count(store.edges_by_rule()),
    )


def _sorted_by_count(counts: Mapping[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
