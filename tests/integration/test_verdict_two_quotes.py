"""A question that quotes the texts of two documents asks about both, even when it names one of
them only by an ordinary word ("the tar issue") that no name is linked on: ``CarClient.answer``
gives one verdict per quoted document, against a real Neo4j."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

NUMPY = ("Buffer overflow in the array_from_pyobj function of fortranobject.c allows attackers "
         "to conduct a denial of service by constructing an array with negative values")
TAR = ("Arbitrary file overwrite: versions earlier than 4.4.2 allow archives to contain symbolic "
       "links that will overwrite targets outside the expected extraction path")


def advisory(doc_id: str, product: str, title: str, text: str, **extra) -> dict:
    return {"id": doc_id, "kind": "advisory", "domain": "advisories", "published": "2024-03-01",
            "title": title, "text": text, "scope": {"product": product}, **extra}


def test_a_question_quoting_two_documents_texts_gets_a_verdict_for_each(car: CarClient) -> None:
    car.ingest([parse_record(r) for r in (
        advisory("NP-1", "numpy", "numpy: buffer overflow in array_from_pyobj", NUMPY),
        advisory("NP-2", "numpy", "numpy: incorrect comparison in arange",
                 "A crafted step makes arange read past the end of its buffer."),
        advisory("TAR-1", "tar", "tar: arbitrary file overwrite via symlinks", TAR),
        advisory("TAR-2", "tar", "tar: arbitrary file creation via hardlinks",
                 "Hardlinks in an archive may create files outside the extraction path."),
        {"id": "TAR-REL", "kind": "release", "domain": "advisories", "published": "2024-04-01",
         "title": "tar 4.4.2 released", "text": "Fixes symbolic link handling.",
         "scope": {"product": "tar"}, "supersedes": ["TAR-1"]},
        # other products' advisories use "tar" as the ordinary word it is, so no name is
        # linked on it (linking.is_ordinary): only the quote says the question means TAR-1
        *[advisory(f"USE-{i}", product, f"{product}: crafted tar archive {flaw}",
                   f"Unpacking a tar file {flaw}.")
          for i, (product, flaw) in enumerate([
              ("cpython", "loops forever in the header parser"),
              ("libarchive", "reads past a sparse entry"),
              ("busybox", "writes through a dangling link"),
              ("go", "exhausts memory on huge headers"),
              ("rubygems", "escapes the gem directory")])],
        advisory("FLASK-1", "flask", "flask: session cookie set without the secure flag",
                 "Session cookies are sent over plain HTTP when the application is misconfigured."),
    )], rules=[])
    question = (f'Are the numpy issue "{NUMPY}" and the tar issue "symbolic links that will '
                f'overwrite targets outside the expected extraction path" both fixed?')
    verdict = car.answer(question)
    assert "product:tar" not in verdict.retrieval.question_entities
    assert verdict.kind is VerdictKind.MULTIPLE, verdict.to_json()
    by_subject = {s.subject_id: s for s in verdict.subjects}
    assert set(by_subject) == {"NP-1", "TAR-1"}
    assert by_subject["NP-1"].kind is VerdictKind.IN_FORCE
    # the tar advisory is read through its closure: the release voids it
    assert by_subject["TAR-1"].kind is VerdictKind.SUPERSEDED
    assert [c.doc_id for c in by_subject["TAR-1"].controlling] == ["TAR-REL"]
    # quoting one of them only: one subject
    alone = car.answer(f'Is the numpy issue "{NUMPY}" fixed?')
    assert alone.decisive and alone.subject_id == "NP-1", alone.to_json()
