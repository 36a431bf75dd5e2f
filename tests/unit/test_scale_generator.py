"""benchmarks/scale.py: deterministic, streaming, the promised shapes, gold from intended edges."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from car_graph.records import read_jsonl
from car_graph_benchmarks import scale


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scale")
    scale.generate(out, 5000, n_questions=120, seed=5)
    return out


def test_same_seed_same_bytes_other_seed_other_corpus(corpus: Path, tmp_path: Path) -> None:
    scale.generate(tmp_path / "again", 5000, n_questions=120, seed=5)
    scale.generate(tmp_path / "other", 5000, n_questions=120, seed=6)
    original = (corpus / "documents.jsonl").read_bytes()
    assert (tmp_path / "again" / "documents.jsonl").read_bytes() == original
    assert (tmp_path / "again" / "questions.jsonl").read_bytes() == (corpus / "questions.jsonl").read_bytes()
    assert (tmp_path / "other" / "documents.jsonl").read_bytes() != original


def test_every_line_is_a_valid_generic_record_with_unique_ids(corpus: Path) -> None:
    problems: list = []
    records = list(read_jsonl(corpus / "documents.jsonl", problems))
    assert not problems
    assert len(records) == 5000 == len({r.id for r in records})
    ids = {r.id for r in records}
    assert all(ref.id in ids for r in records for ref in r.supersedes), "no dangling references"
    assert all(len(r.supersedes) <= 1 for r in records), "each document names its predecessor only"


def test_shapes_most_unsuperseded_long_tail_hubs_and_release_lines(corpus: Path) -> None:
    stats = json.loads((corpus / "stats.json").read_text())
    assert stats["superseded_share"] < 0.5
    lengths = {int(k): v for k, v in stats["chain_lengths"].items()}
    assert lengths[1] > sum(v for k, v in lengths.items() if k > 1), "most chains are single documents"
    assert max(k for k in lengths if k < scale.RELEASE_LINE) >= 10, "a long tail of revisions"
    assert stats["hub_sizes"] == [5000 // 80] * scale.HUB_SCOPES
    assert stats["release_lines"] >= 1 and stats["release_line_length"] == scale.RELEASE_LINE
    assert stats["scopes_of_one_to_ten"] > stats["scopes"] / 2, "Zipf: many small scopes"


def test_the_plan_at_one_million_has_10k_hubs_and_200_version_lines() -> None:
    plan = scale.plan(1_000_000)
    assert plan.hub_size >= 10_000
    assert plan.release_line_length >= 200 and plan.release_lines >= 100


def test_gold_is_the_last_member_of_the_questions_chain(corpus: Path) -> None:
    records = {r.id: r for r in read_jsonl(corpus / "documents.jsonl")}
    successor = {ref.id: r.id for r in records.values() for ref in r.supersedes}
    questions = scale.read_questions(corpus / "questions.jsonl")
    assert len(questions) == 120
    assert Counter(q.shape for q in questions).keys() >= {"single", "chain", "release_line"}
    for q in questions:
        head = q.anchors[0]
        while head in successor:  # walk the intended edges by hand
            head = successor[head]
        assert q.gold == (head,)
        assert q.hops == len(q.anchors) - 1


def test_reference_graph_holds_every_intended_edge(corpus: Path) -> None:
    graph = scale.reference_graph(corpus / "documents.jsonl")
    stats = json.loads((corpus / "stats.json").read_text())
    assert len(graph.edges) == stats["edges"]
    q = next(q for q in scale.read_questions(corpus / "questions.jsonl") if q.shape == "chain")
    assert graph.is_superseded(q.anchors[0]) and not graph.is_superseded(q.gold[0])


def test_too_small_a_corpus_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 500"):
        scale.generate(tmp_path, 100)


def test_a_small_corpus_still_gets_every_question_asked_for(tmp_path: Path) -> None:
    scale.generate(tmp_path, 2000, n_questions=500, seed=5)
    questions = scale.read_questions(tmp_path / "questions.jsonl")
    assert len(questions) == 500 == len({q.id for q in questions})


def test_the_question_count_does_not_change_the_documents(tmp_path: Path) -> None:
    scale.generate(tmp_path / "a", 1000, n_questions=50, seed=5)
    scale.generate(tmp_path / "b", 1000, n_questions=80, seed=5)
    assert (tmp_path / "a" / "documents.jsonl").read_bytes() == (tmp_path / "b" / "documents.jsonl").read_bytes()


def test_partial_corpus_joins_components_by_partial_edges_and_its_twin_drops_only_them(tmp_path: Path) -> None:
    stats = scale.generate_partial(tmp_path, 2500, 1000, seed=3)
    assert stats["documents"] == 2500 and stats["components"] == 3
    assert stats["largest_component"] == 1000, "partial edges join each family into one component"
    assert stats["largest_full_component"] < 50, "full edges alone make only short chains"
    with_partial = list(read_jsonl(tmp_path / "partial" / "documents.jsonl"))
    without = list(read_jsonl(tmp_path / "baseline" / "documents.jsonl"))
    assert [r.id for r in with_partial] == [r.id for r in without]
    assert len({r.id for r in with_partial}) == 2500
    ids = {r.id for r in with_partial}
    assert all(ref.id in ids for r in with_partial for ref in r.supersedes), "no dangling references"
    for a, b in zip(with_partial, without, strict=True):
        assert (a.text, a.scope, a.published) == (b.text, b.scope, b.published)
        assert [ref for ref in a.supersedes if not ref.partial] == list(b.supersedes)
    assert sum(ref.partial for r in with_partial for ref in r.supersedes) == stats["partial_edges"]
    assert sum(len(r.supersedes) for r in without) == stats["full_edges"]
