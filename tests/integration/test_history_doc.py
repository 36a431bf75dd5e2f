"""docs/history.md's examples run: its ```jsonl file is written out, and every `$ car-graph`
line of its ```console blocks runs, in page order, through the CLI against a real Neo4j. Each
must succeed, and what the page says each shows is checked against what it printed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from car_graph.cli import main

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "history.md").read_text(encoding="utf-8")
DATA = re.search(r"`(\S+\.jsonl)`:\s*```jsonl\n(.*?)```", PAGE, flags=re.S)
COMMANDS = [line[2:].strip() for block in re.findall(r"```console\n(.*?)```", PAGE, flags=re.S)
            for line in block.splitlines() if line.startswith("$ ")]


def test_the_page_has_its_examples() -> None:
    assert DATA is not None
    assert len(COMMANDS) >= 6 and all(c.startswith("car-graph ") for c in COMMANDS)


def test_every_example_of_the_history_guide_runs_and_shows_what_the_page_says(
        db: Any, neo4j_target: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert DATA is not None
    (tmp_path / DATA.group(1)).write_text(DATA.group(2), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    env = {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}
    out: dict[str, str] = {}
    for command in COMMANDS:
        run = CliRunner().invoke(main, shlex.split(command)[1:], env=env)
        assert run.exit_code == 0, (command, run.output)
        out[command] = run.output

    def printed(prefix: str) -> str:
        return next(text for command, text in out.items() if command.startswith(prefix))

    # ingest --json reports its run
    assert json.loads(printed("car-graph ingest"))["run"] == 1
    # runs lists it: number, kind, when it committed, its counts
    assert re.search(r"run 1 ingest .* committed \S+ \(\d+ commit\(s\)\) added 2", out["car-graph runs"])
    # run:1 names the state run 1 left: the document as then, stamped "as known at"
    assert "EX-ADV [active] Heap overflow in exwidget" in printed("car-graph explain EX-ADV --known-at run:1")
    assert "as known at" in printed("car-graph explain EX-ADV --known-at run:1")
    # an instant beyond the last commit: answered as of that commit, and said so
    future = json.loads(printed("car-graph explain EX-ADV --known-at 2099-01-01"))
    assert not future["known_at"].startswith("2099") and "later than the last commit" in future["known_at_note"]
    # history of a document: its version and when it was recorded
    assert "EX-REL [current]" in printed("car-graph history EX-REL")
    # the purge is a recorded run with its cut-off and reason
    purge = json.loads(printed("car-graph purge"))
    runs = json.loads(printed("car-graph runs --json"))["runs"]
    recorded = next(r for r in runs if r["run"] == purge["run"])
    assert recorded["kind"] == "purge" and recorded["reason"] == "retention policy"
    assert recorded["cutoff"].startswith("2000-01-01")
