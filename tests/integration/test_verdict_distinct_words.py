"""A question whose words only one close candidate holds, and no other document of its kind in
the whole corpus, singles that one out -- "Is the drug indicated for gout still approved?" when
one approval says "Indication: Gout" -- while an indication several approvals share names none
of them, against a real Neo4j (passage_holders.cypher and ``CarClient.answer``)."""

from __future__ import annotations

import logging

import pytest
from drug_records import approval, withdrawal

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def test_words_of_the_question_one_approval_alone_holds_single_it_out(
        car: CarClient, caplog: pytest.LogCaptureFixture) -> None:
    car.ingest([parse_record(r) for r in (
        approval("ATO", "cincophen", 1908, "Gout"),
        withdrawal("ATO-W", "cincophen", 1991, "ATO"),
        approval("ZYL", "allopurinol", 1966, None),
        approval("KRY", "pegloticase", 2010, None),
        approval("COL", "colchicine", 2009, None),
        # three approvals share an indication
        approval("NIF", "nifedipine", 1981, "Hypertension"),
        withdrawal("NIF-W", "nifedipine", 1996, "NIF"),
        approval("REG", "phentolamine", 1952, "Hypertension"),
        approval("HYP", "angiotensin amide", 1962, "Hypertension"),
        # an approval whose chain loops back to it: two withdrawals, the later one superseding
        # the earlier one too
        approval("PEM", "pemoline", 1975, "Narcolepsy"),
        withdrawal("PEM-W1", "pemoline", 1999, "PEM"),
        {**withdrawal("PEM-W2", "pemoline", 2005, "PEM"),
         "supersedes": [{"id": "PEM", "effective": "2005-01-01"},
                        {"id": "PEM-W1", "effective": "2005-01-01"}]},
    )], rules=[])
    r = car.retriever
    caplog.set_level(logging.INFO)  # the server's notifications (a deprecated syntax) included
    # held by ATO alone among approvals; the withdrawal is its chain, not another holder
    # one statement for every passage asked; a passage of stop words the index does not keep
    # vouches for nothing
    assert r.passage_holders([("ATO", "gout"), ("NIF", "hypertension"), ("ATO", "in the"),
                              ("ATO", "")]) == [0, 2, None, None]
    assert r.passage_holders([]) == []
    # a document on its own chain's loop is still found as itself
    assert r.passage_holders([("PEM", "narcolepsy")]) == [0]
    assert not [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.WARNING]

    gout = car.answer("Is the drug indicated for gout still approved?")
    assert gout.kind is VerdictKind.SUPERSEDED, gout.to_json()
    assert gout.subject_id == "ATO" and gout.singled_out_by == "words of the question only it holds"
    assert [c.doc_id for c in gout.controlling] == ["ATO-W"]

    shared = car.answer("Is the drug indicated for hypertension still approved?")
    assert not shared.decisive, shared.to_json()
    assert shared.kind is not VerdictKind.IN_FORCE


def test_a_withdrawal_beside_the_approval_asked_about_answers_it_and_is_no_reading(
        car: CarClient) -> None:
    car.ingest([parse_record(r) for r in (
        approval("DBI", "phenformin", 1959, None),
        withdrawal("DBI-W", "phenformin", 1978, "DBI"),
        # another country's withdrawal of the same drug, superseding nothing here
        {**withdrawal("PHEN-EU", "phenformin", 1977, "DBI"), "supersedes": [],
         "title": "Phenformin withdrawn (15 European countries in 1977)"},
    )], rules=[])
    verdict = car.answer("Would a US pharmacy still fill a prescription for phenformin?")
    assert verdict.kind is VerdictKind.SUPERSEDED, verdict.to_json()
    assert verdict.subject_id == "DBI"
    assert [c.doc_id for c in verdict.controlling] == ["DBI-W"]
    assert verdict.singled_out_by == "the others are of a kind that answers"
