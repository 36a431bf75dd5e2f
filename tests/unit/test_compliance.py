"""The compliance bring-your-own-domain benchmark: deterministic, split cleanly, gold from the
generator's chains, and its rules file (evaluated by the reference Python evaluator) yields
exactly the edges the generator intends."""

from __future__ import annotations

import json
import re
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from car_graph.records import read_jsonl
from car_graph.rules import load_rules
from car_graph.semantics import rule_edges
from car_graph_benchmarks import compliance
from car_graph_benchmarks.synthetic import lexical_overlap

FRONT_KIND = {
    "T0": "pre_clearance_approved", "T1": "blackout_announced",
    "T2": "emergency_exception", "T3": "blackout_lifted",
}


@pytest.fixture(scope="module")
def bench() -> compliance.ComplianceBenchmark:
    return compliance.generate(examples=120, seed=5)


def test_same_seed_writes_the_same_bytes(tmp_path: Path) -> None:
    first = compliance.write(compliance.generate(40, seed=3), tmp_path / "a")
    second = compliance.write(compliance.generate(40, seed=3), tmp_path / "b")
    for name, path in first.items():
        assert path.read_bytes() == second[name].read_bytes(), name
    other = compliance.write(compliance.generate(40, seed=4), tmp_path / "c")
    assert other["documents.jsonl"].read_bytes() != first["documents.jsonl"].read_bytes()


def test_default_size_matches_the_paper_shape() -> None:
    bench = compliance.generate()
    assert len(bench.examples) == 1000
    assert len(bench.documents) == 12_250  # 2,250 chain events + 10 distractors per example
    assert {e.hop_type for e in bench.examples} == set(FRONT_KIND)


def test_dev_and_test_share_no_example_question_or_phrasing_family(
    bench: compliance.ComplianceBenchmark,
) -> None:
    dev = [q for q in bench.queries if q["split"] == "dev"]
    test = [q for q in bench.queries if q["split"] == "test"]
    assert dev and test
    assert not {q["id"] for q in dev} & {q["id"] for q in test}
    assert not {q["family"] for q in dev} & {q["family"] for q in test}
    assert not {q["anchors"][0] for q in dev} & {q["anchors"][0] for q in test}
    for q in bench.queries:
        assert q["split"] == compliance.split_of(q["id"].removesuffix("-asof"))


def test_every_example_has_its_own_pair_and_real_looking_tickers(
    bench: compliance.ComplianceBenchmark,
) -> None:
    pairs = [(e.employee, e.ticker) for e in bench.examples]
    assert len(set(pairs)) == len(pairs)
    assert all(re.fullmatch(r"[A-Z]{1,4}", t) for t in compliance.TICKERS)
    assert {len(t) for t in compliance.TICKERS} == {1, 2, 3, 4}
    assert len(compliance.employees()) >= 100


def test_gold_is_the_front_of_the_example_chain_as_of_the_question(
    bench: compliance.ComplianceBenchmark,
) -> None:
    docs = {d.id: d for d in bench.documents}
    for q in bench.queries:
        [gold], [anchor] = q["gold"], q["anchors"]
        assert gold in docs and anchor in docs
        assert docs[anchor].kind == "pre_clearance_approved"
        assert docs[gold].scope == docs[anchor].scope  # same employee and ticker
        if "as_of" in q:
            assert docs[gold].published.isoformat() <= q["as_of"]
            assert docs[gold].kind != FRONT_KIND[q["chain"]]  # an earlier state than today's
        else:
            assert docs[gold].kind == FRONT_KIND[q["chain"]]
            assert q["hop"] == int(q["chain"][1]) - (q["chain"] == "T3")


def test_rules_file_yields_exactly_the_intended_edges(bench: compliance.ComplianceBenchmark) -> None:
    rules = load_rules(compliance.RULES_PATH)
    made = {(e.newer, e.older) for e in rule_edges(rules, bench.without_references())}
    intended = {(e.newer, e.older) for e in bench.intended}
    assert intended and made == intended


def test_a_scope_on_either_type_alone_would_link_wrong_events(
    bench: compliance.ComplianceBenchmark,
) -> None:
    # The distractors are built so that "same employee OR same ticker" is not enough.
    rules = [replace(r, scope_mode="any") for r in load_rules(compliance.RULES_PATH)]
    made = {(e.newer, e.older) for e in rule_edges(rules, bench.without_references())}
    assert made > {(e.newer, e.older) for e in bench.intended}


def test_the_two_corpora_differ_only_in_the_explicit_references(
    bench: compliance.ComplianceBenchmark, tmp_path: Path,
) -> None:
    paths = compliance.write(bench, tmp_path)
    explicit = list(read_jsonl(paths["documents.jsonl"]))
    bare = list(read_jsonl(paths["documents_rules.jsonl"]))
    assert [replace(d, supersedes=()) for d in explicit] == bare
    refs = {(d.id, s.id): s.effective for d in explicit for s in d.supersedes}
    assert refs == {(e.newer, e.older): e.effective for e in bench.intended}
    assert all(d.published_at is not None and d.domain == "compliance" for d in bare)


def test_short_ticker_sets_hold_exactly_the_one_to_three_letter_questions(
    bench: compliance.ComplianceBenchmark, tmp_path: Path,
) -> None:
    paths = compliance.write(bench, tmp_path)
    for split in ("dev", "test"):
        rows = [json.loads(line) for line in paths[f"queries.{split}.jsonl"].open()]
        short = [json.loads(line) for line in paths[f"short_tickers.{split}.jsonl"].open()]
        assert short == [q for q in rows if len(q["ticker"]) <= 3]
        assert short and len(short) < len(rows)
        assert all({"id", "question", "gold", "anchors"} <= set(q) for q in rows)
        assert any("as_of" in q for q in rows)


def test_superseding_events_share_less_vocabulary_with_the_question_than_the_anchor(
    bench: compliance.ComplianceBenchmark,
) -> None:
    docs = {d.id: d for d in bench.documents}
    moved = [q for q in bench.queries if q["gold"] != q["anchors"]]
    to_gold = statistics.mean(lexical_overlap(q["question"], docs[q["gold"][0]].text) for q in moved)
    to_anchor = statistics.mean(
        lexical_overlap(q["question"], docs[q["anchors"][0]].text) for q in moved
    )
    assert to_gold < to_anchor


def test_superseding_notices_name_neither_the_employee_key_nor_the_ticker(
    bench: compliance.ComplianceBenchmark,
) -> None:
    docs = {d.id: d for d in bench.documents}
    moved = [q for q in bench.queries if q["gold"] != q["anchors"]]
    assert moved
    for q in moved:
        gold = docs[q["gold"][0]]
        tokens = set(re.findall(r"[A-Za-z0-9&.'-]+", f"{gold.title} {gold.text}"))
        assert q["employee"] not in f"{gold.title} {gold.text}", gold.text
        assert q["ticker"] not in {t.strip(".'") for t in tokens}, gold.text
        anchor = docs[q["anchors"][0]]
        assert q["employee"] in anchor.text and q["ticker"] in anchor.text


def test_cli_writes_every_file(tmp_path: Path) -> None:
    assert compliance.main([str(tmp_path), "--examples", "8", "--seed", "1"]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert {"documents.jsonl", "documents_rules.jsonl", "rules.yaml", "queries.dev.jsonl",
            "queries.test.jsonl", "short_tickers.dev.jsonl", "short_tickers.test.jsonl"} <= names
