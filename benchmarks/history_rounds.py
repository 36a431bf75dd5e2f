"""What recorded history costs: a synthetic corpus ingested, then corrected in rounds (issue 61,
Deliver 6, at a scale chosen on the command line).

Each round re-ingests a share of the documents with a changed text, so each of them closes a
version: the graph gathers closed history round by round. Afterwards, on the same run and
question by question (``bench.time_interleaved``), three readings are timed:

* ``car`` on the graph with history (current state);
* ``car`` on a second server holding the same final documents ingested once (no history);
* ``car`` on the graph with history, ``known_at`` the middle round's run (a past state).

Storage: the nodes and relationships after the first ingest and after each round, and the
store's size on disk (``data/databases/neo4j``, allocated bytes) of both graphs after a clean
shutdown (a running server's files lag its page cache, and Community cannot force a checkpoint):
(with history - without) / rounds is the bytes a round of corrections adds. Vectors are ``bench.HashEmbedder`` (random, seeded by the text):
latency and storage only, never quality.

``python -m car_graph_benchmarks.history_rounds --docs 10000 --rounds 10 --share 0.1``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from car_graph.connection import new_driver
from car_graph.extraction import EntityExtractor
from car_graph.local_server import LocalNeo4j, memory_profile
from car_graph.records import DocumentRecord, read_jsonl
from car_graph.retrieval import Retriever
from car_graph.settings import Settings
from car_graph.store import GraphStore
from car_graph.types import RunRef
from car_graph_benchmarks import scale
from car_graph_benchmarks.bench import HashEmbedder, K, ingest, time_interleaved

SEED = 61


def store_bytes(server: LocalNeo4j) -> int:
    folder = server.instance_dir / "data" / "databases" / "neo4j"
    return sum(f.stat().st_blocks * 512 for f in folder.rglob("*") if f.is_file())


def counts(driver: Any) -> dict[str, int]:
    row = GraphStore(driver).read("compact_count")[0]
    return {"nodes": int(row["nodes"]), "relationships": int(row["relationships"])}


def _fresh(settings: Settings, name: str, memory: str) -> LocalNeo4j:
    server = LocalNeo4j(settings.home, settings.neo4j_version, name)
    server.stop(progress=print)
    shutil.rmtree(server.instance_dir, ignore_errors=True)
    server.start(timeout=300, progress=print, memory=memory_profile(memory))
    return server


def corrected(record: DocumentRecord, round_number: int) -> DocumentRecord:
    return dataclasses.replace(record, text=f"{record.text} Corrected in round {round_number}.")


def run(docs: int, rounds: int, share: float, questions: int, work: Path, instance: str,
        memory: str) -> dict[str, Any]:
    from car_graph.ingest.pipeline import ingest_records

    settings = Settings.from_env()
    corpus_dir = work / f"scale-{docs}"
    if not (corpus_dir / "stats.json").is_file():
        scale.generate(corpus_dir, docs, questions)
    corpus = corpus_dir / "documents.jsonl"
    records = list(read_jsonl(corpus, []))
    texts = [q.question for q in scale.read_questions(corpus_dir / "questions.jsonl")][:questions]
    embedder, extractor = HashEmbedder(), EntityExtractor(use_statistical=False)
    result: dict[str, Any] = {"docs": len(records), "rounds": rounds, "share": share,
                              "questions": len(texts), "k": K, "memory": memory}
    history = _fresh(settings, instance, memory)
    flat = None
    try:
        uri, user, password = history.connection()
        with new_driver(uri, user, password) as driver:
            result["first_ingest"] = {"seconds": ingest(driver, corpus, embedder, extractor)["seconds"],
                                      **counts(driver)}
            latest = {r.id: r for r in records}
            rng = random.Random(SEED)
            result["rounds_detail"] = []
            for number in range(1, rounds + 1):
                chosen = rng.sample(records, int(len(records) * share))
                batch = [corrected(r, number) for r in chosen]
                started = time.perf_counter()
                summary = ingest_records(iter(batch), GraphStore(driver), embedder, extractor, None,
                                         progress=False)
                for r in batch:
                    latest[r.id] = r
                result["rounds_detail"].append({
                    "round": number, "run": summary.run, "updated": summary.updated,
                    "seconds": round(time.perf_counter() - started, 1), **counts(driver)})
                print(f"round {number}: {result['rounds_detail'][-1]}", flush=True)
            final = work / f"history-rounds-{docs}-final.jsonl"
            with open(final, "w", encoding="utf-8") as handle:
                for r in latest.values():
                    handle.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
            flat = _fresh(settings, instance + "-flat", memory)
            flat_uri, flat_user, flat_password = flat.connection()
            with new_driver(flat_uri, flat_user, flat_password) as flat_driver:
                result["flat_ingest_seconds"] = ingest(flat_driver, final, embedder, extractor)["seconds"]
                result["flat_counts"] = counts(flat_driver)
                with_history = Retriever(GraphStore(driver), embedder, extractor)
                without = Retriever(GraphStore(flat_driver), embedder, extractor)
                middle = result["rounds_detail"][rounds // 2 - 1]["run"] if rounds >= 2 else 1
                from car_graph.history import pin_known_at

                pin = pin_known_at(GraphStore(driver), RunRef(middle))
                assert pin is not None
                result["known_at"] = {"run": middle, "instant": pin.instant.isoformat()}
                with_history.prepare(texts)
                without.prepare(texts)
                timed = time_interleaved(texts, {
                    "car_history": lambda q: with_history.retrieve(q, K).ids,
                    "car_no_history": lambda q: without.retrieve(q, K).ids,
                    "car_history_known_at": lambda q: with_history.retrieve(q, K, known_at=pin.instant).ids,
                })
                result["latency_ms"] = {name: {p: round(v, 2) for p, v in stats.items()}
                                        for name, (stats, _) in timed.items()}
    finally:
        history.stop(progress=print)
        if flat is not None:
            flat.stop(progress=print)
    result["store_bytes"] = {"history": store_bytes(history),
                             "no_history": store_bytes(flat) if flat is not None else None}
    p50 = {name: v["p50_ms"] for name, v in result["latency_ms"].items()}
    result["ratios"] = {
        "current_history_over_no_history": round(p50["car_history"] / p50["car_no_history"], 3),
        "known_at_over_current": round(p50["car_history_known_at"] / p50["car_history"], 3),
    }
    sizes = result["store_bytes"]
    result["store_bytes_per_round"] = round((sizes["history"] - sizes["no_history"]) / max(rounds, 1))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.history_rounds",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--share", type=float, default=0.1)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--instance", default="bench-history")
    parser.add_argument("--memory", default="small")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the result as JSON here")
    args = parser.parse_args(argv)
    work = args.work or Settings.from_env().home / "bench"
    result = run(args.docs, args.rounds, args.share, args.questions, work, args.instance, args.memory)
    result["command"] = "python -m car_graph_benchmarks.history_rounds " + " ".join(
        argv if argv is not None else sys.argv[1:])
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
