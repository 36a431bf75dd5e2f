"""Where car's query time goes, statement by statement, on the graph at NEO4J_URI.

    python -m car_graph_benchmarks.statement_cost QUERIES.jsonl [...] [--repeat 3]

For every question (prepared once: embedding and entity linking are not timed) it times, in
turn and interleaved so that load on the machine hits every variant alike:

* ``vector``      search_vector.cypher, the bare vector top-k (k = 5 of 50 candidates);
* ``anchors``     anchors.cypher alone (the ``hybrid`` baseline);
* ``closure``     closure.cypher alone, fed the anchors found above;
* ``two_statements``  anchors then closure in one read transaction (how car ran before
  queries/car.cypher);
* ``car``         Retriever.retrieve: car.cypher, one auto-commit statement.

It checks that ``two_statements`` and ``car`` return the same anchors and the same results
(ids, statuses, chain lengths) for every question, and prints p50/mean per variant and the
ratios to ``vector``. Read-only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from car_graph.client import CarClient
    from car_graph.retrieval import Retriever

K = 5


def measure(car: CarClient, questions: Sequence[str], repeat: int = 1,
            retriever: Retriever | None = None) -> dict[str, Any]:
    """Every variant timed on every question, interleaved; see the module docstring. A caller
    that has already analysed the questions passes its ``retriever`` (nothing is embedded twice)."""
    from car_graph import cypher
    from car_graph.retrieval import Retriever

    retriever = retriever or Retriever(car.store, car.embedder, car.extractor)
    retriever.prepare(questions)
    store = car.store
    found: dict[str, list[Any]] = {}
    # statement parameters built once, outside the timed calls
    prepared = {q: retriever._common(q, K, None, None) for q in dict.fromkeys(questions)}
    anchor_parameters = {q: retriever._anchor_parameters(p) for q, p in prepared.items()}

    def parameters(question: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return prepared[question], anchor_parameters[question]

    def vector(question: str) -> Any:
        return store.read("search_vector", embedding=parameters(question)[0]["embedding"], k=K,
                          as_of=None, domain=None, candidates=retriever.settings.candidates)

    def anchors(question: str) -> Any:
        found[question] = store.read("anchors", **parameters(question)[1])
        return found[question]

    def closure(question: str) -> Any:
        rows = found[question]
        return store.read("closure", anchors=[{"id": a["doc_id"], "rank": a["rank"], "score": a["score"]}
                                              for a in rows],
                          as_of=None, embedding=parameters(question)[0]["embedding"], k=K)

    def two_statements(question: str) -> Any:
        params, anchor_params = parameters(question)

        def work(tx: Any) -> Any:
            rows = list(tx.run(cypher.statement("anchors", history=False), anchor_params))
            results = list(tx.run(cypher.statement("closure", history=False), anchors=[
                {"id": a["doc_id"], "rank": a["rank"], "score": a["score"]} for a in rows],
                as_of=None, embedding=params["embedding"], k=K)) if rows else []
            return ([a["doc_id"] for a in rows],
                    [(r["doc_id"], r["status"], len(r["chain"])) for r in results])

        return store.in_read_transaction(work)

    def one_statement(question: str) -> Any:
        retrieval = retriever.retrieve(question, K)
        return (list(retrieval.anchors),
                [(r.doc_id, r.status.value, len(r.chain)) for r in retrieval.results])

    variants: dict[str, Callable[[str], Any]] = {
        "vector": vector, "anchors": anchors, "closure": closure,
        "two_statements": two_statements, "car": one_statement}
    for question in questions[:10]:  # warm-up
        for call in variants.values():
            call(question)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    differing = 0
    for _ in range(repeat):
        for question in questions:
            outputs = {}
            for name, call in variants.items():
                started = time.perf_counter()
                outputs[name] = call(question)
                samples[name].append(time.perf_counter() - started)
            differing += outputs["two_statements"] != outputs["car"]
    vector_p50 = statistics.median(samples["vector"])
    return {
        "questions": len(questions), "repeat": repeat,
        "two_statements_vs_car_differing": differing,
        "variants": {name: {"p50_ms": round(1000 * statistics.median(v), 2),
                            "mean_ms": round(1000 * statistics.mean(v), 2),
                            "p50_over_vector": round(statistics.median(v) / vector_p50, 2)}
                     for name, v in samples.items()},
    }


def main(argv: list[str] | None = None) -> int:
    from car_graph.client import CarClient
    from car_graph.evaluation import read_queries

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("queries", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=1, help="timed passes over the questions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    questions = [q.question for path in args.queries for q in read_queries(path)]
    with CarClient.from_env() as car:
        report = measure(car, questions, args.repeat)
    differing = report["two_statements_vs_car_differing"]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{len(questions)} questions x {args.repeat}; two statements and car differ on {differing}")
        for name, row in report["variants"].items():
            print(f"{name:<16} p50 {row['p50_ms']:7.2f} ms   mean {row['mean_ms']:7.2f} ms   "
                  f"p50 / vector {row['p50_over_vector']:.2f}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
