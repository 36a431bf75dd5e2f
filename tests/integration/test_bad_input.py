"""Bad input (issue 9, item 4): >= 1,000 malformed records mixed with valid ones.

Each damaged line is reported with its file, line and a reason (the expected reason comes from the
generator that damaged the line, benchmarks/malformed.py); the valid records are loaded; the graph
equals a clean run of only the valid lines (nothing half-written); bad rules/domain files are
refused before anything is written; ``ingest --strict`` exits 1, a plain ingest exits 0.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from reliability_helpers import HashEmbedder, record_figure, snapshot

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph_benchmarks import malformed

pytestmark = [pytest.mark.neo4j]


def _cli(target, *args: str) -> list[str]:
    return ["--uri", target.uri, "--user", target.user, "--password", target.password,
            "--database", target.database, *args]


def test_malformed_corpus_reports_every_bad_line_and_loads_exactly_the_valid_records(
    db, neo4j_target, extractor, tmp_path: Path
) -> None:
    corpus = malformed.generate(seed=7)
    damaged = corpus.damaged()
    assert len(damaged) >= 1000 and len(corpus.kinds()) >= 20
    path = corpus.write(tmp_path / "corrupt.jsonl")
    rules = tmp_path / "rules.yaml"
    rules.write_text(malformed.RULES_YAML)

    started = time.perf_counter()
    with CarClient(db, neo4j_target.database, embedder=HashEmbedder(), extractor=extractor) as car:
        summary = car.ingest_file(path, rules_path=rules)
    seconds = time.perf_counter() - started

    reported = {p.line: p for p in summary.skipped}
    assert all(p.source == str(path) for p in summary.skipped)
    assert set(reported) == set(damaged), "every damaged line, and only those, is reported"
    wrong = {n: (damaged[n].reason, reported[n].reason) for n in damaged
             if damaged[n].reason not in reported[n].reason}
    assert not wrong, f"reasons that do not say what is wrong: {list(wrong.items())[:5]}"
    assert summary.documents == len(corpus.valid_ids)
    assert summary.edges_by_rule.get("patch_replaces_patch", 0) > 0
    assert summary.edges_by_rule.get("explicit", 0) > 0
    dirty = snapshot(db, neo4j_target.database)

    wipe_database(db, neo4j_target.database, neo4j_target.uri, allow_remote=True)
    clean_path = corpus.write_valid_only(tmp_path / "clean.jsonl")
    with CarClient(db, neo4j_target.database, embedder=HashEmbedder(), extractor=extractor) as car:
        clean_summary = car.ingest_file(clean_path, rules_path=rules)
    clean = snapshot(db, neo4j_target.database)
    assert not clean_summary.skipped
    assert dirty.node_rows == clean.node_rows
    assert dirty.relationship_rows == clean.relationship_rows
    ids = {json.loads(json.loads(row)[0])[1] for row in clean.node_rows
           if "Document" in json.loads(json.loads(row)[0])[0]}
    assert ids == set(corpus.valid_ids)

    record_figure(
        "bad_input", records=len(corpus.lines), damaged=len(damaged), kinds=len(corpus.kinds()),
        reported=len(reported), valid_loaded=summary.documents, nodes=dirty.nodes,
        relationships=dirty.relationships, identical_to_clean_run=dirty.digest == clean.digest,
        seconds=round(seconds, 1), bytes=path.stat().st_size,
    )


def test_bad_rules_and_domain_files_are_refused_with_file_and_reason_before_any_write(
    db, neo4j_target, tmp_path: Path
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "a", "text": "alpha"}) + "\n")
    runner = CliRunner()
    refused = 0
    for path, reason in malformed.write_bad_rules_files(tmp_path / "rules"):
        out = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--rules", str(path),
                                       "--no-progress"))
        assert out.exit_code == 1, (path.name, out.output)
        assert f"Error: {path}" in out.output and reason in out.output, (path.name, out.output)
        assert "Traceback" not in out.output
        refused += 1
    assert snapshot(db, neo4j_target.database).nodes == 0  # nothing was written
    record_figure("bad_rules", files=refused, refused=refused)


def test_ingest_exits_zero_with_problems_listed_and_one_with_strict(
    db, neo4j_target, tmp_path: Path
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_bytes(
        json.dumps({"id": "a", "text": "alpha river"}).encode() + b"\n"
        + b'{"id": "b", "text": "caf\xe9"}\n'
        + json.dumps({"id": "c", "text": "gamma", "published": "2023-02-30"}).encode() + b"\n"
    )
    runner = CliRunner()
    plain = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--no-progress", "--json"))
    assert plain.exit_code == 0, plain.output
    data = json.loads(plain.stdout)
    assert data["documents"] == 1 and data["skipped_count"] == 2 and data["strict"] is False
    assert [(s["line"], s["source"]) for s in data["skipped"]] == [(2, str(docs)), (3, str(docs))]
    assert f"{docs}:2: invalid UTF-8" in plain.stderr
    assert f"{docs}:3: published is not a date" in plain.stderr
    assert "2 input record(s) skipped" in plain.stderr and "--strict" in plain.stderr

    strict = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--no-progress",
                                      "--strict"))
    assert strict.exit_code == 1
    assert f"{docs}:2: invalid UTF-8" in strict.stderr and "(--strict)" in strict.stderr
    assert "Ingested 1 documents" in strict.stdout  # the valid record is still loaded

    clean = tmp_path / "clean.jsonl"
    clean.write_text(json.dumps({"id": "a", "text": "alpha river"}) + "\n")
    ok = runner.invoke(main, _cli(neo4j_target, "ingest", str(clean), "--no-progress", "--strict"))
    assert ok.exit_code == 0, ok.output
