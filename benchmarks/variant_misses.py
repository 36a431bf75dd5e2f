"""Why ``car`` misses a variant question: a per-query classification against the live graph.

``python -m car_graph_benchmarks.variant_misses SUITE_DIR SET [SET ...] [--split dev] [-k 5]``
(NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD name the server holding ``SUITE_DIR/documents.jsonl``)
prints one JSON object: per set, the strict-TCA misses of ``car`` counted by class, and each miss
with its question, the entities linked in the question and the anchors ``car`` used.

Classes (first that applies):

* ``anchor not found, wrong sibling``: the true anchor is not among car's anchors, but an anchor
  of the same product / drug scope is (the right scope, the wrong document of it);
* ``anchor not found, other scope``: no anchor shares the true anchor's scope;
* ``anchor found, gold outside top k``: the true anchor was used but a controlling document did
  not make the top k;
* ``anchor found, superseded document shown``: gold is in the top k, but so is a superseded
  document without its superseder (strict TCA's second condition).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from car_graph.client import CarClient
from car_graph.evaluation import read_queries, supersession_graph
from car_graph.metrics import strict_tca
from car_graph.records import read_jsonl
from car_graph.settings import Settings
from car_graph.target import connect


def classify(
    gold: set[str], anchor: str, retrieved: Sequence[str], used_anchors: Sequence[str],
    scope_of: dict[str, set[str]], k: int,
) -> str:
    if anchor not in used_anchors:
        mine = scope_of.get(anchor, set())
        if any(scope_of.get(a, set()) & mine for a in used_anchors):
            return "anchor not found, wrong sibling"
        return "anchor not found, other scope"
    if not gold <= set(retrieved[:k]):
        return "anchor found, gold outside top k"
    return "anchor found, superseded document shown"


def analyse(car: CarClient, suite_dir: Path, sets: Sequence[str], split: str,
            k: int) -> dict[str, Any]:
    scope_of = {d.id: {f"{t}:{v}" for t, vs in d.scope.items() for v in vs}
                for d in read_jsonl(suite_dir / "documents.jsonl")}
    graph = supersession_graph(car.retriever)
    report: dict[str, Any] = {}
    for name in sets:
        queries = read_queries(suite_dir / f"{name}.{split}.jsonl")
        car.retriever.prepare(q.question for q in queries)
        misses = []
        for q in queries:
            retrieval = car.retriever.retrieve(q.question, k)
            anchors = set(q.anchors or ())
            if strict_tca(retrieval.ids, k, set(q.gold), graph, None, anchors):
                continue
            anchor = sorted(anchors)[0]
            misses.append({
                "id": q.id,
                "question": q.question,
                "class": classify(set(q.gold), anchor, retrieval.ids, retrieval.anchors,
                                  scope_of, k),
                "question_entities": list(retrieval.question_entities),
                "anchor": anchor,
                "anchor_scope": sorted(scope_of.get(anchor, ())),
                "car_anchors": list(retrieval.anchors[:k]),
                "car_anchor_scopes": sorted({s for a in retrieval.anchors[:k]
                                             for s in scope_of.get(a, ())}),
            })
        report[name] = {
            "n": len(queries),
            "misses": len(misses),
            "tca": round(1 - len(misses) / len(queries), 4) if queries else None,
            "by_class": dict(Counter(m["class"] for m in misses).most_common()),
            "detail": misses,
        }
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.variant_misses")
    parser.add_argument("suite_dir", type=Path)
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--split", default="dev", choices=("dev", "test"))
    parser.add_argument("-k", type=int, default=5)
    args = parser.parse_args(argv)
    settings = Settings.from_env(os.environ)
    with connect(settings) as driver, CarClient(
            driver, settings.database, embedding_model=settings.embedding_model) as car:
        report = analyse(car, args.suite_dir, args.sets, args.split, args.k)
    json.dump(report, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
