"""The corpus a verdict asks about a quoted passage is the one its retrieval read: as of the
question's date and as car-graph recorded it at its instant. A document published or ingested
later does not make a passage common then, and one deleted or rewritten since still counts as
it was -- against a real Neo4j (passage_holders.cypher, quote_sharers.cypher and
``CarClient.answer`` with ``as_of`` and ``known_at``)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from drug_records import approval, withdrawal

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

GOUT = "Is the drug indicated for gout still approved?"


def advisory(doc_id: str, title: str, text: str, **extra) -> dict:
    return {"id": doc_id, "kind": "advisory", "domain": "advisories", "published": "2024-03-01",
            "title": title, "text": text, "scope": {"product": "tensorflow"}, **extra}


def last_run_at(car: CarClient) -> Any:
    # when the latest run's last commit closed (a run commits per batch, then its rules)
    return car.driver.execute_query(
        "MATCH (c:Commit) RETURN max(c.committed) AS at").records[0]["at"].to_native()


def gout_history(car: CarClient) -> tuple[Any, Any]:
    """Approvals for gout recorded in two ingests, one rewritten in between, and a withdrawal
    deleted after: the instants after the first and the second ingest."""
    car.ingest([parse_record(d) for d in (
        approval("ATO", "cincophen", 1908, "Gout"),
        withdrawal("ATO-W", "cincophen", 1991, "ATO"),
        approval("ZYL", "allopurinol", 1966, None),
        approval("COL", "colchicine", 2009, None),
        # held "gout" then; rewritten below without it
        approval("BEN", "probenecid", 1951, "Gout"),
    )], rules=[])
    first = last_run_at(car)
    # a later approval for gout, and BEN rewritten without it
    car.ingest([parse_record(d) for d in (
        approval("URI", "lesinurad", 2015, "Gout"),
        approval("BEN", "probenecid", 1951, None),
    )], rules=[])
    second = last_run_at(car)
    car.delete(["ATO-W"])
    return first, second


def test_passage_holders_count_the_corpus_of_the_questions_date_and_instant(car: CarClient) -> None:
    r = car.retriever
    first, second = gout_history(car)

    assert r.passage_holders([("ATO", "gout")]) == [1]  # URI; BEN no longer holds it
    # as of 2012 URI was not published: nobody else held it
    assert r.passage_holders([("ATO", "gout")], as_of=date(2012, 1, 1)) == [0]
    # as recorded after the first ingest: BEN's text of then held it, URI was not recorded
    assert r.passage_holders([("ATO", "gout")], known_at=first) == [1]
    assert r.passage_holders([("ATO", "gout")], known_at=first, as_of=date(1940, 1, 1)) == [0]
    assert r.passage_holders([("ATO", "gout")], known_at=second) == [1]
    # a deleted document is a subject as it was recorded, not before it was
    assert r.passage_holders([("ATO-W", "liver")], known_at=second) == [0]
    assert r.passage_holders([("ATO-W", "liver")]) == [None]

    # through CarClient.answer: as of 2012 the question's words single ATO out, and its
    # withdrawal controls it; today lesinurad holds them too
    then = car.answer(GOUT, as_of=date(2012, 1, 1), known_at=second)
    assert then.decisive and then.subject_id == "ATO", then.to_json()
    assert then.singled_out_by == "words of the question only it holds"
    assert then.kind is VerdictKind.SUPERSEDED
    assert [c.doc_id for c in then.controlling] == ["ATO-W"]
    now = car.answer(GOUT)
    assert now.subject_id != "ATO" or now.singled_out_by != "words of the question only it holds", \
        now.to_json()


def test_quote_sharers_count_the_corpus_of_the_questions_date_and_instant(car: CarClient) -> None:
    r = car.retriever
    title = "Heap overflow in the ragged tensor kernel"
    car.ingest([parse_record(d) for d in (
        advisory("TF-1", title, "Affected versions overflow a heap buffer."),
        advisory("TF-2", title, "A second report of the same overflow in another kernel path."),
    )], rules=[])
    first = last_run_at(car)
    car.ingest([parse_record(d) for d in (
        {**advisory("TF-3", title, "A third report."), "published": "2025-06-01"},
        advisory("TF-2", "Null dereference in sparse matmul", "Rewritten: another flaw."),
        # an advisory re-published over TF-1, the edge in force from May: from then on TF-1's
        # chain, not another holder
        {**advisory("TF-1b", title, "Re-issued.", supersedes=[{"id": "TF-1",
                                                               "effective": "2025-05-01"}]),
         "published": "2025-01-01"},
    )], rules=[])
    second = last_run_at(car)
    car.delete(["TF-3"])

    assert r.quote_sharers("TF-1", title) == 0  # TF-2 rewritten, TF-3 deleted, TF-1b its chain
    assert r.quote_sharers("TF-1", title, known_at=first) == 1  # TF-2 as it was
    assert r.quote_sharers("TF-1", title, known_at=second) == 1  # TF-3, then recorded
    # by date: before TF-1b and TF-3 were published, nobody; TF-1b published but its edge not
    # yet in force, a holder of its own; in TF-1's chain from May; TF-3 from June
    assert r.quote_sharers("TF-1", title, known_at=second, as_of=date(2024, 6, 1)) == 0
    assert r.quote_sharers("TF-1", title, known_at=second, as_of=date(2025, 3, 1)) == 1
    assert r.quote_sharers("TF-1", title, known_at=second, as_of=date(2025, 5, 15)) == 0
    assert r.quote_sharers("TF-1", title, known_at=second, as_of=date(2025, 7, 1)) == 1
    assert r.quote_sharers("TF-1", title, as_of=date(2025, 3, 1)) == 1  # the current graph


DASK = ("Single machine clusters started with the local cluster would mistakenly configure their "
        "workers to listen on external interfaces")


def test_quoted_documents_read_the_corpus_of_the_questions_date_and_instant(car: CarClient) -> None:
    r = car.retriever
    car.ingest([parse_record(advisory("DASK-1", "Workers listen on external interfaces", DASK))],
               rules=[])
    first = last_run_at(car)
    car.ingest([parse_record({**advisory("DASK-2", "A later report", f"Again: {DASK}."),
                              "published": "2025-06-01"})], rules=[])
    car.delete(["DASK-1"])

    def found(**clocks: Any) -> set[str]:
        return {doc for doc, _ in r.quoted_documents(DASK, **clocks)}

    assert found() == {"DASK-2"}  # DASK-1 deleted
    texts = dict(r.quoted_documents(DASK, known_at=first))
    assert set(texts) == {"DASK-1"} and DASK in texts["DASK-1"]  # as recorded then, title and text
    assert found(as_of=date(2025, 1, 1)) == set()  # DASK-2 not yet published
    assert r.quoted_documents("the of and") == []  # nothing but stop words: no look-up


def test_word_holders_tell_whether_the_document_and_others_of_its_kind_hold_a_word_then(car: CarClient) -> None:
    """word_holders.cypher: for each word, whether the document holds it in some form (the index
    stems) and how many other documents of the asked kind do -- as of the question's date and as
    recorded at its instant."""
    r = car.retriever
    first, second = gout_history(car)

    # ATO and URI write "gout"; BEN no longer does
    assert r.word_holders("ZYL", "approval", ["gout"]) == [(False, 2)]
    assert r.word_holders("ATO", "approval", ["gout", "zzyzx"]) == [(True, 1), (False, 0)]
    # ZYL writes "approved": it holds "approve" in another form, as the four others do
    assert r.word_holders("ZYL", "approval", ["approve"]) == [(True, 4)]
    # only documents of the asked kind count: the withdrawal (there then) writes "liver"
    assert r.word_holders("ZYL", "approval", ["liver"], known_at=second) == [(False, 0)]
    # as of 2012 URI was not published
    assert r.word_holders("ZYL", "approval", ["gout"], as_of=date(2012, 1, 1)) == [(False, 1)]
    # as recorded after the first ingest: BEN's text of then held it, URI was not recorded
    assert r.word_holders("ZYL", "approval", ["gout"], known_at=first) == [(False, 2)]
    assert r.word_holders("ZYL", "approval", ["gout"], known_at=first,
                          as_of=date(1940, 1, 1)) == [(False, 1)]
    # the withdrawal deleted since was there then
    assert r.word_holders("ZYL", "withdrawal", ["liver"], known_at=second) == [(False, 1)]
    assert r.word_holders("ZYL", "withdrawal", ["liver"]) == [(False, 0)]
    assert r.word_holders("ZYL", "approval", []) == []


def test_kind_holders_count_the_other_documents_of_a_kind_holding_the_names_then(car: CarClient) -> None:
    """kind_holders.cypher: whether any other document of the subject's kind holds an entity of
    every mention -- as of the question's date and as recorded at its instant."""
    r = car.retriever
    car.ingest([parse_record(d) for d in (
        approval("ACC", "isotretinoin", 1982, "Acne"),
        withdrawal("ACC-W", "isotretinoin", 1988, "ACC"),
        approval("DIL", "diltiazem", 1982, None),
        approval("DIL-2", "diltiazem", 1990, None),
    )], rules=[])
    first = last_run_at(car)
    # a second approval of the drug, published later
    car.ingest([parse_record(approval("ABS", "isotretinoin", 2012, "Acne"))], rules=[])
    second = last_run_at(car)
    car.delete(["ABS"])
    drug = ["drug:isotretinoin"]

    assert r.kind_holders("ACC", [drug]) == 0  # the withdrawal holds it, but is of another kind
    assert r.kind_holders("ACC", [drug], known_at=second) == 1  # ABS, as recorded then
    assert r.kind_holders("ACC", [drug], known_at=second, as_of=date(2000, 1, 1)) == 0
    assert r.kind_holders("ACC", [drug], known_at=first) == 0
    # any entity of a mention counts; every mention must be held
    assert r.kind_holders("ACC", [["drug:accutane", "drug:isotretinoin"]], known_at=second) == 1
    assert r.kind_holders("ACC", [drug, ["drug:diltiazem"]], known_at=second) == 0
    assert r.kind_holders("DIL", [["drug:diltiazem"]]) == 1  # DIL-2, counted up to one
    assert r.kind_holders("DIL", [["drug:diltiazem"]], as_of=date(1985, 1, 1)) == 0
    with pytest.raises(ValueError):
        r.kind_holders("ACC", [])
