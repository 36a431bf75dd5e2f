"""An evaluation measures the vectors a user's question gets: ``Retriever.prepare`` (a batch of
questions, as ``car-graph eval`` analyses them) embeds each question exactly as
``CarClient.answer`` embeds it alone. The default int8 embedder quantizes activations per batch,
so embedding questions together would give each a vector that depends on its batch-mates."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record

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
