"""The synthetic CAR benchmark: determinism, size, gold = front(cl(anchor)), planted hard cases,
rule semantics and the vocabulary gap between questions and controlling documents."""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from car_graph.metrics import SupersessionGraph
from car_graph.records import DocumentRecord, SupersedesRef, parse_record, read_jsonl
from car_graph.rules import load_rules, parse_rules
from car_graph.semantics import explicit_edges, rule_edges
from car_graph_benchmarks.synthetic import (
    RULES_PATH,
    SyntheticBenchmark,
    generate,
    lexical_overlap,
    supersession_graph,
    write,
)


@pytest.fixture(scope="module")
def bench() -> SyntheticBenchmark:
    return generate()


@pytest.fixture(scope="module")
def graph(bench: SyntheticBenchmark) -> SupersessionGraph:
    return supersession_graph(bench.documents)


def _digest(benchmark: SyntheticBenchmark) -> str:
    payload = json.dumps(
        [[d.to_json() for d in benchmark.documents], benchmark.queries], sort_keys=True
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _as_of(query: dict) -> date | None:
    return date.fromisoformat(query["as_of"]) if "as_of" in query else None


# --- determinism and size ------------------------------------------------------------------------


def test_same_seed_same_benchmark() -> None:
    assert _digest(generate(600, seed=3)) == _digest(generate(600, seed=3))
    assert _digest(generate(600, seed=3)) != _digest(generate(600, seed=4))


def test_deterministic_across_processes_and_hash_seeds(bench: SyntheticBenchmark) -> None:
    """No set iteration order may leak into the output (PYTHONHASHSEED differs per process)."""
    code = (
        "import hashlib, json; from car_graph_benchmarks.synthetic import generate; b = generate(); "
        "print(hashlib.sha256(json.dumps([[d.to_json() for d in b.documents], b.queries], "
        "sort_keys=True).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert digests == {_digest(bench)}


def test_size_and_well_formed(bench: SyntheticBenchmark) -> None:
    assert len(bench.documents) == 2400
    assert 300 <= len(bench.queries) <= 500
    ids = [d.id for d in bench.documents]
    assert len(set(ids)) == len(ids)
    for record in bench.documents:
        assert parse_record(json.loads(json.dumps(record.to_json()))) == record
    known = set(ids)
    assert len({q["id"] for q in bench.queries}) == len(bench.queries)
    for query in bench.queries:
        assert query["question"] and query["gold"] and query["anchors"]
        assert set(query["gold"]) | set(query["anchors"]) <= known
    assert {d.domain for d in bench.documents} == {"security", "pharma", "legal"}


def test_small_corpus_is_exact() -> None:
    small = generate(300, seed=11)
    assert len(small.documents) == 300 and small.queries


# --- gold and the relation -----------------------------------------------------------------------


def test_rules_reproduce_the_intended_relation(bench: SyntheticBenchmark) -> None:
    """The rules file plus explicit edges yield exactly the edges the generator meant."""
    def pairs(edges):
        return {(e.newer, e.older, e.effective, e.partial) for e in edges}

    assert pairs(supersession_graph(bench.documents).edges) == pairs(bench.edges)
    by_id = {d.id: d for d in bench.documents}
    rule_made = rule_edges(load_rules(RULES_PATH), bench.documents)
    # explicit-only chains: no rule touches hotfixes or the legal domain
    for edge in rule_made:
        kinds = {by_id[edge.newer].kind, by_id[edge.older].kind}
        assert "hotfix" not in kinds and by_id[edge.newer].domain != "legal"
    assert {by_id[e.newer].kind for e in explicit_edges(bench.documents)} == {
        "hotfix",
        "opinion",
        "statute",
    }


def test_gold_is_the_frontier_of_the_anchor_closure(
    bench: SyntheticBenchmark, tmp_path: Path
) -> None:
    """Recomputed from the written files alone, as an evaluator would."""
    paths = write(bench, tmp_path)
    records = list(read_jsonl(paths["documents.jsonl"]))
    graph = supersession_graph(records, load_rules(paths["rules.yaml"]))
    queries = [json.loads(line) for line in paths["queries.jsonl"].read_text().splitlines()]
    assert queries == bench.queries
    for query in queries:
        as_of = _as_of(query)
        expected = graph.frontier(graph.closure(set(query["anchors"]), as_of), as_of)
        assert set(query["gold"]) == expected, query["id"]


def test_published_dates_increase_along_chains(bench: SyntheticBenchmark) -> None:
    by_id = {d.id: d for d in bench.documents}
    for edge in bench.edges:
        newer, older = by_id[edge.newer], by_id[edge.older]
        assert newer.published and older.published and edge.effective
        assert edge.effective >= newer.published
        if "reinstated" not in newer.text:  # the cycle's back edge
            assert newer.published > older.published


# --- planted cases -------------------------------------------------------------------------------


def test_has_the_hard_cases(bench: SyntheticBenchmark, graph: SupersessionGraph) -> None:
    queries = bench.queries
    features = [set(q["info"]["features"]) for q in queries]
    # T0: active anchors with no successor
    assert sum(q["gold"] == q["anchors"] for q in queries) >= 40
    # kappa > 1: two independent chains in one scope
    two_chains = [q for q, f in zip(queries, features, strict=True) if "kappa_two_chains" in f]
    assert len(two_chains) >= 20 and all(q["info"]["kappa"] > 1 for q in two_chains)
    # partial supersession keeps the anchor in the gold next to its partial superseder
    partial = [
        q
        for q, f in zip(queries, features, strict=True)
        if f & {"partial", "overruled_in_part"} and "as_of" not in f
    ]
    assert len(partial) >= 10
    assert all(q["anchors"][0] in q["gold"] and len(q["gold"]) == 2 for q in partial)
    # forks: one advisory fixed on two release lines -> two controlling releases
    forks = [q for q, f in zip(queries, features, strict=True) if "fork" in f and "as_of" not in f]
    assert forks and all(len(q["gold"]) >= 2 for q in forks)
    # multi-hop chains
    assert sum(q["info"]["hops"] >= 2 for q in queries) >= 50


def test_cycle(bench: SyntheticBenchmark, graph: SupersessionGraph) -> None:
    cycle = [q for q in bench.queries if "cycle" in q["info"]["features"] and "as_of" not in q]
    assert len(cycle) == 1
    a, b = cycle[0]["gold"]
    assert graph.reaches(a, b) and graph.reaches(b, a)
    assert cycle[0]["anchors"][0] in cycle[0]["gold"]


def test_as_of_queries_change_the_answer(
    bench: SyntheticBenchmark, graph: SupersessionGraph
) -> None:
    dated = [q for q in bench.queries if "as_of" in q]
    assert len(dated) >= 20
    for query in dated:
        now = graph.controlling(set(query["anchors"]))
        assert set(query["gold"]) != now
        assert query["question"].startswith("As of ")
    assert sum(q["gold"] == q["anchors"] for q in dated) >= 5  # before the first fix


def test_questions_name_the_entity_mostly(bench: SyntheticBenchmark) -> None:
    named = [q for q in bench.queries if q["info"]["named"]]
    unnamed = [q for q in bench.queries if not q["info"]["named"]]
    assert 0.65 <= len(named) / len(bench.queries) <= 0.95 and unnamed
    assert all(q["info"]["entity"] in q["question"] for q in named)
    assert not any(q["info"]["entity"].lower() in q["question"].lower() for q in unnamed)


# --- the vocabulary gap --------------------------------------------------------------------------


def test_question_overlaps_anchor_not_controlling_document(bench: SyntheticBenchmark) -> None:
    by_id = {d.id: d for d in bench.documents}

    def text(doc_id: str) -> str:
        return f"{by_id[doc_id].title} {by_id[doc_id].text}"

    superseded = [q for q in bench.queries if q["anchors"][0] not in q["gold"]]
    assert len(superseded) >= 150
    to_anchor = [lexical_overlap(q["question"], text(q["anchors"][0])) for q in superseded]
    to_gold = [
        statistics.mean(lexical_overlap(q["question"], text(g)) for g in q["gold"])
        for q in superseded
    ]
    assert statistics.mean(to_gold) < 0.08
    assert statistics.mean(to_anchor) > 0.15
    assert statistics.mean(to_anchor) > 3 * statistics.mean(to_gold)
    # paraphrase, not copy
    assert max(to_anchor) < 0.7
    assert all(q["question"] not in text(q["anchors"][0]) for q in bench.queries)


# --- rule semantics on hand-made records ---------------------------------------------------------


def _doc(
    doc_id: str, kind: str, day: str, scope: dict, domain: str = "security", **attrs
) -> DocumentRecord:
    return DocumentRecord(
        id=doc_id,
        text=doc_id,
        domain=domain,
        kind=kind,
        published=date.fromisoformat(day),
        scope={k: tuple(v) for k, v in scope.items()},
        attributes=attrs,
    )


def test_rule_edges_semantics() -> None:
    rules = load_rules(RULES_PATH)
    p = {"package": ["npm:quillmark"]}
    line = {**p, "release_line": ["npm:quillmark@3.2"]}
    records = [
        _doc("adv", "advisory", "2021-05-01", p, fixed_versions=["3.2.1"]),
        _doc("r320", "release", "2021-01-01", line, version="3.2.0"),
        _doc("r321", "release", "2021-04-01", line, version="3.2.1"),  # before the advisory
        _doc("r322", "release", "2021-09-01", line, version="3.2.2"),
        _doc("other", "release", "2021-09-01", {"package": ["npm:vextor"]}, version="3.2.1"),
        _doc(
            "label",
            "label",
            "2020-01-01",
            {"drug": ["velorafen"]},
            "pharma",
            lots=["A1", "A2"],
            formulation="tablets",
        ),
        _doc(
            "recall",
            "recall",
            "2020-06-01",
            {"drug": ["velorafen"]},
            "pharma",
            lots=["A2"],
            formulation="tablets",
            partial=True,
        ),
        _doc("stray", "recall", "2020-06-01", {"drug": ["velorafen"]}, "legal", lots=["A1"]),
    ]
    edges = {(e.newer, e.older): e for e in rule_edges(rules, records)}
    assert set(edges) == {
        ("r321", "adv"),  # version match wins over the calendar (order: any)
        ("r321", "r320"),
        ("r322", "r320"),
        ("r322", "r321"),  # within the line, later wins
        ("recall", "label"),
    }
    assert edges[("recall", "label")].partial  # partial_from the recall's attribute
    assert edges[("r321", "adv")].effective == date(2021, 4, 1)
    graph = supersession_graph(records, rules)
    assert graph.controlling({"adv"}) == {"r322"}
    assert graph.controlling({"label"}) == {"label", "recall"}


def test_explicit_edges_default_to_published() -> None:
    record = DocumentRecord(
        id="b",
        text="b",
        published=date(2020, 2, 2),
        supersedes=(SupersedesRef("a"), SupersedesRef("c", date(2021, 1, 1), partial=True)),
    )
    edges = explicit_edges([record, DocumentRecord(id="a", text="a"), DocumentRecord(id="c", text="c")])
    assert [(e.older, e.effective, e.partial) for e in edges] == [
        ("a", date(2020, 2, 2), False),
        ("c", date(2021, 1, 1), True),
    ]


def test_rules_file_is_valid() -> None:
    rules = parse_rules(__import__("yaml").safe_load(RULES_PATH.read_text()), "synthetic.yaml")
    assert [r.name for r in rules] == [
        "release_fixes_advisory",
        "release_supersedes_release_in_line",
        "recall_withdraws_label",
        "reapproval_lifts_recall",
    ]
    assert all(r.domain in {"security", "pharma"} for r in rules)
