"""The CLI's first-contact errors say what to run next (no server needed for these)."""

from __future__ import annotations

import socket

from click.testing import CliRunner

from car_graph.cli import main


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_managed_server_names_the_command_that_starts_one(tmp_path) -> None:
    env = {"CAR_GRAPH_HOME": str(tmp_path), "NEO4J_URI": None, "NEO4J_PASSWORD": None}
    run = CliRunner().invoke(main, ["ask", "Is X still in force?"], env=env)
    assert run.exit_code == 1
    assert "Run `car-graph neo4j start`" in run.output
    assert "Traceback" not in run.output


def test_unreachable_uri_says_to_check_it() -> None:
    env = {"NEO4J_URI": f"bolt://127.0.0.1:{_closed_port()}", "NEO4J_PASSWORD": "x"}
    run = CliRunner().invoke(main, ["explain", "DOC-1"], env=env)
    assert run.exit_code == 1
    assert "cannot reach Neo4j at bolt://127.0.0.1:" in run.output
    assert "Check NEO4J_URI, or unset it to use the managed local server." in run.output


def test_missing_index_hint_names_schema_apply_and_ingest() -> None:
    from car_graph.cli import _hint

    hint = _hint(Exception("Failed to invoke procedure: There is no such vector schema index: document_embedding"))
    assert "car-graph schema apply" in hint and "car-graph ingest" in hint
    assert _hint(Exception("some other failure")) == ""
