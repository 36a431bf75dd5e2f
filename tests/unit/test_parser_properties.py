"""Property-based tests: any input either parses or raises the documented error type.

Documented errors: parse_record / parse_date / decode_line -> ValueError; parse_rules and
domain_from_mapping -> RulesError; versions.canonical -> ValueError (InvalidVersionError,
UnknownSchemeError). Anything else escaping (TypeError, KeyError, RecursionError,
UnicodeError...) would abort a whole ingest instead of skipping one record, so it is a bug.
"""

from __future__ import annotations

import json
from datetime import date

from debian import debian_support
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from packaging.version import Version as PyPIVersion

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


def same_version(scheme: str, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one version, asked of the ecosystem's own library directly
    where car_graph.versions only wraps it (semver schemes through versions.compare, which
    also reads the Go toolchain's spelling)."""
    if scheme == "pypi":
        return PyPIVersion(a) == PyPIVersion(b.strip())
    if scheme == "debian":
        return debian_support.version_compare(a, b.strip()) == 0
    return versions.compare(scheme, a, b) == 0


# version-like text, so that many examples parse (random text almost never does): any number
# of components, and semver's three
version_like = (st.from_regex(r"\A[v=]?(go)?\d{1,3}(\.\d{1,3}){0,3}(-?(rc|a|b|alpha|beta|0)\.?\d{0,2})?"
                              r"(\+[a-z0-9]{1,4})?\Z")
                | st.from_regex(r"\A(\d:)?[v=]?\d{1,2}\.\d{1,2}\.\d{1,2}(-(rc|alpha|beta|0|1)(\.\d)?)?\Z"))


@deep
@given(st.sampled_from([*versions.SCHEMES, "npm", "PyPI", "crates.io", "nonsense", ""]),
       st.text(max_size=24) | version_like
       | st.sampled_from(["1.0", "v1.2.3", "1:2.3-4", "0:1.0-0", "go1.21rc2", "==1.0", ">=1,<2",
                          "1.0.0-rc.1+build", "..", "ü", "\x00"]))
def test_version_conditions_canonicalise_or_raise_value_error(scheme: str, version: str) -> None:
    try:
        name = versions.scheme_for(scheme)
        out = versions.canonical(name, version)
    except ValueError:
        return
    # what a rule stores is a version of the scheme, the one given, and its own canonical form
    assert same_version(name, out, version), (name, version, out)
    assert versions.canonical(name, out) == out, (name, version, out)


numbers = st.lists(st.integers(0, 40), min_size=1, max_size=4)


def padded(parts: list[int], width: int) -> str:
    return ".".join(str(n).zfill(width) for n in parts)


@deep
@given(numbers, st.integers(0, 3), st.integers(1, 3), st.booleans())
def test_spellings_of_one_pypi_version_share_its_canonical_string(release: list[int], zeros: int,
                                                                  width: int, prefix: bool) -> None:
    # PEP 440: a leading "v", leading zeros and trailing ".0" components spell the same version;
    # the canonical string drops the trailing zeros (keeping one component)
    spelled = ("v" if prefix else "") + padded(release + [0] * zeros, width)
    trimmed = release[:max(1, max((i + 1 for i, n in enumerate(release) if n), default=1))]
    assert versions.canonical("pypi", spelled) == ".".join(map(str, trimmed))


@deep
@given(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40)),
       st.sampled_from(["", "v", "=", "=v"]))
def test_spellings_of_one_npm_version_share_its_canonical_string(triple: tuple[int, int, int],
                                                                 prefix: str) -> None:
    assert versions.canonical("npm", prefix + padded(list(triple), 1)) == padded(list(triple), 1)


@deep
@given(st.integers(1, 3), st.integers(0, 40), st.integers(0, 40) | st.none(), st.sampled_from(["", "go", "v"]))
def test_spellings_of_one_go_version_share_its_canonical_string(major: int, minor: int, patch: int | None,
                                                                prefix: str) -> None:
    # the toolchain writes go1.21 for 1.21.0 (the Go vulnerability database's semver);
    # a module version is the semver with a leading "v"
    assume(not (prefix == "v" and patch is None))  # "v1.21" is no module version
    spelled = f"{prefix}{major}.{minor}" + ("" if patch is None else f".{patch}")
    assert versions.canonical("go", spelled) == f"{major}.{minor}.{patch or 0}"


@deep
@given(numbers, st.integers(1, 3), st.booleans(), st.booleans())
def test_spellings_of_one_debian_version_share_its_canonical_string(upstream: list[int], width: int,
                                                                    epoch: bool, revision: bool) -> None:
    # dpkg compares digit runs as numbers, a zero epoch is no epoch, and revision "0" is none
    spelled = ("0:" if epoch else "") + padded(upstream, width) + ("-0" if revision else "")
    assert versions.canonical("debian", spelled) == padded(upstream, 1)


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
