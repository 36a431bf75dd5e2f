"""Rules files: parsing, validation errors, and the parameters handed to apply_rule.cypher."""

from __future__ import annotations

from dataclasses import replace

import pytest

from car_graph.errors import RulesError
from car_graph.ingest.records import DocumentRecord, parse_record
from car_graph.ingest.rules import parse_rules, published_later, shared_scope


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


def test_shared_scope_under_all_needs_every_type_and_lists_each_key() -> None:
    [any_rule, all_rule] = parse_rules({"rules": [
        {**_scoped_rule(["employee", "ticker"]), "name": "any_rule"},
        {**_scoped_rule({"all": ["employee", "ticker"]}), "name": "all_rule"},
    ]}, "r.yaml")
    anchor = _doc("p", "2024-01-02", employee="EMP060-Evans", ticker="GS")
    same_employee = _doc("e", "2024-01-03", employee="EMP060-Evans", ticker="MS")
    same_ticker = _doc("t", "2024-01-03", employee="EMP061-Ford", ticker="GS")
    both = _doc("b", "2024-01-03", employee="EMP060-Evans", ticker="GS")
    assert shared_scope(any_rule, same_employee, anchor) == [("employee", "emp060-evans")]
    assert shared_scope(all_rule, same_employee, anchor) == []
    assert shared_scope(all_rule, same_ticker, anchor) == []
    assert shared_scope(all_rule, both, anchor) == [("employee", "emp060-evans"), ("ticker", "gs")]


def test_later_compares_instants_when_both_have_one_and_dates_otherwise() -> None:
    morning = _doc("m", "2024-01-05T09:00:00")
    afternoon = _doc("a", "2024-01-05T15:30:00")
    day_only = _doc("d", "2024-01-05")
    next_day = _doc("n", "2024-01-06")
    assert published_later(afternoon, morning) and not published_later(morning, afternoon)
    assert not published_later(afternoon, day_only)  # same day, one without a time: unordered
    assert published_later(next_day, afternoon)


def test_both_python_mirrors_apply_all_scopes_and_same_day_instants() -> None:
    from car_graph.benchmarks import synthetic
    from car_graph.ingest import security

    rules = parse_rules({"rules": [{**_scoped_rule({"all": ["employee", "ticker"]}),
                                    "name": "blackout", "order": "later"}]}, "r.yaml")
    older = replace(_doc("p", "2024-01-05T09:00:00", employee="EMP060-Evans", ticker="GS"),
                    kind="b")
    records = [
        older,
        _doc("same-employee", "2024-01-06", employee="EMP060-Evans", ticker="MS"),
        _doc("same-ticker", "2024-01-06", employee="EMP061-Ford", ticker="GS"),
        _doc("both-same-day-later", "2024-01-05T14:00:00", employee="EMP060-Evans", ticker="GS"),
        _doc("both-same-day-earlier", "2024-01-05T08:00:00", employee="EMP060-Evans",
             ticker="GS"),
    ]
    assert {(n, o) for n, o, _ in security.rule_edges(rules, records)} == {
        ("both-same-day-later", "p")
    }
    assert {(e.newer, e.older) for e in synthetic.rule_edges(records, rules)} == {
        ("both-same-day-later", "p")
    }
