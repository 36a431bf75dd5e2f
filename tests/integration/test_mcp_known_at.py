"""MCP's known_at takes what the CLI's --known-at takes, through the same parser (issue 61, item
5): `run:N` (the state run N left), a date (the END of that day, UTC) and an ISO instant.

Two runs record one document twice: run 1 as "Widget notice v1", run 2 corrected to "v2". The
MCP server, started over stdio as an agent starts it, answers each form as the CLI does."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import ClientSession
from test_mcp_server import error_text, neo4j_env, server_env, stdio_server, structured, with_stdio_session

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.records import parse_record

__all__ = ["neo4j_env"]  # the fixture, imported so that pytest finds it here

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.long(60)]

V1 = {"id": "MK-1", "kind": "notice", "published": "2020-01-01", "title": "Widget notice v1",
      "text": "A notice about the widget."}
V2 = {**V1, "title": "Widget notice v2", "text": "A corrected notice about the widget."}
QUESTION = "What does the notice about the widget say?"


def test_mcp_known_at_takes_a_run_a_date_and_an_instant_as_the_cli_does(
    car: CarClient, neo4j_env, tmp_path
) -> None:
    first = car.ingest([parse_record(V1)]).run
    second = car.ingest([parse_record(V2)]).run
    runs = {run.run: run for run in car.runs()}
    first_commit = runs[first].committed
    assert first_commit is not None and runs[second].committed is not None
    commit_day = runs[second].committed.date().isoformat()  # the end of that day sees run 2
    calls: dict[str, Any] = {}

    async def work(session: ClientSession) -> None:
        for label, known_at in {"run1": f"run:{first}", "run2": f"RUN:{second}",
                                "day": commit_day, "instant": first_commit.isoformat(),
                                "unknown_run": "run:999", "bad": "run:x"}.items():
            calls[label] = await session.call_tool("explain", {"doc_id": "MK-1", "known_at": known_at})
        calls["ask_run1"] = await session.call_tool("ask", {"question": QUESTION,
                                                            "known_at": f"run:{first}"})

    # the first call loads the embedding model in the server process: a loaded machine needs
    # longer than the default deadline for it
    server = stdio_server(server_env(neo4j_env), tmp_path / "stdout.jsonl", "--call-timeout", "240")
    anyio.run(with_stdio_session, server, tmp_path / "stderr.log", work)

    assert structured(calls["run1"])["title"] == "Widget notice v1"
    assert structured(calls["run2"])["title"] == "Widget notice v2"
    assert structured(calls["day"])["title"] == "Widget notice v2"
    assert structured(calls["instant"])["title"] == "Widget notice v1"
    assert "run 999" in error_text(calls["unknown_run"]) or "999" in error_text(calls["unknown_run"])
    assert "run:N" in error_text(calls["bad"])

    # the same answers as the CLI's, and the instant that answered is the run's commit
    cli = CliRunner().invoke(main, ["explain", "MK-1", "--json", "--known-at", f"run:{first}"],
                             env=neo4j_env)
    assert cli.exit_code == 0, cli.output
    over_mcp = structured(calls["run1"])
    assert over_mcp["known_at"] == json.loads(cli.output)["known_at"]
    ask = structured(calls["ask_run1"])
    assert ask["known_at"] == over_mcp["known_at"]
    assert "Widget notice v2" not in json.dumps(ask)
