"""How deep car's anchor stage must look: strict TCA@5 and statement latency per candidate depth.

    python -m car_graph_benchmarks.depth_sweep --raw RAW [--candidates 50,30,20,10] [--split dev]
        [--only security,drug] [--out sweep.json]

car's statement takes the top ``candidates`` documents of the vector index and as many of the
fulltext index (``RetrievalSettings.candidates``) before fusing them, and those two index calls
are most of its cost. This ingests each benchmark of docs/results.md (built by the same code as
``car-graph reproduce``, the real domains and exports on ``--split``: dev for choosing, test to
check the choice) into a managed instance of its own (``sweep``), then for each depth scores
car's strict TCA@5 on the sources' links exactly as reproduce does, and its statement p50 (the
questions analysed first), after a warm-up pass the depths timed twice in alternating order.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

K = 5
INSTANCE = "sweep"


def missed(run: Any, queries: Any, graph: Any) -> list[str]:
    """The ids of the questions whose top K fails strict TCA."""
    from car_graph.metrics import score_query

    return sorted(q.id for q in queries if not score_query(
        q.id, run.retrieved[q.id], K, set(q.gold), graph, q.as_of,
        set(q.anchors) if q.anchors else None, run.anchors.get(q.id)).tca)


def main(argv: list[str] | None = None) -> int:
    from neo4j import GraphDatabase

    from car_graph import schema
    from car_graph.client import CarClient
    from car_graph.evaluation import evaluate, supersession_graph
    from car_graph.local_server import LocalNeo4j, memory_profile
    from car_graph.metrics import SupersessionGraph
    from car_graph.retrieval import RetrievalSettings, Retriever
    from car_graph.settings import Settings
    from car_graph_benchmarks import reproduce as rp

    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.depth_sweep",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--raw", type=Path, required=True, help="folder holding security/, law/, drug/")
    parser.add_argument("--candidates", default="50,30,20,10", help="comma-separated depths")
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("--only", default="", help="comma-separated benchmark keys (default: all)")
    parser.add_argument("--out", type=Path, help="write the rows as JSON too")
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    depths = [int(c) for c in args.candidates.split(",")]

    builders = dict(rp.benchmark_builders(args.raw, split=args.split))
    only = [b.strip() for b in args.only.split(",") if b.strip()]
    unknown = set(only) - set(builders)
    if unknown:
        parser.error(f"unknown benchmarks {sorted(unknown)}; choose from {sorted(builders)}")

    settings = Settings.from_env()
    server = LocalNeo4j(settings.home, settings.neo4j_version, INSTANCE)
    server.start(timeout=300, progress=lambda m: None, memory=memory_profile("small"))
    uri, user, password = server.connection()
    rows: list[dict[str, Any]] = []
    try:
        with GraphDatabase.driver(uri, auth=(user, password)) as driver, CarClient(
                driver, "neo4j", embedding_model=settings.embedding_model,
                embedding_variant=settings.embedding_variant,
                embedding_device=settings.embedding_device, home=settings.home, uri=uri) as client:
            for key, build in builders.items():
                if only and key not in only:
                    continue
                bench = build()
                schema.reset(driver, "neo4j", uri)
                client.ingest(bench.documents, bench.rules, domain=bench.domain)
                base = client.retriever
                graph = (SupersessionGraph(bench.gold_edges) if bench.gold_edges is not None
                         else supersession_graph(base))
                sets = {"main": bench.queries, "robustness": bench.robustness,
                        "verdict sets": bench.verdict_sets}
                retrievers = {c: Retriever(client.store, client.embedder, client.extractor,
                                           RetrievalSettings(candidates=c)) for c in depths}
                found: dict[tuple[int, str], dict[str, Any]] = {}
                # a warm-up pass (scored, not timed), then the depths timed in both orders
                for pass_, order in enumerate((depths, depths, depths[::-1])):
                    for c in order:
                        for name, queries in sets.items():
                            if not queries:
                                continue
                            run = evaluate(retrievers[c], queries, k=K, systems=["car"]).systems["car"]
                            if (c, name) not in found:
                                misses = missed(run, queries, graph)
                                found[(c, name)] = {
                                    "benchmark": bench.name, "set": name, "split": args.split,
                                    "n": len(queries), "candidates": c,
                                    "tca": round(1 - len(misses) / len(queries), 4),
                                    "missed": misses, "p50_ms": []}
                            row = found[(c, name)]
                            if pass_:
                                row["p50_ms"].append(round(run.latency_ms_p50, 2))
                for (c, name), row in found.items():
                    rows.append(row)
                    first = set(found[(depths[0], name)]["missed"])
                    lost, won = sorted(set(row["missed"]) - first), sorted(first - set(row["missed"]))
                    print(f"{row['benchmark']:<34} {name:<10} n={row['n']:<4} candidates {c:>3}: "
                          f"TCA@{K} {row['tca']:.3f}  car p50 {' / '.join(map(str, row['p50_ms']))} ms"
                          + (f"  missed beyond depth {depths[0]}'s: {lost}" if lost else "")
                          + (f"  answered beyond depth {depths[0]}'s: {won}" if won else ""),
                          flush=True)
    finally:
        server.stop(progress=lambda m: None)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
