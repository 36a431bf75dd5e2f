"""The domain rules as executed in Cypher give exactly the edges of the adapters' Python mirror
of the same rules, on real records (tests/fixtures, a few lines of each source)."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph.errors import InputProblem
from car_graph.benchmarks.questions import load_domain, supersession_edges

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("domain", ["security", "law", "drug"])
def test_cypher_rules_match_the_python_mirror_on_real_records(car: CarClient, domain: str) -> None:
    problems: list[InputProblem] = []
    records = load_domain(domain, FIXTURES, problems)
    expected = {(e.newer, e.older): e.partial for e in supersession_edges(records)}
    assert expected, f"the {domain} fixtures should produce at least one edge"

    summary = car.ingest(records)  # the domain's bundled rules
    rows = car.store.read("document_relations", domain=None)
    found = {(r["newer"], r["older"]): r["partial"] for r in rows}

    assert set(found) == set(expected)
    assert found == expected
    assert sum(summary.edges_by_rule.values()) == len(expected)
