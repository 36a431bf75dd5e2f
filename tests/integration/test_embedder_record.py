"""A graph records the embedder of its vectors and refuses to mix in another one.

The embedders here are small stand-ins (the record is what is tested, not the model): each has
the real embedders' identity attributes, model_name and variant.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import neo4j
import pytest

from car_graph import schema
from car_graph.client import CarClient
from car_graph.errors import EmbedderMismatchError
from car_graph.records import DocumentRecord
from car_graph.store import GraphStore

DIMENSIONS = 384


class StandIn:
    """A deterministic unit vector per text, under a chosen model name and variant."""

    def __init__(self, variant: str, model_name: str = "all-MiniLM-L6-v2 (bundled)") -> None:
        self.model_name, self.variant = model_name, variant

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vector = [0.0] * DIMENSIONS
            vector[int(hashlib.sha256(text.encode()).hexdigest(), 16) % DIMENSIONS] = 1.0
            out.append(vector)
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def records(prefix: str, n: int = 3) -> list[DocumentRecord]:
    return [DocumentRecord(id=f"{prefix}-{i}", text=f"{prefix} advisory number {i}", domain="t")
            for i in range(n)]


def ingest(db: neo4j.Driver, embedder: StandIn, docs: list[DocumentRecord], extractor) -> None:
    with CarClient(db, embedder=embedder, extractor=extractor) as car:
        car.ingest(docs, rules=[])


def document_ids(db: neo4j.Driver) -> set[str]:
    return {r["id"] for r in db.execute_query("MATCH (d:Document) RETURN d.id AS id").records}


def test_the_first_ingest_records_the_embedder_and_the_same_one_may_add_more(db, extractor) -> None:
    ingest(db, StandIn("onnx-int8"), records("a"), extractor)
    recorded = schema.recorded_embedder(GraphStore(db))
    assert recorded == schema.RecordedEmbedder("all-MiniLM-L6-v2 (bundled)", "onnx-int8", DIMENSIONS)
    ingest(db, StandIn("onnx-int8"), records("b"), extractor)
    assert document_ids(db) == {f"{p}-{i}" for p in "ab" for i in range(3)}


@pytest.mark.parametrize("other", [StandIn("torch-fp32"), StandIn("onnx-int8", "another model")])
def test_another_variant_or_model_is_refused_clearly_and_writes_nothing(db, extractor, other: StandIn) -> None:
    ingest(db, StandIn("onnx-int8"), records("a"), extractor)
    before = db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    with pytest.raises(EmbedderMismatchError) as caught:
        ingest(db, other, records("b"), extractor)
    message = str(caught.value)
    assert "all-MiniLM-L6-v2 (bundled) [onnx-int8, 384 dimensions]" in message
    assert f"{other.model_name} [{other.variant}, 384 dimensions]" in message
    assert "Nothing was written" in message and "CAR_EMBEDDING_VARIANT" in message
    assert document_ids(db) == {f"a-{i}" for i in range(3)}
    assert db.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"] == before
    assert schema.recorded_embedder(GraphStore(db)).variant == "onnx-int8"


def test_a_graph_embedded_before_records_counts_as_the_float32_model(db, extractor) -> None:
    ingest(db, StandIn("torch-fp32"), records("old"), extractor)
    db.execute_query("MATCH (e:Embedder) DELETE e")  # as a graph from before embedder records
    with pytest.raises(EmbedderMismatchError, match="inferred"):
        ingest(db, StandIn("onnx-int8"), records("new"), extractor)
    assert document_ids(db) == {f"old-{i}" for i in range(3)}
    ingest(db, StandIn("torch-fp32"), records("new"), extractor)  # the variant it was made with
    assert schema.recorded_embedder(GraphStore(db)).inferred is True


def test_once_no_document_has_a_vector_another_embedder_may_start_over(db, extractor) -> None:
    ingest(db, StandIn("torch-fp32"), records("a"), extractor)
    with CarClient(db, embedder=StandIn("torch-fp32"), extractor=extractor) as car:
        car.delete([r.id for r in records("a")])
    ingest(db, StandIn("onnx-int8"), records("b"), extractor)
    assert schema.recorded_embedder(GraphStore(db)).variant == "onnx-int8"


def test_questions_embedded_by_another_variant_are_answered_with_a_warning(db, extractor, caplog) -> None:
    ingest(db, StandIn("onnx-int8"), records("a"), extractor)
    with (CarClient(db, embedder=StandIn("torch-fp32"), extractor=extractor) as car,
          caplog.at_level("WARNING", logger="car_graph.client")):
        results = car.retrieve("a advisory number 1", k=3)
    assert results  # answered, not refused
    assert any("onnx-int8" in r.message and "torch-fp32" in r.message for r in caplog.records)
