"""Smoke version of `make bench` (CI): 1,000 generated documents, 20 questions, random vectors.

The full runs (10k, 100k documents, real embeddings) are `make bench`; this keeps the
benchmark's code paths honest: every stage is timed, every system answers, TCA is computed and
the report renders.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import neo4j
import pytest

from car_graph_benchmarks import bench, scale

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

# 20 questions still hold every shape (1 release line, 12 chains, 7 single documents with seed
# 3). The timed loops over them are what a loaded machine slows down: beside a property-test
# process, 50 questions took 76 and 51 s, 20 took 47 and 25 s (alternating runs); in full
# parallel runs 50 had taken 14-43 s, and 115-167 s in three of seven.
QUESTIONS = int(os.environ.get("CAR_SCALE_SMOKE_QUESTIONS", "20"))


def test_scale_benchmark_smoke_produces_a_sane_report(db: neo4j.Driver, neo4j_target, extractor,
                                                      tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    stats = scale.generate(corpus, 1000, n_questions=QUESTIONS, seed=3)
    assert stats["documents"] == 1000

    result = bench.run_scale(db, corpus, bench.HashEmbedder(), extractor, vectors="random (smoke)",
                             reingest=300, concurrency=(1, 4), additions=200,
                             baseline=("random, 64 dimensions (smoke baseline)",
                                       bench.HashEmbedder(dimensions=64)),
                             baseline_docs=150, uri=neo4j_target.uri,
                             database=neo4j_target.database)

    ingest = result["ingest"]
    assert ingest["documents"] == 1000 and ingest["skipped"] == 0
    assert ingest["edges"] == stats["edges"], "every explicit supersedes edge reaches the graph"
    for stage in ("parse", "spacy", "embedding", "graph_write", "supersession"):
        assert ingest["stages_s"][stage] > 0, stage
    assert result["reingest_unchanged"]["unchanged"] == 300
    assert result["reingest_unchanged"]["written"] == 0
    systems = ("vector", "car", "reference", "bm25", "hybrid", "vector_e2e", "car_e2e",
               "graphrag_hybrid", "graphrag_hybrid_e2e", "graphrag_vector_cypher",
               "graphrag_vector_cypher_e2e")
    for system in systems:
        timing = result["latency"][system]
        assert timing["n"] == QUESTIONS
        assert 0 < timing["p50_ms"] <= timing["p95_ms"] <= timing["p99_ms"], system
        assert 0.0 <= timing["strict_tca_at_5"] <= 1.0
    # the generator's chains are findable by their identifiers: car must get most of them right
    assert result["latency"]["car"]["strict_tca_at_5"] >= 0.8, result["latency"]["car"]
    assert all(v > 0 for row in result["throughput_qps"].values() for v in row.values())
    assert set(bench.THROUGHPUT_SYSTEMS) <= set(result["throughput_qps"])
    assert set(result["throughput_qps"]["car"]) == {"1", "4"}
    # the peers answer from the same graph: identifiers in the questions reach the fulltext
    # index (escaped), so the hybrid peer finds the anchors even with random vectors, but
    # without the supersession walk it misses what replaced them
    assert result["latency"]["graphrag_hybrid"]["strict_tca_at_5"] < result["latency"]["car"]["strict_tca_at_5"]
    assert result["question_analysis"]["n"] == QUESTIONS and result["question_analysis"]["p50_ms"] > 0
    # the rates are measured last, each ingest on an emptied database (the last one the
    # baseline's: its 150 documents only, in an index of its own dimension)
    baseline = result["baseline"]
    assert baseline["documents"] == 150 and baseline["docs_per_s"] > 0 < baseline["main_docs_per_s"]
    assert [len(baseline["runs"][role]) for role in ("baseline", "main")] == [2, 2]
    for run in (*baseline["runs"]["baseline"], *baseline["runs"]["main"]):
        assert run["documents"] == 150 and run["stages_s"]["embedding"] > 0
    with db.session(database=neo4j_target.database) as session:
        assert session.run("MATCH (d:Document) RETURN count(d) AS n").single()["n"] == 150
    assert result["ratios"]["car_e2e_p50_over_graphrag_hybrid_e2e_p50"] > 0
    assert result["rss"]["python_peak"] > 0
    assert any("rows=" in line for line in result["profile"]["closure"])
    cost = result["statement_cost"]
    assert cost["questions"] == QUESTIONS and cost["two_statements_vs_car_differing"] == 0
    assert result["car_query"] == bench.CAR_QUERY
    added = result["additions"]
    assert added["generated"]["documents"] == 200 and added["generated"]["revisions_of_existing_chains"] == 30
    assert added["ingest"]["documents"] == 200 and added["ingest"]["skipped"] == 0
    assert added["ingest"]["edges"] == stats["edges"] + added["generated"]["edges"], \
        "the additions' supersedes edges (to existing and to new documents) reach the graph"
    assert added["ingest"]["stages_s"]["graph_write"] > 0

    result.update(machine=bench.machine(), neo4j_version="test", measured_at="now")
    (tmp_path / "scale-1000.json").write_text(json.dumps(result, default=str))
    out = tmp_path / "benchmarks.md"
    bench.write_report(tmp_path, out, "smoke")
    text = out.read_text()
    assert "## 1,000 documents (random (smoke))" in text and "car p50 / vector p50" in text
    assert "## Adding 1,000 documents to the loaded graph" in text and "## Targets" in text
    assert f"### Where car's time goes ({QUESTIONS} questions" in text and "| car.cypher (one statement) |" in text
    assert "| neo4j-graphrag HybridRetriever end to end |" in text
    # the fair peer walks the closure too: car's end-to-end target is stated against it, and the
    # withdrawn 1.2 x target against the plain HybridRetriever is not (issue 58)
    assert ("car end-to-end p50 <= 1.0 x neo4j-graphrag HybridCypherRetriever + closure end-to-end p50"
            in text)
    assert "car end-to-end p50 <= 1.2 x neo4j-graphrag HybridRetriever end-to-end p50" not in text
    assert result["ratios"]["car_e2e_p50_over_graphrag_hybrid_closure_e2e_p50"] > 0
    assert "| graphrag_hybrid_e2e |" in text and "question analysis p50 <= 8 ms" in text
    assert "Beside the float32 baseline in the same run, like for like" in text
    assert "random, 64 dimensions (smoke baseline) **" in text
    # the ingest-rate target is stated for real embeddings only
    assert "docs/s with real embeddings" not in text


def test_partial_components_smoke_compares_both_corpora_side_by_side(db: neo4j.Driver, neo4j_target,
                                                                     extractor, tmp_path: Path) -> None:
    """`bench --partial-components`, small: 600 documents in components of 300 joined by partial
    edges, beside the same records without them."""
    result = bench.run_partial_components(
        db, tmp_path / "partial", bench.HashEmbedder(), extractor, n_docs=600, component_size=300,
        vectors="random (smoke)", repeats=1, uri=neo4j_target.uri, database=neo4j_target.database,
        warmup=False)

    corpus = result["corpus"]
    assert corpus["documents"] == 600 and corpus["largest_component"] == 300
    assert corpus["partial_edges"] > corpus["full_edges"] > 0 and corpus["cycles"] == 2
    with_partial, without = result["runs"]["partial"][0], result["runs"]["baseline"][0]
    assert with_partial["documents"] == without["documents"] == 600
    assert with_partial["edges"] == corpus["full_edges"] + corpus["partial_edges"]
    assert without["edges"] == corpus["full_edges"], "the twin holds the full edges only"
    cost = result["ms_per_document"]
    assert result["ratio"] == pytest.approx(cost["partial"] / cost["baseline"], rel=0.01)
    slowest = result["slowest_statement"]["partial"]
    assert slowest["statement"] in bench.SUPERSESSION_STATEMENTS and slowest["seconds"] > 0
    # the cycle pass walked the two families' full components only, never the partial ones
    walks = with_partial["statements"]["supersession_component"]
    assert walks["calls"] >= 2 and walks["longest_s"] < 1.0
    cycles = db.execute_query("MATCH ()-[s:SUPERSEDES {maybe_cycle: true}]->() RETURN count(s) AS n",
                              database_=neo4j_target.database).records[0]["n"]
    assert cycles == 4, "each family's two-document cycle is marked (2 edges each)"

    result.update(machine=bench.machine(), neo4j_version="test", command="smoke")
    (tmp_path / "partial-600-300.json").write_text(json.dumps(result, default=str))
    out = tmp_path / "benchmarks.md"
    bench.write_report(tmp_path, out, "smoke")
    text = out.read_text()
    assert "## Components joined by partial edges" in text and f"**{result['ratio']:.2f}**" in text
