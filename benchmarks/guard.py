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
* the citator on generated texts citing the corpus's documents as its domain's writers do
  (benchmarks/<domain>/citator.json: advisories by CVE or advisory id, opinions by name and
  U.S. Reports citation, labels by FDA application number): precision and recall of the
  authorities it flags as superseded, the gold being the gold relation's status of every
  document the records say a citation names.

    python -m car_graph_benchmarks.guard --split test --json out.json   # the graph is wiped
    python -m car_graph_benchmarks.guard --domain law --citator-only    # the citator alone
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


@dataclass(frozen=True)
class CitationStyle:
    """How texts cite one corpus's documents (benchmarks/<domain>/citator.json): a record's
    ``fields`` values (lists expanded), or its ``format`` over title, id and attributes, are its
    citations when they match ``pattern`` (rewritten by ``rewrite``, a regex template, if set)."""

    templates: tuple[str, ...]
    unheld: str
    pattern: re.Pattern[str]
    kinds: frozenset[str] = frozenset()
    fields: tuple[str, ...] = ()
    format: str | None = None
    rewrite: str | None = None

    @classmethod
    def of(cls, domain: str) -> CitationStyle:
        data = json.loads((Path(__file__).resolve().parent / domain / "citator.json").read_text("utf-8"))
        return cls(templates=tuple(data["templates"]), unheld=data["unheld"],
                   pattern=re.compile(data["pattern"]), kinds=frozenset(data.get("kinds", ())),
                   fields=tuple(data.get("fields", ())), format=data.get("format"),
                   rewrite=data.get("rewrite"))

    def cites(self, record: DocumentRecord) -> list[str]:
        if self.kinds and record.kind not in self.kinds:
            return []
        values: dict[str, Any] = {**record.attributes, "id": record.id, "title": record.title}
        raw: list[Any] = []
        for name in self.fields:
            value = values.get(name)
            raw.extend(value if isinstance(value, (list, tuple)) else [value])
        if self.format:
            raw.append(self.format.format(**values))
        out = []
        for value in raw:
            if isinstance(value, str) and (m := self.pattern.search(value)):
                out.append(m.expand(self.rewrite) if self.rewrite else value)
        return out


def citations(records: Sequence[DocumentRecord], style: CitationStyle) -> dict[str, set[str]]:
    """citation -> the documents the records say it cites."""
    named: dict[str, set[str]] = {}
    for r in records:
        for cite in style.cites(r):
            named.setdefault(cite, set()).add(r.id)
    return named


def measure_citator(car: CarClient, records: Sequence[DocumentRecord], graph: SupersessionGraph, *,
                    domain: str = "security", split: str | None = None, texts: int = 100,
                    per_text: int = 4, seed: int = 5) -> dict[str, float]:
    """Texts citing ``per_text`` authorities each, one a line (half of them voided where the
    corpus has enough), plus a line citing one the corpus does not hold. An authority is
    flagged when a mention on its line is called superseded; it is voided (gold) when the gold
    relation (the corpus's own join keys, ``links``) fully supersedes a document it cites. Any
    mention called superseded on the unheld line is a false positive. ``split``: only
    authorities whose first document is of that split (``questions.split_of``)."""
    from car_graph_benchmarks.questions import split_of

    style = CitationStyle.of(domain)
    named = {c: docs for c, docs in citations(records, style).items()
             if split is None or split_of(min(docs)) == split}
    voided = sorted(c for c, docs in named.items() if any(graph.is_superseded(d, None) for d in docs))
    gold = set(voided)
    live = sorted(c for c in named if c not in gold)
    rng = random.Random(seed)
    tp = fp = fn = mentions = authorities = 0
    for _ in range(texts):
        cited = rng.sample(voided, min(per_text // 2, len(voided))) + rng.sample(live, min(per_text - per_text // 2, len(live)))
        rng.shuffle(cited)
        lines = [rng.choice(style.templates).format(cite=c) for c in cited]
        lines.append(style.unheld)
        report = car.check("\n".join(lines))
        mentions += len(report.mentions)
        flagged_lines = {m.line for m in report.mentions if "superseded" in m.statuses}
        for line, cite in enumerate(cited, start=1):
            authorities += 1
            tp += cite in gold and line in flagged_lines
            fn += cite in gold and line not in flagged_lines
            fp += cite not in gold and line in flagged_lines
        fp += len(lines) in flagged_lines
    return {"texts": float(texts), "authorities": float(authorities), "mentions": float(mentions),
            "voided_cited": float(tp + fn), "precision": tp / max(tp + fp, 1),
            "recall": tp / max(tp + fn, 1), "true_positives": float(tp),
            "false_positives": float(fp), "false_negatives": float(fn)}


def run(car: CarClient, raw_dir: Path, *, domain: str = "security", split: str = "test",
        n_distractors: int = 2000, seed: int = 13, max_questions: int | None = None,
        chunk_documents: int = 300, citator_texts: int = 100, ingest: bool = True,
        progress: bool = False) -> GuardBenchmark:
    """Build the domain's benchmark, ingest it (``ingest``: into a graph the caller has wiped),
    and measure the guard and the citator on ``split``."""
    started = time.perf_counter()
    bench, graph = _loaded(car, raw_dir, domain, n_distractors, seed, ingest, progress)
    queries = bench.split(bench.queries, split)[:max_questions]
    store = DenseStore(bench.documents, car.embedder.embed_documents)
    guarded = measure_guard(car, store, queries, graph, progress=progress)
    return GuardBenchmark(
        domain=domain, split=split, questions=len(queries), documents=len(bench.documents),
        voided_share=guarded["voided_share"], tca=guarded["tca"], latency_ms=guarded["latency_ms"],
        chunks=measure_chunks(car, bench.documents, documents=chunk_documents),
        citator=measure_citator(car, bench.documents, graph, domain=domain, split=split,
                                texts=citator_texts),
        seconds=time.perf_counter() - started)


def _loaded(car: CarClient, raw_dir: Path, domain: str, n_distractors: int, seed: int,
            ingest: bool, progress: bool) -> tuple[Any, SupersessionGraph]:
    """The domain's benchmark (ingested when ``ingest``) and its gold relation."""
    from car_graph_benchmarks.links import gold_edges
    from car_graph_benchmarks.questions import build_benchmark

    bench = build_benchmark(domain, raw_dir, n_distractors=n_distractors, seed=seed)
    if ingest:
        car.ingest(bench.documents, progress=progress)
    return bench, SupersessionGraph(gold_edges(bench.links.links if bench.links else (), bench.documents))


def run_citator(car: CarClient, raw_dir: Path, *, domain: str, split: str = "test",
                n_distractors: int = 2000, seed: int = 13, texts: int = 100, ingest: bool = True,
                progress: bool = False) -> dict[str, float]:
    """The citator alone on ``domain``'s texts of ``split`` (see measure_citator)."""
    bench, graph = _loaded(car, raw_dir, domain, n_distractors, seed, ingest, progress)
    return measure_citator(car, bench.documents, graph, domain=domain, split=split, texts=texts)


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
    parser.add_argument("--citator-only", action="store_true", help="measure the citator alone")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    with CarClient.from_env() as car:
        if not args.no_ingest:
            wipe_database(car.driver, car.database, car.store.uri or "")
        if args.citator_only:
            scores = run_citator(car, args.raw_dir, domain=args.domain, split=args.split,
                                 texts=args.citator_texts, ingest=not args.no_ingest, progress=True)
            print(f"citator on {args.domain} {args.split}: "
                  + ", ".join(f"{k} {v:.4g}" for k, v in scores.items()))
            if args.json:
                args.json.write_text(json.dumps(scores, indent=2) + "\n")
            return
        result = run(car, args.raw_dir, domain=args.domain, split=args.split,
                     max_questions=args.max_questions, chunk_documents=args.chunk_documents,
                     citator_texts=args.citator_texts, ingest=not args.no_ingest, progress=True)
    print(result.table())
    if args.json:
        args.json.write_text(json.dumps(result.to_json(), indent=2) + "\n")


if __name__ == "__main__":
    main()
