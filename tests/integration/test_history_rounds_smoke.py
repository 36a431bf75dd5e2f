"""Smoke version of `make bench`'s history rounds (issue 61, Deliver 6): a small corpus,
ingested, corrected in two rounds, beside the same documents with no history, each on a fresh
managed server of its own (what the full run does at 100,000 documents). Keeps the code path
honest: the rounds close versions, every reading answers, the stores are measured and the report
renders its section."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from car_graph.local_server import LocalNeo4j
from car_graph.settings import Settings
from car_graph_benchmarks import bench, history_rounds

pytestmark = [pytest.mark.neo4j, pytest.mark.long(120)]


def test_history_rounds_measure_closed_versions_beside_a_graph_without_them(tmp_path: Path) -> None:
    settings = Settings.from_env()
    instance = f"smoke-history-{os.getpid()}"
    try:
        result = history_rounds.run(500, 2, 0.2, 10, tmp_path, instance, "small")
    finally:
        for name in (instance, instance + "-flat"):
            shutil.rmtree(LocalNeo4j(settings.home, settings.neo4j_version, name).instance_dir,
                          ignore_errors=True)
    first, rounds = result["first_ingest"], result["rounds_detail"]
    assert [r["updated"] for r in rounds] == [100, 100], "each round changes a fifth of the documents"
    # each corrected document closes a version: the graph grows by at least one node per correction
    assert rounds[-1]["nodes"] >= first["nodes"] + 200
    assert result["flat_counts"]["nodes"] < rounds[-1]["nodes"]
    for reading in ("car_history", "car_no_history", "car_history_known_at"):
        timing = result["latency_ms"][reading]
        assert timing["n"] == 10 and 0 < timing["p50_ms"] <= timing["p95_ms"], reading
    assert result["known_at"]["run"] == rounds[0]["run"]
    assert result["store_bytes"]["history"] > 0 and result["store_bytes"]["no_history"] > 0
    assert result["ratios"]["known_at_over_current"] > 0

    result.update(machine=bench.machine(), command="smoke", measured_at="now")
    (tmp_path / "history-500.json").write_text(json.dumps(result, default=str))
    out = tmp_path / "benchmarks.md"
    bench.write_report(tmp_path, out, "smoke")
    text = out.read_text()
    assert "## Recorded history: rounds of corrections" in text
    assert f"**{result['ratios']['known_at_over_current']:.2f}**" in text
    assert f"`car --known-at run:{rounds[0]['run']}`, with history" in text
