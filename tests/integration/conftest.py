"""Shared models for integration tests: loaded once per session (they are read-only)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from car_graph.client import CarClient


@pytest.fixture(scope="session")
def embedder():
    from car_graph.embedding import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def extractor():
    from car_graph.extraction import EntityExtractor

    return EntityExtractor(use_statistical=False)


@pytest.fixture
def car(db, embedder, extractor) -> Iterator[CarClient]:
    """A client on a wiped database with the schema applied (the ``db`` fixture)."""
    with CarClient(db, embedder=embedder, extractor=extractor) as client:
        yield client
