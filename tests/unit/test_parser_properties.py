"""Property-based tests: any input either parses or raises the documented error type.

Documented errors: parse_record / parse_date / decode_line -> ValueError; parse_rules and
domain_from_mapping -> RulesError; versions.canonical -> ValueError (InvalidVersionError,
UnknownSchemeError). Anything else escaping (TypeError, KeyError, RecursionError,
UnicodeError...) would abort a whole ingest instead of skipping one record, so it is a bug.
"""

from __future__ import annotations

import json
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from car_graph import versions
from car_graph.domains import domain_from_mapping
from car_graph.errors import InputProblem, RulesError
from car_graph.records import DocumentRecord, parse_date, parse_lines, parse_record
from car_graph.rules import canonicalize_versions, parse_rules

FIELDS = ["id", "text", "title", "domain", "kind", "published", "scope", "supersedes",
          "attributes", "withdrawn", "version", "fixed_versions", "effective", "partial",
          "name", "newer_kind", "older_kind", "order", "match", "newer", "older", "op",
          "versioning", "confidence", "partial_from", "rules", "identifiers", "names",
          "identifier_attributes", "name_attributes", "pattern", "type", "key", "group", "qualifiers", "mentions"]
scalars = (
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20)
    | st.sampled_from(["2023-02-30", "0000-01-01", "99999-01-01", "2024-01-01", "", "later",
                       "any", "in", "equals", "intersects", "pypi", "@ecosystem", "release",
                       "advisory", "package", "x\x00y", "\ud800", "1.0.0", "a b"])
)
keys = st.sampled_from(FIELDS) | st.text(max_size=8)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=6),
    max_leaves=30,
)
objects = st.dictionaries(keys, json_values, max_size=10)
deep = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@deep
@given(json_values | objects)
def test_parse_record_returns_a_record_or_raises_value_error(obj) -> None:
    try:
        record = parse_record(obj)
    except ValueError as e:
        assert str(e)  # a reason a user can read
        return
    assert isinstance(record, DocumentRecord) and record.id.strip() and isinstance(record.text, str)
    # what parsed is storable as UTF-8 and round-trips through the generic format
    json.dumps(record.to_json(), ensure_ascii=False).encode("utf-8")
    assert parse_record(record.to_json()) == record


@deep
@given(st.one_of(json_values, st.text(max_size=14),
                 st.dates().map(date.isoformat), st.from_regex(r"-?\d{1,6}-\d{1,3}-\d{1,3}")))
def test_parse_date_returns_a_date_or_raises_value_error(value) -> None:
    try:
        parsed = parse_date(value, "published")
    except ValueError as e:
        assert "published" in str(e)
        return
    assert parsed is None or isinstance(parsed, date)


@deep
@given(st.lists(st.binary(max_size=60) | st.text(max_size=60), max_size=12))
def test_parse_lines_never_raises_with_a_problem_list_and_accounts_for_every_line(lines) -> None:
    raw = [line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
           for line in lines]
    problems: list[InputProblem] = []
    records = list(parse_lines(raw, "x.jsonl", problems))
    non_blank = sum(1 for line in raw if line.strip())
    # every non-blank line is either a record or a problem (a line may hold no newline: one line)
    assert len(records) + len(problems) == non_blank
    assert all(p.source == "x.jsonl" and 1 <= p.line <= len(raw) and p.reason for p in problems)


rule_fields = st.fixed_dictionaries(
    {},
    optional={
        "name": scalars, "newer_kind": json_values, "older_kind": json_values,
        "scope": json_values, "order": scalars, "partial": scalars, "partial_from": json_values,
        "confidence": scalars, "domain": scalars, "description": json_values,
        "match": st.fixed_dictionaries({}, optional={
            "newer": json_values, "older": json_values, "op": scalars, "versioning": scalars,
        }) | json_values,
        "bogus": scalars,
    },
)
rules_files = st.fixed_dictionaries(
    {}, optional={"domain": scalars, "rules": st.lists(rule_fields | json_values, max_size=4)
                  | json_values, "identifiers": json_values, "names": json_values,
                  "identifier_attributes": json_values, "name_attributes": json_values,
                  "description": json_values},
) | json_values


@deep
@given(rules_files)
def test_rules_parser_returns_rules_or_raises_rules_error(data) -> None:
    try:
        rules = parse_rules(data, "r.yaml")
    except RulesError as e:
        assert e.source.startswith("r.yaml") and e.reason
        return
    for rule in rules:
        params = rule.parameters()
        assert params["newer_kinds"] and params["older_kinds"] and params["scope_types"]
        assert 0 < params["confidence"] <= 1


@deep
@given(rules_files)
def test_domain_parser_returns_a_domain_or_raises_rules_error(data) -> None:
    try:
        domain_from_mapping(data, "d.yaml")
    except RulesError as e:
        assert e.source.startswith("d.yaml") and e.reason


@deep
@given(st.sampled_from([*versions.SCHEMES, "npm", "PyPI", "crates.io", "nonsense", ""]),
       st.text(max_size=24) | st.sampled_from(["1.0", "v1.2.3", "1:2.3-4", "==1.0", ">=1,<2",
                                                "1.0.0-rc.1+build", "..", "ü", "\x00"]))
def test_version_conditions_canonicalise_or_raise_value_error(scheme: str, version: str) -> None:
    try:
        out = versions.canonical(versions.scheme_for(scheme), version)
    except ValueError:
        return
    assert isinstance(out, str)


@deep
@given(objects, st.lists(rule_fields, min_size=1, max_size=3))
def test_rule_conditions_on_any_record_never_raise(obj, raw_rules) -> None:
    """canonicalize_versions runs on every record at ingest: an odd attribute must not crash it."""
    try:
        record = parse_record({"id": "d", "text": "t", **obj})
        rules = parse_rules({"rules": raw_rules}, "r.yaml")
    except (ValueError, RulesError):
        return
    attributes = canonicalize_versions(record, rules)
    assert set(attributes) == set(record.attributes)
