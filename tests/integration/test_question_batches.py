"""A vector is a function of its text: the default int8 embedder quantizes activations per batch,
so a text embedded with others would get a vector that depends on them. An evaluation measures
the vectors a user's question gets (``Retriever.prepare``, a batch of questions as ``car-graph
eval`` analyses them, embeds each as ``CarClient.answer`` embeds it alone), and a document gets
the vector it gets alone, whatever an ingest batches it with."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.embedding import Embedder
from car_graph.extraction import EntityExtractor
from car_graph.ingest.pipeline import embedding_text, prepare_batch
from car_graph.records import parse_record
from car_graph.store import GraphStore

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTIONS = [
    "Is the prototype pollution in lodash fixed?",
    "Has the Django flaw where a crafted filename injects arbitrary web script been dealt with "
    "in the upload handler of the admin site?",
    "Would a US pharmacy still fill a prescription for phenformin?",
    "tar: symlinks overwrite files",
]


def test_prepared_questions_get_the_vector_each_gets_alone(car: CarClient) -> None:
    car.ingest([parse_record({"id": "A-1", "kind": "advisory", "domain": "advisories",
                              "published": "2024-03-01", "title": "lodash prototype pollution",
                              "text": "Prototype pollution in lodash.", "scope": {"product": "lodash"}})],
               rules=[])
    retriever = car.retriever
    retriever.prepare(QUESTIONS)
    batched = {q: retriever.question_parameters(q)["embedding"] for q in QUESTIONS}
    for question in QUESTIONS:
        alone = retriever.analyse(question)["embedding"]
        assert list(batched[question]) == list(alone), question


DOCUMENTS = [parse_record({"id": f"D-{i}", "kind": "advisory", "domain": "advisories",
                           "published": "2024-03-01", "title": title, "text": text})
             for i, (title, text) in enumerate([
                 ("lodash prototype pollution", "Prototype pollution in lodash via zipObjectDeep."),
                 ("tar", "Arbitrary file overwrite: tar follows symlinks it extracted earlier "
                         "in the same archive, so a crafted archive writes outside the target "
                         "directory. Upgrade to 6.1.9, which refuses such entries."),
                 ("Django 4.2.8 released", "Django 4.2.8 fixes several bugs."),
             ])]


def test_a_text_gets_the_vector_it_gets_alone_in_any_batch(embedder: Embedder) -> None:
    texts = [embedding_text(r) for r in DOCUMENTS]
    together = embedder.embed_documents(texts)
    for text, vector in zip(texts, together, strict=True):
        assert vector == embedder.embed_documents([text])[0], text


def test_an_ingest_batch_gives_each_document_the_vector_it_gets_alone(
    store: GraphStore, embedder: Embedder, extractor: EntityExtractor
) -> None:
    prepared = prepare_batch(DOCUMENTS, store, embedder, extractor, rules=[])
    assert set(prepared.vectors) == {r.id for r in DOCUMENTS}
    for record in DOCUMENTS:
        assert prepared.vectors[record.id] == embedder.embed_documents([embedding_text(record)])[0]
