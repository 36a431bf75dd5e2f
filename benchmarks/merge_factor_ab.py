"""The vector index's merge factor, side by side at scale: ingest cost and question latency.

    python -m car_graph_benchmarks.merge_factor_ab [--docs 100000] [--factors 50,4] [--reuse]

Neo4j 5.26's vector index adds a Lucene segment per committed write and merges segments of one
size only when ``internal.dbms.index.vector.standard_merge_factor`` (default 50) of them exist,
so a batched ingest leaves dozens of small segments, each searched on its own by every vector
query. car-graph's managed server writes 4 (``local_server.TUNING``). This ingests the scale
corpus of ``--docs`` documents with the configured embedder into one fresh managed instance per
factor (``mf<factor>``), one after the other on an otherwise idle machine, then -- one server at
a time, the factors alternating, twice -- times a bare vector top-50, car's statement and
neo4j-graphrag's HybridRetriever (statement only: the question embeddings are computed first)
over the first ``--questions`` scale questions, after two unrecorded warm-up passes. Prints the
ingest rate, the Lucene segment count of ``document_embedding`` after the ingest and the p50s.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import statistics
import time
from pathlib import Path

from car_graph_benchmarks import scale

K = 5
MERGE_FACTOR = "internal.dbms.index.vector.standard_merge_factor"
VECTOR_TOP_50 = ("CALL db.index.vector.queryNodes('document_embedding', 50, $embedding) "
                 "YIELD node, score RETURN node.id AS id, score")


def segments(instance_dir: Path) -> int:
    """Lucene segments of the largest vector index on disk (as of the last checkpoint)."""
    counts = [len(list(d.glob("*.si")))
              for d in instance_dir.glob("data/databases/neo4j/schema/index/vector-2.0/*/1")]
    return max(counts, default=0)


def main(argv: list[str] | None = None) -> int:
    from neo4j import GraphDatabase

    from car_graph import cypher
    from car_graph.embedding import create_embedder
    from car_graph.extraction import EntityExtractor
    from car_graph.local_server import LocalNeo4j, memory_profile
    from car_graph.retrieval import EXPLAIN_LIMIT, Retriever
    from car_graph.settings import Settings
    from car_graph.store import GraphStore
    from car_graph_benchmarks.bench import ingest, profile_for
    from car_graph_benchmarks.peers import peer_systems

    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.merge_factor_ab",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--factors", default="50,4", help="comma-separated merge factors")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--reuse", action="store_true", help="time the instances already ingested")
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)

    settings = Settings.from_env()
    corpus = settings.home / "bench" / f"scale-{args.docs}"
    if not (corpus / "stats.json").is_file():
        scale.generate(corpus, args.docs, 500)
    embedder = create_embedder(settings.embedding_model, settings.embedding_variant,
                               device=settings.embedding_device, home=settings.home)
    extractor = EntityExtractor(use_statistical=False)
    memory = memory_profile(profile_for(args.docs))

    def server(factor: str) -> LocalNeo4j:
        return LocalNeo4j(settings.home, settings.neo4j_version, f"mf{factor}",
                          extra_settings={MERGE_FACTOR: factor})

    factors = args.factors.split(",")
    for factor in factors:
        server(factor).stop(progress=lambda m: None)
    if not args.reuse:
        for factor in factors:
            srv = server(factor)
            shutil.rmtree(srv.instance_dir, ignore_errors=True)
            srv.start(timeout=300, progress=lambda m: None, memory=memory)
            uri, user, password = srv.connection()
            with GraphDatabase.driver(uri, auth=(user, password)) as driver:
                started = time.perf_counter()
                ingest(driver, corpus / "documents.jsonl", embedder, extractor)
                seconds = time.perf_counter() - started
            srv.stop(progress=lambda m: None)
            print(f"merge factor {factor}: ingest {args.docs:,} documents in {seconds:.1f} s = "
                  f"{args.docs / seconds:.1f} documents/s; {segments(srv.instance_dir)} segments",
                  flush=True)

    questions = [q.question for q in scale.read_questions(corpus / "questions.jsonl")][:args.questions]
    vectors = {q: [float(x) for x in embedder.embed_query(q)] for q in questions}
    car = cypher.statement("car", history=False)
    for rep in range(2):
        for factor in factors:
            srv = server(factor)
            srv.start(timeout=300, progress=lambda m: None, memory=memory)
            uri, user, password = srv.connection()
            with GraphDatabase.driver(uri, auth=(user, password)) as driver:
                retriever = Retriever(GraphStore(driver), embedder, extractor)
                retriever.prepare(questions)
                params = [retriever._anchor_parameters(retriever._common(q, K, None, None))
                          | {"k": K, "readings": 0, "reading_margin": 0.0, "reading_limit": EXPLAIN_LIMIT}
                          for q in questions]
                hybrid = peer_systems(driver, embedder, vectors, K)["graphrag_hybrid"]
                samples: dict[str, list[float]] = {"vector top-50": [], "car": [], "graphrag_hybrid": []}
                with driver.session() as session:
                    for round_ in range(5):  # two warm-up rounds, three timed
                        for i, question in enumerate(questions):
                            for name in samples:
                                started = time.perf_counter()
                                if name == "graphrag_hybrid":
                                    hybrid(question)
                                else:
                                    statement = VECTOR_TOP_50 if name == "vector top-50" else car
                                    list(session.run(statement, params[i]))
                                if round_ >= 2:
                                    samples[name].append(time.perf_counter() - started)
            srv.stop(progress=lambda m: None)
            print(f"merge factor {factor}, pass {rep + 1}: p50 "
                  + ", ".join(f"{name} {1000 * statistics.median(v):.2f} ms" for name, v in samples.items()),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
