"""``car-graph eval``: every system against the same Neo4j in one run, scored by strict TCA.

Queries are JSON Lines: ``{"id": str, "question": str, "as_of"?: date, "known_at"?: date,
datetime or "run:N", "gold": [ids], "anchors"?: [ids]}`` (a line's ``known_at`` asks the
question of the graph as car-graph had recorded it then, as ``--known-at`` does for all). Strict TCA (Theorem 4) is computed against the supersession relation read
back from the graph, so a system is judged by the same edges retrieval walks.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from car_graph.embedding import provenance_of
from car_graph.errors import ConfigError, IngestError
from car_graph.history import pin_known_at
from car_graph.metrics import (
    Edge,
    QueryScore,
    SupersessionGraph,
    SystemScores,
    VerdictScores,
    score_query,
)
from car_graph.records import parse_date
from car_graph.retrieval import Retriever, to_date
from car_graph.semantics import DocFacts
from car_graph.store import GraphStore
from car_graph.types import parse_known_at

DEFAULT_SYSTEMS = ("bm25", "dense", "hybrid", "car")


@dataclass(frozen=True)
class EvalQuery:
    id: str
    question: str
    gold: frozenset[str]
    as_of: date | None = None
    anchors: frozenset[str] | None = None
    known_at: str | None = None  # this question's --known-at (docs/history.md), as written


@dataclass
class SystemRun:
    scores: SystemScores
    rows: list[QueryScore]
    retrieved: dict[str, list[str]]
    latency_ms_p50: float
    anchors: dict[str, list[str]] = field(default_factory=dict)

    def rescore(self, queries: Sequence[EvalQuery], graph: SupersessionGraph, k: int) -> SystemScores:
        """Scores at a smaller cut-off from the same ranked lists (each system's ranking is
        independent of k, so the top k of a run at K >= k is the run at k)."""
        return SystemScores.from_rows(
            score_query(
                q.id, self.retrieved[q.id], k, set(q.gold), graph, q.as_of,
                set(q.anchors) if q.anchors else None, self.anchors.get(q.id),
            )
            for q in queries
        )

    def tca_curve(self, queries: Sequence[EvalQuery], graph: SupersessionGraph,
                  k_max: int) -> tuple[float, ...]:
        """Strict TCA@k for k = 1..k_max from the ranked lists already retrieved (they must
        have been retrieved at depth >= k_max; see ``EvaluationReport.depth``)."""
        return tuple(self.rescore(queries, graph, k).tca for k in range(1, k_max + 1))

    def as_dict(self) -> dict[str, Any]:
        return {**self.scores.as_dict(), "latency_ms_p50": round(self.latency_ms_p50, 2)}


@dataclass
class EvaluationReport:
    k: int
    n: int
    systems: dict[str, SystemRun] = field(default_factory=dict)
    analysis_ms_per_query: float = 0.0
    # Each system ran once per query at this depth (>= k); scores at k and the TCA@k curve are
    # read from those lists, so latencies are those of a run at ``depth``.
    depth: int = 0
    queries: tuple[EvalQuery, ...] = ()
    graph: SupersessionGraph | None = field(default=None, repr=False)
    # questions whose answer (gold and the anchors' frontier) holds more than k documents: no
    # system can score them at k, so 1 - unanswerable / n is every system's ceiling
    unanswerable: int = 0
    # what embedded the questions (embedding.provenance_of), and what the ingest runs recorded
    # embedding the documents (graph_embedders): scores taken on two machines compare only
    # when these match
    embedder: dict[str, Any] = field(default_factory=dict)
    graph_embedders: list[dict[str, Any]] = field(default_factory=list)

    def tca_curves(self, k_max: int | None = None) -> dict[str, tuple[float, ...]]:
        """Strict TCA@k for k = 1..k_max per system, from the lists already retrieved
        (``k_max`` defaults to the depth the systems ran at; more would need another run)."""
        k_max = k_max or self.depth
        if not 1 <= k_max <= self.depth or self.graph is None:
            raise ConfigError(f"TCA@k up to k = {k_max} needs a run at depth >= {k_max} "
                              f"(this one ran at {self.depth})")
        return {name: run.tca_curve(self.queries, self.graph, k_max)
                for name, run in self.systems.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "n": self.n,
            "unanswerable_at_k": self.unanswerable,
            "depth": self.depth or self.k,
            "systems": {name: run.as_dict() for name, run in self.systems.items()},
            "analysis_ms_per_query": round(self.analysis_ms_per_query, 2),
            "embedder": self.embedder,
            "graph_embedders": self.graph_embedders,
        }

    def table(self) -> str:
        header = f"{'system':<8} {'TCA@' + str(self.k):>8} {'95% CI':>15} {'gold@k':>7} " \
                 f"{'anchor_R':>8} {'MRR':>6} {'p50 ms':>7}"
        lines = [
            f"n = {self.n} queries, k = {self.k}; question analysis (embedding + entity linking, "
            f"batched) {self.analysis_ms_per_query:.1f} ms/query, shared by all systems"
            + (f"; each system ran once at depth {self.depth} (latencies are of that run)"
               if self.depth > self.k else "")
            + (f"; {self.unanswerable} of them need more than {self.k} documents (no system can "
               f"score those at k = {self.k})" if self.unanswerable else ""),
            header, "-" * len(header),
        ]
        for name, run in self.systems.items():
            s = run.scores
            recall = f"{s.anchor_recall:.3f}" if s.anchor_recall is not None else "-"
            lines.append(
                f"{name:<8} {s.tca:>8.3f} {f'[{s.tca_ci95[0]:.3f}, {s.tca_ci95[1]:.3f}]':>15} "
                f"{s.gold_at_k:>7.3f} {recall:>8} {s.mrr:>6.3f} {run.latency_ms_p50:>7.1f}"
            )
        return "\n".join(lines)


def _ids(value: Any, what: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{what!r} must be a list of document ids")
    return frozenset(value)


def parse_queries(lines: Iterable[str], source: str) -> list[EvalQuery]:
    """Every query of a JSON Lines file; the first bad line raises IngestError(file, line)."""
    queries: list[EvalQuery] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("a line must hold a JSON object")
            qid, question = obj.get("id"), obj.get("question")
            if not isinstance(qid, str) or not qid:
                raise ValueError("missing string field 'id'")
            if not isinstance(question, str) or not question.strip():
                raise ValueError("missing string field 'question'")
            if qid in seen:
                raise ValueError(f"duplicate query id {qid!r}")
            gold = _ids(obj.get("gold"), "gold")
            if not gold:
                raise ValueError("'gold' must name at least one document")
            anchors = _ids(obj["anchors"], "anchors") if obj.get("anchors") is not None else None
            known_at = obj.get("known_at")
            if known_at is not None:
                known_at = str(known_at)
                parse_known_at(known_at)  # a bad value is this line's error, before any query
            queries.append(
                EvalQuery(qid, question, gold, parse_date(obj.get("as_of"), "as_of"), anchors,
                          known_at)
            )
            seen.add(qid)
        except json.JSONDecodeError as e:
            raise IngestError(source, number, f"invalid JSON: {e.msg}") from e
        except ValueError as e:
            raise IngestError(source, number, str(e)) from e
    return queries


def read_queries(path: Path) -> list[EvalQuery]:
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    with open(path, encoding="utf-8") as handle:
        return parse_queries(handle, str(path))


def supersession_graph(retriever: Retriever, domain: str | None = None,
                       known_at: datetime | None = None) -> SupersessionGraph:
    """The graph's own edges under the reference semantics, so a system is scored against the
    relation retrieval walks (``known_at``: the edges recorded then)."""
    rows = retriever.store.read("document_relations", domain=domain, known_at=known_at)
    facts = {r["newer"]: DocFacts(published=to_date(r["newer_published"])) for r in rows}
    return SupersessionGraph(
        (Edge(r["newer"], r["older"], to_date(r["effective"]), bool(r["partial"]), r["rule"] or "")
         for r in rows),
        facts,
    )


def recorded_embedders(retriever: Retriever) -> dict[str, Any]:
    """A report's ``embedder`` (what embeds the questions) and ``graph_embedders`` (what the
    graph's ingest runs recorded), as keyword arguments of either report."""
    return {"embedder": provenance_of(retriever.embedder),
            "graph_embedders": graph_embedders(retriever.store)}


def graph_embedders(store: GraphStore) -> list[dict[str, Any]]:
    """What the graph's ingest runs recorded embedding its documents, each with how many runs
    and which (first and last run number), in the order each first ingested."""
    return [{"embedder": json.loads(r["embedder"]), "runs": r["runs"], "first_run": r["first_run"],
             "last_run": r["last_run"]} for r in store.read("ingest_embedders")]


def answer_set(query: EvalQuery, graph: SupersessionGraph) -> set[str]:
    """What strict TCA requires in the top k: the gold and, when the query names its anchors,
    their controlling frontier (car_graph.metrics.strict_tca)."""
    required = graph.controlling(set(query.anchors), query.as_of) if query.anchors else set()
    return required | set(query.gold)


def evaluate(
    retriever: Retriever,
    queries: Sequence[EvalQuery],
    *,
    k: int = 5,
    systems: Sequence[str] | None = None,
    domain: str | None = None,
    progress: bool = False,
    depth: int | None = None,
    known_at: datetime | None = None,
) -> EvaluationReport:
    """Score each system at ``k``. ``depth`` (>= k) retrieves deeper lists once, so
    ``report.tca_curves()`` can read TCA@1..depth from them without running retrieval per k;
    the scores at k come from the top k of those lists (each system's ranking does not depend on
    k: see car_graph_benchmarks.reproduce). ``known_at``: retrieve from, and score against, the
    graph as car-graph recorded it at that instant (car and hybrid only)."""
    depth = max(k, depth or k)
    systems = list(systems or DEFAULT_SYSTEMS)
    unknown = set(systems) - set(DEFAULT_SYSTEMS)
    if unknown:
        raise ConfigError(f"unknown systems {sorted(unknown)}; choose from {DEFAULT_SYSTEMS}")
    if any(q.known_at for q in queries) and set(systems) == set(DEFAULT_SYSTEMS):
        # the single-index baselines read the current graph only (Retriever.search)
        systems = [s for s in systems if s in ("car", "hybrid")]
    graph = supersession_graph(retriever, domain, known_at)
    # a line's own known_at: its question is asked of, and scored against, the graph as
    # recorded then (each instant pinned to its commit once, each graph read once)
    pins: dict[str, datetime | None] = {}
    graphs: dict[datetime | None, SupersessionGraph] = {known_at: graph}

    def instant_of(query: EvalQuery) -> datetime | None:
        if query.known_at is None:
            return known_at
        if query.known_at not in pins:
            pin = pin_known_at(retriever.store, query.known_at)
            pins[query.known_at] = pin.instant if pin is not None else None
        return pins[query.known_at]

    def graph_of(instant: datetime | None) -> SupersessionGraph:
        if instant not in graphs:
            graphs[instant] = supersession_graph(retriever, domain, instant)
        return graphs[instant]
    started = time.perf_counter()
    retriever.prepare(q.question for q in queries)
    report = EvaluationReport(k=k, n=len(queries), depth=depth, queries=tuple(queries), graph=graph,
                              unanswerable=sum(len(answer_set(q, graph)) > k for q in queries),
                              **recorded_embedders(retriever))
    # Question analysis (batched embedding + entity linking) is shared by all systems, so it is
    # timed once here; per-system latencies below are the retrieval statements alone.
    report.analysis_ms_per_query = (time.perf_counter() - started) * 1000 / max(len(queries), 1)
    for system in systems:
        rows: list[QueryScore] = []
        retrieved: dict[str, list[str]] = {}
        anchors: dict[str, list[str]] = {}
        latencies: list[float] = []
        for query in tqdm(queries, desc=system, unit="q", disable=not progress):
            when = instant_of(query)
            started = time.perf_counter()
            ids, anchor_ids = retriever.search(system, query.question, depth, query.as_of, domain,
                                               when)
            latencies.append((time.perf_counter() - started) * 1000)
            retrieved[query.id] = ids
            anchors[query.id] = anchor_ids
            rows.append(
                score_query(  # ids[:k]: the reciprocal rank looks at the whole list it is given
                    query.id, ids[:k], k, set(query.gold), graph_of(when), query.as_of,
                    set(query.anchors) if query.anchors else None, anchor_ids,
                )
            )
        report.systems[system] = SystemRun(
            SystemScores.from_rows(rows), rows, retrieved,
            statistics.median(latencies) if latencies else 0.0, anchors,
        )
    return report


@dataclass
class VerdictReport:
    """``car-graph eval --verdicts``: verdicts scored against a queries file (metrics.py's
    ``score_verdicts``), car's and the naive baseline's, plus car's at other margins."""

    k: int
    n: int
    margin: float
    systems: dict[str, VerdictScores]
    sweep: dict[float, VerdictScores] = field(default_factory=dict)
    embedder: dict[str, Any] = field(default_factory=dict)  # as EvaluationReport's
    graph_embedders: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A contract: keys are only ever added."""
        return {
            "k": self.k,
            "n": self.n,
            "margin": self.margin,
            "systems": {name: s.as_dict() for name, s in self.systems.items()},
            "margin_sweep": [{"margin": m, **s.as_dict()} for m, s in sorted(self.sweep.items())],
            "embedder": self.embedder,
            "graph_embedders": self.graph_embedders,
        }

    def table(self) -> str:
        def f(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}"
        header = (f"{'system':<18} {'decisive P':>10} {'coverage':>8} {'ambig':>6} "
                  f"{'amb+gold':>8} {'agree':>6} {'stale':>6} {'stale %':>7} {'right':>6} {'settled':>7}")
        lines = [f"n = {self.n} queries, k = {self.k}, margin = {self.margin}", header,
                 "-" * len(header)]
        rows = [(name, s) for name, s in self.systems.items()]
        if len(self.sweep) > 1:
            rows += [(f"car @ margin {m:g}", s) for m, s in sorted(self.sweep.items())]
        for name, s in rows:
            lines.append(f"{name:<18} {f(s.decisive_precision):>10} {f(s.decisive_coverage):>8} "
                         f"{s.ambiguous:>6} {f(s.ambiguous_with_gold_rate):>8} {s.agreeing:>6} "
                         f"{s.stale:>6} {100 * s.stale_rate:>6.2f}% {f(s.answered_right):>6} "
                         f"{f(s.settled_right):>7}")
        return "\n".join(lines)
