"""Embedder settings and variant selection, without loading a model."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from car_graph import embedding
from car_graph.embedding import (
    MANIFEST,
    ONNX_INT8,
    SourceModel,
    bundled_model_path,
    cached_export,
    create_embedder,
    resolve_device,
)
from car_graph.errors import ConfigError
from car_graph.settings import EMBEDDING_VARIANTS, Settings


def test_defaults_are_the_int8_onnx_variant_on_the_automatic_device() -> None:
    settings = Settings.from_env({})
    assert settings.embedding_variant == "onnx-int8"
    assert settings.embedding_device == "auto"


def test_variant_and_device_come_from_the_environment_in_any_case() -> None:
    settings = Settings.from_env({"CAR_EMBEDDING_VARIANT": " Torch-FP32 ", "CAR_EMBEDDING_DEVICE": "CPU"})
    assert (settings.embedding_variant, settings.embedding_device) == ("torch-fp32", "cpu")


@pytest.mark.parametrize(("name", "value"), [("CAR_EMBEDDING_VARIANT", "onnx-int4"),
                                             ("CAR_EMBEDDING_DEVICE", "tpu")])
def test_an_unknown_choice_is_a_config_error_naming_the_variable_and_the_choices(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({name: value})
    message = str(caught.value)
    assert name in message and value in message
    assert ("onnx-int8" in message) if name == "CAR_EMBEDDING_VARIANT" else ("cuda" in message)


def test_an_explicit_override_wins_over_the_environment() -> None:
    settings = Settings.from_env({"CAR_EMBEDDING_VARIANT": "onnx-fp32"}, embedding_variant="torch-fp32")
    assert settings.embedding_variant == "torch-fp32"


def test_create_embedder_refuses_an_unknown_variant_before_loading_anything() -> None:
    with pytest.raises(ConfigError, match="CAR_EMBEDDING_VARIANT must be one of"):
        create_embedder(variant="onnx-int4")


def test_every_configurable_variant_has_an_engine() -> None:
    engines = {embedding.TORCH_FP32, embedding.ONNX_FP32, embedding.ONNX_INT8}
    assert set(EMBEDDING_VARIANTS) == engines


def test_devices() -> None:
    import torch

    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ConfigError, match="CAR_EMBEDDING_DEVICE"):
        resolve_device("gpu")
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="no CUDA GPU"):
            resolve_device("cuda")


def test_the_onnx_variants_pick_their_execution_provider() -> None:
    import torch

    cpu_only, with_cuda = ["CPUExecutionProvider"], ["CUDAExecutionProvider", "CPUExecutionProvider"]
    assert embedding._onnx_providers("auto", ONNX_INT8, cpu_only) == cpu_only
    assert embedding._onnx_providers("cpu", "onnx-fp32", with_cuda) == cpu_only
    # int8 dynamic quantization is a CPU technique: auto stays on the CPU, cuda is refused
    assert embedding._onnx_providers("auto", ONNX_INT8, with_cuda) == cpu_only
    with pytest.raises(ConfigError, match="torch-fp32" if torch.cuda.is_available() else "no CUDA GPU"):
        embedding._onnx_providers("cuda", ONNX_INT8, with_cuda)
    expected = with_cuda if torch.cuda.is_available() else cpu_only
    assert embedding._onnx_providers("auto", "onnx-fp32", with_cuda) == expected
    with pytest.raises(ConfigError, match="CAR_EMBEDDING_DEVICE"):
        embedding._onnx_providers("gpu", ONNX_INT8, cpu_only)


# -- the source model and the export cache ---------------------------------------------------


def test_the_bundled_model_is_reproducible_by_the_onnx_variants() -> None:
    source = SourceModel.read(Path(bundled_model_path()))
    assert (source.max_seq_length, source.dimensions, source.num_heads) == (256, 384, 12)


def _copy_configs(tmp_path: Path) -> Path:
    """The bundled model's configuration files (not its weights), enough for SourceModel."""
    src, dst = Path(bundled_model_path()), tmp_path / "model"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.safetensors", "*.bin", "*.md"))
    return dst


def test_a_model_with_a_dense_layer_is_refused_with_the_torch_variant_as_the_way_out(tmp_path: Path) -> None:
    folder = _copy_configs(tmp_path)
    modules = json.loads((folder / "modules.json").read_text())
    modules.append({"idx": 3, "name": "3", "path": "3_Dense", "type": "sentence_transformers.models.Dense"})
    (folder / "modules.json").write_text(json.dumps(modules))
    with pytest.raises(ConfigError, match="CAR_EMBEDDING_VARIANT=torch-fp32"):
        SourceModel.read(folder)


def test_the_cache_key_changes_with_the_model_files_and_not_otherwise(tmp_path: Path) -> None:
    folder = _copy_configs(tmp_path)
    first = SourceModel.read(folder).key("m")
    assert SourceModel.read(folder).key("m") == first
    config = json.loads((folder / "config.json").read_text())
    config["layer_norm_eps"] = 1e-6
    (folder / "config.json").write_text(json.dumps(config))
    assert SourceModel.read(folder).key("m") != first


def _fake_export(calls: list[Path]):
    def export(source: SourceModel, out_dir: Path, variant: str) -> Path:
        calls.append(out_dir)
        (out_dir / "model.onnx").write_bytes(b"onnx")
        (out_dir / MANIFEST).write_text(json.dumps({"variant": variant}))
        return out_dir / "model.onnx"
    return export


def test_an_export_is_made_once_then_reused_and_leaves_no_scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []
    monkeypatch.setattr(embedding, "export_onnx", _fake_export(calls))
    source = SourceModel.read(_copy_configs(tmp_path))
    home = tmp_path / "home"
    first = cached_export(source, "m", ONNX_INT8, home)
    again = cached_export(source, "m", ONNX_INT8, home)
    assert first == again and len(calls) == 1
    assert first.parent == home / "models" / ONNX_INT8
    assert (first / "model.onnx").read_bytes() == b"onnx"
    assert [p.name for p in first.parent.iterdir()] == [first.name]  # scratch folder renamed away


def test_a_concurrent_export_that_finished_first_wins_and_ours_is_discarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceModel.read(_copy_configs(tmp_path))
    home = tmp_path / "home"
    target = home / "models" / ONNX_INT8 / source.key("m")

    def racing_export(source: SourceModel, out_dir: Path, variant: str) -> Path:
        # another process completes the same export while this one is still writing
        target.mkdir(parents=True)
        (target / "model.onnx").write_bytes(b"theirs")
        (target / MANIFEST).write_text("{}")
        (out_dir / "model.onnx").write_bytes(b"ours")
        (out_dir / MANIFEST).write_text("{}")
        return out_dir / "model.onnx"

    monkeypatch.setattr(embedding, "export_onnx", racing_export)
    assert cached_export(source, "m", ONNX_INT8, home) == target
    assert (target / "model.onnx").read_bytes() == b"theirs"
    assert [p.name for p in target.parent.iterdir()] == [target.name]


def test_a_failed_export_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(source: SourceModel, out_dir: Path, variant: str) -> Path:
        (out_dir / "model.onnx").write_bytes(b"half")
        raise RuntimeError("exporter crashed")

    monkeypatch.setattr(embedding, "export_onnx", failing)
    source = SourceModel.read(_copy_configs(tmp_path))
    with pytest.raises(RuntimeError, match="exporter crashed"):
        cached_export(source, "m", ONNX_INT8, tmp_path / "home")
    assert list((tmp_path / "home" / "models" / ONNX_INT8).iterdir()) == []


def test_the_cache_key_changes_with_the_export_recipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceModel.read(_copy_configs(tmp_path))
    first = source.key("m")
    other = embedding.Int8Options(per_channel=not embedding.INT8_PER_CHANNEL)
    monkeypatch.setattr(embedding, "Int8Options", lambda: other)
    assert source.key("m") != first  # another quantization recipe
    monkeypatch.undo()
    assert source.key("m") == first
    monkeypatch.setattr(embedding, "EXPORT_RECIPE", embedding.EXPORT_RECIPE + 1)
    assert source.key("m") != first


def test_the_quantizer_advice_is_dropped_and_other_root_records_kept(
        caplog: pytest.LogCaptureFixture) -> None:
    root = logging.getLogger()
    before = (list(root.handlers), list(root.filters))
    with caplog.at_level(logging.WARNING), embedding._without_root_log("Please consider"):
        logging.warning("Please consider to run pre-processing before quantization.")
        logging.warning("the model file is damaged")
    assert [r.getMessage() for r in caplog.records] == ["the model file is damaged"]
    assert (list(root.handlers), list(root.filters)) == before


def test_kernel_features_are_read_from_the_first_flags_line_in_a_fixed_order() -> None:
    cpuinfo = ("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
               "flags\t\t: fpu sse2 avx2 fma avx512f avx512bw avx512_vnni avx512_bf16\n"
               "processor\t: 1\nflags\t\t: fpu avx_vnni\n")
    assert embedding.kernel_features(cpuinfo) == ["avx512_vnni", "avx512bw", "avx512f", "avx2", "fma"]
    assert embedding.kernel_features("processor\t: 0\nFeatures\t: fp asimd\n") == []


def test_provenance_adds_what_an_embedder_tells_of_itself_to_its_identity() -> None:
    class Described:
        model_name, variant, dimensions = "m", "v", 3

        def provenance(self) -> dict[str, object]:
            return {"runtime": "r 1.0"}

    class Plain:
        model_name, dimensions = "p", 2

    assert embedding.provenance_of(Described()) == {"model": "m", "variant": "v", "dimensions": 3,
                                                    "runtime": "r 1.0"}
    assert embedding.provenance_of(Plain()) == {"model": "p", "variant": "custom", "dimensions": 2}
