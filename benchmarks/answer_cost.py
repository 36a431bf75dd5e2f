"""What a verdict costs over the retrieval it is built on, on the graph at NEO4J_URI.

    python -m car_graph_benchmarks.answer_cost QUERIES.jsonl [...] [--repeat 5] [--json]

``CarClient.answer`` should cost about what ``CarClient.retrieve`` costs (issue 18: answer p50
<= 1.1 x retrieve p50): the retrieval's own statement returns the closures the verdict needs.
For every question (analysed once first: embedding and entity linking are shared by both and
not timed) it times, in turn and alternating which goes first so that load on the machine hits
both alike:

* ``retrieve``  ``CarClient.retrieve_report`` (car.cypher);
* ``answer``    ``CarClient.answer`` (car.cypher with the verdict's readings, then the verdict);
* ``answer_explain`` (with ``--before``) how answer ran before: retrieval, then one ``explain``
  (explain.cypher + closure.cypher in a read transaction) per candidate anchor.

and counts the statements each call sends (``GraphStore.read`` and read transactions). It
prints p50/p95/mean per call, the ratio answer / retrieve, and the statements per question.
Read-only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.client import CarClient
from car_graph.evaluation import read_queries

K = 5


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(car: CarClient, questions: Sequence[tuple[str, date | None]], repeat: int = 3,
            k: int = K, before: bool = False) -> dict[str, Any]:
    """Both calls timed on every question ``repeat`` times, alternating their order; the
    statements each sends are counted by wrapping the client's store."""
    store = car.store
    sent: Counter[str] = Counter()
    counting: list[str] = []
    read, in_tx = store.read, store.in_read_transaction

    def counted_read(name: str, **params: Any) -> Any:
        if counting:
            sent[counting[-1]] += 1
        return read(name, **params)

    def counted_tx(work: Callable[[Any], Any]) -> Any:
        if counting:
            sent[counting[-1]] += 1
        return in_tx(work)

    store.read = counted_read  # type: ignore[method-assign]
    store.in_read_transaction = counted_tx  # type: ignore[method-assign]
    car.retriever.prepare(q for q, _ in questions)
    calls: dict[str, Callable[[str, date | None], Any]] = {
        "retrieve": lambda q, d: car.retrieve_report(q, k=k, as_of=d),
        "answer": lambda q, d: car.answer(q, as_of=d, k=k),
    }
    if before:
        calls["answer_explain"] = lambda q, d: car.verdict_on(
            replace(car.retrieve_report(q, k=k, as_of=d), readings=()), k=k)
    for question, as_of in questions:  # warm both paths (plans, caches) before timing
        for call in calls.values():
            call(question, as_of)
    times: dict[str, list[float]] = {name: [] for name in calls}
    try:
        for round_ in range(repeat):
            for i, (question, as_of) in enumerate(questions):
                shift = (i + round_) % len(calls)
                order = list(calls)[shift:] + list(calls)[:shift]
                for name in order:
                    counting.append(name)
                    started = time.perf_counter()
                    calls[name](question, as_of)
                    times[name].append((time.perf_counter() - started) * 1000)
                    counting.pop()
    finally:
        store.read, store.in_read_transaction = read, in_tx  # type: ignore[method-assign]
    calls_made = len(questions) * repeat
    summary = {
        name: {"p50_ms": round(statistics.median(ms), 2), "p95_ms": round(_percentile(ms, 0.95), 2),
               "mean_ms": round(statistics.fmean(ms), 2),
               "statements_per_call": round(sent[name] / calls_made, 3)}
        for name, ms in times.items()
    }
    return {
        "questions": len(questions), "repeat": repeat, "k": k, "calls": summary,
        "answer_p50_over_retrieve_p50": round(
            summary["answer"]["p50_ms"] / summary["retrieve"]["p50_ms"], 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("queries", nargs="+", type=Path, help="JSON Lines with 'question' (and 'as_of')")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-k", type=int, default=K)
    parser.add_argument("--limit", type=int, default=0, help="at most this many questions per file")
    parser.add_argument("--before", action="store_true",
                        help="also time answer as it ran before (a second statement per candidate)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    questions: list[tuple[str, date | None]] = []
    for path in args.queries:
        found = [(q.question, q.as_of) for q in read_queries(path)]
        questions += found[: args.limit] if args.limit else found
    with CarClient.from_env() as car:
        result = measure(car, questions, args.repeat, args.k, args.before)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['questions']} questions x {result['repeat']}, k = {result['k']}")
    for name, row in result["calls"].items():
        print(f"  {name:14s} p50 {row['p50_ms']:7.2f} ms  p95 {row['p95_ms']:7.2f} ms  "
              f"mean {row['mean_ms']:7.2f} ms  statements/call {row['statements_per_call']}")
    print(f"  answer p50 / retrieve p50 = {result['answer_p50_over_retrieve_p50']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
