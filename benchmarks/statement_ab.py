"""Current-state read cost of this checkout's statements against a baseline checkout's, side by
side on one graph.

    python -m car_graph_benchmarks.statement_ab --baseline DIR [--docs 100000] [--repeat 3] [--json]

A change to the shared semantics fragments (two clocks, issue 20: transaction time in every
read) must not make reads without ``known_at`` slower. This measures it where it matters, at
scale: it generates (or reuses) a scale corpus of ``--docs`` documents
(:func:`car_graph_benchmarks.scale.generate`), starts a fresh managed instance ``ab``, ingests
the corpus with this checkout's pipeline (hash-seeded random vectors, as ``bench
--random-vectors``: the statements' cost, not the model's), and then times, for every scale
question, ``car`` (anchors and closure in one statement: ``retrieve``) and ``closure`` with the
question's top anchor alone (the walk ``explain`` runs for one document) as this checkout expands them and as
the baseline expands them -- the baseline's own catalogue, run by the baseline's Python
(``DIR/.venv/bin/python``, e.g. a ``git worktree`` of main after ``make install``) -- with the
same parameters, on the same graph, question by question, the order of the two alternating, so
load on the machine hits both alike. Every pair must return the same rows; the run fails if one
differs. Prints p50/p95/mean per statement and side and the p50 ratio (this / baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from car_graph_benchmarks import scale

K = 5
STATEMENTS = ("car", "closure")
WARMUP = 20


def baseline_statements(baseline: Path, names: tuple[str, ...]) -> dict[str, str]:
    """The named statements as the baseline checkout's own catalogue expands them."""
    python = baseline / ".venv" / "bin" / "python"
    if not python.is_file():
        raise SystemExit(f"{python}: no virtualenv in the baseline checkout (run `make install` there)")
    # the current form where the baseline's catalogue has two (cypher.reads_history)
    script = ("import json, sys\nfrom car_graph import cypher\n"
              "kw = {'history': False} if hasattr(cypher, 'reads_history') else {}\n"
              "print(json.dumps({n: cypher.statement(n, **kw) for n in sys.argv[1:]}))")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(python), "-c", script, *names], cwd=baseline, env=env,
                          capture_output=True, text=True, check=True)
    statements: dict[str, str] = json.loads(done.stdout)
    return statements


def comparable(rows: list[Any]) -> list[Any]:
    """What a caller is told: each row's document, status, anchor and chain, in order. Scores
    are left out: a change may compute them differently (exact cosine instead of the vector
    index's approximate score) and still give every answer the same."""
    return [(row.get("doc_id"), row.get("status"), row.get("anchor_id"),
             json.dumps(row.get("chain"), sort_keys=True, default=str),
             [a["id"] for a in row.get("anchors") or []]) for row in rows]


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def measure(driver: Any, retriever: Any, questions: list[str], ours: dict[str, str],
            theirs: dict[str, str], repeat: int) -> dict[str, Any]:
    """Both sides of every statement, interleaved, on the graph behind ``driver``."""
    from car_graph.retrieval import EXPLAIN_LIMIT

    retriever.prepare(questions)
    params: dict[str, dict[str, dict[str, Any]]] = {}
    for question in questions:
        common = retriever._common(question, K, None, None)
        car = retriever._anchor_parameters(common) | {
            "k": K, "readings": 0, "reading_margin": 0.0, "reading_limit": EXPLAIN_LIMIT}
        params[question] = {"car": car}
    # explain's walk: the question's top anchor alone (this side's car answer; both must agree)
    with driver.session() as session:
        for question in questions:
            first = session.run(ours["car"], params[question]["car"]).data()
            anchors = first[0]["anchors"] if first else []
            if anchors:
                params[question]["closure"] = {
                    "anchors": [{"id": anchors[0]["id"], "rank": 0, "score": 1.0}],
                    "as_of": None, "known_at": None, "embedding": None, "k": EXPLAIN_LIMIT}
    samples: dict[str, dict[str, list[float]]] = {n: {"ours": [], "baseline": []} for n in ours}
    differing: dict[str, int] = dict.fromkeys(ours, 0)
    calls = 0
    with driver.session() as session:
        def timed(statement: str, parameters: dict[str, Any]) -> tuple[float, list[Any]]:
            started = time.perf_counter()
            rows = list(session.run(statement, parameters))
            return time.perf_counter() - started, rows

        for round_ in range(repeat + 1):  # round 0 warms both sides' plans and caches
            for i, question in enumerate(questions if round_ else questions[:WARMUP]):
                for name in ours:
                    if name not in params[question]:
                        continue
                    p = params[question][name]
                    sides = [("ours", ours[name]), ("baseline", theirs[name])]
                    if (i + round_) % 2:
                        sides.reverse()
                    out = {}
                    for side, statement in sides:
                        seconds, rows = timed(statement, p)
                        out[side] = comparable(rows)
                        if round_:
                            samples[name][side].append(seconds)
                    if round_:
                        calls += 1
                        differing[name] += out["ours"] != out["baseline"]
    report: dict[str, Any] = {"questions": len(questions), "repeat": repeat, "calls": calls,
                              "differing": differing, "statements": {}}
    for name, sides in samples.items():
        row: dict[str, Any] = {}
        for side, values in sides.items():
            row[side] = {"p50_ms": round(1000 * statistics.median(values), 3),
                         "p95_ms": round(1000 * percentile(values, 0.95), 3),
                         "mean_ms": round(1000 * statistics.mean(values), 3), "n": len(values)}
        row["p50_ratio"] = round(statistics.median(sides["ours"]) / statistics.median(sides["baseline"]), 4)
        row["mean_ratio"] = round(statistics.mean(sides["ours"]) / statistics.mean(sides["baseline"]), 4)
        report["statements"][name] = row
    return report


def main(argv: list[str] | None = None) -> int:
    import logging

    from neo4j import GraphDatabase

    from car_graph import cypher
    from car_graph.extraction import EntityExtractor
    from car_graph.local_server import LocalNeo4j, memory_profile
    from car_graph.retrieval import Retriever
    from car_graph.settings import Settings
    from car_graph.store import GraphStore
    from car_graph_benchmarks.bench import HashEmbedder, ingest, machine, profile_for

    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.statement_ab",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="baseline checkout with its .venv")
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the questions")
    parser.add_argument("--instance", default="ab")
    parser.add_argument("--work", type=Path, help="corpus directory (default: under the car-graph cache)")
    parser.add_argument("--reuse", action="store_true",
                        help="time the graph the instance already holds (a previous run's ingest)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)

    theirs = baseline_statements(args.baseline.resolve(), STATEMENTS)
    ours = {name: cypher.statement(name, history=False) for name in STATEMENTS}
    settings = Settings.from_env()
    corpus_dir = (args.work or settings.home / "bench") / f"scale-{args.docs}"
    if not (corpus_dir / "stats.json").is_file():
        print(f"generating {args.docs:,} documents into {corpus_dir} ...", file=sys.stderr, flush=True)
        scale.generate(corpus_dir, args.docs, args.questions)
    questions = [q.question for q in scale.read_questions(corpus_dir / "questions.jsonl")]
    server = LocalNeo4j(settings.home, settings.neo4j_version, args.instance)
    if not args.reuse:
        server.stop(progress=lambda m: None)
        shutil.rmtree(server.instance_dir, ignore_errors=True)  # fresh: no data, no caches
    status = server.start(timeout=300, progress=lambda m: print(m, file=sys.stderr),
                          memory=memory_profile(profile_for(args.docs)))
    try:
        uri, user, password = server.connection()
        with GraphDatabase.driver(uri, auth=(user, password)) as driver:
            embedder = HashEmbedder()
            extractor = EntityExtractor(use_statistical=False)
            if args.reuse:
                counted = driver.execute_query(
                    "MATCH (d:Document) RETURN count(d) AS documents, "
                    "COUNT { ()-[:SUPERSEDES]->() } AS edges").records[0]
                ingested = {"documents": counted["documents"], "edges": counted["edges"], "seconds": None}
            else:
                print(f"ingesting {args.docs:,} documents ...", file=sys.stderr, flush=True)
                ingested = ingest(driver, corpus_dir / "documents.jsonl", embedder, extractor)
                print(f"ingested in {ingested['seconds']} s; timing ...", file=sys.stderr, flush=True)
            retriever = Retriever(GraphStore(driver), embedder, extractor)
            load_start = os.getloadavg()[0]
            report = measure(driver, retriever, questions, ours, theirs, args.repeat)
            report["load_average"] = {"start": load_start, "end": os.getloadavg()[0]}
    finally:
        server.stop(progress=lambda m: None)
    report.update({"documents": ingested["documents"], "edges": ingested["edges"],
                   "ingest_s": ingested["seconds"], "baseline": str(args.baseline),
                   "neo4j_version": status.version, "machine": machine(),
                   "vectors": "hash-seeded random (statement cost only)"})
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print(f"{report['documents']:,} documents, {report['questions']} questions x {args.repeat}")
        for name, row in report["statements"].items():
            print(f"{name:<8} ours p50 {row['ours']['p50_ms']:8.3f} ms  baseline p50 "
                  f"{row['baseline']['p50_ms']:8.3f} ms  ratio {row['p50_ratio']:.3f}  "
                  f"(mean ratio {row['mean_ratio']:.3f}; differing rows {report['differing'][name]})")
    return 1 if any(report["differing"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
