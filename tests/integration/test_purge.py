"""Erasure on purpose and on the record (issue 61, Deliver 2): a purge is a recorded run with
its cut-off and reason, never changes an answer at an instant after the cut-off, keeps what a
kept edge needs (the PG-ADV / PG-REL scenario), and a --known-at read before the cut-off says
so (or refuses, strict). `purge DOC_ID` erases one document's history."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.errors import CarError, HistoryPurgedError
from car_graph.records import parse_record
from car_graph.rules import parse_rules

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

RULES = parse_rules({"rules": [{
    "name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
    "scope": "package", "order": "later",
    "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}]}, "test")
ADV = {"id": "PG-ADV", "kind": "advisory", "published": "2020-03-01",
       "title": "Heap overflow in pgwidget", "text": "A heap overflow in pgwidget allows code execution.",
       "scope": {"package": "npm:pgwidget"}, "attributes": {"fixed_versions": ["2.0.0"]}}
REL = {"id": "PG-REL", "kind": "release", "published": "2020-04-01",
       "title": "pgwidget 2.0.0 released", "text": "Version 2.0.0 of pgwidget is out.",
       "scope": {"package": "npm:pgwidget"}, "attributes": {"version": "2.0.0"}}
OLD = {"id": "OLD-X", "kind": "notice", "published": "2019-01-01",
       "title": "Secret internal notice", "text": "The erased text: zebra-quartz-unicorn.",
       "scope": {"package": "npm:other"}}


def now(car: CarClient) -> datetime:
    return car.driver.execute_query("RETURN datetime.realtime() AS t").records[0]["t"].to_native()


def seen(car: CarClient, doc_id: str, known_at: Any) -> Any:
    """explain's answer without its stamp and note (an error's name is an answer too)."""
    try:
        data = car.explain(doc_id, known_at=known_at).to_json()
    except CarError as exc:
        return type(exc).__name__
    data.pop("known_at", None)
    data.pop("known_at_note", None)
    return data


def test_purge_before_a_cutoff_keeps_every_answer_after_it_and_what_kept_edges_need(
        car: CarClient) -> None:
    car.ingest([parse_record(ADV), parse_record(REL), parse_record(OLD)], RULES)
    p1 = now(car)
    # PG-REL retitled: its first version closes, the edge keeps its start (before p1)
    car.ingest([parse_record({**REL, "title": "pgwidget 2.0.0 is out"})], RULES)
    car.delete(["OLD-X"])
    p2 = now(car)
    car.ingest([parse_record({**ADV, "id": "PG-ADV-2", "title": "Another pgwidget flaw"})], RULES)
    p3 = now(car)
    ids = ["PG-ADV", "PG-REL", "OLD-X", "PG-ADV-2"]
    before = {(i, t): seen(car, i, at) for i in ids for t, at in (("p1", p1), ("p3", p3))}
    assert before["PG-ADV", "p1"]["status"] == "superseded"
    assert before["PG-REL", "p1"]["title"] == "pgwidget 2.0.0 released"
    assert before["OLD-X", "p1"]["title"] == "Secret internal notice"

    summary = car.purge(p2, reason="retention policy")
    assert summary.run is not None and summary.retired == 1

    after = {(i, t): seen(car, i, at) for i in ids for t, at in (("p1", p1), ("p3", p3))}
    # every answer after the cut-off is unchanged
    assert {k: v for k, v in after.items() if k[1] == "p3"} == \
           {k: v for k, v in before.items() if k[1] == "p3"}
    # PG-REL's first version stays: the edge recorded before p1 still leads to it
    assert after["PG-ADV", "p1"] == before["PG-ADV", "p1"]
    assert after["PG-REL", "p1"] == before["PG-REL", "p1"]
    # the deleted document is gone, and the answer before the cut-off says history is missing
    assert after["OLD-X", "p1"] != before["OLD-X", "p1"]
    note = car.explain("PG-ADV", known_at=p1).known_at_note
    assert note and "purged by run" in note and "retention policy" in note
    assert car.explain("PG-ADV", known_at=p3).known_at_note is None
    with pytest.raises(HistoryPurgedError):
        car.explain("PG-ADV", known_at=p1, strict=True)
    # the purge is a recorded run with its cut-off and reason
    purge = [r for r in car.runs() if r.command == "purge"]
    assert len(purge) == 1 and purge[0].cutoff == p2 and purge[0].reason == "retention policy"
    assert purge[0].counts["retired"] == 1


def test_purge_document_ids_erases_that_history_only_and_is_recorded(car: CarClient) -> None:
    car.ingest([parse_record(ADV), parse_record(REL)], RULES)
    car.ingest([parse_record({**REL, "title": "pgwidget 2.0.0 is out"})], RULES)
    car.ingest([parse_record({**ADV, "title": "Heap overflow in pgwidget (revised)"})], RULES)
    assert len(car.history("PG-REL").versions) == 2
    summary = car.purge(ids=["PG-REL", "NOPE"], reason="takedown request")
    assert summary.documents == ["PG-REL"] and summary.missing == ["NOPE"]
    assert [v["current"] for v in car.history("PG-REL").versions] == [True]
    assert len(car.history("PG-ADV").versions) == 2  # another document's history stays
    assert car.explain("PG-ADV").status == "superseded"  # the current state is untouched
    runs = car.runs()
    assert runs[-1].command == "purge" and runs[-1].documents == ("PG-REL", "NOPE")


def test_cli_purge_asks_for_confirmation_unless_yes(car: CarClient, neo4j_target: Any) -> None:
    car.ingest([parse_record(OLD)])
    car.delete(["OLD-X"])
    env = {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}
    refused = CliRunner().invoke(main, ["purge", "OLD-X"], input="n\n", env=env)
    assert refused.exit_code != 0
    assert car.history("OLD-X").versions  # nothing erased
    done = CliRunner().invoke(main, ["purge", "OLD-X", "--yes", "--reason", "asked", "--json"], env=env)
    assert done.exit_code == 0, done.output
    assert '"run"' in done.output
    with pytest.raises(CarError):
        car.history("OLD-X")
