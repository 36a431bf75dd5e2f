"""A domain's patterns apply to its own documents, and to questions only as far as the graph holds
documents of that domain. The failure this guards against, measured on a user's standards corpus
(its own domain declared in YAML): the security domain's ``version`` identifier turned "v1.0" in
unrelated standards documents into a ``version:1.0`` entity, and "Is TLS 1.0 still in force?"
then linked every one of them through that key."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph.extraction import EntityExtractor
from car_graph.records import parse_record
from car_graph.rules import load_domain_file

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

STANDARDS_YAML = """\
domain: standards
identifiers:
  - {type: rfc, pattern: 'RFC\\s?\\d{3,5}', case_insensitive: true, key: digits}
names:
  - {type: protocol}
rules:
  - {name: deprecation_voids_standard, newer_kind: deprecation, older_kind: standard,
     scope: protocol, order: later}
"""


def standard(doc_id: str, kind: str, published: str, protocol: str, text: str, **attributes) -> dict:
    return {"id": doc_id, "kind": kind, "domain": "standards", "published": published,
            "title": text.split(".")[0], "text": text, "scope": {"protocol": protocol},
            "attributes": attributes}


STANDARDS = [
    standard("STD-TLS10", "standard", "1999-01-01", "TLS",
             "TLS 1.0 specifies the Transport Layer Security protocol, version 1.0 of it.",
             rfc="RFC 2246"),
    standard("DEP-TLS10", "deprecation", "2021-03-01", "TLS",
             "RFC 8996 deprecates TLS 1.0 and TLS 1.1; implementations must not negotiate them.",
             rfc="RFC 8996"),
    # unrelated documents that happen to carry a "v1.0"
    standard("STD-STYLE", "standard", "2020-05-01", "house style",
             "House style guide v1.0: headings, tables and the spelling of product names."),
    standard("STD-SCHEMA", "standard", "2020-06-01", "schema registry",
             "Schema registry conventions v1.0: field names and how versions are numbered."),
]
ADVISORY = {"id": "ADV-LOG4J", "kind": "advisory", "domain": "security", "published": "2021-12-10",
            "title": "Remote code execution in log4j-core",
            "text": "JNDI lookups in log4j-core allow remote code execution; fixed in v2.17.1.",
            "scope": {"package": "maven:org.apache.logging.log4j:log4j-core"},
            "attributes": {"cve": "CVE-2021-44228"}}


def standards_domain(tmp_path: Path):
    path = tmp_path / "standards.yaml"
    path.write_text(STANDARDS_YAML, encoding="utf-8")
    domain, rules = load_domain_file(path)
    assert domain is not None and domain.name == "standards" and len(rules) == 1
    return domain, rules


def entity_types(car: CarClient) -> set[str]:
    return {r["type"] for r in car.driver.execute_query(
        "MATCH (e:Entity)<--(:Document) RETURN DISTINCT e.type AS type").records}


def test_the_premise_security_versions_match_v1_0(extractor: EntityExtractor) -> None:
    # read with every domain (what a text without a declared domain gets), "v1.0" IS a version:
    # the scoped tests below would pass vacuously otherwise
    text = STANDARDS[2]["text"]
    assert ("version", "1.0") in {(m.type, m.key) for m in extractor.extract(text)}


def test_a_user_domain_alone_is_never_read_through_another_domains_patterns(
    db, embedder, tmp_path: Path
) -> None:
    domain, rules = standards_domain(tmp_path)
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as car:
        car.ingest([parse_record(r) for r in STANDARDS], rules, domain=domain)
        # documents: only the standards domain's own entities (its identifier, its name type)
        assert entity_types(car) == {"rfc", "protocol"}
        assert car.retriever.domains.names == ("standards",)
        report = car.retrieve_report("Is TLS 1.0 still in force?", k=3)
        # the domain's own identifier still links, exactly (key: its digits)
        assert "rfc:8996" in car.retrieve_report("What does rfc 8996 say?", k=2).question_entities
    assert not any(e.startswith("version:") for e in report.question_entities)
    assert "protocol:tls" in report.question_entities
    # the question reaches the deprecation through the standards rule; the "v1.0" documents are
    # no anchor linked through a shared key
    assert report.results[0].doc_id == "DEP-TLS10"
    assert report.results[0].chain[0].from_id == "STD-TLS10"


def test_with_security_documents_in_the_graph_security_patterns_apply_to_questions(
    db, embedder, tmp_path: Path
) -> None:
    domain, rules = standards_domain(tmp_path)
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as car:
        car.ingest([parse_record(r) for r in STANDARDS], rules, domain=domain)
        car.ingest([parse_record(ADVISORY)])
        # the security document is read with security's patterns, the standards ones still not
        assert {"cve", "version"} <= entity_types(car)
        linked_versions = {r["id"] for r in car.driver.execute_query(
            "MATCH (d:Document)-[:MENTIONS]->(:Entity {type: 'version'}) RETURN d.id AS id").records}
        assert linked_versions == {"ADV-LOG4J"}
        assert car.retriever.domains.names == ("security", "standards")
        # "v2.17.1" keys as "2.17.1" only through security's version pattern (the generic
        # identifier-like token would be "v2.17.1"), and the CVE through its identifier pattern
        report = car.retrieve_report("Does v2.17.1 fix CVE-2021-44228?", k=2)
        assert {"version:2.17.1", "cve:cve-2021-44228"} <= set(report.question_entities)
        assert report.results[0].doc_id == "ADV-LOG4J"
        # a standards question still links no version
        tls = car.retrieve_report("Is TLS 1.0 still in force?", k=3)
        assert not any(e.startswith("version:") for e in tls.question_entities)
