"""The compliance benchmark through the public interface: either corpus, ingested into a real
Neo4j, gives exactly the generator's intended SUPERSEDES edges -- the rules corpus through
rules.yaml ({all: [employee, ticker]} scopes), the other through its explicit references."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph_benchmarks import compliance

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


@pytest.mark.parametrize("corpus", ["documents_rules.jsonl", "documents.jsonl"])
def test_ingested_edges_equal_the_intended_edges(car: CarClient, tmp_path: Path, corpus: str) -> None:
    bench = compliance.generate(examples=16, seed=9)
    paths = compliance.write(bench, tmp_path)
    rules = paths["rules.yaml"] if corpus == "documents_rules.jsonl" else None
    summary = car.ingest_file(paths[corpus], rules_path=rules)
    assert summary.documents == len(bench.documents) and not summary.skipped
    assert not summary.cycles and not summary.missing_references and summary.unresolved == 0

    rows = car.driver.execute_query(
        "MATCH (n:Document)-[s:SUPERSEDES]->(o:Document) "
        "RETURN n.id AS newer, o.id AS older, s.rule AS rule, s.effective AS effective"
    ).records
    found = {(r["newer"], r["older"]): (r["rule"], r["effective"].to_native()) for r in rows}
    intended = {(e.newer, e.older): (e.relation, e.effective) for e in bench.intended}
    assert set(found) == set(intended)
    assert {pair: eff for pair, (_, eff) in found.items()} == {
        pair: eff for pair, (_, eff) in intended.items()
    }
    if rules is not None:
        assert {pair: rule for pair, (rule, _) in found.items()} == {
            pair: rel for pair, (rel, _) in intended.items()
        }
