"""The report's pure parts on hand-made inputs: miss classes, target statements, φ, markdown.

No Neo4j: every number here can be read off the small graphs drawn in the docstrings.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.evaluation import EvalQuery
from car_graph.metrics import SupersessionGraph, SystemScores
from car_graph.records import DocumentRecord
from car_graph_benchmarks import reproduce as rp
from car_graph_benchmarks.links import RulePrecisionRecall
from car_graph_benchmarks.reproduce import (
    ANCHOR_NOT_FUSED,
    ANCHOR_OUTRANKED,
    GOLD_TOO_LARGE,
    OTHER,
    BenchmarkResult,
    ErrorAnalysis,
    MachineInfo,
    Miss,
    PhiSummary,
    QuerySetResult,
    ReproduceReport,
    SystemAtK,
    TargetCheck,
    check_targets,
    classify_miss,
    cli_command,
    phi_summary,
    query_kappa,
    render_markdown,
    scope_index,
    target_statement,
)


def q(anchor: str, gold: set[str], qid: str = "q1") -> EvalQuery:
    return EvalQuery(qid, f"question about {anchor}?", frozenset(gold), None, frozenset({anchor}))


@pytest.fixture
def graph() -> SupersessionGraph:
    """a1 ⇝ g1 (g1 supersedes a1); a2 ⇝ g2; x is superseded by y; fork f ⇝ {h1, h2, h3}."""
    return SupersessionGraph([
        ("g1", "a1", None, False), ("g2", "a2", None, False), ("y", "x", None, False),
        ("h1", "f", None, False), ("h2", "f", None, False), ("h3", "f", None, False),
    ])


# --- classify_miss -------------------------------------------------------------------------------


def test_a_hit_is_not_a_miss(graph: SupersessionGraph) -> None:
    assert classify_miss(q("a1", {"g1"}), ["g1", "n1"], ["a1"], graph, k=2, n_fused=10) is None


def test_gold_larger_than_k_wins_over_every_other_class(graph: SupersessionGraph) -> None:
    miss = classify_miss(q("f", {"h1", "h2", "h3"}), ["h1", "h2"], ["zz"], graph, k=2, n_fused=10)
    assert miss is not None and miss.cls == GOLD_TOO_LARGE
    assert "3 controlling documents for k = 2" in miss.detail


def test_anchor_outside_the_fused_anchors_of_the_run_at_k(graph: SupersessionGraph) -> None:
    fused = [f"n{i}" for i in range(12)] + ["a1"]  # rank 13 at k_max, cut at 10 for k
    miss = classify_miss(q("a1", {"g1"}), ["n0", "n1"], fused, graph, k=2, n_fused=10)
    assert miss is not None and miss.cls == ANCHOR_NOT_FUSED
    assert miss.detail == "a1 not among the 10 fused anchors (a1 at fused rank 13)"


def test_anchor_fused_but_outranked_by_other_frontiers(graph: SupersessionGraph) -> None:
    ranked = ["n1", "n2", "g1"]
    miss = classify_miss(q("a1", {"g1"}), ranked, ["n1", "n2", "a1"], graph, k=2, n_fused=10)
    assert miss is not None and miss.cls == ANCHOR_OUTRANKED
    assert miss.detail.startswith("anchor at fused rank r = 3; 1 of 1 controlling")
    assert "first at rank 3" in miss.detail


def test_other_when_closure_missed_gold_or_a_stale_document_leaked(
    graph: SupersessionGraph,
) -> None:
    unreached = classify_miss(q("a1", {"g1"}), ["a1"], ["a1"], graph, k=2, n_fused=10)
    assert unreached is not None and unreached.cls == OTHER
    assert "g1 not in the top 2 (1 results)" in unreached.detail
    stale = classify_miss(q("a1", {"g1"}), ["g1", "x"], ["a1"], graph, k=2, n_fused=10)
    assert stale is not None and stale.cls == OTHER
    assert stale.detail == "superseded x in the top 2 without its superseder"


# --- targets -------------------------------------------------------------------------------------


def test_target_statement_says_by_how_much_and_why() -> None:
    check = TargetCheck("law", "main", 0.97, successes=115, n=123,
                        miss_counts={GOLD_TOO_LARGE: 0, ANCHOR_NOT_FUSED: 6, OTHER: 2})
    assert round(check.achieved, 3) == 0.935 and not check.met
    assert check.queries_short == 5  # ceil(0.97 * 123) = 120
    text = target_statement(check, 5)
    assert "missed by 0.035" in text and "5 more of 123 queries needed" in text
    assert f"{ANCHOR_NOT_FUSED}: 6, {OTHER}: 2." in text and GOLD_TOO_LARGE not in text


def test_target_met_exactly_and_robustness_label() -> None:
    check = TargetCheck("drug", "robustness", 0.90, successes=90, n=100)
    assert check.met and check.queries_short == 0 and check.shortfall == 0
    assert target_statement(check, 5).endswith(": met.")
    assert "**drug robustness**" in target_statement(check, 5)


# --- φ -------------------------------------------------------------------------------------------


def doc(i: str, **scope: tuple[str, ...]) -> DocumentRecord:
    return DocumentRecord(i, "text", scope=scope)


def test_phi_on_a_tiny_scope_graph() -> None:
    """Package p holds a1 ⇝ g1 and an unrelated advisory o: κ = 3/2, φ = 2/3.
    Package r holds b ⇝ c only: κ = 1, φ = 1. Keys match after normalisation ("P" = "p")."""
    docs = [doc("a1", package=("P",)), doc("g1", package=("p",)), doc("o", package=("p",)),
            doc("b", package=("r",)), doc("c", package=("r",))]
    graph = SupersessionGraph([("g1", "a1", None, False), ("c", "b", None, False)])
    index = scope_index(docs)
    scopes = {d.id: d.scope for d in docs}
    assert query_kappa({"a1"}, scopes, index, graph) == pytest.approx(1.5)
    assert query_kappa({"b"}, scopes, index, graph) == pytest.approx(1.0)
    summary = phi_summary(docs, [q("a1", {"g1"}, "q1"), q("b", {"c"}, "q2")], graph)
    assert (summary.n, summary.ambiguous) == (2, 1)
    assert summary.mean_phi == pytest.approx((2 / 3 + 1) / 2)
    assert summary.mean_kappa == pytest.approx(1.25)


def test_an_anchor_without_scope_is_identifiable() -> None:
    docs = [doc("lonely")]
    graph = SupersessionGraph()
    assert query_kappa({"lonely"}, {"lonely": {}}, scope_index(docs), graph) == 1.0


# --- report --------------------------------------------------------------------------------------


def _scores(tca: float, n: int = 10) -> SystemScores:
    return SystemScores.from_rows(
        {"tca": i < round(tca * n), "gold_at_k": True, "reciprocal_rank": 1.0} for i in range(n)
    )


def _result(name: str, car: float, misses: tuple[Miss, ...] = ()) -> BenchmarkResult:
    systems = {s: SystemAtK(_scores(v), 3.0) for s, v in
               (("bm25", 0.1), ("dense", 0.2), ("hybrid", 0.3), ("car", car))}
    curve = dict.fromkeys(systems, (0.1, 0.2))
    main_set = QuerySetResult(10, systems, curve, ErrorAnalysis(5, 10, misses))
    return BenchmarkResult(name, 100, {"rule_a": 7}, 1.5, 2.5, main_set, None,
                           PhiSummary(10, 0.9, 1.2, 3))


def test_markdown_reports_numbers_and_computed_target_misses(tmp_path: Path) -> None:
    misses = (Miss("law-q0001", "Is A | B still good law?", ANCHOR_NOT_FUSED, "a not fused"),)
    results = (_result("law", 0.9, misses), _result("synthetic", 1.0))
    report = ReproduceReport(
        command=cli_command(Path("../raw"), Path("docs/results.md"), ("law",), True, 2000, 5),
        machine=MachineInfo("Linux", 8, "31.3 GiB", "3.11.9", "Neo4j Kernel 5.26.30 community",
                            "all-MiniLM-L6-v2 (bundled)"),
        date="2025-01-01 00:00 UTC", k=5, k_max=20, seed=13, n_distractors=2000,
        benchmarks=results, targets=tuple(check_targets(results)), out=tmp_path / "r.md",
        plot=tmp_path / "tca_at_k.png", seconds=60.0,
    )
    text = render_markdown(report)
    assert "car-graph reproduce --raw ../raw --out docs/results.md --domains law" in text
    assert "| law | 10 | 0.100 [" in text and "0.926 [0.865, 0.961] (n = 122)" in text
    assert "![TCA@k for k = 1..20](tca_at_k.png)" in text
    assert "`law-q0001` \"Is A \\| B still good law?\": a not fused" in text
    assert "**law**: car TCA@5 = 0.900 (9/10), target ≥ 0.97: **missed by 0.070**" in text
    assert f"{ANCHOR_NOT_FUSED}: 1." in text
    assert "**synthetic**: car TCA@5 = 1.000 (10/10), target ≥ 0.98: met." in text
    assert "report their **test split** only" in text
    assert "10 queries (test split), k = 5:" in text


def test_markdown_has_the_rule_precision_recall_section(tmp_path: Path) -> None:
    rows = (RulePrecisionRecall("drug", "recall_rule", 4, 5, 3, (("r9", "a9"),),
                                (("r1", "a1"), ("r2", "a2")), 1),)
    base = _result("drug", 1.0)
    result = BenchmarkResult(base.name, base.documents, base.edges_by_rule, 1.0, 1.0, base.main,
                             None, base.phi, rules_vs_links=rows)
    report = ReproduceReport(
        command="car-graph reproduce", machine=MachineInfo("L", 2, "1 GiB", "3", "Neo4j", "m"),
        date="d", k=5, k_max=20, seed=13, n_distractors=2000, benchmarks=(result,),
        targets=(), out=tmp_path / "r.md", plot=None, seconds=1.0,
    )
    text = render_markdown(report)
    section = text.split("## Rule precision and recall against the sources' own links")[1]
    section = section.split("## Error analysis")[0]
    assert "| drug | recall_rule | 4 | 5 | 3 | 0.750 | 0.600 | 1 |" in section
    assert "1 false positives of 4, e.g. `r9` ⇝ `a9`" in section
    assert "2 false negatives of 5" in section


def test_cli_command_spells_out_only_non_defaults() -> None:
    assert cli_command(Path("raw"), Path("o.md"), ("security", "law", "drug"), True, 2000, 5) \
        == "car-graph reproduce --raw raw --out o.md"
    assert cli_command(Path("raw"), Path("o.md"), ("law",), False, 50, 3) == (
        "car-graph reproduce --raw raw --out o.md --domains law --no-synthetic "
        "--distractors 50 -k 3"
    )
    assert cli_command(Path("raw"), Path("o.md"), ("law",), True, 2000, 5, ("drug",), False) == (
        "car-graph reproduce --raw raw --out o.md --domains law --variants drug --no-compliance"
    )


def test_cli_refuses_a_remote_server_before_connecting(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [
        "--uri", "bolt://db.example.com:7687", "--password", "x",
        "reproduce", "--raw", str(tmp_path), "--out", str(tmp_path / "r.md"),
    ])
    assert result.exit_code == 1
    assert "not a loopback server" in result.output
    assert not (tmp_path / "r.md").exists()


def test_a_benchmark_built_on_the_dev_split_shares_no_question_with_the_reported_one() -> None:
    """depth_sweep tunes on dev through the same builders; reproduce's default stays test."""
    reported = rp._compliance_benchmark(False, 50)
    dev = rp._compliance_benchmark(False, 50, split="dev")
    assert reported.queries and dev.queries
    assert not {q.id for q in reported.queries} & {q.id for q in dev.queries}
    assert [q.id for q in reported.queries] == [
        q.id for q in rp._compliance_benchmark(False, 50, split=rp.REPORTED_SPLIT).queries]


def test_verdict_sets_are_reported_apart_from_the_robustness_target(tmp_path: Path) -> None:
    base = _result("security (outside-style export)", 1.0)
    systems = {s: SystemAtK(_scores(0.4), 3.0) for s in ("bm25", "dense", "hybrid", "car")}
    judged = QuerySetResult(10, systems, dict.fromkeys(systems, (0.1, 0.2)),
                            ErrorAnalysis(5, 10, ()),
                            {"two_named": {s: _scores(0.4) for s in systems}})
    result = BenchmarkResult(base.name, base.documents, base.edges_by_rule, 1.0, 1.0, base.main,
                             None, base.phi, verdict_sets=judged)
    checks = check_targets([result])
    assert checks == []  # the export's main set has no target, and its verdict sets none either
    report = ReproduceReport(
        command="car-graph reproduce", machine=MachineInfo("L", 2, "1 GiB", "3", "Neo4j", "m"),
        date="d", k=5, k_max=20, seed=13, n_distractors=2000, benchmarks=(result,),
        targets=tuple(checks), out=tmp_path / "r.md", plot=None, seconds=1.0,
    )
    text = render_markdown(report)
    section = text.split("## Verdict sets (no target)")[1].split("## Scope identifiability")[0]
    assert "| security (outside-style export) | two_named | 10 | 0.400 | 0.400 | 0.400 | 0.400 |" \
        in section
    assert "No benchmark with a target was run." in text
    assert "10 verdict-set queries (test split), k = 5:" in text
