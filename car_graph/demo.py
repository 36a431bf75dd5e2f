"""The main job: ingest the bundled real-data sample (security, law, drug) and answer questions.

The sample (car_graph/resources/sample/, with its SOURCE.md) is a small attributed subset of the
real corpora, so the demo runs on a fresh machine without ../shared: one ``<domain>.jsonl`` per
domain beside ``questions.jsonl``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

from car_graph.client import CarClient
from car_graph.errors import InputProblem
from car_graph.ingest.pipeline import IngestSummary
from car_graph.records import read_jsonl
from car_graph.types import Retrieval

QUESTIONS = "questions.jsonl"


def sample_dir() -> Path:
    return Path(str(resources.files("car_graph") / "resources" / "sample"))


@dataclass
class DemoReport:
    ingested: dict[str, IngestSummary] = field(default_factory=dict)
    answers: list[tuple[dict[str, Any], Retrieval]] = field(default_factory=list)
    seconds: float = 0.0


def run_demo(
    client: CarClient, directory: Path | None = None, k: int = 3,
    say: Callable[[str], None] = print, progress: bool = False,
) -> DemoReport:
    directory = directory or sample_dir()
    started = time.perf_counter()
    report = DemoReport()
    with open(directory / QUESTIONS, encoding="utf-8") as handle:
        questions = [json.loads(line) for line in handle if line.strip()]
    for domain in sample_domains(directory, questions):
        problems: list[InputProblem] = []
        records = list(read_jsonl(directory / f"{domain}.jsonl", problems))
        say(f"ingesting {len(records)} {domain} documents ...")
        report.ingested[domain] = client.ingest(records, problems=problems, progress=progress)
        edges = report.ingested[domain].edges_by_rule
        say(f"  graph now: {report.ingested[domain].graph}; edges by rule: {edges}")
    for question in questions:
        as_of = date.fromisoformat(question["as_of"]) if question.get("as_of") else None
        retrieval = client.retrieve_report(question["question"], k=k, as_of=as_of)
        report.answers.append((question, retrieval))
        say("")
        say(render_retrieval(retrieval, expected=question.get("gold")))
    report.seconds = time.perf_counter() - started
    say(f"\ndemo finished in {report.seconds:.1f} s")
    return report


def sample_domains(directory: Path, questions: list[dict[str, Any]]) -> list[str]:
    """The sample's corpora (``<domain>.jsonl``), in the order the questions first ask about
    them, then any others by name."""
    files = {p.stem for p in directory.glob("*.jsonl") if p.name != QUESTIONS}
    asked = [Path(str(q.get("info", {}).get("corpus", ""))).stem for q in questions]
    ordered = [name for name in dict.fromkeys(asked) if name in files]
    return ordered + sorted(files - set(ordered))


def render_retrieval(retrieval: Retrieval, expected: list[str] | None = None) -> str:
    lines = [f"Q: {retrieval.question}" + (f"  (as of {retrieval.as_of})" if retrieval.as_of else "")]
    if not retrieval.results:
        lines.append("   no documents found")
    for rank, result in enumerate(retrieval.results, start=1):
        mark = " [expected]" if expected and result.doc_id in expected else ""
        lines.append(f" {rank}. {result.doc_id} [{result.status}] {result.title[:90]}{mark}")
        if result.chain:
            lines.append(f"    anchor {result.anchor_id}")
            for hop in result.chain:
                lines.append(f"    -> superseded by {hop.to_id} {hop.how()}")
                if hop.evidence:
                    lines.append(f"       evidence: {hop.evidence[:110]}")
    notes = []
    if retrieval.suppressed:
        notes.append(f"{retrieval.suppressed} superseded anchor(s) replaced by their controlling documents")
    if retrieval.ambiguous_scopes:
        notes.append("scope holds several chains (kappa > 1): " + ", ".join(retrieval.ambiguous_scopes[:3]))
    lines.extend(f"   note: {n}" for n in notes)
    return "\n".join(lines)
