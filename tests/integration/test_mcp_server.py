"""``car-graph mcp`` driven as an agent drives it: a subprocess spoken to through the MCP SDK's own
ClientSession, over stdio and over streamable HTTP, against the bundled demo graph in the
session's real Neo4j.

One stdio session (the ``stdio`` fixture) makes every call once -- happy paths, bad arguments,
unknown queries and an injection string in every text field -- and keeps what came back; the
tests below assert on that transcript. Its stdout is copied through ``tee`` to a file, so a test
can parse every byte the client received.
"""

from __future__ import annotations

import copy
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx2
import mcp.types as types
import neo4j
import pytest
from click.testing import CliRunner
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from car_graph import analyst, cypher
from car_graph.cli import main
from car_graph.demo import sample_dir
from car_graph.mcp_server import MAX_RECORD_BYTES
from car_graph.records import read_jsonl
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.long(110)]

BOWERS, LAWRENCE = "scotus:478-us-186", "scotus:539-us-558"
WIRTZ = "scotus:392-us-183"  # Maryland v. Wirtz: two hops to Garcia
BOWERS_QUESTION = "Is Bowers v. Hardwick still good law?"
READ_TOOLS = {"ask", "retrieve", "explain", "history", "query", "list_queries", "stats", "schema"}
PAGING_KEYS = ("offset", "total_rows", "next")
CALL_SECONDS = 300  # the first ask loads the embedding model in the server process
INJECTIONS = (
    "x' OR 1=1 //",
    "\"}) MATCH (n) DETACH DELETE n //",
    "$doc_id}) RETURN 1 UNION MATCH (n) DETACH DELETE n RETURN 1 AS x //",
    "CALL dbms.killQueries([]); CREATE (:Pwned)",
    "../../../etc/passwd",
    "\u0000\u202e<script>alert(1)</script>\\",
)


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def neo4j_env(neo4j_target) -> dict[str, str]:
    return {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
            "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}


def server_env(neo4j: dict[str, str], **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CAR_GRAPH_MCP_TOKEN"}
    return {**env, **neo4j, **extra}


def stdio_server(env: dict[str, str], stdout_copy: Path, *args: str) -> StdioServerParameters:
    """`python -m car_graph mcp ARGS`, its stdout also copied to ``stdout_copy`` by tee."""
    script = 'out="$1"; shift; "$0" -m car_graph mcp "$@" | tee "$out"'
    return StdioServerParameters(command="sh", args=["-c", script, sys.executable, str(stdout_copy), *args],
                                 env=env)


async def with_stdio_session(params: StdioServerParameters, stderr: Path,
                             work: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    with open(stderr, "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=CALL_SECONDS) as session:
                await session.initialize()
                return await work(session)


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    # the text block is a short summary for clients that read text only, not the JSON again
    text = result.content[0].text
    assert len(text) <= 1_300 and not text.lstrip().startswith(("{", "[")), text[:200]
    return copy.deepcopy(result.structured_content)  # tests may pop keys: the transcript is shared


def error_text(result: types.CallToolResult) -> str:
    assert result.is_error, result.structured_content
    return result.content[0].text


@dataclass
class Transcript:
    tools: list[types.Tool] = field(default_factory=list)
    calls: dict[str, types.CallToolResult] = field(default_factory=dict)
    injections: list[tuple[str, str, types.CallToolResult]] = field(default_factory=list)
    resources: dict[str, str] = field(default_factory=dict)
    resource_errors: dict[str, str] = field(default_factory=dict)
    resource_list: list[str] = field(default_factory=list)
    prompt: types.GetPromptResult | None = None
    prompt_error: str = ""
    cli: dict[str, Any] = field(default_factory=dict)
    counts_before: dict[str, int] = field(default_factory=dict)
    counts_after: dict[str, int] = field(default_factory=dict)
    stdout: Path = Path()
    stderr: Path = Path()


BAD_ARGUMENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "ask_missing_question": ("ask", {}),
    "ask_question_too_long": ("ask", {"question": "x" * 2001}),
    "ask_question_not_text": ("ask", {"question": 42}),
    "ask_blank_question": ("ask", {"question": "   "}),
    "ask_bad_date": ("ask", {"question": BOWERS_QUESTION, "as_of": "yesterday"}),
    "retrieve_k_0": ("retrieve", {"question": BOWERS_QUESTION, "k": 0}),
    "retrieve_k_51": ("retrieve", {"question": BOWERS_QUESTION, "k": 51}),
    "retrieve_k_text": ("retrieve", {"question": BOWERS_QUESTION, "k": "five"}),
    "explain_empty_id": ("explain", {"doc_id": ""}),
    "explain_id_too_long": ("explain", {"doc_id": "x" * 1025}),
    "explain_unknown_id": ("explain", {"doc_id": "scotus:478-us-18"}),
    "query_missing_param": ("query", {"name": "chain"}),
    "query_unknown_param": ("query", {"name": "chain", "params": {"doc_id": BOWERS, "limit": 3}}),
    "query_param_wrong_type": ("query", {"name": "chain", "params": {"doc_id": 5}}),
    "query_param_bad_date": ("query", {"name": "chain", "params": {"doc_id": BOWERS, "as_of": "soon"}}),
    "query_int_too_large": ("query", {"name": "multi_chain_scopes", "params": {"limit": 10**6}}),
    "query_params_not_object": ("query", {"name": "chain", "params": ["doc_id", BOWERS]}),
    "query_unknown_name": ("query", {"name": "wipe_nodes"}),
    "query_misspelt_name": ("query", {"name": "chian"}),
    "query_traversal": ("query", {"name": "../x"}),
    "query_analyst_traversal": ("query", {"name": "analyst/../../wipe_nodes"}),
    "ingest_without_flag": ("ingest_records", {"records": [{"id": "x", "text": "y"}]}),
}


def injection_calls(text: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(field, tool, arguments): the injection string in every text field of every tool."""
    return [
        ("ask.question", "ask", {"question": text}),
        ("retrieve.question", "retrieve", {"question": text, "k": 3}),
        ("retrieve.domain", "retrieve", {"question": BOWERS_QUESTION, "domain": text}),
        ("explain.doc_id", "explain", {"doc_id": text}),
        ("query.name", "query", {"name": text}),
        ("query.params.key", "query", {"name": "withdrawn_unresolved", "params": {text: 1}}),
        ("chain.doc_id", "query", {"name": "chain", "params": {"doc_id": text}}),
        ("controlling_for_entity.entity_key", "query",
         {"name": "controlling_for_entity", "params": {"entity_key": text, "entity_type": text}}),
        ("withdrawn_unresolved.domain", "query", {"name": "withdrawn_unresolved", "params": {"domain": text}}),
        ("rule_audit.rule", "query", {"name": "rule_audit", "params": {"rule": text}}),
        ("stale_crowding.embed", "query",
         {"name": "stale_crowding", "params": {"k": 5, "domain": text}, "embed": {"embedding": text}}),
    ]


@pytest.fixture(scope="module")
def stdio(demo_graph, neo4j_env, tmp_path_factory) -> Transcript:
    folder = tmp_path_factory.mktemp("mcp-stdio")
    out = Transcript(stdout=folder / "stdout.jsonl", stderr=folder / "stderr.log")
    out.counts_before = demo_graph.store.counts()

    async def work(session: ClientSession) -> None:
        out.tools = (await session.list_tools()).tools

        async def call(label: str, tool: str, arguments: Any) -> None:
            out.calls[label] = await session.call_tool(tool, arguments)

        await call("ask", "ask", {"question": BOWERS_QUESTION})
        await call("ask_1999", "ask", {"question": BOWERS_QUESTION, "as_of": "1999-01-01"})
        await call("retrieve", "retrieve", {"question": BOWERS_QUESTION, "k": 3})
        await call("explain", "explain", {"doc_id": WIRTZ})
        await call("query_chain", "query", {"name": "chain", "params": {"doc_id": BOWERS}})
        await call("query_entity", "query", {"name": "analyst/controlling_for_entity",
                                             "params": {"entity_key": "bowers v. hardwick"}})
        await call("query_stale", "query", {"name": "stale_crowding", "params": {"k": 5},
                                            "embed": {"embedding": "Is Vioxx still approved?"}})
        await call("list_queries", "list_queries", {})
        await call("stats", "stats", {})
        for label, (tool, arguments) in BAD_ARGUMENTS.items():
            await call(label, tool, arguments)
        for text in INJECTIONS:
            for where, tool, arguments in injection_calls(text):
                out.injections.append((where, text, await session.call_tool(tool, arguments)))

        out.resource_list = [str(r.uri) for r in (await session.list_resources()).resources]
        for uri in ("car://query/chain", f"car://doc/{BOWERS}", "car://doc/scotus:478-us-18",
                    *(f"car://doc/{quote(text, safe='')}" for text in INJECTIONS)):
            try:
                read = await session.read_resource(uri)
                out.resources[uri] = read.contents[0].text
            except MCPError as exc:  # the expected outcome for unknown or refused ids
                out.resource_errors[uri] = str(exc)
        out.prompt = await session.get_prompt("check_before_you_cite", {"question": BOWERS_QUESTION})
        try:
            await session.get_prompt("check_before_you_cite", {"question": BOWERS_QUESTION,
                                                               "as_of": "not a date"})
        except MCPError as exc:
            out.prompt_error = str(exc)

    anyio.run(with_stdio_session, stdio_server(server_env(neo4j_env), out.stdout), out.stderr, work)
    out.counts_after = demo_graph.store.counts()

    # The CLI's --json for the same inputs, on the same graph (before anything else changes it)
    runner = CliRunner()
    for label, args in {
        "ask": ["ask", "--json", BOWERS_QUESTION],
        "retrieve": ["retrieve", "--json", "-k", "3", BOWERS_QUESTION],
        "explain": ["explain", "--json", WIRTZ],
        "query_chain": ["query", "chain", "-p", f"doc_id={BOWERS}", "--json"],
        "stats": ["stats", "--json"],
    }.items():
        run = runner.invoke(main, args, env=neo4j_env)
        assert run.exit_code == 0, run.output
        out.cli[label] = json.loads(run.output)
    return out


# ------------------------------------------------------------------ stdio: every tool


@pytest.mark.models
def test_stdio_lists_the_read_tools_with_input_and_output_schemas(stdio: Transcript) -> None:
    tools = {t.name: t for t in stdio.tools}
    assert set(tools) == READ_TOOLS  # ingest_records only with --allow-ingest
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.output_schema, tool.name
        assert tool.annotations is not None and tool.annotations.read_only_hint, tool.name
        assert tool.description and "Args" not in tool.description
    question = tools["ask"].input_schema["properties"]["question"]
    assert question["maxLength"] == 2000 and tools["ask"].input_schema["required"] == ["question"]
    assert tools["retrieve"].input_schema["properties"]["k"]["maximum"] == 50
    assert "pattern" in tools["query"].input_schema["properties"]["name"]
    assert tools["ask"].output_schema["properties"]["verdict"]["enum"][0] == "in_force"


@pytest.mark.models
def test_ask_over_stdio_names_lawrence_v_texas_with_the_chain_and_context(stdio: Transcript) -> None:
    data = structured(stdio.calls["ask"])
    assert data["verdict"] == "superseded"
    assert data["subject"]["doc_id"] == BOWERS
    assert "Lawrence v. Texas" in data["summary"]
    assert [(c["doc_id"], c["title"], c["status"]) for c in data["controlling"]] == [
        (LAWRENCE, "Lawrence v. Texas", "active")]
    hop = data["controlling"][0]["chain"][0]
    assert (hop["from_id"], hop["to_id"], hop["rule"], hop["effective"]) == (
        BOWERS, LAWRENCE, "explicit", "2003-01-01")
    assert "overruled Bowers v. Hardwick" in hop["evidence"]
    assert f"[2] {LAWRENCE}: Lawrence v. Texas" in data["context"]
    assert "[CONTROLLING]" in data["context"] and data["context"].startswith(f"Question: {BOWERS_QUESTION}")
    before = structured(stdio.calls["ask_1999"])
    assert before["verdict"] == "in_force" and before["as_of"] == "1999-01-01"


@pytest.mark.models
def test_tool_results_have_the_cli_json_shapes(stdio: Transcript) -> None:
    ask = structured(stdio.calls["ask"])
    assert ask.pop("context")
    assert ask == stdio.cli["ask"]

    retrieve, cli = structured(stdio.calls["retrieve"]), stdio.cli["retrieve"]
    assert set(retrieve) == set(cli)
    # scores are computed twice, in two processes: equal up to float noise, the rest exactly
    scores = [r.pop("score") for r in retrieve["results"]]
    cli_scores = [r.pop("score") for r in cli["results"]]
    assert scores == pytest.approx(cli_scores, rel=1e-5)
    assert retrieve == cli
    assert retrieve["verdict"] == "superseded" and retrieve["results"][0]["doc_id"] == LAWRENCE

    explain = structured(stdio.calls["explain"])
    assert explain.pop("chains_text")
    assert explain == stdio.cli["explain"]
    chain = structured(stdio.calls["query_chain"])
    assert [chain.pop(key) for key in PAGING_KEYS] == [0, len(chain["rows"]), None]  # one page
    assert chain == stdio.cli["query_chain"]
    assert structured(stdio.calls["stats"]) == stdio.cli["stats"]


@pytest.mark.models
def test_explain_gives_the_chains_as_data_and_as_text(stdio: Transcript) -> None:
    data = structured(stdio.calls["explain"])
    assert data["doc_id"] == WIRTZ and data["status"] == "superseded"
    garcia = next(c for c in data["controlling"] if c["doc_id"] == "scotus:469-us-528")
    assert [(h["from_id"], h["to_id"]) for h in garcia["chain"]] == [
        (WIRTZ, "scotus:426-us-833"), ("scotus:426-us-833", "scotus:469-us-528")]
    lines = data["chains_text"].splitlines()
    assert lines[0] == f"{WIRTZ} [superseded] Maryland v. Wirtz"
    assert any(line.startswith("controlled by scotus:469-us-528 [active] Garcia") for line in lines)
    first = lines.index(f"  {WIRTZ} -> scotus:426-us-833 via explicit on 1976-01-01")
    assert lines[first + 1].startswith("    evidence: ")
    assert "  scotus:426-us-833 -> scotus:469-us-528 via explicit on 1985-01-01" in lines


@pytest.mark.models
def test_query_list_queries_and_stats_over_stdio(stdio: Transcript) -> None:
    chain = structured(stdio.calls["query_chain"])
    assert chain["query"] == "analyst/chain"
    assert [row["controlling_id"] for row in chain["rows"]] == [LAWRENCE]
    entity = structured(stdio.calls["query_entity"])
    assert LAWRENCE in [row["doc_id"] for row in entity["rows"]]
    stale = structured(stdio.calls["query_stale"])
    assert stale["query"] == "analyst/stale_crowding" and stale["rows"]
    assert {"rank", "doc_id", "status", "crowded_out"} <= set(stale["columns"])

    listed = structured(stdio.calls["list_queries"])["queries"]
    assert [q["name"] for q in listed] == [n.split("/", 1)[1] for n in cypher.analyst_names()]
    chain_info = next(q for q in listed if q["name"] == "chain")
    assert {"name": "doc_id", "type": "string", "optional": False} in chain_info["parameters"]
    assert {"name": "as_of", "type": "date|null", "optional": True} in chain_info["parameters"]
    assert chain_info["resource"] == "car://query/chain" and chain_info["purpose"]

    stats = structured(stdio.calls["stats"])
    assert stats["documents"] == stdio.counts_before["documents"] > 0
    assert stats["edges_by_rule"]["explicit"] > 0


@pytest.mark.models
def test_bad_arguments_are_tool_errors_with_a_clear_message(stdio: Transcript) -> None:
    for label in BAD_ARGUMENTS:
        text = error_text(stdio.calls[label])
        assert "Traceback" not in text and "internal error" not in text, (label, text)
        assert stdio.calls[label].structured_content is None or \
            stdio.calls[label].structured_content["retryable"] is False, label
    message = {label: error_text(stdio.calls[label]) for label in BAD_ARGUMENTS}
    assert "question" in message["ask_missing_question"] and "required" in message["ask_missing_question"].lower()
    assert "at most 2000 characters" in message["ask_question_too_long"]
    assert "the question is empty" in message["ask_blank_question"]
    assert "as_of" in message["ask_bad_date"] and "date" in message["ask_bad_date"]
    assert "greater than or equal to 1" in message["retrieve_k_0"]
    assert "less than or equal to 50" in message["retrieve_k_51"]
    assert "k" in message["retrieve_k_text"] and "integer" in message["retrieve_k_text"]
    assert "at least 1 character" in message["explain_empty_id"]
    assert "at most 1024 characters" in message["explain_id_too_long"]
    assert f"no document 'scotus:478-us-18'; nearest ids: {BOWERS}" in message["explain_unknown_id"]
    assert "analyst/chain needs $doc_id (string)" in message["query_missing_param"]
    assert "has no parameter limit" in message["query_unknown_param"]
    assert "$doc_id must be a string" in message["query_param_wrong_type"]
    assert "$as_of must be a date 'YYYY-MM-DD'" in message["query_param_bad_date"]
    assert "$limit must be between 0 and 1000" in message["query_int_too_large"]
    assert "params" in message["query_params_not_object"]
    assert "no Cypher statement named 'wipe_nodes'" in message["query_unknown_name"]
    assert "nearest: chain" in message["query_misspelt_name"]
    for label in ("query_traversal", "query_analyst_traversal"):
        assert "String should match pattern" in message[label], message[label]
    assert "Unknown tool: ingest_records" in message["ingest_without_flag"]


@pytest.mark.models
def test_injection_strings_in_every_text_field_change_nothing(stdio: Transcript) -> None:
    fields = {where for where, _text, _result in stdio.injections}
    assert len(fields) == 11 and len(stdio.injections) == 11 * len(INJECTIONS)
    for where, text, result in stdio.injections:
        if result.is_error:
            message = error_text(result)
            # a refusal names what was wrong; nothing crashed, nothing needs a retry
            assert "internal error" not in message and "(retryable)" not in message, (where, text, message)
            assert "Neo4j refused" not in message, (where, text, message)
        elif where in ("ask.question", "retrieve.question", "retrieve.domain"):
            assert structured(result)["verdict"] in {kind.value for kind in VerdictKind}
        else:  # the text was a value: it matched nothing
            assert structured(result)["rows"] == [], (where, text)
    by_field = {(where, text): r for where, text, r in stdio.injections}
    for text in INJECTIONS:
        assert f"no document {text!r}" in error_text(by_field["explain.doc_id", text])
        assert by_field["query.name", text].is_error
        assert "has no parameter" in error_text(by_field["query.params.key", text])
        assert not by_field["ask.question", text].is_error
    assert stdio.counts_after == stdio.counts_before  # the graph is untouched


@pytest.mark.models
def test_resources_hold_query_texts_and_each_documents_text_and_chain(stdio: Transcript) -> None:
    assert {f"car://query/{n.split('/', 1)[1]}" for n in cypher.analyst_names()} <= set(stdio.resource_list)
    assert stdio.resources["car://query/chain"] == cypher.text("analyst/chain")
    document = json.loads(stdio.resources[f"car://doc/{BOWERS}"])
    assert document["doc_id"] == BOWERS and document["title"] == "Bowers v. Hardwick"
    [sample] = [r for r in read_jsonl(sample_dir() / "law.jsonl") if r.id == BOWERS]
    assert document["text"] == sample.text and document["published"] == str(sample.published)
    explanation = document["explanation"]
    assert explanation["status"] == "superseded"
    assert [c["doc_id"] for c in explanation["controlling"]] == [LAWRENCE]
    assert f"{BOWERS} -> {LAWRENCE} via explicit on 2003-01-01" in explanation["chains_text"]
    assert "no document 'scotus:478-us-18'" in stdio.resource_errors["car://doc/scotus:478-us-18"]
    for text in INJECTIONS:  # refused by the SDK's path checks or not found: never served
        assert f"car://doc/{quote(text, safe='')}" in stdio.resource_errors


@pytest.mark.models
def test_check_before_you_cite_puts_the_context_block_in_front_of_the_model(stdio: Transcript) -> None:
    assert stdio.prompt is not None
    [message] = stdio.prompt.messages
    text = message.content.text
    assert message.role == "user" and text.startswith("Check before you cite.")
    assert f"Question: {BOWERS_QUESTION}\nVerdict: SUPERSEDED." in text
    assert f"[2] {LAWRENCE}: Lawrence v. Texas" in text and "[CONTROLLING]" in text
    assert text.endswith("Answer:")
    assert stdio.prompt_error == "as_of 'not a date' is not a date YYYY-MM-DD"


@pytest.mark.models
def test_stdio_stdout_carries_only_protocol_messages(stdio: Transcript) -> None:
    lines = stdio.stdout.read_text(encoding="utf-8").splitlines()
    # every call of the transcript has its response, so the file is the whole conversation
    assert len(lines) >= len(stdio.calls) + len(stdio.injections)
    for number, line in enumerate(lines, start=1):
        message = types.jsonrpc_message_adapter.validate_json(line)  # raises on anything else
        assert message.jsonrpc == "2.0", number
    # every failure of the transcript was handled: no traceback even in the server's log
    log = stdio.stderr.read_text(encoding="utf-8")
    assert "Traceback" not in log and "unexpected error" not in log, log[:2000]


# ------------------------------------------------------------------ query cannot write


def test_the_read_transaction_path_refuses_a_write(demo_graph, neo4j_target) -> None:
    """query runs analyst.run_query -> analyst.run_read: a READ transaction. Given a writing
    catalogue statement (upsert_domain MERGEs a :Domain) the server refuses it."""
    before = demo_graph.store.read("read_domains")
    with pytest.raises(neo4j.exceptions.ClientError) as caught:
        analyst.run_read(demo_graph.driver, neo4j_target.database, "upsert_domain",
                         {"domain": "mcp_pwned", "spec": "{}"})
    assert "AccessMode" in (caught.value.code or "") or "read access mode" in str(caught.value)
    assert demo_graph.store.read("read_domains") == before
    # and the tool's name resolution never leaves the analyst folder
    from car_graph.errors import UnknownQueryError

    for name in ("wipe_nodes", "upsert_domain", "../wipe_nodes", "analyst/../../wipe_nodes", "analyst/x/y"):
        with pytest.raises(UnknownQueryError):
            analyst.resolve_name(name)


# ------------------------------------------------------------------ ingest_records


@pytest.mark.models
def test_ingest_records_with_allow_ingest_loads_valid_records_and_reports_each_bad_one(
    demo_graph, neo4j_env, tmp_path: Path
) -> None:
    first, second = "mcp-test:policy-1", "mcp-test:policy-2"
    records = [
        {"id": first, "title": "Travel policy v1", "domain": "mcptest", "kind": "policy",
         "published": "2020-01-01", "scope": {"policy": "travel"},
         "text": "Employees book economy class for flights under six hours."},
        {"id": second, "title": "Travel policy v2", "domain": "mcptest", "kind": "policy",
         "published": "2023-01-01", "scope": {"policy": "travel"},
         "text": "Employees book economy class on every flight; business class needs approval.",
         "supersedes": [{"id": first, "effective": "2023-01-01", "evidence": "v2 replaces v1"}]},
        {"text": "a record without an id"},
        {"id": "mcp-test:huge", "text": "x" * (MAX_RECORD_BYTES + 10)},
        {"id": first, "text": "the same id again"},
        {"id": "mcp-test:bad-date", "text": "t", "published": "01/02/2020"},
    ]
    results: dict[str, Any] = {}

    async def work(session: ClientSession) -> None:
        results["tools"] = {t.name for t in (await session.list_tools()).tools}
        results["ingest"] = await session.call_tool(
            "ingest_records", {"records": records, "rules": {"domain": "mcptest", "rules": []}})
        results["explain"] = await session.call_tool("explain", {"doc_id": first})
        results["bad_rules"] = await session.call_tool(
            "ingest_records", {"records": records[:1], "rules": {"rules": [{"name": "not a name!"}]}})
        results["too_many"] = await session.call_tool(
            "ingest_records", {"records": [{"id": f"r{i}", "text": "t"} for i in range(501)]})
        results["injected"] = await session.call_tool("ingest_records", {"records": [
            {"id": text, "title": text, "text": text, "domain": "mcptest", "kind": "policy"}
            for text in INJECTIONS]})

    try:
        anyio.run(with_stdio_session, stdio_server(server_env(neo4j_env), tmp_path / "out",
                                                   "--allow-ingest", "--allow-rules"),
                  tmp_path / "err", work)
        assert results["tools"] == READ_TOOLS | {"ingest_records"}
        data = structured(results["ingest"])
        assert data["documents"] == 2 and data["skipped_count"] == 4
        reasons = {p["line"]: p["reason"] for p in data["skipped"]}
        assert set(reasons) == {3, 4, 5, 6}
        assert "'id'" in reasons[3]
        assert "at most 262,144" in reasons[4]
        assert "duplicate id" in reasons[5] and "record 1 was kept" in reasons[5]
        assert "published" in reasons[6]
        assert data["missing_references"] == [] and data["cycles"] == []
        explained = structured(results["explain"])  # the explicit edge, as given
        assert explained["status"] == "superseded"
        assert [c["doc_id"] for c in explained["controlling"]] == [second]
        assert [(h["to_id"], h["rule"], h["effective"], h["evidence"]) for h in explained["superseded_by"]] == [
            (second, "explicit", "2023-01-01", "v2 replaces v1")]
        assert "'name' must be an identifier" in error_text(results["bad_rules"])
        assert "at most 500 items" in error_text(results["too_many"])
        # injection strings are stored as plain values: ids are ids, nothing else happens
        injected = structured(results["injected"])
        assert injected["documents"] + injected["skipped_count"] == len(INJECTIONS)
        stored = {r["doc_id"] for r in demo_graph.store.read("document_ids", prefix="", limit=100_000)}
        assert {t.strip() for t in INJECTIONS if t.strip()} & stored
    finally:
        demo_graph.delete([first, second, *(t.strip() for t in INJECTIONS)])


# ------------------------------------------------------------------ streamable HTTP


@dataclass
class HttpServer:
    process: subprocess.Popen[str]
    url: str
    stderr: list[str]
    stdout: list[str]


def start_http_server(env: dict[str, str], *args: str) -> HttpServer:
    """`python -m car_graph mcp --http --port 0 ARGS`, its URL read from its stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "car_graph", "mcp", "--http", "--port", "0", *args], env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = HttpServer(process, "", [], [])

    def drain(stream: Any, into: list[str]) -> None:
        for line in stream:
            into.append(line)

    for stream, into in ((process.stderr, server.stderr), (process.stdout, server.stdout)):
        threading.Thread(target=drain, args=(stream, into), daemon=True).start()
    deadline = time.monotonic() + 120
    prefix = "car-graph mcp: streamable HTTP on "
    while time.monotonic() < deadline and process.poll() is None:
        found = [line for line in list(server.stderr) if line.startswith(prefix)]
        if found:
            server.url = found[0][len(prefix):].strip()
            return server
        time.sleep(0.2)
    process.kill()
    raise AssertionError(f"no URL from the HTTP server: {''.join(server.stderr)}")


def stop(server: HttpServer) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=30)


async def http_session(url: str, token: str | None,
                       work: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=CALL_SECONDS)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=CALL_SECONDS) as session:
                await session.initialize()
                return await work(session)


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw-test", "version": "0"}}}


async def raw_post(url: str, authorization: str | None) -> int:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(url, json=INITIALIZE, headers=headers)
        return response.status_code


@pytest.mark.models
def test_http_refuses_requests_without_the_token_and_answers_with_it(demo_graph, neo4j_env) -> None:
    server = start_http_server(server_env(neo4j_env))
    try:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/mcp")
        token_lines = [line for line in server.stderr if "bearer token" in line]
        assert len(token_lines) == 1  # printed once
        token = token_lines[0].rsplit(": ", 1)[1].strip()
        assert len(token) >= 32

        async def scenario() -> dict[str, Any]:
            seen: dict[str, Any] = {
                "none": await raw_post(server.url, None),
                "wrong": await raw_post(server.url, "Bearer " + "x" * len(token)),
                "basic": await raw_post(server.url, f"Basic {token}"),
                "right": await raw_post(server.url, f"Bearer {token}"),
            }
            try:
                with anyio.fail_after(60):
                    await http_session(server.url, None, lambda s: s.list_tools())
                seen["sdk_without_token"] = "answered"
            except Exception as exc:  # whatever the transport raises on a 401: it did not answer
                seen["sdk_without_token"] = repr(exc)

            async def ask(session: ClientSession) -> Any:
                return await session.call_tool("ask", {"question": BOWERS_QUESTION})

            seen["ask"] = await http_session(server.url, token, ask)
            return seen

        seen = anyio.run(scenario)
        assert (seen["none"], seen["wrong"], seen["basic"]) == (401, 401, 401)
        assert seen["right"] == 200
        assert seen["sdk_without_token"] != "answered"
        data = structured(seen["ask"])
        assert data["verdict"] == "superseded"
        assert [c["doc_id"] for c in data["controlling"]] == [LAWRENCE]
        assert "Lawrence v. Texas" in data["summary"]
    finally:
        stop(server)
    assert server.stdout == []  # logs go to stderr, also over HTTP
    assert sum(token in line for line in server.stderr) == 1


def test_http_takes_its_token_from_the_environment_and_never_prints_it(demo_graph, neo4j_env) -> None:
    token = secrets.token_urlsafe(24)
    server = start_http_server(server_env(neo4j_env, CAR_GRAPH_MCP_TOKEN=token))
    try:
        async def scenario() -> tuple[int, set[str]]:
            refused = await raw_post(server.url, "Bearer not-the-token-at-all")
            tools = await http_session(server.url, token, lambda s: s.list_tools())
            return refused, {t.name for t in tools.tools}

        refused, tools = anyio.run(scenario)
        assert refused == 401 and tools == READ_TOOLS
    finally:
        stop(server)
    assert not any(token in line for line in server.stderr)
    assert not any("bearer token" in line for line in server.stderr)


# ------------------------------------------------------------------ a lost database


def test_a_lost_database_is_a_retryable_error_and_the_server_recovers(outage, tmp_path) -> None:
    outage_server, _target, _driver = outage
    uri, user, password = outage_server.connection()
    env = server_env({"NEO4J_URI": uri, "NEO4J_USER": user, "NEO4J_PASSWORD": password})
    arguments = {"name": "withdrawn_unresolved"}
    seen: dict[str, Any] = {}

    async def work(session: ClientSession) -> None:
        seen["before"] = await session.call_tool("query", arguments)
        await anyio.to_thread.run_sync(lambda: outage_server.stop(timeout=60, progress=lambda _m: None))
        seen["down_query"] = await session.call_tool("query", arguments)
        seen["down_stats"] = await session.call_tool("stats", {})
        await anyio.to_thread.run_sync(lambda: outage_server.start(timeout=240, progress=lambda _m: None))
        # Bolt answers before the database is online: a retryable error is allowed meanwhile
        for _attempt in range(30):
            seen["after"] = await session.call_tool("query", arguments)
            if not seen["after"].is_error:
                break
            assert seen["after"].structured_content["retryable"] is True
            await anyio.sleep(1)

    anyio.run(with_stdio_session, stdio_server(env, tmp_path / "out"), tmp_path / "err", work)
    assert structured(seen["before"])["rows"] == []
    for label in ("down_query", "down_stats"):
        message = error_text(seen[label])
        assert message.startswith("Error (retryable): Neo4j is unavailable"), message
        assert seen[label].structured_content["retryable"] is True
        assert "call the tool again" in message and "Traceback" not in message
    assert structured(seen["after"])["query"] == "analyst/withdrawn_unresolved"


# ------------------------------------------------------------------ docs/agents.md


@pytest.mark.models
def test_agents_md_python_example_runs_and_prints_what_the_page_says(
    demo_graph, neo4j_env, monkeypatch, capfd
) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text(encoding="utf-8")
    [example] = [b for b in re.findall(r"```python\n(.*?)```", page, flags=re.S) if "stdio_client(server)" in b]
    promised = re.search(r"prints\n\n```text\n(.*?)\n", page).group(1)
    for key, value in neo4j_env.items():
        monkeypatch.setenv(key, value)
    # `car-graph` as a reader's shell finds it: the environment's scripts folder on PATH
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    exec(compile(example, "docs/agents.md", "exec"), {"__name__": "__doc_example__"})
    printed = capfd.readouterr().out.splitlines()
    assert printed[0] == promised
    assert f"[2] {LAWRENCE}: Lawrence v. Texas (decision, 2003-01-01); status ACTIVE [CONTROLLING]" in printed
