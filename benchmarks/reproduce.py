"""``car-graph reproduce``: every benchmark, every system, one report (docs/results.md).

Why one command: the numbers in docs/results.md must come from code, on a named machine, with the
command that produced them written next to them. Nothing in the report is typed by hand: the
targets that are missed, by how much and why are all computed from the runs.

For each benchmark (the synthetic one, then each real domain) the database is wiped (``reset``),
the benchmark's documents are ingested, and the four systems (bm25, dense, hybrid, car) are run
ONCE per query at ``k_max``. Every metric at ``k`` and the TCA@k curve for k = 1..k_max are then
derived from those same ranked lists with :meth:`SystemRun.rescore`.

Why that is sound -- each system's ranking does not depend on k, so the top k of the run at k_max
is the run at k:

* car: the fused anchors are ``ORDER BY fused DESC, id LIMIT max(min_anchors, k)``, so the anchor
  list at k is a prefix of the list at k_max; results are ordered by their best anchor's rank,
  then path length, then id, so documents reached only from the extra anchors rank after all the
  others. The per-source candidate pool is ``max(candidates, k)`` = 50 for every k <= 50.
* hybrid: the same fusion, ``LIMIT k`` on a k-independent order.
* bm25 / dense: ``ORDER BY score DESC, id LIMIT k`` over the index's top ``max(candidates, k)``
  (50) filtered by ``as_of``: the same pool for every k <= 50.

The one difference: latencies are measured at k_max.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from car_graph.evaluation import (
    DEFAULT_SYSTEMS,
    EvalQuery,
    SystemRun,
    evaluate,
    parse_queries,
    supersession_graph,
)
from car_graph.keys import normalize_key
from car_graph.metrics import Edge, SupersessionGraph, SystemScores, kappa, phi, strict_tca
from car_graph_benchmarks import peer_speed
from car_graph_benchmarks.links import (
    RulePrecisionRecall,
    SourceLink,
    render_precision_recall,
    rule_edges_by_rule,
    rule_precision_recall,
)

if TYPE_CHECKING:
    from car_graph.client import CarClient
    from car_graph.domains import Domain
    from car_graph.records import DocumentRecord
    from car_graph.rules import Rule

__all__ = [
    "REPORTED_SPLIT",
    "BenchmarkResult",
    "ErrorAnalysis",
    "MachineInfo",
    "Miss",
    "PhiSummary",
    "QuerySetResult",
    "ReproduceReport",
    "TargetCheck",
    "benchmark_builders",
    "check_targets",
    "classify_miss",
    "cli_command",
    "phi_summary",
    "query_kappa",
    "render_markdown",
    "reproduce",
    "target_statement",
]

REAL_DOMAINS = ("security", "law", "drug")
# the split of the real-corpus question sets a report cites; "dev" is for tuning only
REPORTED_SPLIT = "test"
# the freshness guard's row in the report: its questions (and chunked documents) on this graph
GUARD_DOMAIN, GUARD_QUESTIONS = "security", 20
SYNTHETIC = "synthetic"
SYNTHETIC_DOCS = 2400
SYNTHETIC_SEED = 7

# Targets for car's strict TCA@k; the robustness target applies to every robustness set.
VARIANT_DOMAINS = ("security", "drug")
COMPLIANCE = "compliance"
TARGETS: Mapping[str, float] = {"synthetic": 0.98, "security": 0.97, "law": 0.97, "drug": 0.90}
ROBUSTNESS_TARGET = 0.90

GOLD_TOO_LARGE = "gold larger than k"
ANCHOR_NOT_FUSED = "anchor not among the fused anchors"
ANCHOR_OUTRANKED = "anchor ranked below r (other anchors' frontiers filled the k slots)"
OTHER = "other"
MISS_CLASSES = (GOLD_TOO_LARGE, ANCHOR_NOT_FUSED, ANCHOR_OUTRANKED, OTHER)


@dataclass(frozen=True)
class PaperResult:
    """The paper's TCA@5 (§7.11) for the benchmark our real domain stands in for."""

    label: str
    n: int
    two_stage: float
    two_stage_ci: tuple[float, float]
    dense: float
    bm25: float


PAPER: Mapping[str, PaperResult] = {
    "security": PaperResult("Security (GHSA)", 159, 0.975, (0.937, 0.990), 0.270, 0.138),
    "law": PaperResult("Legal (SCOTUS)", 122, 0.926, (0.865, 0.961), 0.172, 0.893),
    "drug": PaperResult("Medical (FDA recall)", 500, 0.774, (0.735, 0.808), 0.064, 0.004),
}


# --- results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SystemAtK:
    """One system on one query set at k (latency measured at k_max)."""

    scores: SystemScores
    latency_ms_p50: float


@dataclass(frozen=True)
class Miss:
    """A query car failed at k, with the class that explains it and a computed detail."""

    query_id: str
    question: str
    cls: str
    detail: str


@dataclass(frozen=True)
class ErrorAnalysis:
    """Every car miss at k, classified (see :func:`classify_miss`)."""

    k: int
    n: int
    misses: tuple[Miss, ...] = ()

    def counts(self) -> dict[str, int]:
        """Misses per class, every class listed (zeros too) in MISS_CLASSES order."""
        return {c: sum(m.cls == c for m in self.misses) for c in MISS_CLASSES}

    def of_class(self, cls: str) -> list[Miss]:
        return [m for m in self.misses if m.cls == cls]


@dataclass(frozen=True)
class PhiSummary:
    """Scope identifiability over a query set: φ = min(1, 1/κ) (paper Def. 5, Prop. 2)."""

    n: int
    mean_phi: float
    mean_kappa: float
    ambiguous: int  # queries with κ > 1


@dataclass(frozen=True)
class QuerySetResult:
    """All systems on one query set: scores at k, the TCA@k curve, car's misses."""

    n: int
    systems: Mapping[str, SystemAtK]
    curve: Mapping[str, tuple[float, ...]]  # system -> TCA@1..TCA@k_max
    errors: ErrorAnalysis
    by_variant: Mapping[str, Mapping[str, SystemScores]] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchmarkResult:
    name: str
    documents: int
    edges_by_rule: Mapping[str, int]
    ingest_seconds: float
    eval_seconds: float
    main: QuerySetResult
    robustness: QuerySetResult | None
    phi: PhiSummary
    skipped_records: int = 0
    # each rule's edges (read back from Neo4j) against the sources' own links, on this corpus
    rules_vs_links: tuple[RulePrecisionRecall, ...] = ()
    # the export's verdict sets (variants.VERDICT_SETS): TCA reported, no target
    verdict_sets: QuerySetResult | None = None
    # car beside neo4j-graphrag with a closure (benchmarks/peer_speed.py), dev and test sets
    peer_speed: tuple[peer_speed.PeerSpeedRow, ...] = ()


@dataclass(frozen=True)
class TargetCheck:
    """car's TCA@k on one query set against its target."""

    benchmark: str
    query_set: str  # "main" or "robustness"
    target: float
    successes: int
    n: int
    miss_counts: Mapping[str, int] = field(default_factory=dict)

    @property
    def achieved(self) -> float:
        return self.successes / self.n if self.n else 0.0

    @property
    def met(self) -> bool:
        return self.n > 0 and self.achieved >= self.target

    @property
    def shortfall(self) -> float:
        return max(0.0, self.target - self.achieved)

    @property
    def queries_short(self) -> int:
        """How many more queries car would have to get right to reach the target."""
        return max(0, math.ceil(self.target * self.n - 1e-9) - self.successes)


@dataclass(frozen=True)
class MachineInfo:
    platform: str
    cpus: int | None
    ram: str
    python: str
    neo4j: str
    embedding_model: str


@dataclass(frozen=True)
class ReproduceReport:
    command: str
    machine: MachineInfo
    date: str
    k: int
    k_max: int
    seed: int
    n_distractors: int
    benchmarks: tuple[BenchmarkResult, ...]
    targets: tuple[TargetCheck, ...]
    out: Path
    plot: Path | None
    seconds: float
    # the freshness guard's smoke-sized row (benchmarks/guard.py, GuardBenchmark), measured on
    # the security graph right after its benchmark; None when security was not run
    guard: Any = None


# --- pure helpers --------------------------------------------------------------------------------


def cli_command(
    raw_dir: Path | None, out: Path, domains: Sequence[str], synthetic: bool,
    n_distractors: int, k: int, variant_domains: Sequence[str] = VARIANT_DOMAINS,
    with_compliance: bool = True,
) -> str:
    """The ``car-graph reproduce`` invocation that reproduces a run with these arguments."""
    parts = ["car-graph", "reproduce"]
    if raw_dir is not None:
        parts += ["--raw", str(raw_dir)]
    parts += ["--out", str(out)]
    if tuple(domains) != REAL_DOMAINS:
        parts += ["--domains", ",".join(domains) or "''"]
    if tuple(variant_domains) != VARIANT_DOMAINS:
        parts += ["--variants", ",".join(variant_domains) or "''"]
    if not synthetic:
        parts.append("--no-synthetic")
    if not with_compliance:
        parts.append("--no-compliance")
    if n_distractors != 2000:
        parts += ["--distractors", str(n_distractors)]
    if k != 5:
        parts += ["-k", str(k)]
    return " ".join(parts)


def classify_miss(
    query: EvalQuery,
    ranked: Sequence[str],
    fused: Sequence[str],
    graph: SupersessionGraph,
    k: int,
    n_fused: int,
) -> Miss | None:
    """Why car failed ``query`` at k (None when it did not), from its k_max run.

    ``ranked`` is car's list at k_max, ``fused`` its fused anchors at k_max and ``n_fused`` how
    many anchors a run at k closes over (``max(min_anchors, k)``), so ``fused[:n_fused]`` is the
    anchor list of the run at k. Classes, first match wins:

    1. gold larger than k -- the controlling set cannot fit in k slots;
    2. anchor not among the fused anchors -- stage 1 lost the anchor;
    3. anchor ranked below r -- the anchor was fused at rank r, but the k slots were filled with
       other anchors' frontier documents before its own;
    4. other -- e.g. the anchor's closure did not reach gold, or a superseded document sat in the
       top k without its superseder.
    """
    gold = set(query.gold)
    anchors = set(query.anchors) if query.anchors else None
    if strict_tca(ranked, k, gold, graph, query.as_of, anchors):
        return None

    def miss(cls: str, detail: str) -> Miss:
        return Miss(query.id, query.question, cls, detail)

    required = gold | (graph.controlling(anchors, query.as_of) if anchors else set())
    if len(required) > k:
        return miss(GOLD_TOO_LARGE, f"{len(required)} controlling documents for k = {k}")
    top = list(dict.fromkeys(ranked[:k]))
    considered = list(fused[:n_fused])
    if anchors:
        absent = sorted(a for a in anchors if a not in considered)
        if absent:
            later = [f"{a} at fused rank {fused.index(a) + 1}" for a in absent if a in fused]
            where = f" ({'; '.join(later)})" if later else f" (not in the top {len(fused)} either)"
            return miss(ANCHOR_NOT_FUSED,
                        f"{', '.join(absent)} not among the {n_fused} fused anchors{where}")
    missing = required - set(top)
    if missing and anchors and len(top) >= k and set(top) - required:
        rank = max(considered.index(a) + 1 for a in anchors)
        positions = sorted(ranked.index(d) + 1 for d in missing if d in ranked)
        found = (f", first at rank {positions[0]}" if positions
                 else f", none in the top {len(ranked)}")
        return miss(ANCHOR_OUTRANKED,
                    f"anchor at fused rank r = {rank}; {len(missing)} of {len(required)} "
                    f"controlling documents below rank {k}{found}")
    if missing:
        return miss(OTHER, f"controlling {', '.join(sorted(missing))} not in the top {k} "
                           f"({len(top)} results)")
    stale = [d for d in top if graph.is_superseded(d, query.as_of)
             and not any(graph.reaches(d, o, query.as_of) for o in top if o != d)]
    return miss(OTHER,
                f"superseded {', '.join(stale) or '?'} in the top {k} without its superseder")


def analyse_errors(
    queries: Sequence[EvalQuery], run: SystemRun, graph: SupersessionGraph, k: int, n_fused: int,
) -> ErrorAnalysis:
    misses = []
    for q in queries:
        found = classify_miss(q, run.retrieved[q.id], run.anchors.get(q.id, []), graph, k, n_fused)
        if found is not None:
            misses.append(found)
    return ErrorAnalysis(k, len(queries), tuple(misses))


def scope_index(documents: Iterable[DocumentRecord]) -> dict[tuple[str, str], set[str]]:
    """(entity type, normalised key) -> ids of the documents in that scope, as the graph's
    Entity nodes are keyed (pipeline.scope_rows)."""
    index: dict[tuple[str, str], set[str]] = {}
    for d in documents:
        for etype, keys in d.scope.items():
            for key in keys:
                index.setdefault((etype, normalize_key(key)), set()).add(d.id)
    return index


def query_kappa(
    anchors: Iterable[str],
    scopes: Mapping[str, Mapping[str, Sequence[str]]],
    index: Mapping[tuple[str, str], set[str]],
    graph: SupersessionGraph,
    as_of: Any = None,
) -> float:
    """κ = |documents sharing a scope entity with an anchor| / |cl(anchors)| (Def. 5).

    The anchors themselves count as in scope, so an anchor without scope entities has κ <= 1.
    """
    anchors = set(anchors)
    in_scope = set(anchors)
    for a in anchors:
        for etype, keys in scopes.get(a, {}).items():
            for key in keys:
                in_scope |= index.get((etype, normalize_key(key)), set())
    return kappa(len(in_scope), len(graph.closure(anchors, as_of)))


def phi_summary(
    documents: Sequence[DocumentRecord], queries: Sequence[EvalQuery], graph: SupersessionGraph,
) -> PhiSummary:
    """Mean φ over the queries that name anchors (the others have no κ)."""
    index = scope_index(documents)
    scopes = {d.id: d.scope for d in documents}
    kappas = [query_kappa(q.anchors, scopes, index, graph, q.as_of) for q in queries if q.anchors]
    if not kappas:
        return PhiSummary(0, 1.0, 0.0, 0)
    return PhiSummary(
        n=len(kappas),
        mean_phi=sum(phi(x) for x in kappas) / len(kappas),
        mean_kappa=sum(kappas) / len(kappas),
        ambiguous=sum(x > 1 for x in kappas),
    )


def _set_rows(groups: Sequence[tuple[str, QuerySetResult | None]],
              systems: Sequence[str]) -> list[list[str]]:
    """Per benchmark, a query group's TCA per system: "all", then one row per set in it."""
    rows = []
    for name, result in groups:
        assert result is not None
        rows.append([name, "all", str(result.n),
                     *(f"{result.systems[s].scores.tca:.3f}" for s in systems)])
        for variant, scores in sorted(result.by_variant.items()):
            n = next(iter(scores.values())).n if scores else 0
            rows.append([name, variant, str(n), *(f"{scores[s].tca:.3f}" for s in systems)])
    return rows


def check_targets(results: Sequence[BenchmarkResult]) -> list[TargetCheck]:
    """car's TCA@k against TARGETS (main sets) and ROBUSTNESS_TARGET (robustness sets)."""
    checks = []
    for b in results:
        sets = [("main", b.main, TARGETS.get(b.name))]
        if b.robustness is not None and b.robustness.n:
            sets.append(("robustness", b.robustness, ROBUSTNESS_TARGET))
        for name, result, target in sets:
            if target is None or "car" not in result.systems:
                continue
            scores = result.systems["car"].scores
            checks.append(TargetCheck(b.name, name, target, round(scores.tca * scores.n), scores.n,
                                      result.errors.counts()))
    return checks


def target_statement(check: TargetCheck, k: int) -> str:
    """One sentence: whether car met the target and, if not, by how much and why."""
    label = check.benchmark + (" robustness" if check.query_set == "robustness" else "")
    head = (f"**{label}**: car TCA@{k} = {check.achieved:.3f} ({check.successes}/{check.n}), "
            f"target ≥ {check.target:.2f}")
    if check.met:
        return f"{head}: met."
    why = (", ".join(f"{c}: {n}" for c, n in check.miss_counts.items() if n)
           or "no misses classified")
    return (f"{head}: **missed by {check.shortfall:.3f}** ({check.queries_short} more of "
            f"{check.n} queries needed). Car's {check.n - check.successes} misses: {why}.")


# --- markdown ------------------------------------------------------------------------------------


def _ci(scores: SystemScores) -> str:
    return f"{scores.tca:.3f} [{scores.tca_ci95[0]:.3f}, {scores.tca_ci95[1]:.3f}]"


def _opt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _escape(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render_markdown(report: ReproduceReport) -> str:
    """docs/results.md: every number and every sentence about a target comes from ``report``."""
    k, systems = report.k, list(DEFAULT_SYSTEMS)
    m = report.machine
    out: list[str] = [
        "# car-graph results",
        "",
        "Generated by `car-graph reproduce`; do not edit by hand. Produced with:",
        "",
        "```",
        report.command,
        "```",
        "",
        "The benchmarks are built in memory by the same code as the generator commands, which "
        "write them to disk for inspection:",
        "",
        "```",
        f"car-graph synthetic BENCH/synthetic --docs {SYNTHETIC_DOCS} --seed {SYNTHETIC_SEED}",
        f"python -m car_graph_benchmarks.questions BENCH --domain all --raw RAW "
        f"--distractors {report.n_distractors} --seed {report.seed}",
        "python -m car_graph_benchmarks.variants BENCH/variants --raw RAW",
        "python -m car_graph_benchmarks.compliance BENCH/compliance",
        "```",
        "",
        "## Machine",
        "",
        f"* date: {report.date} (run took {report.seconds / 60:.1f} min)",
        f"* platform: {m.platform}; {m.cpus} CPUs; RAM {m.ram}",
        f"* Python {m.python}; {m.neo4j}",
        f"* embedding model: {m.embedding_model}",
        "",
        "## Method",
        "",
        f"Per benchmark: wipe the database and schema, ingest the documents, run bm25, dense, "
        f"hybrid and car once per query at k = {report.k_max}, and score the top {k} of those "
        f"same ranked lists with strict TCA (Theorem 4: every controlling document in the top k, "
        f"and no superseded document without its superseder). Rankings do not depend on k (car "
        f"and hybrid order a k-independent anchor fusion; bm25 and dense cut a score order), so "
        f"the top {k} of the run at {report.k_max} is the run at {k}; latencies are measured at "
        f"k = {report.k_max}. 95% intervals are Wilson intervals.",
        "",
        f"Real domains report their **{REPORTED_SPLIT} split** only: each anchor is dev or test by "
        "a stable hash of its id (about 40 % dev), and question templates, typo edits and "
        "partial-id phrasings come in disjoint dev and test families (a question uses the dev "
        "families iff its anchor is dev). The dev split is for tuning and is never reported "
        "here. Their gold is front(cl(anchor)) over the sources' own links (OSV fixed versions "
        "and CVE aliases, the CONAN table's pairs, the withdrawal list, openFDA application "
        "numbers; benchmarks/links.py) plus explicit edges, never over the rules, and strict TCA "
        "is scored against that relation rather than the edges the rules built, so a wrong or "
        "missing rule edge lowers car's score. How far the rules agree with the links is in "
        "the section on rule precision and recall.",
        "",
        "The outside-style exports hand the same corpora to car-graph as a user's pipeline "
        "would (generic JSONL, identifiers only in `attributes`, explicit edges, no rules); "
        "their robustness rows are the failure-class sets of benchmarks/variants.py. The "
        "compliance benchmark is a domain no built-in pipeline covers (employee-trading events "
        "scoped to employee + ticker), written as generic JSONL plus a rules file only; it runs "
        "once with explicit `supersedes` and once with the edges derived from "
        "benchmarks/rules/compliance.yaml, and both are scored on the edges its generator "
        "intended. All of them report the test split, as the real domains do.",
        "",
        f"## Summary: strict TCA@{k} [95% CI]",
        "",
    ]
    header = ["benchmark", "n", *systems, "paper two-stage", "paper dense", "paper bm25"]
    rows = []
    for b in report.benchmarks:
        paper = PAPER.get(b.name)
        cells = [_ci(b.main.systems[s].scores) if s in b.main.systems else "–" for s in systems]
        if paper:
            lo, hi = paper.two_stage_ci
            ref = [f"{paper.two_stage:.3f} [{lo:.3f}, {hi:.3f}] (n = {paper.n})",
                   f"{paper.dense:.3f}", f"{paper.bm25:.3f}"]
        else:
            ref = ["–", "–", "–"]
        rows.append([b.name, str(b.main.n), *cells, *ref])
    out += _table(header, rows)
    out += [
        "",
        "Paper columns: TCA@5 of arXiv 2604.14488 §7.11 on its own corpora (GHSA, SCOTUS, FDA), "
        "which our security, law and drug benchmarks stand in for; its TCA is the looser "
        "\"gold superseder in the top k\", not strict TCA.",
        "",
    ]
    if report.plot is not None:
        out += [f"![TCA@k for k = 1..{report.k_max}]({report.plot.name})", ""]

    for b in report.benchmarks:
        edges = ", ".join(f"{rule} {n}" for rule, n in sorted(b.edges_by_rule.items())) or "none"
        out += [
            f"## {b.name}",
            "",
            f"{b.documents} documents; SUPERSEDES edges by rule: {edges}; ingest "
            f"{b.ingest_seconds:.1f} s; evaluation {b.eval_seconds:.1f} s"
            + (f"; {b.skipped_records} records skipped" if b.skipped_records else "") + ".",
            "",
        ]
        for title, result in (("queries", b.main), ("robustness queries", b.robustness),
                              ("verdict-set queries", b.verdict_sets)):
            if result is None or not result.n:
                continue
            split = f" ({REPORTED_SPLIT} split)" if b.name != SYNTHETIC else ""
            out += [f"{result.n} {title}{split}, k = {k}:", ""]
            out += _table(
                ["system", f"TCA@{k}", "95% CI", f"gold@{k}", "anchor recall", "MRR", "p50 ms"],
                (
                    [s, f"{r.scores.tca:.3f}",
                     f"[{r.scores.tca_ci95[0]:.3f}, {r.scores.tca_ci95[1]:.3f}]",
                     f"{r.scores.gold_at_k:.3f}", _opt(r.scores.anchor_recall),
                     f"{r.scores.mrr:.3f}", f"{r.latency_ms_p50:.1f}"]
                    for s, r in result.systems.items()
                ),
            )
            out.append("")

    robust = [b for b in report.benchmarks if b.robustness is not None and b.robustness.n]
    out += ["## Robustness", ""]
    if robust:
        out += [f"Strict TCA@{k} on harder questions about the same anchors. Real domains: "
                "perturbed copies of their questions (same gold): one-character typos in the "
                "named entity, and partial CVE identifiers (security). Outside-style exports: "
                "the failure-class sets (structured identifiers, typos, bare partial "
                "identifiers, short names, masked names). Compliance: the questions whose "
                "ticker has 1-3 letters.", ""]
        out += _table(["benchmark", "variant", "n", *systems],
                      _set_rows([(b.name, b.robustness) for b in robust], systems))
    else:
        out.append("No robustness sets in this run.")
    judged = [b for b in report.benchmarks if b.verdict_sets is not None and b.verdict_sets.n]
    if judged:
        out += ["", "## Verdict sets (no target)", "",
                f"Strict TCA@{k} on the exports' verdict sets (benchmarks/variants.py "
                "`VERDICT_SETS`): questions that several documents fit by construction (a flaw's "
                "generic wording shared across products, an indication shared by up to five "
                "drugs, a lexical lure), and questions naming two subjects, where strict TCA asks "
                "for both controlling sets in k slots. They carry no TCA target: they measure "
                "whether a verdict says \"ambiguous\" when it should (`car-graph eval "
                "--verdicts`, docs/rag.md). Their retrieval is shown so it can be followed.", ""]
        out += _table(["benchmark", "set", "n", *systems],
                      _set_rows([(b.name, b.verdict_sets) for b in judged], systems))
    compared = [(b.name, b.peer_speed) for b in report.benchmarks if b.peer_speed]
    if compared:
        out += ["", "## Against neo4j-graphrag with a closure", "",
                "car beside the peer a user would build in ten lines of Cypher, on each real-domain "
                "set, dev and test, the same graph, indexes and embedder (benchmarks/peer_speed.py): "
                "every system answers every question in rotating order after a warm-up; "
                "statement-only rows get the question's vector computed beforehand, end-to-end "
                "rows embed (car: analyse) the question in the call.", ""]
        out += peer_speed.render(compared, k)
        checks = [c for _, rows in compared for c in peer_speed.check(rows)]
        out += [f"Test sets where car's end-to-end p50 is within 1.2x the peer's and its strict "
                f"TCA@{k} at least the peer's: {sum(met for _, met in checks)} of {len(checks)}.", ""]
        out += [f"* {'met' if met else '**missed**'}: {name}: {text}"
                for (name, rows) in compared for text, met in peer_speed.check(rows)]
    out += [
        "",
        "## Scope identifiability φ",
        "",
        "φ = min(1, 1/κ), κ = |documents sharing a scope entity with the anchor| / |cl(anchor)| "
        "(paper Def. 5), computed from the benchmark documents' scope and the supersession graph "
        "read back from Neo4j. κ > 1 means same-scope documents outside the chain could be taken "
        "for it.",
        "",
    ]
    out += _table(
        ["benchmark", "queries", "mean φ", "mean κ", "κ > 1", f"car TCA@{k}"],
        ([b.name, str(b.phi.n), f"{b.phi.mean_phi:.3f}", f"{b.phi.mean_kappa:.2f}",
          str(b.phi.ambiguous),
          f"{b.main.systems['car'].scores.tca:.3f}" if "car" in b.main.systems else "–"]
         for b in report.benchmarks),
    )
    out += ["", "## Rule precision and recall against the sources' own links", ""]
    measured = [r for b in report.benchmarks for r in b.rules_vs_links]
    if measured:
        out += [
            "Each rule's own SUPERSEDES edges in the benchmark's graph (the graph keeps one edge "
            "per rule, read back from Neo4j after the runs), "
            "against the source links between the same documents. A rule's recall is the share "
            "of the links of its document kinds that it alone produces; `all rules` is the union "
            "against every link; `explicit` rows are the adapters' explicit edges (law's CONAN "
            "rows), not rules. Full-domain numbers: `python -m car_graph_benchmarks.links "
            "--raw RAW`. The compliance rules file is measured against the edges its generator "
            "intended (sources `intended_<relation>`), on the run whose records carry no "
            "`supersedes`.",
            "",
        ]
        out += render_precision_recall(measured)
    else:
        out.append("No real domain in this run.")
    out += [
        "",
        f"## Error analysis: car's misses at k = {k}",
        "",
        "Each miss gets the first class that applies: the controlling set is larger than k; the "
        "anchor is not among the fused anchors a run at k closes over; the anchor was fused at "
        "rank r but other anchors' frontier documents filled the k slots; other (the anchor's "
        "closure missed gold, or a superseded document sat without its superseder).",
        "",
    ]
    for b in report.benchmarks:
        # the verdict sets' misses are by construction (several documents fit): not listed
        for title, result in (("", b.main), (" robustness", b.robustness)):
            if result is None or not result.n:
                continue
            errors = result.errors
            count = len(errors.misses)
            out += [f"### {b.name}{title}: {count} {'miss' if count == 1 else 'misses'} of "
                    f"{errors.n}", ""]
            if not errors.misses:
                continue
            out += _table(["class", "misses"],
                          ([c, str(n)] for c, n in errors.counts().items() if n))
            out.append("")
            for cls in MISS_CLASSES:
                for ex in errors.of_class(cls):
                    out.append(f"* {cls} — `{ex.query_id}` \"{_escape(ex.question)}\": "
                               f"{_escape(ex.detail)}")
            out.append("")
    if report.guard is not None:
        out += ["## Freshness guard (smoke)", "",
                f"The guard (`CarClient.guard`) on the first {report.guard.questions} "
                f"{report.guard.split}-split questions of the {report.guard.domain} graph, each "
                "one's dense top 5 from an in-memory store of the same corpus; chunks of "
                f"{int(report.guard.chunks['documents'])} documents; the citator on "
                f"{int(report.guard.citator['texts'])} texts. The full run is "
                "`python -m car_graph_benchmarks.guard --split test`.", "",
                "```", report.guard.table(), "```", ""]
    out += ["## Where a target is missed", ""]
    targets = ", ".join(f"{name} ≥ {t:.2f}" for name, t in TARGETS.items())
    out += [f"Targets for car's strict TCA@{k}: {targets}; every robustness set "
            f"≥ {ROBUSTNESS_TARGET:.2f}.", ""]
    missed = [c for c in report.targets if not c.met]
    if not report.targets:
        out.append("No benchmark with a target was run.")
    elif not missed:
        out += ["Every target is met.", ""]
    else:
        out += [f"{len(missed)} of {len(report.targets)} targets missed.", ""]
    for check in report.targets:
        out.append(f"* {target_statement(check, k)}")
    out.append("")
    return "\n".join(out)


def plot_curves(results: Sequence[BenchmarkResult], path: Path, k: int) -> Path | None:
    """docs/tca_at_k.png: one panel per benchmark, TCA@k per system (None without matplotlib)."""
    from car_graph import plots

    if not results:
        return None
    try:
        fig = plots.new_figure(4.2 * len(results), 3.6)
    except ImportError:  # MissingExtraError: the report is still written, without its plot
        return None
    axes = fig.subplots(1, len(results), sharey=True, squeeze=False)[0]
    for ax, b in zip(axes, results, strict=True):
        plots.draw_tca_curves(ax, b.main.curve, k, f"{b.name} (n = {b.main.n})")
    axes[0].set_ylabel("strict TCA@k")
    axes[-1].legend(loc="lower right", fontsize="small")
    return plots.save(fig, path)


# --- running -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Benchmark:
    name: str
    documents: list[DocumentRecord]
    queries: list[EvalQuery]
    robustness: list[EvalQuery]
    variants: Mapping[str, str]  # robustness and verdict-set query id -> variant
    rules: list[Rule] | None
    # real domains: the gold relation (source links + explicit edges) that scores the runs, and
    # the links the rules are measured against; None: score with the graph's own edges
    gold_edges: list[Edge] | None = None
    links: tuple[SourceLink, ...] = ()
    domain: Domain | None = None  # a user domain declared in YAML (its rules file)
    verdict_sets: list[EvalQuery] = field(default_factory=list)
    # (split, set name, queries) timed against the closure peer: real domains, dev and test
    peer_sets: list[tuple[str, str, list[EvalQuery]]] = field(default_factory=list)


PEER_SPLITS = ("dev", REPORTED_SPLIT)


def _peer_sets(split_of: Callable[[str], list[EvalQuery]], variant_of: Mapping[str, str],
               robust_of: Callable[[str], list[EvalQuery]],
               ) -> list[tuple[str, str, list[EvalQuery]]]:
    """Each split's main questions, then its robustness questions one variant at a time."""
    sets: list[tuple[str, str, list[EvalQuery]]] = []
    for split in PEER_SPLITS:
        sets.append((split, "main", split_of(split)))
        robust = robust_of(split)
        for variant in sorted({variant_of.get(q.id, "other") for q in robust}):
            sets.append((split, variant, [q for q in robust if variant_of.get(q.id, "other") == variant]))
    return sets


def _eval_queries(rows: Sequence[Mapping[str, Any]], source: str) -> list[EvalQuery]:
    return parse_queries((json.dumps(r, default=str) for r in rows), source)


def _synthetic_benchmark() -> _Benchmark:
    from car_graph.rules import load_rules
    from car_graph_benchmarks import synthetic

    bench = synthetic.generate(n_docs=SYNTHETIC_DOCS, seed=SYNTHETIC_SEED)
    return _Benchmark(SYNTHETIC, bench.documents, _eval_queries(bench.queries, SYNTHETIC), [], {},
                      load_rules(bench.rules_path))


def _domain_benchmark(domain: str, raw_dir: Path, n_distractors: int, seed: int,
                      split: str = REPORTED_SPLIT) -> _Benchmark:
    """One real domain: its TEST split only (dev is for tuning, and for depth_sweep), scored on
    the source links."""
    from car_graph_benchmarks.links import gold_edges
    from car_graph_benchmarks.questions import build_benchmark

    bench = build_benchmark(domain, raw_dir, n_distractors=n_distractors, seed=seed)
    queries = bench.split(bench.queries, split)
    robustness = bench.split(bench.robustness, split)
    variants = {r["id"]: str(r.get("info", {}).get("variant", "other")) for r in robustness}
    links = bench.links.links if bench.links else ()
    every_variant = {r["id"]: str(r.get("info", {}).get("variant", "other")) for r in bench.robustness}
    peer_sets = _peer_sets(
        lambda s: _eval_queries(bench.split(bench.queries, s), domain), every_variant,
        lambda s: _eval_queries(bench.split(bench.robustness, s), f"{domain} robustness"))
    return _Benchmark(domain, bench.documents, _eval_queries(queries, domain),
                      _eval_queries(robustness, f"{domain} robustness"), variants, None,
                      gold_edges(links, bench.documents), tuple(links), peer_sets=peer_sets)


def _compliance_benchmark(from_rules: bool, examples: int = 1000,
                          split: str = REPORTED_SPLIT) -> _Benchmark:
    """The bring-your-own-domain benchmark (benchmarks/compliance.py): generic JSONL, scope =
    employee + ticker. With ``from_rules`` the records carry no ``supersedes`` and the edges come
    from benchmarks/rules/compliance.yaml alone; either way it is scored on the generator's
    intended edges, and the rules are measured against them. TEST split; the questions whose
    ticker has 1-3 letters are also reported on their own."""
    from car_graph.rules import load_domain_file
    from car_graph_benchmarks import compliance

    bench = compliance.generate(examples)
    rows = [q for q in bench.queries if q["split"] == split]
    short = [q for q in rows if q["ticker_letters"] <= 3]
    domain, rules = load_domain_file(compliance.RULES_PATH) if from_rules else (None, [])
    documents = bench.without_references() if from_rules else bench.documents
    gold = [Edge(e.newer, e.older, e.effective) for e in bench.intended]
    links = tuple(SourceLink(e.newer, e.older, f"intended_{e.relation}", e.evidence,
                             effective=e.effective) for e in bench.intended)
    name = f"{COMPLIANCE} ({'rules file' if from_rules else 'explicit edges'})"
    return _Benchmark(name, documents, _eval_queries(rows, name),
                      _eval_queries(short, f"{name} short tickers"),
                      {q["id"]: "ticker of 1-3 letters" for q in short}, rules, gold,
                      links if from_rules else (), domain)


def _variants_benchmark(domain: str, raw_dir: Path, n_distractors: int, seed: int,
                        split: str = REPORTED_SPLIT) -> _Benchmark:
    """The failure-class sets (benchmarks/variants.py) on an outside-style export of one real
    domain: identifiers only in attributes, explicit edges, no rules. TEST split only. The main
    set is the free-form paraphrases; every other set is reported as a variant."""
    from car_graph_benchmarks.variants import VERDICT_SETS, build_variants

    suite = build_variants(domain, raw_dir, seed=seed, n_distractors=n_distractors)
    main = [r for r in suite.sets.get("paraphrase", []) if r["split"] == split]

    def of(names: Callable[[str], bool]) -> list[dict[str, Any]]:
        return [r for name, rows in sorted(suite.sets.items()) if name != "paraphrase"
                and names(name) for r in rows if r["split"] == split]

    rest, verdict_sets = of(lambda n: n not in VERDICT_SETS), of(lambda n: n in VERDICT_SETS)
    variants = {r["id"]: str(r.get("set") or r["id"].split("-")[1]) for r in rest + verdict_sets}
    source = f"{domain} variants"
    every = [r for name, rows in suite.sets.items() if name != "paraphrase" and name not in VERDICT_SETS
             for r in rows]
    peer_sets = _peer_sets(
        lambda s: _eval_queries([r for r in suite.sets.get("paraphrase", []) if r["split"] == s], source),
        {r["id"]: str(r.get("set") or r["id"].split("-")[1]) for r in every},
        lambda s: _eval_queries([r for r in every if r["split"] == s], source))
    return _Benchmark(f"{domain} (outside-style export)", suite.export.documents,
                      _eval_queries(main, source), _eval_queries(rest, source), variants, [],
                      verdict_sets=_eval_queries(verdict_sets, source), peer_sets=peer_sets)


def _run_set(
    client: CarClient, queries: Sequence[EvalQuery], graph: SupersessionGraph, *, k: int,
    k_max: int, n_fused: int, variants: Mapping[str, str], progress: bool,
) -> QuerySetResult:
    """One evaluation at k_max; everything at k and the curve from its ranked lists."""
    report = evaluate(client.retriever, queries, k=k_max, progress=progress)
    systems = {
        name: SystemAtK(run.rescore(queries, graph, k), run.latency_ms_p50)
        for name, run in report.systems.items()
    }
    curve = {name: run.tca_curve(queries, graph, k_max) for name, run in report.systems.items()}
    by_variant: dict[str, dict[str, SystemScores]] = {}
    for variant in sorted({variants[q.id] for q in queries if q.id in variants}):
        subset = [q for q in queries if variants.get(q.id) == variant]
        by_variant[variant] = {name: run.rescore(subset, graph, k)
                               for name, run in report.systems.items()}
    errors = analyse_errors(queries, report.systems["car"], graph, k, n_fused)
    return QuerySetResult(len(queries), systems, curve, errors, by_variant)


def _run_benchmark(
    client: CarClient, reset: Callable[[], None], bench: _Benchmark, *, k: int, k_max: int,
    progress: bool,
) -> BenchmarkResult:
    reset()
    summary = client.ingest(bench.documents, bench.rules, progress=progress, domain=bench.domain)
    started = time.perf_counter()
    retriever = client.retriever
    # real domains are scored on the sources' links, never on the edges the rules built
    graph = (SupersessionGraph(bench.gold_edges) if bench.gold_edges is not None
             else supersession_graph(retriever))
    n_fused = max(retriever.settings.min_anchors, k)
    main = _run_set(client, bench.queries, graph, k=k, k_max=k_max, n_fused=n_fused,
                    variants={}, progress=progress)
    robust = verdict_sets = None
    if bench.robustness:
        robust = _run_set(client, bench.robustness, graph, k=k, k_max=k_max, n_fused=n_fused,
                          variants=bench.variants, progress=progress)
    if bench.verdict_sets:
        verdict_sets = _run_set(client, bench.verdict_sets, graph, k=k, k_max=k_max,
                                n_fused=n_fused, variants=bench.variants, progress=progress)
    rules_vs_links: tuple[RulePrecisionRecall, ...] = ()
    if bench.links:
        # after the runs: each rule's own edges, read off the graph. A real domain: its bundled
        # rules, kinds from the adapters' id prefixes; a benchmark bringing its own rules file:
        # those rules, their domain, the records' kinds.
        from car_graph.rules import bundled_rules

        kinds = {d.id: d.kind for d in bench.documents}
        if bench.rules is None:
            rules, domain, kind_of = list(bundled_rules(bench.name)), bench.name, None
        else:
            rules, domain, kind_of = bench.rules, bench.rules[0].domain, kinds.get
        rules_vs_links = tuple(rule_precision_recall(
            domain, rule_edges_by_rule(client.store, rules, domain), bench.links,
            kinds, [r.name for r in rules], kind_of=kind_of))
    # last: the peers' end-to-end runs embed every question again
    speed = peer_speed.measure(client, bench.peer_sets, graph, k=k)
    return BenchmarkResult(
        name=bench.name,
        documents=summary.documents,
        edges_by_rule=dict(summary.edges_by_rule),
        ingest_seconds=summary.seconds,
        eval_seconds=time.perf_counter() - started,
        main=main,
        robustness=robust,
        phi=phi_summary(bench.documents, bench.queries, graph),
        skipped_records=len(summary.skipped),
        rules_vs_links=rules_vs_links,
        verdict_sets=verdict_sets,
        peer_speed=speed,
    )


def _ram() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def machine_info(client: CarClient) -> MachineInfo:
    rows = client.store.read("dbms_components")
    neo4j = ", ".join(f"{r['name']} {r['version']} {r['edition']}" for r in rows) or "Neo4j ?"
    return MachineInfo(
        platform=platform.platform(),
        cpus=os.cpu_count(),
        ram=_ram(),
        python=platform.python_version(),
        neo4j=neo4j,
        embedding_model=getattr(client.embedder, "model_name", type(client.embedder).__name__),
    )


def benchmark_builders(
    raw_dir: Path | None,
    *,
    domains: Sequence[str] = REAL_DOMAINS,
    variant_domains: Sequence[str] = VARIANT_DOMAINS,
    synthetic: bool = True,
    with_compliance: bool = True,
    compliance_examples: int = 1000,
    n_distractors: int = 2000,
    seed: int = 13,
    split: str = REPORTED_SPLIT,
) -> list[tuple[str, Callable[[], _Benchmark]]]:
    """(name, builder) of every benchmark a report runs, in its order; the real domains, their
    exports and compliance on ``split`` (reproduce: the reported one; depth_sweep: dev)."""
    builders: list[tuple[str, Callable[[], _Benchmark]]] = []
    if synthetic:
        builders.append((SYNTHETIC, _synthetic_benchmark))
    for domain in domains:
        assert raw_dir is not None
        builders.append((domain, partial(_domain_benchmark, domain, raw_dir, n_distractors, seed,
                                         split=split)))
    for domain in variant_domains:
        assert raw_dir is not None
        builders.append((f"{domain} variants", partial(_variants_benchmark, domain, raw_dir,
                                                       n_distractors, seed, split=split)))
    if with_compliance:
        for from_rules, suffix in ((False, "explicit"), (True, "rules")):
            builders.append((f"{COMPLIANCE} {suffix}", partial(
                _compliance_benchmark, from_rules, compliance_examples, split=split)))
    return builders


def reproduce(
    client: CarClient,
    reset: Callable[[], None],
    raw_dir: Path | None,
    out: Path,
    *,
    domains: Sequence[str] = REAL_DOMAINS,
    variant_domains: Sequence[str] = VARIANT_DOMAINS,
    synthetic: bool = True,
    with_compliance: bool = True,
    compliance_examples: int = 1000,
    k: int = 5,
    k_max: int = 20,
    n_distractors: int = 2000,
    seed: int = 13,
    progress: bool = False,
) -> ReproduceReport:
    """Run every benchmark against the client's database and write ``out`` and its plot.

    ``reset`` must wipe the database and car-graph's schema (it runs before each benchmark, so
    the database ends up holding the last benchmark). Real domains use their bundled rules, the
    synthetic benchmark its own rules file; ``seed`` and ``n_distractors`` are the real
    benchmarks' (the synthetic one is fixed: 2,400 documents, seed 7).
    """
    if not 1 <= k <= k_max:
        raise ValueError(f"need 1 <= k <= k_max, got k = {k}, k_max = {k_max}")
    unknown = set(domains) - set(REAL_DOMAINS)
    if unknown:
        raise ValueError(f"unknown domains {sorted(unknown)}; choose from {REAL_DOMAINS}")
    if (domains or variant_domains) and raw_dir is None:
        raise ValueError("real domains need raw_dir (the folder holding security/, law/, drug/)")
    started = time.perf_counter()

    def say(message: str) -> None:
        if progress:
            print(message, file=sys.stderr, flush=True)

    results: list[BenchmarkResult] = []
    guarded = None
    for name, build in benchmark_builders(
            raw_dir, domains=domains, variant_domains=variant_domains, synthetic=synthetic,
            with_compliance=with_compliance, compliance_examples=compliance_examples,
            n_distractors=n_distractors, seed=seed):
        say(f"[{name}] building the benchmark")
        bench = build()
        say(f"[{name}] {len(bench.documents)} documents, {len(bench.queries)} queries, "
            f"{len(bench.robustness)} robustness, {len(bench.verdict_sets)} verdict-set queries: "
            "reset, ingest, evaluate")
        result = _run_benchmark(client, reset, bench, k=k, k_max=k_max, progress=progress)
        results.append(result)
        say(f"[{name}] car TCA@{k} = {result.main.systems['car'].scores.tca:.3f}")
        if name == GUARD_DOMAIN and raw_dir is not None:  # on the graph just loaded
            from car_graph_benchmarks import guard as guard_benchmark

            say(f"[{name}] the freshness guard, smoke-sized")
            guarded = guard_benchmark.run(
                client, raw_dir, domain=name, split=REPORTED_SPLIT, n_distractors=n_distractors,
                seed=seed, max_questions=GUARD_QUESTIONS, chunk_documents=GUARD_QUESTIONS,
                citator_texts=GUARD_QUESTIONS // 2, ingest=False)

    plot = plot_curves(results, out.parent / "tca_at_k.png", k)
    report = ReproduceReport(
        command=cli_command(raw_dir, out, domains, synthetic, n_distractors, k, variant_domains,
                            with_compliance)
        + (f"   # from Python: seed={seed}, k_max={k_max}, compliance_examples={compliance_examples}"
           if (seed, k_max, compliance_examples) != (13, 20, 1000) else ""),
        machine=machine_info(client),
        date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        k=k,
        k_max=k_max,
        seed=seed,
        n_distractors=n_distractors,
        benchmarks=tuple(results),
        targets=tuple(check_targets(results)),
        out=out,
        plot=plot,
        seconds=time.perf_counter() - started,
        guard=guarded,
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_markdown(report), encoding="utf-8")
    return report
