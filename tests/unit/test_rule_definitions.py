"""Rules as car_graph/rules.py reads and hands them on: what a parsed rule gives the database
(``Rule.parameters``: the parameters of queries/apply_rule.cypher and its siblings), the error a
bad rule, rules file or domain's bundled rules raise (the file, the rule and the reason named),
and the version spellings ``canonicalize_versions`` rewrites before rules compare them. Expected
values are written out by hand; the parameter names are read off the statements' own headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from car_graph import cypher
from car_graph.domains import Domain, DomainRegistry
from car_graph.errors import RulesError
from car_graph.records import parse_record
from car_graph.rules import (
    Rule,
    bundled_rules,
    canonicalize_versions,
    domain_rules,
    load_rules,
    parse_rules,
    rule_to_mapping,
    rules_from_mappings,
)

# what the ingest adds to a rule's parameters when it runs the statement (ingest/pipeline.py)
RUN_PARAMETERS = {"ids", "now", "run", "reason"}
DOMAINS = Path(__file__).resolve().parents[2] / "ingest" / "domains"


def rule(**fields: Any) -> Rule:
    [parsed] = parse_rules({"rules": [{"name": "r", "newer_kind": "release", "older_kind": "advisory",
                                       "scope": "package", **fields}]}, "mine.yaml")
    return parsed


FULL: dict[str, Any] = {
    "scope": {"all": ["package", "ecosystem"]}, "order": "previous", "partial": True, "partial_from": "amends",
    "confidence": 0.9, "domain": "security",
    "match": {"newer": "version", "older": "fixed_versions", "op": "in", "versioning": "pypi"}}


def test_a_plain_rules_parameters() -> None:
    assert rule().parameters() == {
        "rule": "r", "newer_kinds": ["release"], "older_kinds": ["advisory"], "scope_types": ["package"],
        "scope_mode": "any", "scope_all": False, "require_later": False, "match_op": None,
        "newer_attr": None, "older_attr": None, "partial": False, "partial_attr": None,
        "confidence": 1.0, "domain": None}


def test_every_field_of_a_rule_reaches_its_parameters() -> None:
    assert rule(**FULL).parameters() == {
        "rule": "r", "newer_kinds": ["release"], "older_kinds": ["advisory"],
        "scope_types": ["package", "ecosystem"], "scope_mode": "all", "scope_all": True,
        "require_later": True, "match_op": "in", "newer_attr": "attr_version",
        "older_attr": "attr_fixed_versions", "partial": True, "partial_attr": "attr_amends",
        "confidence": 0.9, "domain": "security"}
    assert rule(order="later").parameters()["require_later"] is True
    assert rule(order="any").parameters()["require_later"] is False


@pytest.mark.parametrize("fields", [{}, FULL], ids=["plain", "every field"])
def test_a_rules_parameters_are_the_ones_its_statements_declare(fields: dict[str, Any]) -> None:
    params = set(rule(**fields).parameters())
    # scope_mode is stored with the rule (and hashed to tell a changed rule) but no statement reads it
    assert params - {"scope_mode"} == set(cypher.declared_parameters("apply_rule")) - RUN_PARAMETERS
    assert set(cypher.declared_parameters("apply_rule_previous")) - RUN_PARAMETERS <= params
    assert set(cypher.declared_parameters("mark_unresolved")) - RUN_PARAMETERS <= params


@pytest.mark.parametrize(("versioning", "reason"), [
    ("@1abc", "'match.versioning' '@1abc': '@' must name an attribute"),
    ("@", "'match.versioning' '@': '@' must name an attribute"),
    ("pypy", "'match.versioning': unknown versioning scheme 'pypy'"),
])
def test_a_misspelt_versioning_is_refused_naming_the_file(versioning: str, reason: str) -> None:
    with pytest.raises(RulesError) as caught:
        rule(match={"newer": "version", "older": "fixed_versions", "op": "in", "versioning": versioning})
    assert caught.value.source.startswith("mine.yaml")
    assert caught.value.reason.startswith(reason)


@pytest.mark.parametrize("versioning", ["@ecosystem", "@e", "pypi", "PyPI"])
def test_a_versioning_naming_an_attribute_or_a_scheme_is_accepted(versioning: str) -> None:
    parsed = rule(match={"newer": "version", "older": "fixed_versions", "op": "in", "versioning": versioning})
    assert parsed.match is not None and parsed.match.versioning == versioning


def test_a_domains_unreadable_or_broken_rules_file_is_an_error_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "rules.yaml"
    broken.write_text("rules: [unclosed", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        domain_rules(Domain("mine", rules=broken))
    assert caught.value.source == str(broken)
    assert caught.value.reason.startswith("cannot read the mine domain's bundled rules: ")
    with pytest.raises(RulesError) as caught:
        domain_rules(Domain("mine", rules=tmp_path / "missing.yaml"))
    assert caught.value.source == str(tmp_path / "missing.yaml")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("rules:\n  - name: r\n    newer_kind: release\n", encoding="utf-8")  # no older_kind
    with pytest.raises(RulesError) as caught:
        domain_rules(Domain("mine", rules=wrong))
    assert caught.value.source.startswith(str(wrong))


def test_a_domains_rules_file_is_read_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_bytes("rules:\n  - name: r\n    newer_kind: release\n    older_kind: advisory\n"
                     "    scope: package\n    description: Zürich\n".encode())
    assert [r.description for r in domain_rules(Domain("mine", rules=path))] == ["Zürich"]
    assert domain_rules(Domain("bare")) == []  # a domain that bundles no rules


def test_asking_for_a_domain_without_bundled_rules_names_those_that_have_them() -> None:
    with pytest.raises(RulesError) as caught:
        bundled_rules("no-such-domain")
    assert caught.value.source == "no-such-domain"
    prefix = "no bundled rules for this domain (installed domains with rules: "
    assert caught.value.reason.startswith(prefix) and caught.value.reason.endswith(")")
    listed = caught.value.reason[len(prefix):-1].split(", ")
    # the built-in folders with a rules.yaml, read off the tree; entry-point domains may add more
    assert {p.parent.name for p in DOMAINS.glob("*/rules.yaml")} <= set(listed)
    assert set(listed) == {d.name for d in DomainRegistry.installed() if d.rules is not None}


def test_with_no_domain_bundling_rules_the_error_says_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DomainRegistry, "installed", classmethod(lambda cls: cls([Domain("bare")])))
    with pytest.raises(RulesError) as caught:
        bundled_rules("bare")
    assert caught.value.reason == "no bundled rules for this domain (installed domains with rules: none)"


def test_a_rule_takes_its_domain_and_description_or_the_files() -> None:
    assert (rule().domain, rule().description) == (None, "")
    assert rule(domain="law", description="Overruled.").domain == "law"
    assert rule(description="Overruled.").description == "Overruled."
    [inherited] = parse_rules({"domain": "law", "rules": [{"name": "r", "newer_kind": "release",
                                                          "older_kind": "advisory", "scope": "package"}]}, "f")
    assert inherited.domain == "law"


BASE = {"name": "r", "newer_kind": "release", "older_kind": "advisory", "scope": "package"}


@pytest.mark.parametrize(("data", "source", "reason"), [
    ([], "mine.yaml", "a rules file is a mapping with a 'rules' list"),
    ({"domain": 3, "rules": []}, "mine.yaml", "'domain' must be a string"),
    ({"rules": ["r"]}, "mine.yaml rule 1", "each rule is a mapping"),
    ({"rules": [{**BASE, "name": "not a name"}]}, "mine.yaml rule 1", "'name' must be an identifier"),
    ({"rules": [BASE, {**BASE, "partial": "yes"}]}, "mine.yaml rule 2", "'partial' must be true or false"),
    ({"rules": [{**BASE, "partial_from": 3}]}, "mine.yaml rule 1",
     "partial_from must be a name or a non-empty list of names"),
    ({"rules": [{**BASE, "confidence": "high"}]}, "mine.yaml rule 1", "'confidence' must be a number in (0, 1]"),
    ({"rules": [{**BASE, "confidence": 0}]}, "mine.yaml rule 1", "'confidence' must be a number in (0, 1]"),
    ({"rules": [{**BASE, "confidence": 1.5}]}, "mine.yaml rule 1", "'confidence' must be a number in (0, 1]"),
    ({"rules": [{k: v for k, v in BASE.items() if k != "older_kind"}]}, "mine.yaml rule 1",
     "older_kind must be a name or a non-empty list of names"),
    ({"rules": [{**BASE, "match": {"newer": 3, "older": "fixed", "op": "in"}}]}, "mine.yaml rule 1",
     "match.newer must be a name or a non-empty list of names"),
    ({"rules": [{**BASE, "match": {"newer": "v", "older": "fixed", "op": "in", "versioning": 3}}]},
     "mine.yaml rule 1", "'match.versioning' must be a scheme name or '@attribute'"),
    ({"rules": [BASE, BASE]}, "mine.yaml", "rule names must be unique"),
])
def test_a_bad_rule_names_its_file_its_rule_and_the_reason(data: Any, source: str, reason: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(data, "mine.yaml")
    assert (caught.value.source, caught.value.reason) == (source, reason)


def test_the_edges_of_the_confidence_range_are_accepted() -> None:
    assert [rule(confidence=c).confidence for c in (1, 0.01)] == [1.0, 0.01]


def test_a_rules_file_that_cannot_be_read_or_parsed_names_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("rules: [unclosed", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(broken)
    assert caught.value.source == str(broken) and caught.value.reason.startswith("cannot read rules: ")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("rules:\n  - name: r\n", encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(wrong)
    assert caught.value.source == f"{wrong} rule 1"


VERSIONED = parse_rules({"rules": [
    {"name": "unversioned", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
     "match": {"newer": "version", "older": "fixed_versions", "op": "in"}},
    {"name": "by_ecosystem", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
     "match": {"newer": "version", "older": "fixed_versions", "op": "in", "versioning": "@ecosystem"}},
    {"name": "pypi", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
     "match": {"newer": "version", "older": "fixed_versions", "op": "in", "versioning": "pypi"}},
]}, "versions.yaml")


def attributes(kind: str, **attrs: Any) -> dict[str, Any]:
    record = parse_record({"id": "d", "text": "t", "kind": kind, "attributes": attrs})
    return canonicalize_versions(record, VERSIONED)


def test_versions_are_rewritten_in_their_schemes_canonical_spelling() -> None:
    # PEP 440: 1.0.0 and 1.0 are the version 1; a list keeps what is no string, and what does
    # not parse as a version stays as written
    assert attributes("release", version="1.0.0") == {"version": "1"}
    assert attributes("advisory", fixed_versions=["2.0", "2.0.0", 3, "not a version"]) == {
        "fixed_versions": ["2", "2", 3, "not a version"]}
    assert attributes("advisory", fixed_versions="2.0.0") == {"fixed_versions": "2"}


def test_only_the_attribute_of_the_documents_side_of_the_rule_is_rewritten() -> None:
    # an advisory's own "version" is not the release's version the rule reads
    assert attributes("advisory", version="1.0.0", fixed_versions=["2.0.0"]) == {
        "version": "1.0.0", "fixed_versions": ["2"]}
    assert attributes("release", version="1.0.0", fixed_versions=["2.0.0"]) == {
        "version": "1", "fixed_versions": ["2.0.0"]}
    assert attributes("notice", version="1.0.0") == {"version": "1.0.0"}


def test_a_scheme_named_by_an_attribute_is_the_records_own() -> None:
    only = [r for r in VERSIONED if r.name == "by_ecosystem"]
    record = parse_record({"id": "d", "text": "t", "kind": "release",
                           "attributes": {"ecosystem": "npm", "version": "v1.2.3"}})
    assert canonicalize_versions(record, only) == {"ecosystem": "npm", "version": "1.2.3"}
    bare = parse_record({"id": "d", "text": "t", "kind": "release", "attributes": {"version": "v1.2.3"}})
    assert canonicalize_versions(bare, only) == {"version": "v1.2.3"}  # no ecosystem: left alone


@pytest.mark.parametrize("domain", ["drug", "security"])  # law bundles none, on purpose
def test_a_domains_rules_written_out_read_back_as_the_same_rules(domain: str) -> None:
    # how a graph stores the rules it was built with (rule_to_mapping), read back
    rules = bundled_rules(domain)
    assert rules and rules_from_mappings([rule_to_mapping(r) for r in rules], "stored") == rules


@pytest.mark.parametrize("fields", [{}, FULL, {"order": "later", "scope": ["package", "ecosystem"],
                                             "match": {"newer": "a", "older": "b", "op": "equals"}}],
                         ids=["plain", "every field", "any scope, no versioning"])
def test_a_rule_written_out_reads_back_as_the_same_rule(fields: dict[str, Any]) -> None:
    original = rule(**fields, description="Why it holds.")
    assert rules_from_mappings([rule_to_mapping(original)], "stored") == [original]
    assert rule_to_mapping(rule(**fields)).get("description") is None  # no empty description written


def test_a_rule_is_written_out_with_only_the_keys_it_uses() -> None:
    assert rule_to_mapping(rule(match={"newer": "version", "older": "fixed_versions", "op": "in"})) == {
        "name": "r", "newer_kind": ["release"], "older_kind": ["advisory"], "scope": {"any": ["package"]},
        "order": "any", "partial": False, "confidence": 1.0, "domain": None,
        "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}


def test_a_bad_stored_rule_names_the_rule_set_it_came_from() -> None:
    with pytest.raises(RulesError) as caught:
        rules_from_mappings([{"name": "r", "newer_kind": "release"}], "stored rules of law")
    assert caught.value.source == "stored rules of law rule 1"
