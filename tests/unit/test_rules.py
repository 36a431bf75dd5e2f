"""Rules files: parsing, validation errors, and the parameters handed to apply_rule.cypher."""

from __future__ import annotations

import pytest

from car_graph.errors import RulesError
from car_graph.records import DocumentRecord, parse_record
from car_graph.rules import parse_rules
from car_graph.semantics import rule_edges


def test_rule_parameters_prefix_attributes_and_carry_the_domain() -> None:
    [rule] = parse_rules({"domain": "security", "rules": [{
        "name": "fix", "newer_kind": "release", "older_kind": ["advisory"], "scope": "package",
        "order": "later", "match": {"newer": "version", "older": "fixed_versions", "op": "in"},
        "partial_from": "partial",
    }]}, "t.yaml")
    params = rule.parameters()
    assert params["newer_attr"] == "attr_version" and params["older_attr"] == "attr_fixed_versions"
    assert params["require_later"] is True and params["domain"] == "security"
    assert params["partial_attr"] == "attr_partial" and params["partial"] is False


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"newer_kind": "a", "older_kind": "b", "scope": "s"}, "'name' must be an identifier"),
        ({"name": "r", "newer_kind": "a", "older_kind": "b", "scope": "s", "order": "soon"}, "'order'"),
        ({"name": "r", "newer_kind": "a", "older_kind": "b", "scope": "x) DETACH DELETE (n"},
         "scope 'x) DETACH DELETE (n' must match"),
        ({"name": "r", "newer_kind": "a", "older_kind": "b", "scope": "s",
          "match": {"newer": "v", "older": "w", "op": "like"}}, "'match' needs"),
        ({"name": "r", "newer_kind": [], "older_kind": "b", "scope": "s"}, "newer_kind must be"),
        ({"name": "r", "newer_kind": "a", "older_kind": "b", "scope": "s", "colour": 1}, "unknown keys"),
    ],
)
def test_invalid_rules_are_rejected_with_the_reason(rule: dict, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules({"rules": [rule]}, "r.yaml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("r.yaml rule 1")


def test_a_misspelt_versioning_scheme_is_refused() -> None:
    import pytest

    from car_graph.errors import RulesError
    from car_graph.rules import parse_rules

    rule = {"name": "r", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
            "match": {"newer": "version", "older": "fixed", "op": "in", "versioning": "pypy"}}
    with pytest.raises(RulesError, match="versioning"):
        parse_rules({"rules": [rule]}, "rules.yaml")
    rule["match"]["versioning"] = "@ecosystem"
    assert parse_rules({"rules": [rule]}, "rules.yaml")[0].match.versioning == "@ecosystem"


def _scoped_rule(scope: object) -> dict:
    return {"name": "r", "newer_kind": "a", "older_kind": "b", "scope": scope}


@pytest.mark.parametrize(
    ("scope", "mode", "types"),
    [
        ("package", "any", ("package",)),
        (["drug", "case"], "any", ("drug", "case")),
        ({"any": ["drug", "case"]}, "any", ("drug", "case")),
        ({"all": ["employee", "ticker"]}, "all", ("employee", "ticker")),
        ({"all": "employee"}, "all", ("employee",)),
    ],
)
def test_scope_forms_parse_to_a_mode_and_types(scope: object, mode: str, types: tuple) -> None:
    [rule] = parse_rules({"rules": [_scoped_rule(scope)]}, "r.yaml")
    assert (rule.scope_mode, rule.scope_types) == (mode, types)
    assert rule.parameters()["scope_mode"] == mode
    assert rule.parameters()["scope_types"] == list(types)


@pytest.mark.parametrize(
    ("scope", "message"),
    [
        ({"every": ["employee", "ticker"]}, "unknown scope keys ['every']"),
        ({"all": ["employee"], "any": ["ticker"]}, "exactly one of ['any', 'all']"),
        ({"all": []}, "scope.all must be a name or a non-empty list of names"),
        ({}, "exactly one of"),
        ({"all": ["employee", 3]}, "scope.all must be a name or a non-empty list"),
        ({"all": ["employee", "x) DELETE (n"]}, "scope.all 'x) DELETE (n' must match"),
        ({"all": ["ticker", "ticker"]}, "lists an entity type twice"),
        ([], "scope must be a name or a non-empty list"),
    ],
)
def test_invalid_scopes_are_rejected_with_the_reason(scope: object, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules({"rules": [_scoped_rule(scope)]}, "r.yaml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("r.yaml rule 1")


def _doc(doc_id: str, published: str, **scope: str) -> DocumentRecord:
    return parse_record({"id": doc_id, "text": "t", "kind": "a", "published": published,
                         "scope": scope})


def test_all_scope_needs_a_shared_key_of_every_type() -> None:
    from car_graph.records import parse_record

    def event(doc_id, employee, ticker, kind, published):
        return parse_record({"id": doc_id, "text": "x", "kind": kind, "published": published,
                             "scope": {"employee": employee, "ticker": ticker}})

    rules = parse_rules({"rules": [
        {"name": "any_rule", "newer_kind": "blackout", "older_kind": "clearance",
         "scope": ["employee", "ticker"], "order": "later"},
        {"name": "all_rule", "newer_kind": "blackout", "older_kind": "clearance",
         "scope": {"all": ["employee", "ticker"]}, "order": "later"},
    ]}, "r.yaml")
    records = [
        event("C", "EMP060-Evans", "GS", "clearance", "2024-01-02T09:00:00"),
        event("B1", "EMP060-Evans", "MS", "blackout", "2024-01-03"),
        event("B2", "EMP017-Chen", "GS", "blackout", "2024-01-03"),
        event("B3", "EMP060-Evans", "GS", "blackout", "2024-01-02T15:30:00"),  # same day, later
    ]
    edges = {(e.newer, e.older, e.rule) for e in rule_edges(rules, records)}
    assert {e for e in edges if e[2] == "all_rule"} == {("B3", "C", "all_rule")}
    assert {e for e in edges if e[2] == "any_rule"} == {("B1", "C", "any_rule"), ("B2", "C", "any_rule"),
                                                       ("B3", "C", "any_rule")}


