"""Smoke versions of the benchmarks, run in CI: the synthetic set and the bundled real sample.

The full runs (2,400 synthetic documents; ~2,500 real documents per domain) are `make
reproduce`; these keep the same code paths honest on every commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.demo import sample_dir
from car_graph_benchmarks import statement_cost, synthetic

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.long(150)]


def test_car_beats_every_baseline_on_the_synthetic_benchmark(car: CarClient, tmp_path: Path) -> None:
    # 400 documents give 66 questions: enough for the margins below, half the 800's time
    paths = synthetic.write(synthetic.generate(n_docs=400, seed=11), tmp_path)
    summary = car.ingest_file(paths["documents.jsonl"], rules_path=paths["rules.yaml"])
    assert summary.documents == 400 and not summary.skipped
    assert summary.cycles, "the generator plants one supersession cycle"

    report = car.evaluate(paths["queries.jsonl"], k=5)
    scores = {name: run.scores for name, run in report.systems.items()}
    assert set(scores) == {"bm25", "dense", "hybrid", "car"}
    assert scores["car"].tca >= 0.97, report.table()
    for baseline in ("bm25", "dense", "hybrid"):
        assert scores[baseline].tca <= scores["car"].tca - 0.5, report.table()

    # car.cypher (one statement) returns what anchors.cypher then closure.cypher return, on a
    # graph with chains, release lines and a cycle
    questions = [json.loads(line)["question"] for line in paths["queries.jsonl"].read_text().splitlines()]
    cost = statement_cost.measure(car, questions[:40])
    assert cost["questions"] == 40 and cost["two_statements_vs_car_differing"] == 0
    assert all(v["p50_ms"] > 0 for v in cost["variants"].values())


def _cli(target, *args: str) -> list[str]:
    return ["--uri", target.uri, "--user", target.user, "--password", target.password,
            "--database", target.database, *args]


def test_demo_answers_the_sample_questions_with_their_controlling_documents(
    db, neo4j_target
) -> None:
    runner = CliRunner()
    demo = runner.invoke(main, _cli(neo4j_target, "demo"), catch_exceptions=False)
    assert demo.exit_code == 0, demo.output
    assert "superseded by" in demo.output and "[expected]" in demo.output

    questions = sample_dir() / "questions.jsonl"
    result = runner.invoke(main, _cli(neo4j_target, "eval", str(questions), "--json"),
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # the --json contract of `car-graph eval`
    assert {"k", "n", "systems"} <= set(report) and report["k"] == 5
    assert report["n"] == sum(1 for line in questions.read_text().splitlines() if line.strip())
    for name in ("bm25", "dense", "hybrid", "car"):
        assert {"tca", "gold_at_k", "anchor_recall", "mrr", "tca_ci95"} <= set(report["systems"][name])
    assert report["systems"]["car"]["tca"] >= 0.85
    assert report["systems"]["car"]["tca"] > report["systems"]["dense"]["tca"]
    # the default embedder names the exact export it ran and the CPU kernels it ran on, so two
    # machines' scores can be told apart when they differ
    embedder = report["embedder"]
    assert (embedder["variant"], embedder["dimensions"]) == ("onnx-int8", 384)
    assert len(embedder["onnx_sha256"]) == 64 and embedder["runtime"].startswith("onnxruntime ")
    assert embedder["cpu"]["machine"] and isinstance(embedder["cpu"]["features"], list)
    # the demo's ingest ran here, with the same embedder
    [ingested] = report["graph_embedders"]
    assert ingested["embedder"] == embedder and ingested["runs"] >= 1

    # the --json contract of `car-graph eval --verdicts`: car and the naive baseline, the sweep
    result = runner.invoke(main, _cli(neo4j_target, "eval", str(questions), "--verdicts",
                                      "--margins", "1.0,0.5", "--json"), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    verdicts = json.loads(result.output)
    assert (verdicts["k"], verdicts["n"], verdicts["margin"]) == (5, report["n"], 1.0)
    assert set(verdicts["systems"]) == {"car", "dense_top1_status"}
    for scores in verdicts["systems"].values():
        assert {"decisive", "decisive_precision", "decisive_coverage", "ambiguous",
                "ambiguous_with_gold_rate", "stale", "stale_rate"} <= set(scores)
    assert [m["margin"] for m in verdicts["margin_sweep"]] == [0.5, 1.0]
    assert verdicts["embedder"] == embedder
    assert verdicts["graph_embedders"] == report["graph_embedders"]


def test_retrieve_json_carries_chain_and_status(db, neo4j_target, tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(
        json.dumps({"id": "old", "text": "Holding on interstate river navigation tolls",
                    "published": "1850-01-01"}) + "\n"
        + json.dumps({"id": "new", "text": "Opinion of the court", "published": "1900-01-01",
                      "supersedes": [{"id": "old", "evidence": "expressly overruled"}]}) + "\n"
        + '{"id": "broken", "text": 7}\n'
    )
    runner = CliRunner()  # click >= 8.2: .output mixes stdout and stderr, .stdout is pure
    ingest = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--no-progress"))
    # one bad line: reported, the two valid ones loaded, and only --strict makes it an error
    assert ingest.exit_code == 0, ingest.output
    assert f"{docs}:3: field 'text' must be a string" in ingest.output
    strict = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--no-progress", "--strict"))
    assert strict.exit_code == 1
    assert f"{docs}:3: field 'text' must be a string" in strict.output

    out = runner.invoke(main, _cli(neo4j_target, "retrieve", "river navigation tolls", "-k", "2", "--json"))
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    top = data["results"][0]
    assert top["doc_id"] == "new" and top["status"] == "active" and top["anchor_id"] == "old"
    assert top["chain"][0]["rule"] == "explicit" and top["chain"][0]["evidence"] == "expressly overruled"
    assert data["suppressed"] == 1


def test_reproduce_scores_the_compliance_domain_from_its_rules_file_on_the_intended_edges(
    car: CarClient, driver, neo4j_target, tmp_path: Path
) -> None:
    # The full run (1,000 chains, 12,250 documents) is `make reproduce`; 30 chains keep the
    # path -- generic JSONL, a user domain from YAML, scoring on the generator's own edges -- in CI.
    from car_graph import schema
    from car_graph_benchmarks.reproduce import reproduce

    report = reproduce(
        car, lambda: schema.reset(driver, neo4j_target.database, neo4j_target.uri), None,
        tmp_path / "results.md", domains=(), variant_domains=(), synthetic=False,
        compliance_examples=30,
    )
    explicit, from_rules = report.benchmarks
    assert explicit.name == "compliance (explicit edges)" and from_rules.name == "compliance (rules file)"
    assert set(explicit.edges_by_rule) == {"explicit"}
    assert "explicit" not in from_rules.edges_by_rule and sum(from_rules.edges_by_rule.values()) > 0
    for bench in report.benchmarks:
        assert bench.main.n > 0 and bench.main.systems["car"].scores.tca >= 0.95
    totals = [r for r in from_rules.rules_vs_links if r.rule == "all rules"]
    assert len(totals) == 1 and totals[0].precision == 1.0 and totals[0].recall == 1.0
    text = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "| compliance | all rules |" in text and "compliance_examples=30" in text
