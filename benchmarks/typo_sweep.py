"""Every one-edit typo of each typo question's name, not one random draw.

A typo set of benchmarks/variants.py asks each anchor once, with one random typo of its name
(29 questions for the drug test split's 4-6-letter names): too few to tell a linker change from
noise. The sweep re-asks each question with every typo its split's operations can make of the
name (the same ``make_typo`` operations, the same rule that a typo spelling a name of the
corpus is discarded), in the question's own sentence, with its gold and anchors::

    python -m car_graph_benchmarks.typo_sweep benchmarks/variants/drug typo --split test \\
        --out /tmp/drug-typo-test-sweep.jsonl
    car-graph eval /tmp/drug-typo-test-sweep.jsonl -k 5

The suite folder must hold ``documents.jsonl`` (regenerate it with
``python -m car_graph_benchmarks.variants``): the corpus names are read from it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from car_graph.linking import words
from car_graph_benchmarks.variants import all_typos


def corpus_names(documents: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every word of every scope value and string attribute: a typo spelling one of them is
    another name, not a typo."""
    names: set[str] = set()

    def add(value: Any) -> None:
        if isinstance(value, str):
            names.update(words(value))
        elif isinstance(value, list):
            for item in value:
                add(item)

    for doc in documents:
        for value in (doc.get("scope") or {}).values():
            add(value)
        for value in (doc.get("attributes") or {}).values():
            add(value)
    return names


def sweep(rows: Iterable[Mapping[str, Any]], operations: Sequence[str],
          forbidden: set[str]) -> Iterator[dict[str, Any]]:
    """Each row again with every typo of its name the operations make."""
    for row in rows:
        info = row["info"]
        name, typo = info.get("name") or info["product"], info["typo"]
        if typo not in row["question"]:
            continue
        seen = {typo.lower()}
        for op in operations:
            for variant in all_typos(name, op, forbidden):
                if variant.lower() in seen:
                    continue
                seen.add(variant.lower())
                yield {**row, "id": f"{row['id']}-{op}-{len(seen) - 1}", "family": op,
                       "question": row["question"].replace(typo, variant, 1),
                       "info": {**info, "typo": variant, "sweep_of": row["id"]}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.typo_sweep",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("suite_dir", type=Path, help="one domain's folder of the variants suite")
    parser.add_argument("set", help="typo or typo_long")
    parser.add_argument("--split", choices=("dev", "test"), required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    stats = json.loads((args.suite_dir / "stats.json").read_text(encoding="utf-8"))
    operations = stats["sets"][args.set]["families"][args.split]
    documents_path = args.suite_dir / "documents.jsonl"
    if not documents_path.is_file():
        parser.error(f"{documents_path} is missing: run python -m car_graph_benchmarks.variants first")
    with open(documents_path, encoding="utf-8") as handle:
        forbidden = corpus_names(json.loads(line) for line in handle if line.strip())
    source = args.suite_dir / f"{args.set}.{args.split}.jsonl"
    with open(source, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    out = list(sweep(rows, operations, forbidden))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as handle:
        for row in out:
            handle.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"{len(out)} questions ({', '.join(operations)} typos of {len(rows)} questions' names) "
          f"-> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
