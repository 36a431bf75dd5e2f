"""A document of a kind that, in the whole graph, only voids others (a recall, a withdrawal) is
an answer to "is it still in force?", not a reading of it -- even when nothing the verdict read
shows it voiding anything (a recall of one lot beside the approval asked about), against a real
Neo4j (answering_kinds.cypher and ``CarClient.answer``)."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTION = "Would a US pharmacy still fill a prescription for etomidate?"


def label(doc_id: str, kind: str, title: str, published: str, drug: str, **extra) -> dict:
    return {"id": doc_id, "kind": kind, "domain": "drug-labels", "published": published,
            "title": title, "text": title, "scope": {"drug": drug}, **extra}


def test_a_recall_of_one_lot_is_no_reading_of_a_question_about_the_approval(
        car: CarClient, monkeypatch: pytest.MonkeyPatch) -> None:
    car.ingest([parse_record(r) for r in (
        label("approval-amidate", "approval", "Amidate (Etomidate) approved 1982", "1982-09-01",
              "etomidate"),
        label("withdrawal-etomidate", "withdrawal", "Etomidate withdrawn (Norway in 2004)",
              "2004-01-01", "etomidate", supersedes=["approval-amidate"]),
        # a recall of one lot: it supersedes nothing the question is about
        label("recall-etomidate-lot", "recall",
              "Recall (Class II): Etomidate Injection, USP 20 mg/10mL, 10 mL vials", "2019-05-02",
              "etomidate"),
        # elsewhere in the graph recalls void approvals, and nothing voids a recall
        label("approval-zantac", "approval", "Zantac (Ranitidine) approved 1983", "1983-06-09",
              "ranitidine"),
        label("recall-zantac", "recall", "Recall (Class II): Zantac (ranitidine) tablets",
              "2019-10-18", "ranitidine", supersedes=["approval-zantac"]),
    )], rules=[])
    assert car.retriever.answering_kinds() == {"withdrawal", "recall"}

    verdict = car.answer(QUESTION)
    assert verdict.decisive and verdict.subject_id == "approval-amidate", verdict.to_json()
    assert verdict.kind is VerdictKind.SUPERSEDED
    assert [c.doc_id for c in verdict.controlling] == ["withdrawal-etomidate"]
    # the recall of the lot is close enough to be a reading on the readings alone
    with monkeypatch.context() as m:
        m.setattr(car.retriever, "answering_kinds", lambda *clocks: frozenset())
        assert car.answer(QUESTION).kind is VerdictKind.AMBIGUOUS

    # once a recall is voided too (a recall re-issued over another), recalls are readings again
    # from the next question on: the kinds are read once per graph version
    car.ingest([parse_record(label(
        "recall-zantac-2", "recall", "Recall (Class II): Zantac (ranitidine) tablets, expanded",
        "2019-11-01", "ranitidine", supersedes=["recall-zantac"]))], rules=[])
    again = car.answer(QUESTION)
    assert car.retriever.answering_kinds() == {"withdrawal"}
    assert again.kind is VerdictKind.AMBIGUOUS, again.to_json()
