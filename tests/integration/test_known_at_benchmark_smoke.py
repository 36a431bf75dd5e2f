"""Smoke run of the known-at benchmark (benchmarks/known_at.py) on a small slice of the real
security corpus: ingest the steps in the order the sources recorded them, then ask the
questions as known at each earlier date, with known_at and without.

The slice is tests/fixtures/known_at/history.json: what ``build_history`` makes of the raw
corpus for three anchors and ten distractors (46 kB of real records), so the database part
runs on a bare clone too. With the corpora, two tests without a server check that the slice is
still what the builder makes of them, and that its gold is the reference's.
Regenerate the slice with ``CAR_UPDATE_FIXTURES=1 pytest -m corpora`` on this file: a run that
rewrites a stale slice fails, naming it, so a rewrite never passes as a check.

The full run is `car-graph known-at-bench` (docs/analysts.md, "A benchmark from the security
corpus's own history").
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph.evaluation import evaluate, parse_queries
from car_graph.metrics import SupersessionGraph
from car_graph_benchmarks.known_at import HistoryBenchmark, build_history, run_history

# Anchors whose answer the sources changed after a step (chosen from the full set's stats):
# a Werkzeug and a urllib3 advisory no release fixed by the end of 2023 (Debian's fixes are
# recorded in 2024), and a Django advisory that Debian fixed again after mid-2025. The test
# checks below that the gold computed for them really changes, so it cannot pass vacuously.
CHANGING = ("PYSEC-2023-221", "PYSEC-2023-192", "PYSEC-2024-47")
SLICE = Path(__file__).parent.parent / "fixtures" / "known_at" / "history.json"


def _slice() -> HistoryBenchmark:
    return HistoryBenchmark.from_json(json.loads(SLICE.read_text(encoding="utf-8")))


def _built(raw_corpora: Path) -> HistoryBenchmark:
    return build_history(raw_corpora, n_distractors=10, max_queries=len(CHANGING), include=CHANGING)


@pytest.mark.corpora
def test_the_slice_is_what_the_builder_makes_of_the_real_corpus(raw_corpora: Path) -> None:
    built = _built(raw_corpora).to_json()
    # read before any rewrite: the comparison is always with the slice as it was committed
    stale = not SLICE.exists() or _slice().to_json() != built
    if os.environ.get("CAR_UPDATE_FIXTURES") and stale:
        SLICE.parent.mkdir(parents=True, exist_ok=True)
        SLICE.write_text(json.dumps(built, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                         encoding="utf-8")
        assert _slice().to_json() == built, "the rewritten slice does not read back as built"
        pytest.fail(f"{SLICE} was stale and is rewritten: review its diff, then run again without "
                    "CAR_UPDATE_FIXTURES")
    assert not stale, "stale: CAR_UPDATE_FIXTURES=1 regenerates it"


@pytest.mark.corpora
def test_the_gold_changes_and_is_the_reference_semantics_on_the_real_history(raw_corpora: Path) -> None:
    bench = _built(raw_corpora)
    changed = [q for q in bench.questions if q["info"]["gold_changed_later"]]
    assert {q["anchors"][0] for q in changed} >= set(CHANGING), bench.stats["per_date"]
    assert [q for q in changed if q["gold"] == q["anchors"]], "an advisory no release fixed then"
    # the gold computed here agrees with the reference semantics on the same relation
    for q in bench.questions:
        known = bench.known(q["step"])
        graph = SupersessionGraph((n, o, None, p) for n, o, p in bench.links
                                  if n in known and o in known)
        assert graph.controlling(set(q["anchors"])) == set(q["gold"]), q["id"]


@pytest.mark.neo4j
@pytest.mark.models
def test_known_at_answers_as_recorded_then_on_the_real_history(car: CarClient, tmp_path: Path) -> None:
    bench = _slice()
    changed = [q for q in bench.questions if q["info"]["gold_changed_later"]]
    unfixed_then = [q for q in changed if q["gold"] == q["anchors"]]
    assert {q["anchors"][0] for q in changed} >= set(CHANGING), bench.stats["per_date"]
    assert unfixed_then, "an advisory no release fixed at an earlier date"

    run = run_history(car, lambda: None, bench, tmp_path / "work", split="all")  # db: wiped

    assert [s["documents"] for s in run.steps] == [len(step) for step in bench.steps]
    assert all(s["skipped"] == 0 for s in run.steps)
    instants = [datetime.fromisoformat(s["recorded_at"]) for s in run.steps]
    assert instants == sorted(instants) and len(set(instants)) == len(instants)
    # each step is one run, recorded between the instants the runner uses as known-at dates
    second = bench.steps[1][0].id
    versions = car.history(second).versions
    recorded = min(datetime.fromisoformat(str(v["recorded_from"])) for v in versions)
    assert instants[0] < recorded <= instants[1], (second, recorded, instants)

    rows = {(r["id"], r["system"], r["mode"]): r for r in run.rows}
    assert len(rows) == len(bench.questions) * 2 * 2
    known_by_step = {n: bench.known(n) for n in range(1, len(bench.steps) + 1)}
    for (qid, _system, mode), row in rows.items():
        step = next(q["step"] for q in bench.questions if q["id"] == qid)
        unrecorded = [d for d in row["retrieved"] if d not in known_by_step[step]]
        assert row["anachronistic"] == bool(unrecorded)
        if mode == "known_at":
            # car-graph never answers with a document it had not recorded at that date
            assert not unrecorded, (qid, row)
    # asked today, an advisory fixed since cannot come back as its own controlling document
    for q in unfixed_then:
        assert not rows[(q["id"], "car", "now")]["tca"], rows[(q["id"], "car", "now")]
    for score in run.scores:
        assert score.anachronisms_known_at == 0
        assert score.tca_then_known_at == score.tca_known_at
    assert set(run.today) == {"car", "hybrid"}

    # each line names the run that recorded its step (run:k), so `car-graph eval` with the
    # question file reads the graph as that step left it -- not an empty graph, as a corpus date
    # (before any commit) would -- and never answers with a later document
    assert {q["known_at"] for q in bench.questions} <= {f"run:{n}" for n in range(1, len(bench.steps))}
    queries = parse_queries((json.dumps(q) for q in bench.questions), str(SLICE))
    report = evaluate(car.retriever, queries, k=5, systems=["car"], domain="security")
    retrieved = report.systems["car"].retrieved
    for q in bench.questions:
        assert retrieved[q["id"]], q["id"]
        assert set(retrieved[q["id"]][:5]) <= known_by_step[q["step"]], q["id"]
    assert report.systems["car"].scores.tca > 0
