"""CAR core against a real Neo4j: rules, explicit edges, as-of, cycles, kappa, dedup, idempotency.

Each test builds a small graph whose right answer can be read off the records.
"""

from __future__ import annotations

from datetime import date

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.types import Status

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def records(*objs):
    return [parse_record(o) for o in objs]


def rules(*raw, domain=None):
    return parse_rules({"domain": domain, "rules": list(raw)}, "test")


ADVISORY = {
    "id": "ADV-1", "kind": "advisory", "published": "2020-03-01",
    "title": "Prototype pollution in lodash",
    "text": "Prototype pollution in lodash lets attackers modify object prototypes via merge.",
    "scope": {"package": "npm:lodash"}, "attributes": {"fixed_versions": ["4.17.12"]},
}
RELEASE = {
    "id": "REL-4.17.12", "kind": "release", "published": "2020-04-01",
    "title": "lodash 4.17.12 released",
    "text": "Version 4.17.12 is out. Changelog: build tooling, maintenance.",
    "scope": {"package": "npm:lodash"}, "attributes": {"version": "4.17.12"},
}
RELEASE_RULE = {
    "name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
    "scope": "package", "match": {"newer": "version", "older": "fixed_versions", "op": "in"},
}


def edges(car: CarClient) -> set[tuple[str, str, str]]:
    rows = car.store.read("document_relations", domain=None)
    rule_rows = car.driver.execute_query(
        "MATCH (n)-[s:SUPERSEDES]->(o) RETURN n.id AS n, o.id AS o, s.rule AS rule"
    ).records
    assert len(rows) == len(rule_rows)
    return {(r["n"], r["o"], r["rule"]) for r in rule_rows}


def test_release_rule_makes_the_release_control_the_advisory(car: CarClient) -> None:
    car.ingest(records(ADVISORY, RELEASE), rules(RELEASE_RULE))
    assert edges(car) == {("REL-4.17.12", "ADV-1", "release_fixes_advisory")}

    report = car.retrieve_report("is lodash still vulnerable to prototype pollution?", k=3)
    top = report.results[0]
    assert top.doc_id == "REL-4.17.12"
    assert top.anchor_id == "ADV-1"
    assert [(h.from_id, h.to_id, h.rule) for h in top.chain] == [
        ("ADV-1", "REL-4.17.12", "release_fixes_advisory")
    ]
    assert "4.17.12 in fixed_versions" in (top.chain[0].evidence or "")
    assert "ADV-1" not in report.ids
    assert report.suppressed == 1


def test_version_match_canonicalises_with_the_ecosystem_ordering(car: CarClient) -> None:
    rule = {**RELEASE_RULE, "match": {**RELEASE_RULE["match"], "versioning": "pypi"}}
    adv = {**ADVISORY, "attributes": {"fixed_versions": ["2.0"]}}
    rel = {**RELEASE, "attributes": {"version": "2.0.0"}}
    car.ingest(records(adv, rel), rules(rule))
    assert edges(car) == {("REL-4.17.12", "ADV-1", "release_fixes_advisory")}


def test_rule_never_links_across_scopes(car: CarClient) -> None:
    other = {**RELEASE, "id": "REL-other", "scope": {"package": "npm:underscore"}}
    car.ingest(records(ADVISORY, other), rules(RELEASE_RULE))
    assert edges(car) == set()


def test_date_aware_rule_needs_a_later_document(car: CarClient) -> None:
    later_rule = {"name": "newer_ruling", "newer_kind": "ruling", "older_kind": "ruling",
                  "scope": "case", "order": "later"}
    old = {"id": "R1", "kind": "ruling", "published": "1990-01-01", "text": "first ruling",
           "scope": {"case": "Smith v. Jones"}}
    new = {"id": "R2", "kind": "ruling", "published": "2000-01-01", "text": "second ruling",
           "scope": {"case": "Smith v. Jones"}}
    car.ingest(records(old, new), rules(later_rule))
    assert edges(car) == {("R2", "R1", "newer_ruling")}


def test_intersects_rule_and_partial_supersession(car: CarClient) -> None:
    recall_rule = {"name": "recall_of_product", "newer_kind": "recall", "older_kind": "approval",
                   "scope": "drug", "match": {"newer": "ndcs", "older": "ndcs", "op": "intersects"},
                   "partial": True}
    approval = {"id": "APP", "kind": "approval", "published": "1996-04-29",
                "text": "Appetite suppressant approved for obesity.", "scope": {"drug": "dexfenfluramine"},
                "attributes": {"ndcs": ["0008-0001-01", "0008-0001-02"]}}
    recall = {"id": "REC", "kind": "recall", "published": "1997-09-15",
              "text": "Lot recall: labelling error, class II.", "scope": {"drug": "dexfenfluramine"},
              "attributes": {"ndcs": ["0008-0001-02"]}}
    car.ingest(records(approval, recall), rules(recall_rule))
    assert edges(car) == {("REC", "APP", "recall_of_product")}
    explanation = car.explain("APP")
    assert explanation.status is Status.PARTIALLY_SUPERSEDED
    assert {c.doc_id for c in explanation.controlling} == {"APP", "REC"}


def test_partial_from_attribute_overrides_the_rule_default(car: CarClient) -> None:
    rule = {"name": "recall_all", "newer_kind": "recall", "older_kind": "approval",
            "scope": "drug", "partial": True, "partial_from": "partial"}
    approval = {"id": "APP", "kind": "approval", "published": "2000-01-01", "text": "approved",
                "scope": {"drug": "x"}}
    recall = {"id": "REC", "kind": "recall", "published": "2001-01-01", "text": "all lots",
              "scope": {"drug": "x"}, "attributes": {"partial": False}}
    car.ingest(records(approval, recall), rules(rule))
    assert car.explain("APP").status is Status.SUPERSEDED


def test_explicit_edges_link_even_when_the_older_document_comes_later(car: CarClient) -> None:
    newer = {"id": "B", "published": "1937-03-29", "text": "West Coast Hotel v. Parrish",
             "supersedes": [{"id": "A", "evidence": "CONAN table row 12"}]}
    car.ingest(records(newer), rules())
    assert edges(car) == set()
    older = {"id": "A", "published": "1923-04-09", "text": "Adkins v. Children's Hospital"}
    summary = car.ingest(records(older), rules())
    assert edges(car) == {("B", "A", "explicit")}
    assert summary.edges_by_rule == {"explicit": 1}
    hop = car.explain("A").superseded_by[0]
    assert hop.evidence == "CONAN table row 12" and hop.effective == date(1937, 3, 29)


def test_as_of_before_the_superseder_keeps_the_anchor_active(car: CarClient) -> None:
    car.ingest(records(ADVISORY, RELEASE), rules(RELEASE_RULE))
    question = "is lodash still vulnerable to prototype pollution?"
    before = car.retrieve(question, k=3, as_of=date(2020, 3, 15))
    assert before[0].doc_id == "ADV-1" and before[0].status is Status.ACTIVE
    assert "REL-4.17.12" not in [r.doc_id for r in before]
    after = car.retrieve(question, k=3, as_of=date(2020, 4, 2))
    assert after[0].doc_id == "REL-4.17.12"
    assert car.explain("ADV-1", as_of=date(2020, 3, 15)).status is Status.ACTIVE
    assert car.explain("ADV-1").status is Status.SUPERSEDED


def test_cycles_are_detected_and_their_members_stay_on_the_frontier(car: CarClient) -> None:
    a = {"id": "CYC-A", "published": "2001-01-01", "text": "Statute alpha on river fishing rights",
         "supersedes": ["CYC-B"]}
    b = {"id": "CYC-B", "published": "2002-01-01", "text": "Statute beta on river fishing rights",
         "supersedes": ["CYC-A"]}
    summary = car.ingest(records(a, b), rules())
    assert summary.cycles == [["CYC-A", "CYC-B"]]
    results = car.retrieve("river fishing rights statute", k=5)
    assert {r.doc_id for r in results} == {"CYC-A", "CYC-B"}
    assert all(r.status is Status.UNRESOLVED for r in results)


def test_shared_frontier_is_returned_once_and_kappa_is_reported(car: CarClient) -> None:
    adv2 = {**ADVISORY, "id": "ADV-2", "title": "Command injection in lodash template",
            "text": "Command injection in lodash template function allows code execution.",
            "published": "2020-03-05"}
    other_release = {**RELEASE, "id": "REL-4.17.20", "published": "2020-08-01",
                     "title": "lodash 4.17.20 released", "attributes": {"version": "4.17.20"}}
    adv3 = {**ADVISORY, "id": "ADV-3", "title": "ReDoS in lodash toNumber",
            "text": "Regular expression denial of service in lodash toNumber and trim.",
            "published": "2020-07-01", "attributes": {"fixed_versions": ["4.17.20"]}}
    car.ingest(records(ADVISORY, adv2, RELEASE, other_release, adv3), rules(RELEASE_RULE))
    report = car.retrieve_report("lodash vulnerabilities prototype pollution command injection", k=5)
    ids = report.ids
    assert ids.count("REL-4.17.12") == 1  # ADV-1 and ADV-2 both close onto it
    assert "ADV-1" not in ids and "ADV-2" not in ids
    # the lodash scope holds two chains, so it is ambiguous by scope alone (kappa > 1)
    assert "package:npm:lodash" in report.ambiguous_scopes


def test_withdrawn_document_without_successor_is_withdrawn(car: CarClient) -> None:
    withdrawn = {**ADVISORY, "attributes": {"withdrawn": "2020-05-01"}}
    car.ingest(records(withdrawn), rules())
    assert car.explain("ADV-1").status is Status.WITHDRAWN
    assert car.explain("ADV-1", as_of=date(2020, 4, 1)).status is Status.ACTIVE


def test_same_scope_without_a_deciding_rule_is_unresolved(car: CarClient) -> None:
    unrelated_release = {**RELEASE, "attributes": {"version": "9.9.9"}}
    car.ingest(records(ADVISORY, unrelated_release), rules(RELEASE_RULE))
    assert edges(car) == set()
    assert car.explain("ADV-1").status is Status.UNRESOLVED


def test_reingesting_the_same_input_changes_nothing(car: CarClient) -> None:
    first = car.ingest(records(ADVISORY, RELEASE), rules(RELEASE_RULE))
    snapshot = car.driver.execute_query(
        "MATCH (n) OPTIONAL MATCH (n)-[r]->(m) "
        "RETURN count(DISTINCT n) AS nodes, count(r) AS rels, collect(DISTINCT properties(r)) AS props"
    ).records[0]
    second = car.ingest(records(ADVISORY, RELEASE), rules(RELEASE_RULE))
    again = car.driver.execute_query(
        "MATCH (n) OPTIONAL MATCH (n)-[r]->(m) "
        "RETURN count(DISTINCT n) AS nodes, count(r) AS rels, collect(DISTINCT properties(r)) AS props"
    ).records[0]
    assert dict(snapshot) == dict(again)
    assert first.graph == second.graph
