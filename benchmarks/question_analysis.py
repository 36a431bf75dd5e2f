"""Question analysis (embedding + entity linking) with the per-corpus name cache and without it,
side by side on the real domains' benchmark corpora, and car's answers with each.

    python -m car_graph_benchmarks.question_analysis --out docs/question-analysis.md

For each real domain (security, law, drug): the corpus ``car-graph reproduce`` builds (2,000
distractors, seed 13) is ingested into a fresh private Neo4j with the configured embedder
(``CAR_EMBEDDING_VARIANT``, default onnx-int8); then two Retrievers on that graph, one analysing
questions as before (a fulltext look-up on entity_names and an exact-name look-up per question,
``RetrievalSettings(cache_names=False)``) and one with the corpus's names cached per graph
version (``NameIndex``), analyse every dev and test question (queries and robustness sets),
interleaved question by question, alternating which goes first. Reported:

* p50/p95 of ``Retriever.analyse`` (one embedding, the Lucene queries, entity linking with
  whatever look-ups it needs) for each, in the same minutes, and of the embedding alone;
* how many questions link different entities (must be none) and how often the cache had to
  ask Lucene anyway (more candidates than ``name_candidates``, or a fuzzy term past Lucene's
  expansions);
* strict TCA@5 of car per set and split with each analysis (must be equal), and how many
  questions got different result lists.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

K = 5
WARMUP = 20


@dataclass(frozen=True)
class SetResult:
    domain: str
    query_set: str
    split: str
    n: int
    tca_before: float
    tca_after: float
    results_differ: int


@dataclass(frozen=True)
class DomainTiming:
    domain: str
    documents: int
    names_cached: int
    questions: int
    linking_differs: int
    lucene_fallbacks: int
    before_ms: dict[str, float]
    after_ms: dict[str, float]
    embedding_ms: dict[str, float]
    names_load_s: float


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000, 2)

    return {"p50": at(50), "p95": at(95), "mean": round(statistics.fmean(ordered) * 1000, 2)}


def _canonical(entities: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted(tuple(sorted(e.items())) for e in entities)


def measure_domain(driver: Any, uri: str, domain: str, bench: Any, embedder: Any) -> tuple[DomainTiming, list[SetResult]]:
    import json as _json

    from car_graph import schema
    from car_graph.client import CarClient
    from car_graph.evaluation import evaluate, parse_queries
    from car_graph.extraction import EntityExtractor
    from car_graph.metrics import SupersessionGraph
    from car_graph.retrieval import RetrievalSettings, Retriever
    from car_graph.store import GraphStore
    from car_graph_benchmarks.links import gold_edges
    from car_graph_benchmarks.questions import SPLITS

    schema.reset(driver, None, uri)
    extractor = EntityExtractor(use_statistical=False)
    summary = CarClient(driver, embedder=embedder, extractor=extractor).ingest(bench.documents)
    store = GraphStore(driver)
    before = Retriever(store, embedder, extractor, RetrievalSettings(cache_names=False))
    after = Retriever(store, embedder, extractor)
    started = time.perf_counter()
    after.load_names()
    names_load = time.perf_counter() - started
    names = after.linker.names
    assert names is not None

    fallbacks = 0
    real_candidates = names.candidates

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal fallbacks
        found = real_candidates(*args, **kwargs)
        fallbacks += found is None
        return found

    names.candidates = counting  # type: ignore[method-assign]

    questions = [r["question"] for r in bench.queries + bench.robustness]
    for question in questions[:WARMUP]:
        before.analyse(question)
        after.analyse(question)
    fallbacks = 0
    timed: dict[str, list[float]] = {"before": [], "after": [], "embedding": []}
    differ = 0
    for i, question in enumerate(questions):
        order = [("before", before), ("after", after)] if i % 2 == 0 else [("after", after), ("before", before)]
        linked = {}
        for name, retriever in order:
            t0 = time.perf_counter()
            linked[name] = retriever.analyse(question)["entities"]
            timed[name].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        embedder.embed_documents([question])
        timed["embedding"].append(time.perf_counter() - t0)
        differ += _canonical(linked["before"]) != _canonical(linked["after"])
    timed_fallbacks = fallbacks  # once per question: the evaluation below analyses them again

    graph = SupersessionGraph(gold_edges(bench.links.links if bench.links else (), bench.documents))
    sets: list[SetResult] = []
    for set_name, rows in (("queries", bench.queries), ("robustness", bench.robustness)):
        for split in SPLITS:
            chosen = bench.split(rows, split)
            queries = parse_queries((_json.dumps(r, default=str) for r in chosen), f"{domain} {set_name} {split}")
            runs = {name: evaluate(r, queries, k=K, systems=["car"]).systems["car"]
                    for name, r in (("before", before), ("after", after))}
            results_differ = sum(runs["before"].retrieved[q.id] != runs["after"].retrieved[q.id]
                                 for q in queries)
            sets.append(SetResult(domain, set_name, split, len(queries),
                                  round(runs["before"].rescore(queries, graph, K).tca, 4),
                                  round(runs["after"].rescore(queries, graph, K).tca, 4),
                                  results_differ))
    timing = DomainTiming(domain, summary.documents, len(names), len(questions), differ, timed_fallbacks,
                          percentiles(timed["before"]), percentiles(timed["after"]),
                          percentiles(timed["embedding"]), round(names_load, 2))
    return timing, sets


def render(timings: Sequence[DomainTiming], sets: Sequence[SetResult], command: str, meta: dict[str, Any]) -> str:
    lines = ["# Question analysis: per-question look-ups against the cached name index", "",
             "Generated by `python -m car_graph_benchmarks.question_analysis` (do not edit by hand).", "",
             f"Command: `{command}`. Measured {meta['date']} on {meta['machine']}; embedder "
             f"{meta['embedder']}; 1-minute load average {meta['load_start']:.1f} at the start, "
             f"{meta['load_end']:.1f} at the end (the 2 cores are shared with other work: absolute "
             "figures are inflated by it, the two analyses are compared in the same minutes, "
             "question by question).", "",
             "*before*: a fulltext look-up (entity_names) and an exact-name look-up per question, as "
             "before the cache; *after*: the corpus's linkable names held in memory per graph "
             "version (`NameIndex`). Both also look up identifiers and partial identifiers when the "
             "question has any. Each time is `Retriever.analyse`: one embedding, the Lucene "
             "queries and entity linking.", "",
             "| domain | documents | names cached | load s | questions | before p50 ms | before p95 ms "
             "| after p50 ms | after p95 ms | embedding alone p50 / p95 ms | linking differs | Lucene fallbacks |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for t in timings:
        lines.append(f"| {t.domain} | {t.documents:,} | {t.names_cached:,} | {t.names_load_s} | {t.questions} | "
                     f"{t.before_ms['p50']} | {t.before_ms['p95']} | **{t.after_ms['p50']}** | {t.after_ms['p95']} | "
                     f"{t.embedding_ms['p50']} / {t.embedding_ms['p95']} | {t.linking_differs} | {t.lucene_fallbacks} |")
    lines += ["", "Strict TCA@5 of car with each analysis (scored on the sources' links, as "
              "docs/results.md):", "",
              "| domain | set | split | n | before | after | result lists differing |",
              "|---|---|---|---:|---:|---:|---:|"]
    for s in sets:
        lines.append(f"| {s.domain} | {s.query_set} | {s.split} | {s.n} | {s.tca_before:.4f} | "
                     f"{s.tca_after:.4f} | {s.results_differ} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    import logging
    import platform

    from neo4j import GraphDatabase

    from car_graph.embedding import create_embedder
    from car_graph.local_server import LocalNeo4j
    from car_graph.settings import Settings
    from car_graph_benchmarks.corpora import default_corpora_dir, require_corpora_dir
    from car_graph_benchmarks.questions import DOMAINS, build_benchmark

    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.question_analysis",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS), choices=DOMAINS)
    parser.add_argument("--raw", type=Path, help="raw corpora (default: CAR_GRAPH_CORPORA)")
    parser.add_argument("--out", type=Path, help="write the markdown report here")
    parser.add_argument("--json", type=Path, help="write the raw figures here")
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    command = "python -m car_graph_benchmarks.question_analysis " + " ".join(argv if argv is not None else sys.argv[1:])
    settings = Settings.from_env()
    raw = require_corpora_dir(args.raw or default_corpora_dir())
    embedder = create_embedder(settings.embedding_model, settings.embedding_variant,
                               device=settings.embedding_device, home=settings.home)
    load_start = os.getloadavg()[0]
    server = LocalNeo4j(settings.home, settings.neo4j_version, f"question-analysis-{os.getpid()}")
    server.start(timeout=300, progress=lambda m: print(m, file=sys.stderr))
    timings, sets = [], []
    try:
        uri, user, password = server.connection()
        with GraphDatabase.driver(uri, auth=(user, password)) as driver:
            for domain in args.domains:
                bench = build_benchmark(domain, raw, n_distractors=2000, seed=13)
                timing, rows = measure_domain(driver, uri, domain, bench, embedder)
                print(json.dumps(asdict(timing)), file=sys.stderr, flush=True)
                timings.append(timing)
                sets.extend(rows)
    finally:
        server.stop(progress=lambda m: print(m, file=sys.stderr))
        shutil.rmtree(server.instance_dir, ignore_errors=True)
    meta = {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}",
            "embedder": f"{embedder.model_name} [{getattr(embedder, 'variant', '?')}]",
            "load_start": load_start, "load_end": os.getloadavg()[0]}
    report = render(timings, sets, command.strip(), meta)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "timings": [asdict(t) for t in timings],
                                         "sets": [asdict(s) for s in sets]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
