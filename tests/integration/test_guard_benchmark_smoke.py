"""Smoke run of the guard benchmark (benchmarks/guard.py) on the bundled raw security sample:
the same code paths as the full run (`python -m car_graph_benchmarks.guard`), on 7 documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph_benchmarks import guard as guard_benchmark

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.long(90)]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_guard_benchmark_measures_the_guarded_context_chunks_and_the_citator(car: CarClient) -> None:
    result = guard_benchmark.run(car, FIXTURES, split="test", n_distractors=0,
                                 chunk_documents=7, citator_texts=5)
    assert result.questions == 3 and result.documents == 7
    voided = result.voided_share
    assert voided["replace"] <= voided["before"] and voided["annotate_unwarned"] <= voided["before"]
    assert voided["replace"] == 0.0
    assert result.tca["guarded_replace"] >= result.tca["dense"]
    assert set(result.latency_ms) == {"k=5 ids", "k=5 text", "k=20 ids", "k=20 text"}
    assert all(v["p50"] > 0 for v in result.latency_ms.values())
    assert result.chunks["n"] >= 7 and result.chunks["accuracy"] >= 0.9 and result.chunks["wrong"] == 0
    assert result.citator["texts"] == 5 and result.citator["mentions"] > 0
    assert result.citator["precision"] >= 0.9 and result.citator["recall"] >= 0.9
    assert "strict TCA@5" in result.table()


def test_reproduce_reports_the_guard_measured_on_the_security_graph(car: CarClient, driver, neo4j_target,
                                                                    tmp_path: Path) -> None:
    from car_graph import schema
    from car_graph_benchmarks.reproduce import reproduce

    report = reproduce(car, lambda: schema.reset(driver, neo4j_target.database, neo4j_target.uri),
                       FIXTURES, tmp_path / "results.md", domains=("security",), variant_domains=(),
                       synthetic=False, with_compliance=False, n_distractors=0)
    assert report.guard is not None and (report.guard.domain, report.guard.questions) == ("security", 3)
    assert report.guard.voided_share["replace"] == 0.0
    section = (tmp_path / "results.md").read_text(encoding="utf-8").split("## Freshness guard (smoke)")[1]
    assert "first 3 test-split questions of the security graph" in section
    assert report.guard.table() in section
