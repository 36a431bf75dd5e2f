"""Schema files, the local-server object and the CLI, without a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph import cypher, schema
from car_graph.cli import main
from car_graph.errors import ServerError
from car_graph.local_server import LocalNeo4j, _argfile_quote, new_password


def test_every_schema_file_creates_one_named_object_in_order() -> None:
    statements = schema.statements()
    assert [s.file for s in statements] == cypher.schema_names()
    names = [s.name for s in statements]
    assert len(names) == len(set(names))
    assert schema.VECTOR_INDEX in names
    assert {s.name: s.params for s in statements}[schema.VECTOR_INDEX] == ("dimensions",)
    # closed document versions (two clocks) have a vector index of the same dimension
    vectors = {schema.VECTOR_INDEX, "document_version_embedding"}
    assert {s.name: s.params for s in statements}["document_version_embedding"] == ("dimensions",)
    assert all(s.params == () for s in statements if s.name not in vectors)
    for name in cypher.schema_names():
        text = cypher.text(name, cypher.SCHEMA_PACKAGE)
        assert "IF NOT EXISTS" in text, f"{name} must be idempotent"


def test_allow_list_names_are_plain_identifiers() -> None:
    for name in schema.managed_names():
        assert name.isidentifier() and name.isascii()


def test_unused_instance_reports_not_running(tmp_path: Path) -> None:
    server = LocalNeo4j(tmp_path, "5.26.30", "fresh")
    status = server.status()
    assert not status.running and status.pid is None and status.uri is None
    assert not server.is_installed()
    assert not (tmp_path / "instances").exists(), "status() must not create anything"
    with pytest.raises(ServerError):
        server.connection()


@pytest.mark.parametrize("name", ["", "../up", "a/b", "x y"])
def test_instance_names_are_restricted(tmp_path: Path, name: str) -> None:
    with pytest.raises(ServerError):
        LocalNeo4j(tmp_path, "5.26.30", name)


def test_argfile_quoting() -> None:
    assert _argfile_quote("plain-Token_1") == "plain-Token_1"
    assert _argfile_quote("has space") == '"has space"'
    assert _argfile_quote('q"\\') == '"q\\"\\\\"'


def test_cli_help_lists_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for command in ("neo4j", "schema", "reset"):
        assert command in result.output


def test_cli_status_json_when_stopped(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["neo4j", "status", "--json"], env={"CAR_GRAPH_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["running"] is False


def test_cli_reset_refuses_remote_without_connecting() -> None:
    env = {"NEO4J_URI": "bolt://db.example.com:7687", "NEO4J_PASSWORD": "x" * 12}
    result = CliRunner().invoke(main, ["reset", "--yes"], env=env)
    assert result.exit_code == 1
    assert "not a loopback" in result.output


def test_cli_reset_needs_confirmation() -> None:
    result = CliRunner().invoke(main, ["reset"], input="n\n")
    assert result.exit_code != 0


def test_cli_errors_are_messages_not_tracebacks(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "show"], env={"CAR_GRAPH_HOME": str(tmp_path), "NEO4J_URI": ""})
    assert result.exit_code == 1
    assert "car-graph neo4j start" in result.output
    assert "Traceback" not in result.output


def test_public_api_is_exactly_the_documented_names() -> None:
    import car_graph

    assert sorted(car_graph.__all__) == sorted(
        name for name in vars(car_graph) if not name.startswith("_") and name[0].isupper()
    )
    assert {"CarClient", "Settings", "Result", "Hop", "CarError"} <= set(car_graph.__all__)


def test_generated_passwords_never_look_like_a_command_line_option() -> None:
    # neo4j-admin parses a leading "-" as an option; token_urlsafe starts with one 1 time in 32
    passwords = [new_password() for _ in range(2000)]
    assert not any(p.startswith("-") for p in passwords)
    assert len(set(passwords)) == len(passwords) and min(map(len, passwords)) >= 32
