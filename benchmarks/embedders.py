"""Embedding engines side by side: throughput, one-question latency, agreement with float32.

    python -m car_graph_benchmarks.embedders --out docs/embedding.md

Every candidate embeds the same texts, in the same process, on this machine:

* **texts**: ``--docs`` documents (default 2,000) drawn with a fixed seed from the real domains'
  benchmark corpora (security, drug, law: the ingest texts, title + text, as the pipeline embeds
  them) and from the 100k-scale generator's corpus, a quarter each, so lengths range from a
  dozen tokens to past the model's 256-token limit;
* **questions**: the domains' and the scale corpus's benchmark questions (``--questions``).

Measures, per candidate:

* documents/s embedding all the texts in one call (the candidate's own batching), best of
  ``--rounds`` rounds; the rounds visit the candidates in turn, so a burst of load from other
  processes on this shared machine hits every candidate alike;
* one-question latency p50/p95: each question embedded alone, candidates interleaved per
  question;
* agreement with the float32 PyTorch model (``torch-fp32``, what car-graph used before): mean and
  minimum cosine between the two vectors of each text (documents and questions), and for the
  questions the overlap of their top-10 nearest documents among the texts, and how often the
  nearest document is the same.

Candidates: the three shipped variants (car_graph.embedding), PyTorch with one thread, bfloat16
autocast and its int8 dynamic quantization, other ONNX int8 recipes, OpenVINO (if the
``openvino`` package is installed) and a static model2vec model distilled locally from the same
weights (if ``model2vec[distill]`` is installed). Exports go to a temporary car-graph home.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from car_graph.embedding import (
    DEFAULT_MODEL,
    FEED_FORWARD_OUTPUTS,
    ONNX_FP32,
    ONNX_INT8,
    TORCH_FP32,
    Int8Options,
    OnnxEmbedder,
    SentenceTransformerEmbedder,
    SourceModel,
    cached_export,
    export_onnx,
    model_source,
)
from car_graph.settings import DEFAULT_EMBEDDING_VARIANT

Encode = Callable[[Sequence[str]], np.ndarray]
DOMAINS = ("security", "drug", "law")
SEED = 5


@dataclass
class Candidate:
    name: str
    note: str
    encode: Encode
    setup_seconds: float
    shipped: bool = False
    comparable: bool = True  # same vector space as torch-fp32 (cosine agreement is meaningful)


@dataclass
class Row:
    name: str
    note: str
    shipped: bool
    setup_seconds: float
    docs_per_second: float
    cpu_ms_per_doc: float
    query_p50_ms: float
    query_p95_ms: float
    mean_cosine: float | None
    min_cosine: float | None
    top10_overlap: float
    top1_same: float


# -- texts -------------------------------------------------------------------------------------


def load_texts(raw: Path, n_docs: int, n_questions: int, seed: int = SEED) -> tuple[list[str], list[str]]:
    """``n_docs`` document texts and ``n_questions`` questions, a quarter from each source."""
    from car_graph.ingest.pipeline import embedding_text
    from car_graph_benchmarks import scale
    from car_graph_benchmarks.questions import build_benchmark

    rng = random.Random(seed)
    per_docs, per_questions = n_docs // 4, n_questions // 4
    docs: list[str] = []
    questions: list[str] = []
    for domain in DOMAINS:
        bench = build_benchmark(domain, raw, n_distractors=2000)
        texts = [embedding_text(r) for r in bench.documents]
        docs += rng.sample(texts, min(per_docs, len(texts)))
        asked = [q["question"] for q in bench.queries]
        questions += rng.sample(asked, min(per_questions, len(asked)))
    with tempfile.TemporaryDirectory() as tmp:
        scale.generate(Path(tmp), max(5 * per_docs, 1000))
        rows = [json.loads(line) for line in (Path(tmp) / "documents.jsonl").open()]
        asked = [json.loads(line)["question"] for line in (Path(tmp) / "questions.jsonl").open()]
    texts = [f"{r['title']}\n{r['text']}" if r.get("title") else r["text"] for r in rows]
    docs += rng.sample(texts, n_docs - len(docs))
    questions += rng.sample(asked, min(n_questions - len(questions), len(asked)))
    return docs, questions


# -- candidates --------------------------------------------------------------------------------


def _timed(build: Callable[[], tuple[Encode, str]], name: str, shipped: bool = False,
           comparable: bool = True) -> Candidate | None:
    started = time.perf_counter()
    try:
        encode, note = build()
    except ImportError as e:
        print(f"  skipped {name}: {e}", file=sys.stderr)
        return None
    return Candidate(name, note, encode, time.perf_counter() - started, shipped, comparable)


def _torch_candidates(extras: bool) -> list[Candidate | None]:
    import torch

    reference = SentenceTransformerEmbedder(device="cpu")
    model = reference._model

    def st(**kwargs: Any) -> Encode:
        return lambda texts: model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                          show_progress_bar=False, convert_to_numpy=True, **kwargs)

    def one_thread() -> tuple[Encode, str]:
        inner = st()

        def encode(texts: Sequence[str]) -> np.ndarray:
            before = torch.get_num_threads()
            torch.set_num_threads(1)
            try:
                return inner(texts)
            finally:
                torch.set_num_threads(before)
        return encode, "torch.set_num_threads(1)"

    def bf16() -> tuple[Encode, str]:
        inner = st()

        def encode(texts: Sequence[str]) -> np.ndarray:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                return inner(texts)
        return encode, "torch.autocast(cpu, bfloat16)"

    def int8() -> tuple[Encode, str]:
        from sentence_transformers import SentenceTransformer

        quantized = torch.ao.quantization.quantize_dynamic(
            SentenceTransformer(str(model_source(None)), device="cpu"), {torch.nn.Linear},
            dtype=torch.qint8)

        def encode(texts: Sequence[str]) -> np.ndarray:
            return quantized.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                    show_progress_bar=False, convert_to_numpy=True)
        return encode, "torch.ao.quantization.quantize_dynamic(Linear, qint8)"

    found: list[Candidate | None] = [
        Candidate(TORCH_FP32, f"sentence-transformers, {torch.get_num_threads()} threads "
                  "(the reference)", st(), 0.0, shipped=True)]
    if extras:
        found += [_timed(one_thread, "torch-fp32, 1 thread"), _timed(bf16, "torch-bf16"),
                  _timed(int8, "torch-int8")]
    return found


def _onnx_candidates(home: Path, extras: bool) -> list[Candidate | None]:
    source = SourceModel.read(model_source(None))

    def shipped(variant: str) -> Callable[[], tuple[Encode, str]]:
        def build() -> tuple[Encode, str]:
            embedder = OnnxEmbedder.load(None, variant, home=home, device="cpu")
            return embedder.encode, ("ONNX Runtime, fused" + (
                ", int8 dynamic quantization of every MatMul, per-channel weights"
                if variant == ONNX_INT8 else ""))
        return build

    def recipe(options: Int8Options, note: str) -> Callable[[], tuple[Encode, str]]:
        def build() -> tuple[Encode, str]:
            folder = Path(tempfile.mkdtemp(dir=home))
            export_onnx(source, folder, ONNX_INT8, int8=options)
            return OnnxEmbedder(folder, DEFAULT_MODEL, ONNX_INT8).encode, note
        return build

    def spinning() -> tuple[Encode, str]:
        class Spinning(OnnxEmbedder):
            session_config: ClassVar[dict[str, str]] = {}

        folder = cached_export(source, DEFAULT_MODEL, ONNX_INT8, home)
        return (Spinning(folder, DEFAULT_MODEL, ONNX_INT8).encode,
                "as onnx-int8, with ONNX Runtime's default spinning worker threads")

    found = [_timed(shipped(ONNX_FP32), ONNX_FP32, shipped=True),
             _timed(shipped(ONNX_INT8), ONNX_INT8, shipped=True)]
    if not extras:
        return found
    return found + [
        _timed(spinning, "onnx-int8, spinning threads"),
        _timed(recipe(INT8_RECIPES["onnx-int8-ffn-fp32"],
                      "as onnx-int8, the feed-forward output projections in float32"),
               "onnx-int8-ffn-fp32"),
        _timed(recipe(Int8Options(per_channel=False, keep_float=None),
                      "ONNX Runtime, fused, int8 per-tensor, every MatMul "
                      "(quantize_dynamic's defaults)"), "onnx-int8, per-tensor"),
    ]


def _openvino_candidates(home: Path) -> list[Candidate | None]:
    try:
        import openvino as ov
    except ImportError as e:
        print(f"  skipped OpenVINO: {e}", file=sys.stderr)
        return []
    source = SourceModel.read(model_source(None))
    core = ov.Core()

    class OpenVinoEmbedder(OnnxEmbedder):
        config: ClassVar[dict[str, str]] = {}

        def _load(self, path: Path) -> Callable[[dict[str, np.ndarray]], np.ndarray]:
            compiled = core.compile_model(str(path), "CPU", self.config)

            def run(feeds: dict[str, np.ndarray]) -> np.ndarray:
                return np.asarray(compiled(feeds)[0])
            return run

    def build(variant: str, config: dict[str, str], note: str) -> Callable[[], tuple[Encode, str]]:
        def make() -> tuple[Encode, str]:
            folder = Path(tempfile.mkdtemp(dir=home))
            # plain ONNX operators: OpenVINO does not read ONNX Runtime's fused ones
            export_onnx(source, folder, variant, fuse=False)
            OpenVinoEmbedder.config = config
            return OpenVinoEmbedder(folder, DEFAULT_MODEL, variant).encode, note
        return make

    precision = core.get_property("CPU", "INFERENCE_PRECISION_HINT")
    return [
        _timed(build(ONNX_FP32, {"INFERENCE_PRECISION_HINT": "f32"},
                     f"OpenVINO {ov.__version__}, f32"), "openvino-fp32"),
        _timed(build(ONNX_FP32, {}, f"OpenVINO, its default precision here ({precision})"),
               "openvino-default"),
        _timed(build(ONNX_INT8, {"INFERENCE_PRECISION_HINT": "f32"},
                     "OpenVINO on the int8 ONNX (unfused)"), "openvino-int8"),
    ]


def _static_candidate() -> list[Candidate | None]:
    def build() -> tuple[Encode, str]:
        from model2vec.distill import distill

        static = distill(str(model_source(None)), pca_dims=None)

        def encode(texts: Sequence[str]) -> np.ndarray:
            vectors = np.asarray(static.encode(list(texts)), dtype=np.float32)
            return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        return encode, "model2vec static embeddings distilled locally from the same weights"

    return [_timed(build, "model2vec-static", comparable=False)]


# -- measuring ---------------------------------------------------------------------------------


def measure(candidates: Sequence[Candidate], docs: Sequence[str], questions: Sequence[str],
            rounds: int, latency_questions: int) -> list[Row]:
    reference = next(c for c in candidates if c.name == TORCH_FP32)
    for c in candidates:  # warm-up: first-call allocations and kernel selection
        c.encode(docs[:64])
    seconds: dict[str, list[float]] = {c.name: [] for c in candidates}
    cpu: dict[str, list[float]] = {c.name: [] for c in candidates}
    vectors: dict[str, np.ndarray] = {}
    for r in range(rounds):
        for c in candidates:
            started, cpu_started = time.perf_counter(), time.process_time()
            out = c.encode(docs)
            seconds[c.name].append(time.perf_counter() - started)
            cpu[c.name].append(time.process_time() - cpu_started)
            vectors.setdefault(c.name, out)
            print(f"  round {r + 1} {c.name}: {len(docs) / seconds[c.name][-1]:.1f} docs/s "
                  f"(load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
    latencies: dict[str, list[float]] = {c.name: [] for c in candidates}
    for q in questions[:latency_questions]:
        for c in candidates:
            started = time.perf_counter()
            c.encode([q])
            latencies[c.name].append((time.perf_counter() - started) * 1000)
    query_vectors = {c.name: c.encode(questions) for c in candidates}

    ref_docs, ref_q = vectors[reference.name], query_vectors[reference.name]
    ref_top = np.argsort(-(ref_q @ ref_docs.T), axis=1)[:, :10]
    rows = []
    for c in candidates:
        d, q = vectors[c.name], query_vectors[c.name]
        cosines = np.concatenate([(d * ref_docs).sum(1), (q * ref_q).sum(1)])
        top = np.argsort(-(q @ d.T), axis=1)[:, :10]
        overlap = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, ref_top, strict=True)]))
        lat = sorted(latencies[c.name])
        rows.append(Row(
            c.name, c.note, c.shipped, c.setup_seconds, len(docs) / min(seconds[c.name]),
            1000 * min(cpu[c.name]) / len(docs),
            statistics.median(lat), lat[int(0.95 * (len(lat) - 1))],
            float(cosines.mean()) if c.comparable else None,
            float(cosines.min()) if c.comparable else None,
            overlap, float(np.mean(top[:, 0] == ref_top[:, 0])),
        ))
    return rows


# -- retrieval quality: strict TCA@k of car with each variant ---------------------------------


@dataclass
class TcaRow:
    variant: str
    domain: str
    query_set: str   # "queries" or "robustness"
    split: str       # "dev" or "test"
    n: int
    tca: float
    ingest_docs_per_second: float


# int8 recipes other than the shipped one, measurable with --tca by these names
INT8_RECIPES = {
    "onnx-int8-ffn-fp32": Int8Options(per_channel=True, keep_float=FEED_FORWARD_OUTPUTS),
}


def _recipe_embedder(name: str, home: Path) -> OnnxEmbedder:
    folder = Path(tempfile.mkdtemp(dir=home))
    export_onnx(SourceModel.read(model_source(None)), folder, ONNX_INT8, int8=INT8_RECIPES[name])
    return OnnxEmbedder(folder, DEFAULT_MODEL, name)


def measure_tca(variants: Sequence[str], raw: Path, home: Path, k: int = 5,
                n_distractors: int = 2000, seed: int = 13) -> list[TcaRow]:
    """For each variant and real domain: a fresh local Neo4j database, the domain's benchmark
    corpus ingested with that variant (as ``car-graph reproduce`` builds it: same distractors
    and seed), then strict TCA@k of car on every dev and test set, scored on the sources'
    links."""
    from neo4j import GraphDatabase

    from car_graph import schema
    from car_graph.client import CarClient
    from car_graph.embedding import create_embedder
    from car_graph.evaluation import evaluate, parse_queries
    from car_graph.extraction import EntityExtractor
    from car_graph.local_server import LocalNeo4j
    from car_graph.metrics import SupersessionGraph
    from car_graph.settings import Settings
    from car_graph_benchmarks.links import gold_edges
    from car_graph_benchmarks.questions import SPLITS, build_benchmark

    settings = Settings.from_env()
    server = LocalNeo4j(settings.home, settings.neo4j_version, f"embedders-{os.getpid()}")
    benches = {d: build_benchmark(d, raw, n_distractors=n_distractors, seed=seed) for d in DOMAINS}
    rows: list[TcaRow] = []
    server.start(timeout=300, progress=lambda m: print(m, file=sys.stderr))
    try:
        uri, user, password = server.connection()
        with GraphDatabase.driver(uri, auth=(user, password)) as driver:
            for variant in variants:
                embedder = (_recipe_embedder(variant, home) if variant in INT8_RECIPES
                            else create_embedder(None, variant, device="cpu", home=home))
                for domain, bench in benches.items():
                    schema.reset(driver, None, uri)
                    car = CarClient(driver, embedder=embedder,
                                    extractor=EntityExtractor(use_statistical=False))
                    summary = car.ingest(bench.documents)
                    graph = SupersessionGraph(gold_edges(bench.links.links if bench.links else (),
                                                         bench.documents))
                    for set_name, query_rows in (("queries", bench.queries),
                                                 ("robustness", bench.robustness)):
                        for split in SPLITS:
                            chosen = bench.split(query_rows, split)
                            queries = parse_queries((json.dumps(r, default=str) for r in chosen),
                                                    f"{domain} {set_name} {split}")
                            report = evaluate(car.retriever, queries, k=k, systems=["car"])
                            tca = report.systems["car"].rescore(queries, graph, k).tca
                            rows.append(TcaRow(variant, domain, set_name, split, len(queries), tca,
                                               summary.documents / summary.seconds))
                            print(f"  {variant} {domain} {set_name} {split}: TCA@{k} {tca:.4f} "
                                  f"(n={len(queries)})", file=sys.stderr, flush=True)
    finally:
        server.stop(progress=lambda m: print(m, file=sys.stderr))
        import shutil

        shutil.rmtree(server.instance_dir, ignore_errors=True)
    return rows


def render_tca(rows: Sequence[TcaRow], command: str, k: int = 5) -> str:
    variants = list(dict.fromkeys(r.variant for r in rows))
    reference = TORCH_FP32 if TORCH_FP32 in variants else variants[0]
    by = {(r.variant, r.domain, r.query_set, r.split): r for r in rows}
    sets = list(dict.fromkeys((r.domain, r.query_set, r.split) for r in rows))
    lines = [
        (f"Measured by `{command}` on {machine()}: strict TCA@{k} of car, each variant ingesting "
         f"the real domains' benchmark corpora into a fresh database (the `car-graph reproduce` "
         f"corpora: 2,000 distractors, seed 13). Difference: against `{reference}`."),
        "",
        "| domain | set | split | n | " + " | ".join(variants) + " | "
        + " | ".join(f"{v} - {reference}" for v in variants if v != reference) + " |",
        "|---|---|---|---:|" + "---:|" * (2 * len(variants) - 1),
    ]
    for domain, query_set, split in sets:
        ref = by[(reference, domain, query_set, split)]
        cells = [f"{by[(v, domain, query_set, split)].tca:.4f}" for v in variants]
        diffs = [f"{by[(v, domain, query_set, split)].tca - ref.tca:+.4f}"
                 for v in variants if v != reference]
        lines.append(f"| {domain} | {query_set} | {split} | {ref.n} | " + " | ".join(cells)
                     + " | " + " | ".join(diffs) + " |")
    lines.append("")
    lines.append("Ingest documents/s of these runs (whole pipeline, small corpora, shared "
                 "machine): " + ", ".join(
                     f"{v} {statistics.mean(r.ingest_docs_per_second for r in rows if r.variant == v):.1f}"
                     for v in variants) + ".")
    return "\n".join(lines) + "\n"


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) \
        if Path("/proc/cpuinfo").exists() else platform.processor()
    return f"{cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}"


def versions() -> str:
    import importlib.metadata as md

    names = ("torch", "sentence-transformers", "onnxruntime", "openvino", "model2vec")
    found = []
    for name in names:
        with contextlib.suppress(md.PackageNotFoundError):
            found.append(f"{name} {md.version(name)}")
    return ", ".join(found)


def render(rows: Sequence[Row], n_docs: int, n_questions: int, latency_questions: int,
           rounds: int, command: str, load: tuple[float, float]) -> str:
    lines = [
        (f"Measured by `{command}` on {machine()} ({versions()}); load average "
         f"{load[0]:.1f} before and {load[1]:.1f} after (the machine is shared: throughput is "
         f"the best of {rounds} interleaved rounds)."),
        "",
        (f"{n_docs} documents, {n_questions} questions (latency: the first {latency_questions}, "
         "one at a time). CPU ms/doc: this process's CPU time (all its threads) per document in "
         "the fastest round, less sensitive to other load than docs/s; spinning threads count "
         "while they spin. Cosine: between each text's vector and the `torch-fp32` one, over "
         "documents and questions. Top-10 overlap: the questions' 10 nearest documents, "
         "shared with `torch-fp32`'s, averaged; top-1 same: share of questions whose nearest "
         f"document is the same. **Bold**: shipped variants; default: `{DEFAULT_EMBEDDING_VARIANT}`."),
        "",
        ("| engine | docs/s | vs torch-fp32 | CPU ms/doc | 1 question p50 ms | p95 ms | mean cosine "
         "| min cosine | top-10 overlap | top-1 same | setup s | how |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    base = next(r.docs_per_second for r in rows if r.name == TORCH_FP32)
    for r in rows:
        name = f"**{r.name}**" if r.shipped else r.name
        cos = (f"{r.mean_cosine:.5f} | {r.min_cosine:.4f}" if r.mean_cosine is not None
               else "n/a (other space) | n/a")
        lines.append(
            f"| {name} | {r.docs_per_second:.1f} | {r.docs_per_second / base:.2f}x | "
            f"{r.cpu_ms_per_doc:.1f} | {r.query_p50_ms:.1f} | {r.query_p95_ms:.1f} | {cos} | {r.top10_overlap:.3f} | "
            f"{r.top1_same:.3f} | {r.setup_seconds:.0f} | {r.note} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from car_graph_benchmarks.corpora import default_corpora_dir, require_corpora_dir

    parser = argparse.ArgumentParser(prog="python -m car_graph_benchmarks.embedders",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--raw", type=Path, default=None, help="the raw corpora (CAR_GRAPH_CORPORA)")
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--questions", type=int, default=400)
    parser.add_argument("--latency-questions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="candidate names (default: all)")
    parser.add_argument("--no-extras", action="store_true",
                        help="only the shipped variants (no OpenVINO, torch-int8, model2vec ...)")
    parser.add_argument("--out", type=Path, default=None, help="write the table to this file")
    parser.add_argument("--tca", nargs="+", default=None, metavar="VARIANT",
                        help="instead: strict TCA@5 of car with each shipped VARIANT on every "
                             "dev and test set of the real domains (starts a local Neo4j)")
    args = parser.parse_args(argv)

    raw = require_corpora_dir(args.raw or default_corpora_dir())
    command = "python -m car_graph_benchmarks.embedders " + " ".join(
        a for a in (argv if argv is not None else sys.argv[1:]))
    if args.tca:
        with tempfile.TemporaryDirectory(prefix="car-embedders-") as tmp:
            table = render_tca(measure_tca(args.tca, raw, Path(tmp)), command.strip())
        print(table)
        if args.out:
            write_table(args.out, table, TCA_MARKERS)
        return 0
    load_before = os.getloadavg()[0]
    docs, questions = load_texts(raw, args.docs, args.questions)
    print(f"{len(docs)} documents, {len(questions)} questions", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="car-embedders-") as tmp:
        home = Path(tmp)
        extras = not args.no_extras
        found = _torch_candidates(extras) + _onnx_candidates(home, extras)
        if extras:
            found += _openvino_candidates(home) + _static_candidate()
        candidates = [c for c in found if c is not None
                      and (args.only is None or c.name in args.only or c.name == TORCH_FP32)]
        rows = measure(candidates, docs, questions, args.rounds, args.latency_questions)
    table = render(rows, len(docs), len(questions), min(args.latency_questions, len(questions)),
                   args.rounds, command.strip(), (load_before, os.getloadavg()[0]))
    print(table)
    if args.out:
        write_table(args.out, table)
    return 0


SPEED_MARKERS = ("<!-- embedders table: begin -->", "<!-- embedders table: end -->")
TCA_MARKERS = ("<!-- embedders tca: begin -->", "<!-- embedders tca: end -->")


def write_table(path: Path, table: str, markers: tuple[str, str] = SPEED_MARKERS) -> None:
    """Replace the table between the markers of ``path`` (the rest of the page is prose), or
    write the table alone to a new file."""
    BEGIN, END = markers
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        path.write_text(f"{head}{BEGIN}\n{table}{END}{rest.split(END, 1)[1]}")
    else:
        path.write_text(f"{BEGIN}\n{table}{END}\n")


if __name__ == "__main__":
    raise SystemExit(main())
