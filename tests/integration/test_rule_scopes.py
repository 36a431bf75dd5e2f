"""Rules whose scope needs several entity types together, and same-day ordering by instants,
on hand-made graphs in a real Neo4j."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.types import Status

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

BLACKOUT_RULE = {
    "name": "blackout_voids_preclearance", "newer_kind": "blackout_announced",
    "older_kind": "pre_clearance_approved", "scope": {"all": ["employee", "ticker"]},
    "order": "later",
}


def event(doc_id: str, kind: str, published: str, employee: str, ticker: str) -> dict:
    return {"id": doc_id, "kind": kind, "published": published, "domain": "compliance",
            "text": f"{kind.replace('_', ' ')} for {employee} in {ticker}",
            "scope": {"employee": employee, "ticker": ticker}}


def rule_edges(car: CarClient) -> dict[tuple[str, str], dict]:
    rows = car.driver.execute_query(
        "MATCH (n:Document)-[s:SUPERSEDES]->(o:Document) "
        "RETURN n.id AS newer, o.id AS older, s.rule AS rule, s.evidence AS evidence"
    ).records
    return {(r["newer"], r["older"]): {"rule": r["rule"], "evidence": r["evidence"]} for r in rows}


def test_all_scope_links_only_documents_sharing_the_employee_and_the_ticker(car: CarClient) -> None:
    docs = [
        event("pc", "pre_clearance_approved", "2024-01-02", "EMP060-Evans", "GS"),
        event("bo-other-ticker", "blackout_announced", "2024-01-03", "EMP060-Evans", "MS"),
        event("bo-other-employee", "blackout_announced", "2024-01-03", "EMP061-Ford", "GS"),
        event("bo-both", "blackout_announced", "2024-01-04", "EMP060-Evans", "GS"),
    ]
    car.ingest([parse_record(d) for d in docs], parse_rules({"rules": [BLACKOUT_RULE]}, "t"))
    edges = rule_edges(car)
    assert set(edges) == {("bo-both", "pc")}
    evidence = edges[("bo-both", "pc")]["evidence"]
    assert "employee emp060-evans" in evidence and "ticker gs" in evidence
    assert edges[("bo-both", "pc")]["rule"] == "blackout_voids_preclearance"


def test_any_scope_still_links_on_one_shared_type(car: CarClient) -> None:
    any_rule = {**BLACKOUT_RULE, "scope": ["employee", "ticker"]}
    docs = [
        event("pc", "pre_clearance_approved", "2024-01-02", "EMP060-Evans", "GS"),
        event("bo-other-ticker", "blackout_announced", "2024-01-03", "EMP060-Evans", "MS"),
    ]
    car.ingest([parse_record(d) for d in docs], parse_rules({"rules": [any_rule]}, "t"))
    assert set(rule_edges(car)) == {("bo-other-ticker", "pc")}


def test_unresolved_flag_under_all_needs_every_type_shared(car: CarClient) -> None:
    # No rule decides blackout_lifted vs pre_clearance; the flag rule below only asks "could".
    flag_rule = {**BLACKOUT_RULE, "name": "lift_needs_match", "newer_kind": "blackout_lifted",
                 "match": {"newer": "ref", "older": "ref", "op": "equals"}}
    docs = [
        event("pc-a", "pre_clearance_approved", "2024-01-02", "EMP060-Evans", "GS"),
        event("pc-b", "pre_clearance_approved", "2024-01-02", "EMP061-Ford", "C"),
        event("lift-a", "blackout_lifted", "2024-01-05", "EMP060-Evans", "GS"),
        event("lift-b", "blackout_lifted", "2024-01-05", "EMP061-Ford", "GS"),
    ]
    car.ingest([parse_record(d) for d in docs], parse_rules({"rules": [flag_rule]}, "t"))
    assert rule_edges(car) == {}
    assert car.explain("pc-a").status is Status.UNRESOLVED
    # pc-b shares only the employee with lift-b: under 'all' no rule could have superseded it
    assert car.explain("pc-b").status is Status.ACTIVE


def test_later_orders_same_day_events_by_their_time(car: CarClient) -> None:
    docs = [
        event("pc", "pre_clearance_approved", "2024-01-05T09:10:00", "EMP060-Evans", "GS"),
        event("bo", "blackout_announced", "2024-01-05T14:45:00", "EMP060-Evans", "GS"),
        # published before the pre-clearance on the same day: 'later' must not hold
        event("bo-early", "blackout_announced", "2024-01-05T08:00:00", "EMP061-Ford", "C"),
        event("pc-late", "pre_clearance_approved", "2024-01-05T16:00:00", "EMP061-Ford", "C"),
    ]
    car.ingest([parse_record(d) for d in docs], parse_rules({"rules": [BLACKOUT_RULE]}, "t"))
    assert set(rule_edges(car)) == {("bo", "pc")}
    stored = car.driver.execute_query(
        "MATCH (d:Document {id: 'bo'}) RETURN d.published AS day, d.published_at AS instant"
    ).records[0]
    assert str(stored["day"]) == "2024-01-05"
    assert stored["instant"].to_native().isoformat() == "2024-01-05T14:45:00"


def test_later_compares_a_date_known_to_the_year_at_the_year_and_says_so(car: CarClient) -> None:
    docs = [
        event("pc", "pre_clearance_approved", "2024-06-10", "EMP060-Evans", "GS"),
        # known to the year only: the same year is not earlier, so it is linked
        event("bo-year", "blackout_announced", "2024", "EMP060-Evans", "GS"),
        event("bo-year-before", "blackout_announced", "2023", "EMP060-Evans", "GS"),
        event("bo-day", "blackout_announced", "2024-06-11", "EMP060-Evans", "GS"),
    ]
    car.ingest([parse_record(d) for d in docs], parse_rules({"rules": [BLACKOUT_RULE]}, "t"))
    edges = rule_edges(car)
    assert set(edges) == {("bo-year", "pc"), ("bo-day", "pc")}
    assert edges[("bo-year", "pc")]["evidence"].endswith("; order by the year alone")
    assert "order by" not in edges[("bo-day", "pc")]["evidence"]
    stored = car.driver.execute_query(
        "MATCH (d:Document {id: 'bo-year'}) RETURN d.published AS day, d.published_precision AS precision"
    ).records[0]
    assert (str(stored["day"]), stored["precision"]) == ("2024-01-01", "year")
