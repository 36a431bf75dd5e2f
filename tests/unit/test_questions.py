"""Real-corpus benchmark builder (ingest/questions.py) on the real raw data, small settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from car_graph.benchmarks import questions as qmod
from car_graph.ingest.records import read_jsonl
from car_graph.ingest.rules import bundled_rules
from car_graph.ingest.security import explicit_edges, rule_edges
from car_graph.metrics import SupersessionGraph

RAW = Path(__file__).parents[2].parent / "shared/data/raw"
SAMPLE = Path(__file__).parents[2] / "car_graph/resources/sample"
SMALL = {"n_distractors": 50, "max_queries": 20}


@pytest.fixture(scope="module", params=qmod.DOMAINS)
def built(request):
    domain = request.param
    return domain, qmod.build_benchmark(domain, RAW, **SMALL)


def _independent_graph(domain, records):
    """The relation rebuilt from the adapters' own helpers (rule + explicit edges, partial flags
    read off the rules), not through questions.supersession_edges."""
    rules = {r.name: r for r in bundled_rules(domain)}
    by_id = {r.id: r for r in records}
    edges = {}
    for newer, older, name in rule_edges(rules.values(), records):
        rule = rules[name]
        flag = by_id[newer].attributes.get(rule.partial_from) if rule.partial_from else None
        partial = flag if isinstance(flag, bool) else rule.partial
        edges[(newer, older)] = edges.get((newer, older), True) and partial
    for newer, older, _ in explicit_edges(records):
        ref = next(s for s in by_id[newer].supersedes if s.id == older)
        edges[(newer, older)] = edges.get((newer, older), True) and ref.partial
    return SupersessionGraph((n, o, None, p) for (n, o), p in edges.items())


def test_deterministic(built):
    domain, bench = built
    again = qmod.build_benchmark(domain, RAW, **SMALL)
    assert again.queries == bench.queries
    assert again.robustness == bench.robustness
    assert [d.to_json() for d in again.documents] == [d.to_json() for d in bench.documents]
    assert again.stats == bench.stats


def test_gold_is_controlling_computed_independently(built):
    domain, bench = built
    records = qmod.load_domain(domain, RAW, [])
    graph = _independent_graph(domain, records)
    sub = _independent_graph(domain, bench.documents)
    assert len(bench.queries) == 20
    for q in bench.queries:
        assert set(q) >= {"id", "question", "gold", "anchors"}
        assert q["gold"] and q["anchors"]
        assert sorted(graph.controlling(set(q["anchors"]))) == q["gold"]
        assert sorted(sub.controlling(set(q["anchors"]))) == q["gold"]


def test_every_chain_document_is_in_the_corpus(built):
    domain, bench = built
    ids = {d.id for d in bench.documents}
    graph = _independent_graph(domain, qmod.load_domain(domain, RAW, []))
    for q in bench.queries:
        assert set(q["anchors"]) | set(q["gold"]) <= ids
        assert graph.closure(set(q["anchors"])) <= ids
    # closed under superseders: nothing in the corpus is superseded by a document outside it
    for d in ids:
        assert {e.newer for e in graph.superseders(d)} <= ids
    assert len(ids) == len(bench.documents)
    assert len(ids) > len({a for q in bench.queries for a in q["anchors"]})  # distractors


def test_question_overlaps_anchor_more_than_gold(built):
    domain, bench = built
    rows = [q["info"] for q in bench.queries if not q["info"]["gold_includes_anchor"]]
    anchor = sum(r["overlap_anchor"] for r in rows) / len(rows)
    gold = sum(r["overlap_gold"] for r in rows) / len(rows)
    assert gold < anchor


def test_security_questions_quote_no_ids_or_versions():
    bench = qmod.build_benchmark("security", RAW, **SMALL)
    for q in bench.queries:
        assert not re.search(r"CVE-\d|GHSA-|PYSEC-|GO-\d{4}", q["question"]), q["question"]
        assert not re.search(r"\b\d+\.\d+\.\d+\b", q["question"]), q["question"]
        assert q["info"]["entity"] in q["question"]
    assert any(r["info"]["variant"] == "partial_id" for r in bench.robustness)


def test_robustness_variants(built):
    domain, bench = built
    base = {q["id"]: q for q in bench.queries}
    typos = [r for r in bench.robustness if r["info"]["variant"] == "typo"]
    assert typos
    for r in bench.robustness:
        q = base[r["info"]["base"]]
        assert r["gold"] == q["gold"] and r["anchors"] == q["anchors"]
        assert r["question"] != q["question"]
    for r in typos:
        q = base[r["info"]["base"]]
        assert qmod.one_edit(q["question"], r["question"])
        assert len(r["info"]["word"]) >= 5


def test_typo_and_one_edit():
    import random

    for seed in range(200):
        op, new = qmod.typo("Lochner", random.Random(seed))
        assert op in {"swap", "delete", "replace"}
        assert new[0] == "L" and new[-1] == "r" and qmod.one_edit("Lochner", new)
    assert qmod.one_edit("abcde", "abdce") and qmod.one_edit("abcde", "abde")
    assert not qmod.one_edit("abcde", "abcde") and not qmod.one_edit("abcde", "badce")
    with pytest.raises(ValueError):
        qmod.typo("Go", random.Random(0))


def test_flaw_phrase_strips_versions_and_ids():
    records = {r.id: r for r in qmod.load_domain("security", RAW, [])}
    phrase = qmod.flaw_phrase(records["PYSEC-2021-9"], ["Django", "django"])
    assert "2.2" not in phrase and "Django" not in phrase
    assert "directory traversal" in phrase


def test_cli_writes_files(tmp_path):
    args = [str(tmp_path), "--domain", "law", "--raw", str(RAW), "--distractors", "10",
            "--max-queries", "5"]
    assert qmod.main(args) == 0
    first = {n: (tmp_path / "law" / n).read_bytes()
             for n in ("documents.jsonl", "queries.jsonl", "robustness.jsonl", "stats.json")}
    assert qmod.main(args) == 0
    assert first == {n: (tmp_path / "law" / n).read_bytes() for n in first}
    assert len(list(read_jsonl(tmp_path / "law" / "documents.jsonl"))) > 5


def test_sample_files_parse_and_stay_small():
    total = 0
    ids = {}
    for domain in qmod.DOMAINS:
        path = SAMPLE / f"{domain}.jsonl"
        total += path.stat().st_size
        docs = list(read_jsonl(path))
        assert 50 <= len(docs) <= 400
        ids[domain] = {d.id for d in docs}
        graph = _independent_graph(domain, docs)
        for d in docs:  # every superseder of an included document is included
            assert all(ref.id in ids[domain] for ref in d.supersedes)
        full = _independent_graph(domain, qmod.load_domain(domain, RAW, []))
        for d in ids[domain]:
            assert {e.newer for e in full.superseders(d)} <= ids[domain]
        assert graph.edges
    assert total < 5_000_000
    rows = [json.loads(line) for line in (SAMPLE / "questions.jsonl").read_text().splitlines()]
    assert len(rows) >= 6
    for row in rows:
        domain = row["info"]["domain"]
        assert set(row["anchors"]) | set(row["gold"]) <= ids[domain]
        full = _independent_graph(domain, qmod.load_domain(domain, RAW, []))
        assert sorted(full.controlling(set(row["anchors"]))) == row["gold"]
    assert (SAMPLE / "SOURCE.md").read_text().count("CC-BY-4.0") >= 2


def test_sample_regenerates_identically(tmp_path):
    qmod.write_sample(RAW, tmp_path)
    for name in ("security.jsonl", "law.jsonl", "drug.jsonl", "questions.jsonl", "SOURCE.md"):
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name
