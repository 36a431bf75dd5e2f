"""Questions made of a detail of the asked document's own text: how verdicts hold up when a
question quotes or restates something beyond a document's opening words, its product's name
taken out (outside benchmarks' free-form questions do both).

    python -m car_graph_benchmarks.details QUERIES.jsonl [QUERIES.jsonl ...] [--out FILE] [--json]

(NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD name the server holding the variant graph.) For every
distinct anchor of a row with one anchor, the anchor's second sentence (``CarClient.explain``:
the text as ingested), without the words that are its scope entities' keys, cut to its first
``CLAUSE_WORDS`` words, is asked once per ``FRAMES`` frame through ``CarClient.answer`` and
scored against the row's own ``gold`` and ``anchors`` with ``metrics.score_verdicts`` -- gold
from the variant builder, never from the code under test. A text of one sentence, or a second
sentence of fewer than ``MIN_CLAUSE_WORDS`` words left, is skipped. Give it dev files only.
Written on 2026-12-05 (docs/notes/verdict-lab-2026-12.md, "A detail of the text, a name inside a quote, a longer
relative of a name, an unquoted lead").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from car_graph.client import CarClient
from car_graph_benchmarks.phrasings import ask, probe_arguments, report, show

FRAMES = {
    "d-fixed": "Has the issue where {c} been fixed?",
    "d-still": "Apparently {c}. Is that still the case in the latest release?",
    "d-we": "We read that {c} -- do we need to upgrade?",
}
CLAUSE_WORDS = 14
MIN_CLAUSE_WORDS = 8


def detail(text: str, names: set[str]) -> str | None:
    """The clause a question asks about: the second sentence of ``text`` without the words in
    ``names`` (lower case, edge punctuation aside), its first ``CLAUSE_WORDS`` words, lower-cased
    first letter; None when there is no such clause of ``MIN_CLAUSE_WORDS`` words."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
    if len(sentences) < 2:
        return None
    kept = [w for w in sentences[1].rstrip(".").split() if w.lower().strip(",;:()") not in names]
    if len(kept) < MIN_CLAUSE_WORDS:
        return None
    clause = " ".join(kept[:CLAUSE_WORDS])
    return clause[0].lower() + clause[1:]


def main(argv: Sequence[str] | None = None) -> int:
    args, rows = probe_arguments(argv, __doc__ or "")
    by_anchor: dict[str, dict[str, Any]] = {}
    for row in rows:
        if len(row.get("anchors") or []) == 1:
            by_anchor.setdefault(row["anchors"][0], row)
    per_frame: dict[str, list[Any]] = {}
    out = args.out.open("w") if args.out else None
    with CarClient.from_env() as car:
        for anchor, row in by_anchor.items():
            document = car.explain(anchor)
            clause = detail(document.text or "", {e.split(":", 1)[1].lower() for e in document.scope})
            if clause is None:
                continue
            for frame, template in FRAMES.items():
                scored, line = ask(car, template.format(c=clause), row, frame)
                per_frame.setdefault(frame, []).append(scored)
                if out is not None:
                    out.write(line + "\n")
    if out is not None:
        out.close()
    show(report(per_frame, sum(map(len, per_frame.values())), "by_frame"), args.json, "by_frame",
         "questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
