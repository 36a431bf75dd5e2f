"""The domain rules as executed in Cypher give exactly the edges of the reference semantics
(car_graph/semantics.py), one per rule, on real records (tests/fixtures, a few lines of each source); and the rule
precision/recall against the sources' own links is computed on the edges Neo4j built."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph.errors import InputProblem
from car_graph.rules import bundled_rules
from car_graph.semantics import rule_edges
from car_graph_benchmarks.links import measure_rules, source_links
from car_graph_benchmarks.questions import load_domain, supersession_edges

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("domain", ["security", "law", "drug"])
def test_cypher_rules_match_the_reference_on_real_records(car: CarClient, domain: str) -> None:
    problems: list[InputProblem] = []
    records = load_domain(domain, FIXTURES, problems)
    expected = {(e.newer, e.older, e.rule): e.partial for e in supersession_edges(records)}
    assert expected, f"the {domain} fixtures should produce at least one edge"

    summary = car.ingest(records)  # the domain's bundled rules
    rows = car.store.read("document_relations", domain=None)
    found = {(r["newer"], r["older"], r["rule"]): r["partial"] for r in rows}

    assert set(found) == set(expected)
    assert found == expected
    assert sum(summary.edges_by_rule.values()) == len(expected)


@pytest.mark.parametrize("domain", ["security", "law", "drug"])
def test_rule_precision_recall_is_measured_on_the_edges_neo4j_built(
    car: CarClient, domain: str
) -> None:
    records = load_domain(domain, FIXTURES, [])
    ids = {r.id for r in records}
    rows = {r.rule: r for r in measure_rules(car, domain, FIXTURES, records)}

    built_rows = car.store.read("rule_edges", domain=None)
    built = {(r["newer"], r["older"]): r for r in built_rows}
    links = {p for p in source_links(domain, FIXTURES, records).pairs()
             if p[0] in ids and p[1] in ids}
    assert links, f"the {domain} fixtures should hold at least one source link"
    by_rules = {(r["newer"], r["older"]) for r in built_rows if r["rule"] != "explicit"}
    # each rule's own edges in Cypher are the reference's edges of that rule
    reference = rule_edges(bundled_rules(domain), records)
    for rule in bundled_rules(domain):
        assert rows[rule.name].edges == sum(1 for e in reference if e.rule == rule.name)
    # and the graph is left as ingest built it
    assert set(built) == {(e.newer, e.older) for e in supersession_edges(records)}
    if domain == "law":  # no rules: the CONAN rows are explicit edges, and no "all rules" row
        explicit = rows["explicit"]
        assert "all rules" not in rows and not by_rules
        assert explicit.edges == len(built) == len(links)
        assert explicit.true_positives == len(links & set(built))
        return
    every = rows["all rules"]
    assert every.edges == len(by_rules)
    assert every.true_positives == len(by_rules & links)
    assert every.relevant == len(links)
    assert set(every.false_negatives) == links - by_rules
