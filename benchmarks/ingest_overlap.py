"""Ingest with and without overlapped stages, side by side, on one generated corpus.

    python -m car_graph_benchmarks.ingest_overlap --docs 5000 [--rounds 2] [--random-vectors]

The pipeline embeds (and runs spaCy on) batch n+1 while batch n is written and its supersession
resolved (``ingest_records(overlap=True)``, the default). This measures what that buys on this
machine: the same scale corpus (:mod:`car_graph_benchmarks.scale`) ingested into an emptied
database with ``overlap=False`` and ``overlap=True`` in ABBA order over ``--rounds`` rounds (so
drift in the shared machine's load cancels), with the configured embedder (default onnx-int8)
unless ``--random-vectors``. Prints the documents/s of each and their ratio; stores the result
as ``docs/benchmarks/overlap-<n>.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from car_graph_benchmarks import bench, scale


def compare(driver: Any, corpus: Path, embedder: Any, extractor: Any, *, rounds: int = 2,
            uri: str = "bolt://127.0.0.1", database: str = "neo4j") -> dict[str, Any]:
    """Ingest ``corpus`` without and with overlap, ABBA over ``rounds`` rounds, each into an
    emptied database; docs/s of each (total documents over total seconds) and their ratio."""
    from car_graph.connection import wipe_database

    order = [overlap for r in range(rounds)
             for overlap in ((False, True) if r % 2 == 0 else (True, False))]
    runs: dict[str, list[dict[str, Any]]] = {"sequential": [], "overlapped": []}
    load = [os.getloadavg()[0]]
    for overlap in order:
        wipe_database(driver, database, uri)
        runs["overlapped" if overlap else "sequential"].append(
            bench.ingest(driver, corpus, embedder, extractor, overlap=overlap))
        load.append(os.getloadavg()[0])
    rate = {name: round(sum(r["documents"] for r in rs) / sum(r["seconds"] for r in rs), 2)
            for name, rs in runs.items()}
    return {"runs": runs, "order": ["overlapped" if o else "sequential" for o in order],
            "docs_per_s": rate, "speedup": round(rate["overlapped"] / rate["sequential"], 3),
            "load_average": load}


def main(argv: list[str] | None = None) -> int:
    from neo4j import GraphDatabase

    from car_graph.extraction import EntityExtractor
    from car_graph.local_server import LocalNeo4j, memory_profile
    from car_graph.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--random-vectors", action="store_true")
    parser.add_argument("--instance", default="bench")
    parser.add_argument("--work", type=Path)
    parser.add_argument("--results", type=Path, default=bench.RESULTS_DIR)
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    settings = Settings.from_env()
    corpus_dir = (args.work or settings.home / "bench") / f"scale-{args.docs}"
    if not (corpus_dir / "stats.json").is_file():
        scale.generate(corpus_dir, args.docs, 50)
    if args.random_vectors:
        embedder: Any = bench.HashEmbedder()
        vectors = embedder.model_name
    else:
        from car_graph.embedding import create_embedder

        embedder = create_embedder(settings.embedding_model, settings.embedding_variant,
                                   device=settings.embedding_device, home=settings.home)
        vectors = f"all-MiniLM-L6-v2 {embedder.variant}"
    server = LocalNeo4j(settings.home, settings.neo4j_version, args.instance)
    server.stop(progress=print)
    shutil.rmtree(server.instance_dir, ignore_errors=True)
    status = server.start(timeout=300, progress=print, memory=memory_profile(bench.profile_for(args.docs)))
    try:
        uri, user, password = server.connection()
        with GraphDatabase.driver(uri, auth=(user, password)) as driver:
            result = compare(driver, corpus_dir / "documents.jsonl", embedder,
                             EntityExtractor(use_statistical=False), rounds=args.rounds, uri=uri)
    finally:
        server.stop(progress=print)
    result.update(documents=args.docs, vectors=vectors, machine=bench.machine(),
                  neo4j_version=status.version,
                  command="python -m car_graph_benchmarks.ingest_overlap " + " ".join(
                      argv if argv is not None else sys.argv[1:]),
                  measured_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
    args.results.mkdir(parents=True, exist_ok=True)
    suffix = "-random" if args.random_vectors else ""
    (args.results / f"overlap-{args.docs}{suffix}.json").write_text(
        json.dumps(result, indent=2, default=str) + "\n")
    print(json.dumps({k: result[k] for k in ("vectors", "order", "docs_per_s", "speedup",
                                             "load_average")}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
