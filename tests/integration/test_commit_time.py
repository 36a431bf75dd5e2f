"""The past never changes after the fact (issue 61, Deliver 1): a run's writes become visible to
--known-at when each batch commits, not when the run began; an instant later than the last
commit is answered as of that commit and says so; ``run:N`` names the state a run left."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from car_graph.client import CarClient
from car_graph.errors import EmptyGraphError, UnknownDocumentError, UnknownRunError
from car_graph.ingest.pipeline import ingest_records
from car_graph.records import parse_record

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def doc(i: int, title: str | None = None) -> dict[str, Any]:
    return {"id": f"D-{i}", "kind": "notice", "published": "2021-01-01",
            "title": title or f"Notice number {i} about widgets",
            "text": f"Notice {i}: widgets of series {i} must be inspected."}


def server_now(car: CarClient) -> datetime:
    return car.driver.execute_query("RETURN datetime.realtime() AS now").records[0]["now"].to_native()


def known(car: CarClient, doc_id: str, known_at: Any) -> str | None:
    """The document's title as known at ``known_at``; None when it was not known then."""
    try:
        return car.explain(doc_id, known_at=known_at).title
    except UnknownDocumentError:
        return None


def test_a_probe_during_an_ingest_is_answered_the_same_after_it(car: CarClient) -> None:
    """Probes between batches of one run see the batches committed so far; the same instants
    asked later with --known-at see exactly those, not the whole run (the run's start was the
    recorded time of every batch before)."""
    records = [parse_record(doc(i)) for i in range(6)]
    probes: list[tuple[datetime, set[str]]] = []

    def probe(_done: int) -> None:
        ids = {r["id"] for r in car.driver.execute_query("MATCH (d:Document) RETURN d.id AS id").records}
        probes.append((server_now(car), ids))

    ingest_records(records, car.store, car.embedder, car.extractor, batch_size=2, progress=False,
                   on_batch=probe, overlap=False)
    assert [len(ids) for _, ids in probes] == [2, 4, 6]
    for at, seen in probes:
        then = {r.id for r in records if known(car, r.id, at) is not None}
        assert then == seen, at


def test_two_batches_of_one_run_are_recorded_at_two_instants(car: CarClient) -> None:
    records = [parse_record(doc(i)) for i in range(4)]
    ingest_records(records, car.store, car.embedder, car.extractor, batch_size=2, progress=False,
                   overlap=False)
    first = car.history("D-0").versions[-1]["recorded_from"]
    second = car.history("D-3").versions[-1]["recorded_from"]
    assert first < second
    assert car.history("D-1").versions[-1]["recorded_from"] == first
    commits = car.driver.execute_query(
        "MATCH (c:Commit) RETURN c.run AS run, count(*) AS n").records
    assert [(r["run"], r["n"]) for r in commits] == [(1, 2)]


def test_an_instant_after_the_last_commit_is_answered_as_of_that_commit(car: CarClient) -> None:
    car.ingest([parse_record(doc(1))])
    after = car.explain("D-1", known_at="2099-01-01")
    assert after.known_at is not None and after.known_at < datetime.now(UTC)
    assert after.known_at.year != 2099
    assert after.known_at_note and "later than the last commit" in after.known_at_note
    assert after.to_json()["known_at"] == after.known_at.isoformat()
    # the LLM context of a historical answer says which state answered
    context = car.context("widgets inspection", known_at="2099-01-01")
    assert context.startswith(f"As known at {after.known_at.isoformat()}")
    assert not car.context("widgets inspection").startswith("As known at")
    # an instant inside the graph's history is stamped as asked, with no note
    inside = server_now(car)
    car.ingest([parse_record(doc(2))])
    past = car.explain("D-1", known_at=inside)
    assert past.known_at == inside and past.known_at_note is None


def test_known_at_a_run_number_reads_the_state_that_run_left(car: CarClient) -> None:
    car.ingest([parse_record(doc(1, "First title"))])
    car.ingest([parse_record(doc(1, "Second title"))])
    runs = [r["n"] for r in car.driver.execute_query(
        "MATCH (r:Run) RETURN r.number AS n ORDER BY n").records]
    assert known(car, "D-1", f"run:{runs[0]}") == "First title"
    assert known(car, "D-1", f"run:{runs[1]}") == "Second title"
    with pytest.raises(UnknownRunError):
        car.explain("D-1", known_at="run:99")


def test_known_at_before_any_ingest_is_a_setup_error(car: CarClient) -> None:
    with pytest.raises(EmptyGraphError):
        car.explain("X", known_at="2026-12-07")
    with pytest.raises(EmptyGraphError):
        car.retrieve_report("widgets", known_at="2026-12-07")
