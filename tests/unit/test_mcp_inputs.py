"""The MCP server's input bounds, validation, error classification and HTTP guard, without a
database: an in-process SDK Client against a server whose driver points at a closed port, so a
call that got past validation would come back as "Neo4j is unavailable"."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client
from neo4j.exceptions import ClientError, ServiceUnavailable, SessionExpired

from car_graph import mcp_server
from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.connection import new_driver
from car_graph.errors import (
    ConfigError,
    QueryParameterError,
    RulesError,
    ServerUnavailableError,
    UnknownQueryError,
)
from car_graph.mcp_server import (
    MAX_INGEST_RECORDS,
    MAX_RECORD_BYTES,
    BearerTokenMiddleware,
    InputRejected,
    check_query_params,
    check_records,
    describe_failure,
    loopback_host,
    parse_rules_object,
    resolve_token,
)

CLOSED = "bolt://127.0.0.1:1"


@pytest.fixture(scope="module")
def offline_car() -> Iterator[CarClient]:
    driver = new_driver(CLOSED, "neo4j", "unused", max_transaction_retry_time=0.5)
    with CarClient(driver, uri=CLOSED, owns_driver=True) as car:
        yield car


def call(car: CarClient, tool: str, arguments: dict[str, Any], *, allow_ingest: bool = False) -> Any:
    server = mcp_server.build_server(car, allow_ingest=allow_ingest)

    async def go() -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(go)


def error_of(result: Any) -> str:
    assert result.is_error
    return result.content[0].text


# ------------------------------------------------------------------ schemas and validation


def test_tools_publish_bounded_input_schemas_and_output_schemas(offline_car) -> None:
    async def go() -> Any:
        async with Client(mcp_server.build_server(offline_car, allow_ingest=True)) as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in anyio.run(go)}
    assert set(tools) == {"ask", "retrieve", "explain", "history", "query", "list_queries", "stats",
                          "schema", "ingest_records"}
    assert all(t.output_schema and t.output_schema["type"] == "object" for t in tools.values())
    ask = tools["ask"].input_schema["properties"]
    assert ask["question"]["maxLength"] == mcp_server.MAX_QUESTION_CHARS
    assert ask["as_of"]["anyOf"][0] == {"format": "date", "type": "string"}
    k = tools["retrieve"].input_schema["properties"]["k"]
    assert (k["minimum"], k["maximum"]) == (1, 50)
    assert tools["explain"].input_schema["properties"]["doc_id"]["maxLength"] == 1024
    assert tools["ingest_records"].input_schema["properties"]["records"]["maxItems"] == MAX_INGEST_RECORDS
    assert tools["ingest_records"].annotations.read_only_hint is False
    assert tools["query"].annotations.read_only_hint is True


@pytest.mark.parametrize(("tool", "arguments", "expected"), [
    ("ask", {"question": "q" * 2001}, "at most 2000 characters"),
    ("ask", {"question": ""}, "at least 1 character"),
    ("ask", {"question": "   "}, "the question is empty"),
    ("ask", {"question": "q", "as_of": "2020-13-45"}, "as_of"),
    ("retrieve", {"question": "q", "k": 51}, "less than or equal to 50"),
    ("retrieve", {"question": "q", "k": 0}, "greater than or equal to 1"),
    ("retrieve", {"question": "q", "domain": "d" * 201}, "at most 200 characters"),
    ("explain", {"doc_id": "x" * 1025}, "at most 1024 characters"),
    ("query", {"name": "../wipe_nodes"}, "String should match pattern"),
    ("query", {"name": "analyst/../../wipe_nodes"}, "String should match pattern"),
    ("query", {"name": "wipe_nodes"}, "no Cypher statement named 'wipe_nodes'"),
    ("query", {"name": "chain", "params": {f"p{i}": 1 for i in range(17)}}, "at most 16 items"),
    ("query", {"name": "chain", "params": {"doc_id": "d", "as_of": 20200101}}, "$as_of must be a date"),
    ("query", {"name": "chain"}, "analyst/chain needs $doc_id (string)"),
    ("query", {"name": "stale_crowding", "params": {"embedding": [0.1], "k": 51}}, "$k must be between 0 and 50"),
])
def test_invalid_arguments_are_refused_before_the_database(offline_car, tool, arguments, expected) -> None:
    message = error_of(call(offline_car, tool, arguments))
    assert expected in message, message
    assert "unavailable" not in message  # the closed port was never tried


def test_ingest_records_exists_only_when_allowed(offline_car) -> None:
    assert "Unknown tool: ingest_records" in error_of(
        call(offline_car, "ingest_records", {"records": [{"id": "a", "text": "b"}]}))
    too_many = [{"id": str(i), "text": "t"} for i in range(MAX_INGEST_RECORDS + 1)]
    assert "at most 500 items" in error_of(
        call(offline_car, "ingest_records", {"records": too_many}, allow_ingest=True))


def test_an_unreachable_database_is_a_retryable_tool_error(offline_car) -> None:
    for tool, arguments in (("query", {"name": "withdrawn_unresolved"}), ("stats", {})):
        result = call(offline_car, tool, arguments)
        assert error_of(result).startswith("Error (retryable): Neo4j is unavailable")
        assert result.structured_content == {"error": result.structured_content["error"], "retryable": True}
    listed = call(offline_car, "list_queries", {})  # needs no database
    assert not listed.is_error and listed.structured_content["queries"]


# ------------------------------------------------------------------ the checks themselves


def test_check_query_params_follows_each_statements_header() -> None:
    check_query_params("analyst/chain", {"doc_id": "x", "as_of": "2003-06-26"})
    check_query_params("analyst/chain", {"doc_id": "x", "as_of": None})
    check_query_params("analyst/stale_crowding", {"embedding": [0.1, 1, -2e-3], "k": 10})
    for params, message in (
        ({"doc_id": 5}, "$doc_id must be a string"),
        ({"doc_id": True}, "$doc_id must be a string"),
        ({"doc_id": "x", "as_of": "26/06/2003"}, "$as_of must be a date 'YYYY-MM-DD'"),
        ({"doc_id": "x" * 1025}, "$doc_id must be a string"),
    ):
        with pytest.raises(InputRejected, match=message.replace("$", r"\$")):
            check_query_params("analyst/chain", params)
    with pytest.raises(InputRejected, match="must be a list of numbers"):
        check_query_params("analyst/stale_crowding", {"embedding": ["a"], "k": 1})
    with pytest.raises(InputRejected, match="must be an integer"):
        check_query_params("analyst/stale_crowding", {"embedding": [0.1], "k": 1.5})
    with pytest.raises(InputRejected, match="between 0 and 1000"):
        check_query_params("analyst/multi_chain_scopes", {"limit": -1})
    with pytest.raises(InputRejected, match="4,097 items \\(at most 4,096\\)"):
        check_query_params("analyst/stale_crowding", {"embedding": [0.0] * 4097, "k": 1})
    with pytest.raises(InputRejected, match="bytes of JSON"):
        check_query_params("analyst/chain", {"doc_id": "x" * (70 * 1024)})


def test_check_records_reports_each_bad_record_and_keeps_the_rest() -> None:
    checked = check_records([
        {"id": "a", "text": "fine"},
        {"text": "no id"},
        "not an object",
        {"id": "big", "text": "x" * MAX_RECORD_BYTES},
        {"id": "a", "text": "again"},
        {"id": "b", "text": "t", "scope": {"bad type!": "k"}},
        {"id": "c", "text": "fine too", "published": "2024-02-29"},
    ])
    assert [r.id for r in checked.records] == ["a", "c"]
    reasons = {p.line: p.reason for p in checked.problems}
    assert set(reasons) == {2, 3, 4, 5, 6}
    assert "'id'" in reasons[2] and "JSON object" in reasons[3]
    assert f"at most {MAX_RECORD_BYTES:,}" in reasons[4]
    assert reasons[5] == "duplicate id 'a' (record 1 was kept)"
    assert all(p.source == "records" for p in checked.problems)
    with pytest.raises(InputRejected, match="at most 500"):
        check_records([{"id": str(i), "text": "t"} for i in range(MAX_INGEST_RECORDS + 1)])
    with pytest.raises(InputRejected, match="send fewer per call"):
        check_records([{"id": str(i), "text": "x" * 200_000} for i in range(25)])


def test_rules_objects_are_parsed_like_rules_files() -> None:
    domain, rules = parse_rules_object({"domain": "hr", "rules": [
        {"name": "newer_policy", "newer_kind": "policy", "older_kind": "policy", "scope": "policy",
         "order": "later"}]})
    assert domain is None and [r.name for r in rules] == ["newer_policy"]
    with pytest.raises(RulesError, match="'name' must be an identifier"):
        parse_rules_object({"rules": [{"name": "no spaces please"}]})
    with pytest.raises(RulesError, match="unknown top-level keys"):
        parse_rules_object({"cypher": "MATCH (n) DETACH DELETE n"})
    with pytest.raises(InputRejected, match="rules are over"):
        parse_rules_object({"rules": [], "description": "x" * (300 * 1024)})


def test_failures_are_classified_for_the_model() -> None:
    retryable = [
        ServerUnavailableError("bolt://h:7687", "read car", "connection refused"),
        ServiceUnavailable("gone"), SessionExpired("expired"),
    ]
    for exc in retryable:
        failure = describe_failure(exc)
        assert failure.retryable and failure.message.startswith("Neo4j is unavailable"), failure
    assert describe_failure(UnknownQueryError("x", ("chain",))) == mcp_server.ToolFailure(
        "no Cypher statement named 'x' in the catalogue; nearest: chain", False)
    assert not describe_failure(QueryParameterError("bad")).retryable
    refused = describe_failure(ClientError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError",
                                                          message="Invalid input"))
    assert refused == mcp_server.ToolFailure(
        "Neo4j refused the statement: Neo.ClientError.Statement.SyntaxError: Invalid input", False)
    crash = describe_failure(RuntimeError("secret internals at 0xdeadbeef"))
    assert "RuntimeError" in crash.message and "0xdeadbeef" not in crash.message and not crash.retryable


# ------------------------------------------------------------------ HTTP guard


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_hosts_are_accepted(host: str) -> None:
    assert loopback_host(host) in {"127.0.0.1", "127.0.0.2", "::1"}


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", ""])
def test_other_hosts_are_refused(host: str) -> None:
    with pytest.raises(ConfigError, match="loopback only"):
        loopback_host(host)


def test_cli_refuses_a_public_host_before_connecting() -> None:
    env = {"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "x"}
    run = CliRunner().invoke(main, ["mcp", "--http", "--host", "0.0.0.0"], env=env)
    assert run.exit_code == 1
    assert "refusing to serve MCP on 0.0.0.0" in run.output and "Neo4j" not in run.output


def test_token_comes_from_the_environment_or_is_generated() -> None:
    token, generated = resolve_token({})
    again, _ = resolve_token({})
    assert generated and len(token) >= 40 and token != again
    assert resolve_token({"CAR_GRAPH_MCP_TOKEN": "a-long-enough-token"}) == ("a-long-enough-token", False)
    with pytest.raises(ConfigError, match="at least 16"):
        resolve_token({"CAR_GRAPH_MCP_TOKEN": "short"})


def _asgi_call(middleware: BearerTokenMiddleware, headers: list[tuple[bytes, bytes]]) -> tuple[int, bool]:
    reached: list[bool] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def go() -> None:
        await middleware({"type": "http", "headers": headers, "method": "POST", "path": "/mcp"},
                         receive, send)

    middleware.app = _recording_app(reached)
    anyio.run(go)
    status = sent[0]["status"] if sent else 0
    return status, bool(reached)


def _recording_app(reached: list[bool]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        reached.append(True)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


def test_bearer_middleware_lets_only_the_exact_token_through() -> None:
    token = "s3cret-token-of-some-length"
    guard = BearerTokenMiddleware(None, token)
    assert _asgi_call(guard, [(b"authorization", f"Bearer {token}".encode())]) == (200, True)
    assert _asgi_call(guard, [(b"Authorization", f"Bearer {token}".encode())]) == (200, True)
    for headers in (
        [],
        [(b"authorization", b"Bearer wrong")],
        [(b"authorization", f"Bearer {token}x".encode())],
        [(b"authorization", f"bearer{token}".encode())],
        [(b"authorization", f"Basic {token}".encode())],
        [(b"authorization", f"Bearer {token}".encode()), (b"authorization", b"Bearer wrong")],
    ):
        assert _asgi_call(guard, headers) == (401, False), headers


def test_lifespan_events_pass_the_bearer_middleware() -> None:
    reached: list[bool] = []
    guard = BearerTokenMiddleware(_recording_app(reached), "t" * 20)

    async def go() -> None:
        async def nothing(*_args: Any) -> Any:
            return {}

        await guard({"type": "lifespan"}, nothing, nothing)

    anyio.run(go)
    assert reached == [True]


# ------------------------------------------------------------------ without the SDK


def test_without_the_sdk_the_command_says_how_to_install_it() -> None:
    code = "import sys; sys.modules['mcp'] = None\nfrom car_graph.cli import main\nmain(['mcp'])"
    run = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "Error: mcp is not installed; it comes with the 'mcp' extra: pip install 'car-graph[mcp]'"]


def test_help_documents_the_transports() -> None:
    run = CliRunner().invoke(main, ["mcp", "--help"])
    assert run.exit_code == 0
    for words in ("stdio (default)", "--http", "loopback", "Authorization: Bearer", "--allow-ingest",
                  "CAR_GRAPH_MCP_TOKEN"):
        assert words in run.output, words
