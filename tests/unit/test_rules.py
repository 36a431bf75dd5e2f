"""Rules files: parsing, validation errors, and the parameters handed to apply_rule.cypher."""

from __future__ import annotations

import pytest

from car_graph.errors import RulesError
from car_graph.ingest.rules import parse_rules


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
    from car_graph.ingest.rules import parse_rules

    rule = {"name": "r", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
            "match": {"newer": "version", "older": "fixed", "op": "in", "versioning": "pypy"}}
    with pytest.raises(RulesError, match="versioning"):
        parse_rules({"rules": [rule]}, "rules.yaml")
    rule["match"]["versioning"] = "@ecosystem"
    assert parse_rules({"rules": [rule]}, "rules.yaml")[0].match.versioning == "@ecosystem"
