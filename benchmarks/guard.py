"""The freshness guard and the citator, measured as a user would judge them (issue 62).

A team keeps its own retriever: here, plain dense search over an in-memory matrix of the same
corpus (the team's store, not car-graph's index), embedded with the same model. Each question's
top 5 goes through ``CarClient.guard``, and the guarded context is scored against the gold
relation of the benchmark (source links and explicit edges: ``links.gold_edges``, never the
graph the guard reads):

* voided share: questions whose context holds a document superseded as of the question's date
  -- before, after ``annotate`` (a voided document left *without* its warning) and after
  ``replace``;
* strict TCA@5 (``metrics.strict_tca``) of the guarded context (its own length when a
  replacement adds documents), beside car's top 5 and the dense top 5 it started from;
* guard latency per question (p50, p95) at k = 5 and k = 20, items carrying car-graph ids and
  items matched by their text alone;
* match accuracy on chunks: documents cut into 500-character chunks overlapping by 100, each
  guarded by its text alone: chunks one document holds must find it, chunks several documents
  hold must be left unmatched (a brute-force scan of the corpus says which is which);
* the citator on generated texts that cite documents by an identifier (an advisory's id or
  alias): precision and recall of the mentions it flags as superseded, the gold being the
  gold relation's status of every document the records say that identifier names.

    python -m car_graph_benchmarks.guard --split test --json out.json   # the graph is wiped
"""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

from car_graph.metrics import SupersessionGraph, strict_tca

if TYPE_CHECKING:
    from car_graph.client import CarClient
    from car_graph.records import DocumentRecord

CHUNK, OVERLAP = 500, 100
# identifiers an advisory is cited by: its own id or an alias of a declared scheme
CITABLE = re.compile(r"^(?:CVE-\d{4}-\d{4,7}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|PYSEC-\d{4}-\d{1,7}"
                     r"|GO-\d{4}-\d{4,7}|RUSTSEC-\d{4}-\d{4,7})$")
TEMPLATES = (
    "Our dependency audit still lists {ident} as an open item.",
    "See {ident} for the details of this issue.",
    "The ticket references {ident}; please confirm the fix.",
)


@dataclass(frozen=True)
class GuardBenchmark:
    domain: str
    split: str
    questions: int
    documents: int
    voided_share: dict[str, float]     # before, annotate (left unwarned), replace
    tca: dict[str, float]              # dense, car, guarded_annotate, guarded_replace
    latency_ms: dict[str, dict[str, float]]  # "k=5 ids" -> {p50, p95}
    chunks: dict[str, float]           # n, unique, accuracy, shared, shared_left_unmatched, wrong
    citator: dict[str, float]          # texts, mentions, gold_flagged, precision, recall
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def table(self) -> str:
        lat = "; ".join(f"{k} p50 {v['p50']:.1f} ms (p95 {v['p95']:.1f})" for k, v in self.latency_ms.items())
        return "\n".join([
            f"guard on {self.domain} {self.split}: {self.questions} questions, {self.documents} documents",
            "voided in context: " + ", ".join(f"{k} {v:.3f}" for k, v in self.voided_share.items()),
            "strict TCA@5: " + ", ".join(f"{k} {v:.3f}" for k, v in self.tca.items()),
            f"latency: {lat}",
            "chunks: " + ", ".join(f"{k} {v:.4g}" for k, v in self.chunks.items()),
            "citator: " + ", ".join(f"{k} {v:.4g}" for k, v in self.citator.items()),
        ])


def passage(record: DocumentRecord) -> str:
    """How the team's store holds a document: title, then text."""
    return f"{record.title}\n{record.text}" if record.title else record.text


def chunks_of(text: str, size: int = CHUNK, overlap: int = OVERLAP) -> list[str]:
    if len(text) <= size:
        return [text]
    return [text[i:i + size] for i in range(0, len(text) - overlap, size - overlap)]


class DenseStore:
    """The team's own retriever: cosine over an in-memory matrix (no car-graph index)."""

    def __init__(self, records: Sequence[DocumentRecord], embed: Callable[[list[str]], list[list[float]]],
                 batch: int = 64) -> None:
        self.records = list(records)
        rows = []
        for i in range(0, len(self.records), batch):
            rows.extend(embed([passage(r) for r in self.records[i:i + batch]]))
        matrix = np.asarray(rows, dtype=np.float32)
        self.matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    def top(self, vector: Sequence[float], k: int, as_of: date | None) -> list[DocumentRecord]:
        q = np.asarray(vector, dtype=np.float32)
        order = np.argsort(-(self.matrix @ (q / np.linalg.norm(q))), kind="stable")
        out = []
        for i in order:
            r = self.records[i]
            if as_of is None or r.published is None or r.published <= as_of:
                out.append(r)
                if len(out) == k:
                    break
        return out


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": statistics.median(ordered), "p95": ordered[int(0.95 * (len(ordered) - 1))],
            "n": float(len(ordered))}


def _items(records: Sequence[DocumentRecord], with_ids: bool) -> list[dict[str, Any]]:
    return [{"text": passage(r), "metadata": {"doc_id": r.id} if with_ids else {"source": "team"}}
            for r in records]


def _context_ids(report: Any, originals: Sequence[DocumentRecord]) -> list[tuple[str, bool]]:
    """(document id, warned) of each passage of a guarded context; an unmatched item is the
    document the team's store returned (the benchmark knows it; the guard did not)."""
    out = []
    for item, passage_ in report.passages():
        doc = passage_.doc_id or originals[item.index].id
        out.append((doc, passage_.text.startswith("[car-graph:")))
    return out


def measure_guard(car: CarClient, store: DenseStore, queries: Sequence[Mapping[str, Any]],
                  graph: SupersessionGraph, *, latency_questions: int = 100,
                  progress: bool = False) -> dict[str, Any]:
    voided = {"before": 0, "annotate_unwarned": 0, "replace": 0}
    tca = {"dense": 0, "car": 0, "guarded_annotate": 0, "guarded_replace": 0}
    latency: dict[str, list[float]] = {"k=5 ids": [], "k=5 text": [], "k=20 ids": [], "k=20 text": []}
    car.guard(["warm-up"])  # models and stop words load once, not inside a measured call
    for n, q in enumerate(tqdm(queries, desc="guard", unit="q", disable=not progress)):
        as_of = date.fromisoformat(q["as_of"]) if q.get("as_of") else None
        gold, anchors = set(q["gold"]), set(q.get("anchors") or ())
        vector = car.embedder.embed_query(q["question"])
        top20 = store.top(vector, 20, as_of)
        top5 = top20[:5]
        dense_ids = [r.id for r in top5]
        voided["before"] += any(graph.is_superseded(d, as_of) for d in dense_ids)
        tca["dense"] += strict_tca(dense_ids, 5, gold, graph, as_of, anchors)
        car_ids = [r.doc_id for r in car.retrieve(q["question"], k=5, as_of=as_of)]
        tca["car"] += strict_tca(car_ids, 5, gold, graph, as_of, anchors)
        annotated = _context_ids(car.guard(_items(top5, False), q["question"], as_of=as_of), top5)
        voided["annotate_unwarned"] += any(graph.is_superseded(d, as_of) and not warned
                                           for d, warned in annotated)
        ids = [d for d, _ in annotated]
        tca["guarded_annotate"] += strict_tca(ids, len(ids), gold, graph, as_of, anchors)
        replaced = [d for d, _ in _context_ids(car.guard(_items(top5, False), q["question"], as_of=as_of,
                                                         policy="replace"), top5)]
        voided["replace"] += any(graph.is_superseded(d, as_of) for d in replaced)
        tca["guarded_replace"] += strict_tca(replaced, max(len(replaced), 1), gold, graph, as_of, anchors)
        if n < latency_questions:
            for k, records in ((5, top5), (20, top20)):
                for how, with_ids in (("ids", True), ("text", False)):
                    items = _items(records, with_ids)
                    started = time.perf_counter()
                    car.guard(items, q["question"], as_of=as_of, policy="replace")
                    latency[f"k={k} {how}"].append((time.perf_counter() - started) * 1000)
    n = max(len(queries), 1)
    return {"voided_share": {k: v / n for k, v in voided.items()},
            "tca": {k: v / n for k, v in tca.items()},
            "latency_ms": {k: _percentiles(v) for k, v in latency.items() if v}}


def _plain(text: str) -> str:
    """The benchmark's own normalisation (not the guard's): lower-cased letter and digit runs."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def measure_chunks(car: CarClient, records: Sequence[DocumentRecord], *, documents: int = 300,
                   seed: int = 7, batch: int = 20) -> dict[str, float]:
    """Chunks of ``documents`` sampled documents, guarded ``batch`` at a time by text alone.
    Gold: the documents of the whole corpus whose text holds the chunk (a brute-force scan).
    A chunk one document holds must be matched to it (``accuracy``); a chunk several hold
    (release notes repeat a fix across branches) must be left unmatched, with its holders
    among the candidates (``shared_left_unmatched``); ``wrong``: every other answer, a guess."""
    corpus = {r.id: _plain(passage(r)) for r in records}
    sample = random.Random(seed).sample(list(records), min(documents, len(records)))
    pieces = [(r.id, c) for r in sample for c in chunks_of(passage(r))]
    unique = right = shared = left = wrong = 0
    for i in range(0, len(pieces), batch):
        part = pieces[i:i + batch]
        report = car.guard([c for _, c in part], policy="keep")
        for (doc, chunk), item in zip(part, report.items, strict=True):
            plain = _plain(chunk)
            holders = {d for d, text in corpus.items() if plain in text}
            if len(holders) <= 1:
                unique += 1
                right += item.doc_id == doc
                wrong += item.doc_id is not None and item.doc_id != doc
            else:
                shared += 1
                left += item.doc_id is None
                wrong += item.doc_id is not None
    n = max(len(pieces), 1)
    return {"n": float(len(pieces)), "documents": float(len(sample)), "unique": float(unique),
            "accuracy": right / max(unique, 1), "shared": float(shared),
            "shared_left_unmatched": left / max(shared, 1), "wrong": wrong / n}


def citations(records: Sequence[DocumentRecord]) -> dict[str, set[str]]:
    """identifier -> the documents the records say it names (their id, or an alias)."""
    named: dict[str, set[str]] = {}
    for r in records:
        for ident in [r.id, *(r.attributes.get("aliases") or ())]:
            if isinstance(ident, str) and CITABLE.match(ident):
                named.setdefault(ident.upper(), set()).add(r.id)
    return named


def measure_citator(car: CarClient, records: Sequence[DocumentRecord], graph: SupersessionGraph, *,
                    texts: int = 100, per_text: int = 4, seed: int = 5) -> dict[str, float]:
    """Texts citing ``per_text`` identifiers each (half of them voided where the corpus has
    enough), plus an identifier the corpus does not hold; flagged = a mention the citator calls
    superseded; gold = an identifier naming a document the gold relation supersedes."""
    named = citations(records)
    voided = sorted(i for i, docs in named.items() if any(graph.is_superseded(d, None) for d in docs))
    live = sorted(i for i in named if i not in set(voided))
    rng = random.Random(seed)
    tp = fp = fn = mentions = 0
    for _ in range(texts):
        cited = rng.sample(voided, min(per_text // 2, len(voided))) + rng.sample(live, min(per_text - per_text // 2, len(live)))
        rng.shuffle(cited)
        lines = [rng.choice(TEMPLATES).format(ident=i) for i in cited]
        lines.append("Unrelated: CVE-1999-0000001 is not tracked here.")
        report = car.check("\n".join(lines))
        flagged = {m.text.upper() for m in report.mentions if "superseded" in m.statuses}
        mentions += len(report.mentions)
        for ident in cited:
            gold = ident in set(voided)
            tp += gold and ident in flagged
            fn += gold and ident not in flagged
        fp += len(flagged - set(voided))
    return {"texts": float(texts), "mentions": float(mentions),
            "precision": tp / max(tp + fp, 1), "recall": tp / max(tp + fn, 1),
            "true_positives": float(tp), "false_positives": float(fp), "false_negatives": float(fn)}


def run(car: CarClient, raw_dir: Path, *, domain: str = "security", split: str = "test",
        n_distractors: int = 2000, seed: int = 13, max_questions: int | None = None,
        chunk_documents: int = 300, citator_texts: int = 100, ingest: bool = True,
        progress: bool = False) -> GuardBenchmark:
    """Build the domain's benchmark, ingest it (``ingest``: into a graph the caller has wiped),
    and measure the guard and the citator on ``split``."""
    from car_graph_benchmarks.links import gold_edges
    from car_graph_benchmarks.questions import build_benchmark

    started = time.perf_counter()
    bench = build_benchmark(domain, raw_dir, n_distractors=n_distractors, seed=seed)
    if ingest:
        car.ingest(bench.documents, progress=progress)
    graph = SupersessionGraph(gold_edges(bench.links.links if bench.links else (), bench.documents))
    queries = bench.split(bench.queries, split)[:max_questions]
    store = DenseStore(bench.documents, car.embedder.embed_documents)
    guarded = measure_guard(car, store, queries, graph, progress=progress)
    return GuardBenchmark(
        domain=domain, split=split, questions=len(queries), documents=len(bench.documents),
        voided_share=guarded["voided_share"], tca=guarded["tca"], latency_ms=guarded["latency_ms"],
        chunks=measure_chunks(car, bench.documents, documents=chunk_documents),
        citator=measure_citator(car, bench.documents, graph, texts=citator_texts),
        seconds=time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    from car_graph.client import CarClient
    from car_graph.connection import wipe_database

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--raw-dir", type=Path, default=Path("/work/shared/data/raw"))
    parser.add_argument("--domain", default="security")
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    parser.add_argument("--max-questions", type=int, default=None)
    parser.add_argument("--chunk-documents", type=int, default=300)
    parser.add_argument("--citator-texts", type=int, default=100)
    parser.add_argument("--no-ingest", action="store_true", help="the graph already holds the corpus")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    with CarClient.from_env() as car:
        if not args.no_ingest:
            wipe_database(car.driver, car.database, car.store.uri or "")
        result = run(car, args.raw_dir, domain=args.domain, split=args.split,
                     max_questions=args.max_questions, chunk_documents=args.chunk_documents,
                     citator_texts=args.citator_texts, ingest=not args.no_ingest, progress=True)
    print(result.table())
    if args.json:
        args.json.write_text(json.dumps(result.to_json(), indent=2) + "\n")


if __name__ == "__main__":
    main()
