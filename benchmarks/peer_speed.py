"""car beside the peer a user would build, on one loaded benchmark: neo4j-graphrag's
HybridCypherRetriever walking the SUPERSEDES closure (benchmarks/peers.py), its plain
HybridRetriever, and car -- strict TCA@k and p50/p95 latency, statement only and end to end.

Every system answers every question of a set in rotating order, after a warm-up on the set's
first questions (bench.time_interleaved's discipline): a swing in the shared machine's load
reaches all of them alike. All use the client's embedder; statement-only runs get the vector
car's analysis computed, end-to-end runs embed (and car analyses) the question in the call.
``car-graph reproduce`` runs it on every real-domain set, dev and test.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from car_graph.metrics import SupersessionGraph, score_query

if TYPE_CHECKING:
    from car_graph.client import CarClient
    from car_graph.evaluation import EvalQuery

WARMUP = 10
# car, its end-to-end call, and the peers' names in benchmarks/peers.py
SYSTEMS = ("car", "car_e2e", "graphrag_hybrid_closure", "graphrag_hybrid_closure_e2e",
           "graphrag_hybrid_closure_as_of", "graphrag_hybrid")


@dataclass(frozen=True)
class SystemSpeed:
    tca: float
    p50_ms: float
    p95_ms: float


@dataclass(frozen=True)
class PeerSpeedRow:
    """One question set (split and set name) with every system on it."""

    split: str
    query_set: str
    n: int
    systems: dict[str, SystemSpeed]

    def ratio(self, system: str, peer: str) -> float:
        return self.systems[system].p50_ms / max(self.systems[peer].p50_ms, 1e-9)


def _p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure_set(client: CarClient, queries: Sequence[EvalQuery], graph: SupersessionGraph, *,
                k: int, split: str, query_set: str) -> PeerSpeedRow:
    """Every system on ``queries``, interleaved after a warm-up, scored with strict TCA@k."""
    from car_graph_benchmarks.peers import peer_systems

    retriever = client.retriever
    texts = [q.question for q in queries]
    retriever.prepare(texts)
    vectors = {t: retriever.question_parameters(t)["embedding"] for t in texts}
    as_of = {q.question: q.as_of for q in queries}
    peers = peer_systems(client.driver, client.embedder, vectors, k, database=client.database,
                         as_of=as_of)

    def car(query: EvalQuery) -> list[str]:
        return list(retriever.retrieve(query.question, k, query.as_of).ids)

    def car_e2e(query: EvalQuery) -> list[str]:
        # end to end: analysed in the call, so the client forgets the question first
        retriever.forget(query.question)
        return list(client.retrieve_report(query.question, k, query.as_of).ids)

    def peer(name: str) -> Callable[[EvalQuery], list[str]]:
        return lambda query: peers[name](query.question)

    systems: dict[str, Callable[[EvalQuery], list[str]]] = {
        "car": car, "car_e2e": car_e2e, **{name: peer(name) for name in SYSTEMS[2:]}}
    names = list(systems)
    for query in queries[:WARMUP]:
        for name in names:
            systems[name](query)
    samples: dict[str, list[float]] = {name: [] for name in names}
    hits: dict[str, list[bool]] = {name: [] for name in names}
    for i, query in enumerate(queries):
        for name in names[i % len(names):] + names[:i % len(names)]:
            started = time.perf_counter()
            ids = systems[name](query)
            samples[name].append((time.perf_counter() - started) * 1000)
            hits[name].append(score_query(query.id, ids[:k], k, set(query.gold), graph, query.as_of,
                                          set(query.anchors) if query.anchors else None).tca)
    # the analysis the end-to-end runs dropped is restored for whatever runs next
    retriever.prepare(texts)
    return PeerSpeedRow(split, query_set, len(queries), {
        name: SystemSpeed(round(sum(hits[name]) / max(len(hits[name]), 1), 4),
                          round(statistics.median(samples[name]), 2) if samples[name] else 0.0,
                          round(_p95(samples[name]), 2) if samples[name] else 0.0)
        for name in names})


def measure(client: CarClient, sets: Sequence[tuple[str, str, Sequence[EvalQuery]]],
            graph: SupersessionGraph, *, k: int) -> tuple[PeerSpeedRow, ...]:
    """``sets``: (split, set name, queries); empty sets are skipped."""
    return tuple(measure_set(client, queries, graph, k=k, split=split, query_set=name)
                 for split, name, queries in sets if queries)


def render(rows_by_benchmark: Sequence[tuple[str, Sequence[PeerSpeedRow]]], k: int) -> list[str]:
    """Markdown: one row per benchmark, split and set; the closure peer's query verbatim."""
    from car_graph_benchmarks.peers import HYBRID_CLOSURE, HYBRID_CLOSURE_AS_OF

    out = [
        "| benchmark | split | set | n | car TCA | closure peer TCA | as-of peer TCA | "
        "plain hybrid TCA | car p50 / p95 ms | peer p50 / p95 ms | car e2e p50 / p95 ms | "
        "peer e2e p50 / p95 ms | car / peer e2e p50 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, rows in rows_by_benchmark:
        for row in rows:
            s = row.systems
            out.append(
                f"| {name} | {row.split} | {row.query_set} | {row.n} | {s['car'].tca:.3f} | "
                f"{s['graphrag_hybrid_closure'].tca:.3f} | {s['graphrag_hybrid_closure_as_of'].tca:.3f} | "
                f"{s['graphrag_hybrid'].tca:.3f} | "
                f"{s['car'].p50_ms:.1f} / {s['car'].p95_ms:.1f} | "
                f"{s['graphrag_hybrid_closure'].p50_ms:.1f} / {s['graphrag_hybrid_closure'].p95_ms:.1f} | "
                f"{s['car_e2e'].p50_ms:.1f} / {s['car_e2e'].p95_ms:.1f} | "
                f"{s['graphrag_hybrid_closure_e2e'].p50_ms:.1f} / "
                f"{s['graphrag_hybrid_closure_e2e'].p95_ms:.1f} | "
                f"{row.ratio('car_e2e', 'graphrag_hybrid_closure_e2e'):.2f} |")
    out += ["", f"TCA is strict TCA@{k}. The peer is neo4j-graphrag's `HybridCypherRetriever` "
            "(its vector + fulltext search on car's two indexes, `top_k` = k, the naive ranker, "
            "the question Lucene-escaped word by word) with this `retrieval_query` "
            "(benchmarks/peers.py `HYBRID_CLOSURE`):", "", "```cypher", *HYBRID_CLOSURE.splitlines(),
            "```", "", "The as-of peer walks only edges in force on the question's date "
            "(`HYBRID_CLOSURE_AS_OF`):", "", "```cypher", *HYBRID_CLOSURE_AS_OF.splitlines(), "```", ""]
    return out


def check(rows: Sequence[PeerSpeedRow], ratio_target: float = 1.2) -> list[tuple[str, bool]]:
    """(statement, met) per test set: car e2e p50 <= ratio_target x the peer's, and car's strict
    TCA >= the peer's."""
    out = []
    for row in rows:
        if row.split != "test":
            continue
        ratio = row.ratio("car_e2e", "graphrag_hybrid_closure_e2e")
        car, peer = row.systems["car"].tca, row.systems["graphrag_hybrid_closure"].tca
        out.append((f"{row.query_set}: car e2e p50 / closure peer e2e p50 = {ratio:.2f} "
                    f"(target <= {ratio_target}); TCA {car:.3f} vs {peer:.3f}",
                    ratio <= ratio_target and car >= peer))
    return out
