"""Domains registered by name: found by scanning a package's subpackages and through entry points;
each domain's declarations apply to its own documents, and to questions as far as the graph holds
documents of it."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
from pathlib import Path

import pytest

from car_graph import versions
from car_graph.domains import (
    ENTRY_POINT_GROUP,
    Domain,
    DomainRegistry,
    IdentifierSpec,
    NameSpec,
    discover_domains,
    domain_from_json,
    domain_from_mapping,
    domain_to_mapping,
)
from car_graph.errors import ConfigError, InputProblem, RulesError
from car_graph.extraction import EntityExtractor, ScopedText
from car_graph.ingest.sources import format_names, read_source
from car_graph.rules import bundled_rules

TICKETS = domain_from_mapping({
    "domain": "tickets", "identifiers": [{"type": "ticket", "pattern": r"TCK-\d{4,}"}],
    "names": [{"type": "team"}], "name_attributes": {"squad": "team_alias"}}, "tickets.yaml")
NOTES = domain_from_mapping({
    "domain": "notes", "identifiers": [{"type": "note", "pattern": r"v\d+\.\d+"}]}, "notes.yaml")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def plugin_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tmp folder on sys.path (a place for packages and dist-info entry points)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    importlib.invalidate_caches()
    for name in [m for m in sys.modules if m.split(".")[0] in ("fakedomains", "fakeplugin")]:
        del sys.modules[name]


def fake_domain(root: Path, package: str, folder: str, name: str | None = None) -> None:
    write(root / package / "__init__.py", "")
    write(root / package / folder / "__init__.py", f"""
        from car_graph.domains import Domain, IdentifierSpec
        DOMAIN = Domain({(name or folder)!r}, identifiers=(IdentifierSpec("ref", r"REF-\\d+"),))
    """)


def entry_point(root: Path, name: str, target: str, group: str) -> None:
    dist = root / "fakeplugin-0.1.dist-info"
    write(dist / "METADATA", "Metadata-Version: 2.1\nName: fakeplugin\nVersion: 0.1\n")
    write(dist / "entry_points.txt", f"[{group}]\n{name} = {target}\n")


# --------------------------------------------------------------------------- registration


def test_subpackages_are_the_domains_in_folder_name_order(plugin_root: Path) -> None:
    fake_domain(plugin_root, "fakedomains", "zeta")
    fake_domain(plugin_root, "fakedomains", "alpha")
    write(plugin_root / "fakedomains" / "helpers.py", "X = 1\n")  # a module, not a domain
    found = discover_domains("fakedomains", group=None)
    assert [d.name for d in found] == ["alpha", "zeta"]


def test_a_folder_whose_domain_has_another_name_is_refused(plugin_root: Path) -> None:
    fake_domain(plugin_root, "fakedomains", "alpha", name="beta")
    with pytest.raises(ConfigError, match="declares domain 'beta' but is registered as 'alpha'"):
        discover_domains("fakedomains", group=None)


def test_a_folder_without_a_domain_is_refused(plugin_root: Path) -> None:
    write(plugin_root / "fakedomains" / "__init__.py", "")
    write(plugin_root / "fakedomains" / "empty" / "__init__.py", "")
    with pytest.raises(ConfigError, match=r"fakedomains\.empty: must define DOMAIN"):
        discover_domains("fakedomains", group=None)


def test_an_entry_point_registers_a_third_party_domain(plugin_root: Path) -> None:
    write(plugin_root / "fakeplugin" / "__init__.py", """
        from car_graph.domains import Domain
        DOMAIN = Domain("compliance", description="an outside distribution's domain")
    """)
    fake_domain(plugin_root, "fakedomains", "alpha")
    entry_point(plugin_root, "compliance", "fakeplugin:DOMAIN", "car_graph_test.domains")
    importlib.invalidate_caches()
    found = discover_domains("fakedomains", group="car_graph_test.domains")
    assert [d.name for d in found] == ["alpha", "compliance"]
    assert found[1].description == "an outside distribution's domain"
    assert ENTRY_POINT_GROUP == "car_graph.domains"  # the group distributions register under


def test_a_name_registered_twice_is_an_error_not_an_override(plugin_root: Path) -> None:
    fake_domain(plugin_root, "fakedomains", "alpha")
    write(plugin_root / "fakeplugin" / "__init__.py",
          "from car_graph.domains import Domain\nDOMAIN = Domain('alpha')\n")
    entry_point(plugin_root, "alpha", "fakeplugin:DOMAIN", "car_graph_test.domains")
    importlib.invalidate_caches()
    with pytest.raises(ConfigError, match="'alpha' is registered twice"):
        discover_domains("fakedomains", group="car_graph_test.domains")


def test_a_broken_entry_point_is_named(plugin_root: Path) -> None:
    fake_domain(plugin_root, "fakedomains", "alpha")
    entry_point(plugin_root, "broken", "fakeplugin_missing:DOMAIN", "car_graph_test.domains")
    importlib.invalidate_caches()
    with pytest.raises(ConfigError, match="entry point broken = fakeplugin_missing:DOMAIN"):
        discover_domains("fakedomains", group="car_graph_test.domains")


# --------------------------------------------------------------------------- what domains bring


def test_formats_rules_and_version_schemes_come_from_the_installed_domains() -> None:
    installed = DomainRegistry.installed()
    readers = installed.formats()
    # the format names are contracts of `car-graph ingest --format`
    assert set(format_names()) == {"jsonl", *readers} == {"jsonl", "osv", "openfda-enforcement"}
    for name, reader in readers.items():
        owner = next(d for d in installed if name in d.formats)
        assert reader.__module__.startswith(f"car_graph.ingest.domains.{owner.name}.")
    for domain in installed:  # a folder's rules are its own domain's
        assert all(rule.domain == domain.name for rule in bundled_rules(domain.name))
    with pytest.raises(RulesError, match="no bundled rules"):
        bundled_rules("advisories")
    assert versions.scheme_for("crates.io") == installed.version_schemes()["crates.io"] == "cargo"


def test_a_name_type_declares_whether_its_word_order_tells_names_apart() -> None:
    courts = domain_from_mapping({"domain": "courts", "names": [{"type": "case", "ordered": True},
                                                                "party"]}, "courts.yaml")
    registry = DomainRegistry([courts])
    assert registry.ordered("case") and not registry.ordered("party")
    # stored in the graph as YAML, read back the same by another process
    assert DomainRegistry([domain_from_mapping(domain_to_mapping(courts), "graph")]).ordered("case")
    assert DomainRegistry.installed().ordered("case")  # the law domain's case names
    assert not DomainRegistry.installed().ordered("drug")  # a combination is one drug either way
    with pytest.raises(RulesError, match="'ordered' must be true or false"):
        domain_from_mapping({"domain": "courts", "names": [{"type": "case", "ordered": "yes"}]}, "c.yaml")


def test_an_identifier_declares_the_words_its_scheme_is_called_by() -> None:
    tickets = domain_from_mapping({"domain": "tickets", "identifiers": [
        {"type": "ticket", "pattern": r"TCK-\d{4,}", "scheme_words": ["TCK", "ticket"]},
        {"type": "memo", "pattern": r"MEMO-\d+"}]}, "tickets.yaml")
    assert tickets is not None
    registry = DomainRegistry([tickets])
    assert registry.scheme_words == {"tck", "ticket"}
    # stored in the graph as JSON, read back the same by another process
    again = domain_from_json(json.dumps(domain_to_mapping(tickets)), "graph")
    assert DomainRegistry([again]).scheme_words == {"tck", "ticket"}
    # the built-in domains declare theirs; a domain declaring none has none
    assert {"cve", "ghsa", "ndc", "nda"} <= DomainRegistry.installed().scheme_words
    assert DomainRegistry([NOTES]).scheme_words == frozenset()
    with pytest.raises(RulesError, match="'scheme_words' must be a list of words"):
        domain_from_mapping({"domain": "t", "identifiers": [
            {"type": "ticket", "pattern": "T-1", "scheme_words": "tck"}]}, "t.yaml")


def test_read_source_dispatches_to_the_domain_reader(tmp_path: Path) -> None:
    osv = tmp_path / "advisory.json"
    osv.write_text('{"id": "GHSA-xxxx-yyyy-zzzz", "summary": "A flaw.", "affected": []}', encoding="utf-8")
    problems: list[InputProblem] = []
    [record] = list(read_source(osv, "osv", problems))
    assert record.id == "GHSA-xxxx-yyyy-zzzz" and problems == []
    with pytest.raises(ConfigError, match="unknown format 'nope'; choose from jsonl, "):
        read_source(osv, "nope", problems)


def test_two_domains_declaring_one_format_or_scheme_name_is_an_error() -> None:
    first = Domain("a", formats={"csv": lambda path, problems: []}, version_schemes={"X": "pypi"})
    second = Domain("b", formats={"csv": lambda path, problems: []}, version_schemes={"x": "npm"})
    with pytest.raises(ConfigError, match="formats 'csv' is declared by two domains: 'a' and 'b'"):
        DomainRegistry([first, second]).formats()
    with pytest.raises(ConfigError, match="version_schemes 'x' is declared by two domains"):
        DomainRegistry([first, second]).version_schemes()


# --------------------------------------------------------------------------- scope


def test_a_record_is_read_with_its_own_domain_or_with_all_when_it_names_none_declared() -> None:
    registry = DomainRegistry([TICKETS, NOTES])
    assert registry.for_document("tickets").names == ("tickets",)
    assert registry.for_document("tickets").identifier_types == {"ticket"}
    # generic JSON Lines may omit the domain or label it without declaring anything
    assert registry.for_document(None) is registry
    assert registry.for_document("advisories") is registry
    assert registry.for_document("tickets") is registry.for_document("tickets")  # cached view
    registry.add(Domain("extra"))
    assert registry.for_document("tickets").names == ("tickets",)  # views rebuilt after add


def test_a_graph_reads_questions_with_the_domains_of_its_documents() -> None:
    registry = DomainRegistry([TICKETS, NOTES, Domain("third")])
    assert registry.for_graph(["notes", "tickets"]).names == ("tickets", "notes")  # registry order
    assert registry.for_graph(["notes"]).partial_types == frozenset()
    assert registry.for_graph(["notes", None]) is registry  # a document without a domain
    assert registry.for_graph(["notes", "undeclared"]) is registry
    assert registry.for_graph([]) is registry  # an empty graph: as before


def test_scope_view_carries_the_domain_fingerprint_of_its_own_domains() -> None:
    registry = DomainRegistry([TICKETS, NOTES])
    assert registry.for_document("tickets").fingerprint() == DomainRegistry([TICKETS]).fingerprint()
    assert registry.for_document("tickets").fingerprint() != registry.fingerprint()


# --------------------------------------------------------------------------- extraction


@pytest.fixture(scope="module")
def scoped_extractor() -> EntityExtractor:
    extractor = EntityExtractor(use_statistical=False)
    extractor.register_domain(domain_from_mapping(
        {"domain": "standards", "identifiers": [{"type": "rfc", "pattern": r"RFC \d{3,5}"}],
         "names": [{"type": "protocol", "mentions": True}]}, "standards.yaml"))
    extractor.add_names("protocol", ["TLS"])
    extractor.add_names("case", ["Roe v. Wade"])
    return extractor


TEXT = "Style guide v1.0 cites RFC 2246 on TLS and Roe v. Wade, 410 U.S. 113; see CVE-2021-44228."


def types(mentions) -> set[str]:
    return {m.type for m in mentions}


def test_a_text_without_scope_is_read_with_every_domain(scoped_extractor: EntityExtractor) -> None:
    assert types(scoped_extractor.extract(TEXT)) == {"version", "rfc", "protocol", "case",
                                                     "us_reports", "cve"}


def test_a_scoped_text_is_read_with_its_domains_only(scoped_extractor: EntityExtractor) -> None:
    registry = scoped_extractor.registry
    standards = scoped_extractor.extract(TEXT, registry.for_document("standards"))
    assert {(m.type, m.key) for m in standards} == {("rfc", "rfc 2246"), ("protocol", "tls")}
    # the law domain: its identifier, its known names and its component's guesses, nothing else
    law = scoped_extractor.extract(TEXT, registry.for_document("law"))
    assert types(law) == {"case", "us_reports"}
    both = scoped_extractor.extract(TEXT, registry.for_graph(["law", "security"]))
    assert types(both) == {"case", "us_reports", "cve", "version"}


def test_extract_many_takes_each_texts_own_scope(scoped_extractor: EntityExtractor) -> None:
    registry = scoped_extractor.registry
    texts = [ScopedText(TEXT, registry.for_document("standards")), TEXT,
             ScopedText(TEXT, registry.for_document("law"))]
    assert scoped_extractor.extract_many(texts, batch_size=2) == [
        scoped_extractor.extract(TEXT, registry.for_document("standards")),
        scoped_extractor.extract(TEXT),
        scoped_extractor.extract(TEXT, registry.for_document("law")),
    ]


def test_a_name_type_no_domain_declares_is_kept_in_every_scope(scoped_extractor: EntityExtractor) -> None:
    scoped_extractor.add_names("vendor_product", ["Widgetron"])
    scope = scoped_extractor.registry.for_document("standards")
    assert ("vendor_product", "widgetron") in {
        (m.type, m.key) for m in scoped_extractor.extract("Widgetron speaks TLS.", scope)}


def test_identifier_spec_and_name_spec_types_are_the_domain_entity_types() -> None:
    domain = Domain("d", identifiers=(IdentifierSpec("a", "x"),), names=(NameSpec("b"),),
                    identifier_attributes={"ref": "c", "aliases": None}, name_attributes={"brand": "e"})
    assert domain.entity_types == {"a", "b", "c", "e"}


def test_the_docs_show_the_example_domain_folder_the_wheel_test_builds() -> None:
    root = Path(__file__).resolve().parents[2]
    docs = (root / "docs" / "domains.md").read_text(encoding="utf-8")
    example = root / "tests" / "fixtures" / "example_domain" / "tickets"
    for name in ("__init__.py", "rules.yaml"):
        assert (example / name).read_text(encoding="utf-8").strip() in docs, name
