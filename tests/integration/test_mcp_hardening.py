"""``car-graph mcp`` against a hostile or careless model (issue 57): bounded results and paging,
writes that cannot rewrite authorities by accident, strict argument contracts, the ``schema``
and ``cypher_read`` tools -- each driven through the MCP SDK's own client over stdio (and HTTP
for the bearer scheme), against the bundled demo graph.

One stdio session (``hardened``: ``--allow-ingest --allow-cypher --cypher-timeout 3``, the
default 40,000-character budget) makes every call once and keeps what came back; the tests
assert on that transcript.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import mcp.types as types
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from test_mcp_server import (
    BOWERS,
    BOWERS_QUESTION,
    CALL_SECONDS,
    LAWRENCE,
    neo4j_env,  # noqa: F401  (a fixture)
    raw_post,
    server_env,
    start_http_server,
    stdio_server,
    stop,
)

from car_graph import analyst, cypher
from car_graph.mcp_server import DEFAULT_MAX_RESULT_CHARS, package_version

pytestmark = [pytest.mark.neo4j, pytest.mark.long(150)]

CHANGED = {"known_from": "2000-01-01", "known_to": "2100-01-01"}  # every document, recorded since
NEW_POLICY, NEWER_POLICY = "mcp-hardening:policy-1", "mcp-hardening:policy-2"
SLASHED = "mcp-hardening/annex/1"  # an id holding '/': car://doc/ takes it percent-encoded
CLIENT_NAME = "hardening-test-client"


def new_record(doc_id: str, title: str, **extra: Any) -> dict[str, Any]:
    return {"id": doc_id, "title": title, "domain": "mcphardening", "kind": "policy",
            "published": "2024-01-01", "scope": {"policy": "remote work"},
            "text": f"{title}: employees may work remotely two days a week.", **extra}


def result_size(result: types.CallToolResult) -> int:
    """What a tool result costs a model: its text blocks and its structured JSON."""
    text = sum(len(block.text) for block in result.content if isinstance(block, types.TextContent))
    return text + len(json.dumps(result.structured_content))


def data(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return copy.deepcopy(result.structured_content)


def error_text(result: types.CallToolResult) -> str:
    assert result.is_error, result.structured_content
    return result.content[0].text


async def session_run(params: StdioServerParameters, stderr: Path,
                      work: Callable[[ClientSession, types.InitializeResult], Awaitable[Any]]) -> Any:
    with open(stderr, "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=CALL_SECONDS,
                                     client_info=types.Implementation(name=CLIENT_NAME, version="1")
                                     ) as session:
                initialized = await session.initialize()
                return await work(session, initialized)


@dataclass
class Hardened:
    initialized: types.InitializeResult | None = None
    tools: dict[str, types.Tool] = field(default_factory=dict)
    calls: dict[str, types.CallToolResult] = field(default_factory=dict)
    pages: list[types.CallToolResult] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    everything: list[dict[str, Any]] = field(default_factory=list)  # changed_between, unpaged
    titles: dict[str, list[Any]] = field(default_factory=dict)
    resources: dict[str, str] = field(default_factory=dict)  # what a read gave, or "ERROR: ..."
    prompts: dict[str, str] = field(default_factory=dict)
    prompt_arguments: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def hardened(demo_graph, neo4j_env, tmp_path_factory) -> Hardened:  # noqa: F811
    folder = tmp_path_factory.mktemp("mcp-hardened")
    out = Hardened()

    def bowers_title() -> list[Any]:
        return [row["title"] for row in demo_graph.store.read("document_text", doc_id=BOWERS)]

    async def work(session: ClientSession, initialized: types.InitializeResult) -> None:
        out.initialized = initialized
        out.tools = {t.name: t for t in (await session.list_tools()).tools}

        async def call(label: str, tool: str, arguments: dict[str, Any]) -> None:
            out.calls[label] = await session.call_tool(tool, arguments)

        # bounded results, paging
        cursor = None
        for _page in range(200):
            arguments: dict[str, Any] = {"name": "changed_between", "params": CHANGED}
            if cursor:
                arguments["cursor"] = cursor
            page = await session.call_tool("query", arguments)
            out.pages.append(page)
            if page.is_error or not (cursor := page.structured_content.get("next")):
                break
        out.everything = list(analyst.run_query(demo_graph.driver, demo_graph.database,
                                                "changed_between", CHANGED).rows)
        await call("rule_audit_1000", "query", {"name": "rule_audit", "params": {"samples": 1000}})
        await call("retrieve_50", "retrieve", {"question": BOWERS_QUESTION, "k": 50})
        await call("list_queries", "list_queries", {})
        await call("small_page", "query", {"name": "changed_between", "params": CHANGED, "page_rows": 3})
        await call("foreign_cursor", "query", {"name": "changed_between", "params": CHANGED | {"as_of": "2020-01-01"},
                                               "cursor": out.calls["small_page"].structured_content["next"]})
        await call("garbage_cursor", "query", {"name": "chain", "params": {"doc_id": BOWERS}, "cursor": "garbage"})
        # strict contract
        await call("k_text", "retrieve", {"question": BOWERS_QUESTION, "k": "5"})
        await call("k_bool", "retrieve", {"question": BOWERS_QUESTION, "k": True})
        await call("unknown_argument", "ask", {"question": BOWERS_QUESTION, "as_at": "2000-01-01"})
        await call("query_unknown_argument", "query", {"name": "chain", "parameters": {"doc_id": BOWERS}})
        await call("ingest_typo", "ingest_records", {"records": [new_record(NEW_POLICY, "x")], "dryrun": True})
        await call("datetime_not_text", "query", {"name": "changed_between",
                                                  "params": {"known_from": 5, "known_to": "2100-01-01"}})
        # schema and cypher_read
        await call("schema", "schema", {})
        await call("cypher_create", "cypher_read", {"statement": "CREATE (:Pwned {by: 'mcp'}) RETURN 1 AS one"})
        await call("cypher_delete", "cypher_read", {"statement": "MATCH (n) DETACH DELETE n"})
        await call("cypher_load_csv", "cypher_read",
                   {"statement": "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line"})
        await call("cypher_procedure", "cypher_read", {"statement": "CALL dbms.components() YIELD name RETURN name"})
        await call("cypher_capped", "cypher_read",
                   {"statement": "MATCH (d:Document) RETURN d.id AS id ORDER BY id", "row_limit": 5})
        await call("cypher_params", "cypher_read", {
            "statement": "MATCH (d:Document {id: $id})<-[s:SUPERSEDES]-(n) RETURN n.id AS by, s.rule AS rule",
            "params": {"id": BOWERS}})
        await call("cypher_slow", "cypher_read", {
            "statement": "UNWIND range(1, 4000000000) AS x WITH x WHERE x = -1 RETURN count(*) AS n"})
        # writes: new ids only, dry runs write nothing, the run records its source
        out.titles["before"] = bowers_title()
        out.counts["before"] = demo_graph.store.counts()
        await call("overwrite", "ingest_records", {"records": [
            {"id": BOWERS, "title": "Bowers, rewritten", "text": "Nothing to see."},
            new_record(NEW_POLICY, "Remote work policy", supersedes=[BOWERS]),
        ]})
        out.counts["after_refusal"] = demo_graph.store.counts()
        out.titles["after_refusal"] = bowers_title()
        # a rules object (rules, identifier patterns) without --allow-rules
        await call("rules_refused", "ingest_records", {
            "records": [new_record(NEW_POLICY, "Remote work policy")],
            "rules": {"domain": "mcptest", "identifiers": [{"type": "t", "pattern": "(?:[\\w ]+)+Q"}],
                      "rules": []}})
        out.counts["after_rules_refused"] = demo_graph.store.counts()
        batch = [new_record(NEW_POLICY, "Remote work policy v1"),
                 new_record(NEWER_POLICY, "Remote work policy v2", published="2025-01-01",
                            supersedes=[{"id": NEW_POLICY, "evidence": "v2 replaces v1"}])]
        await call("dry_run", "ingest_records", {"records": batch, "dry_run": True})
        out.counts["after_dry_run"] = demo_graph.store.counts()
        await call("ingest", "ingest_records", {"records": batch})
        await call("ingest_again", "ingest_records", {"records": batch[:1]})
        # history; known_at beside as_of on the document resource and the prompt; an id with '/'
        await call("ingest_slashed", "ingest_records", {"records": [new_record(SLASHED, "Annex")]})

        async def read(label: str, uri: str) -> None:
            try:
                out.resources[label] = (await session.read_resource(uri)).contents[0].text
            except Exception as exc:  # the SDK raises the server's resource error
                out.resources[label] = f"ERROR: {exc}"

        async def prompt(label: str, arguments: dict[str, Any]) -> None:
            try:
                got = await session.get_prompt("check_before_you_cite", arguments)
                out.prompts[label] = got.messages[0].content.text
            except Exception as exc:
                out.prompts[label] = f"ERROR: {exc}"

        await read("slashed", f"car://doc/{quote(SLASHED, safe='')}")
        await read("bowers", f"car://doc/{BOWERS}")
        await read("bowers_as_of_1990", f"car://doc/{BOWERS}?as_of=1990-01-01")
        await read("bowers_known_2000", f"car://doc/{BOWERS}?known_at=2000-01-01")
        await read("bowers_known_bad", f"car://doc/{BOWERS}?known_at=soon")
        await call("history_bowers", "history", {"doc_id": BOWERS})
        await call("history_slashed", "history", {"doc_id": SLASHED})
        await call("history_unknown", "history", {"doc_id": "scotus:478-us-18"})
        await call("history_as_of", "history", {"doc_id": BOWERS, "as_of": "2000-01-01"})
        await prompt("now", {"question": BOWERS_QUESTION})
        await prompt("known_2000", {"question": BOWERS_QUESTION, "known_at": "2000-01-01"})
        await prompt("known_bad", {"question": BOWERS_QUESTION, "known_at": "soon"})
        listed = (await session.list_prompts()).prompts
        out.prompt_arguments = [a.name for p in listed for a in (p.arguments or [])]

    try:
        # --call-timeout 120: a question asked known_at a date before anything was recorded reads
        # the graph's whole history (21 s measured on an idle machine), more under load
        anyio.run(session_run, stdio_server(server_env(neo4j_env), folder / "out", "--allow-ingest",
                                            "--allow-cypher", "--cypher-timeout", "3",
                                            "--call-timeout", "120"),
                  folder / "err", work)
        run = (out.calls["ingest"].structured_content or {}).get("run")
        records, _, _ = demo_graph.driver.execute_query(
            "MATCH (r:Run {number: $run}) RETURN r.source AS source, r.client AS client",
            run=run, database_=demo_graph.database)
        out.titles["run"] = [dict(r) for r in records]
    finally:
        demo_graph.delete([NEW_POLICY, NEWER_POLICY, SLASHED])
    return out


# ------------------------------------------------------------------ bounded results


@pytest.mark.models
def test_no_tool_result_is_over_the_character_budget(hardened: Hardened) -> None:
    results = [*hardened.pages, *hardened.calls.values()]
    assert len(results) > 20
    for result in results:
        assert result_size(result) <= DEFAULT_MAX_RESULT_CHARS, (result_size(result), str(result.content)[:300])
    # rule_audit with 1,000 samples a rule (110 kB unbounded): paged, a row too large alone cut
    audit = data(hardened.calls["rule_audit_1000"])
    assert audit["rows"] and audit["next"] is not None
    assert all(path.endswith("sample_edges") for path in audit.get("truncated", []))
    assert "truncated" not in data(hardened.pages[0])  # rows that fit are never cut
    assert data(hardened.calls["retrieve_50"])["results"]


@pytest.mark.models
def test_paging_reaches_every_row_of_changed_between(hardened: Hardened) -> None:
    pages = [data(page) for page in hardened.pages]
    assert len(pages) > 1 and pages[-1]["next"] is None and all(p["next"] for p in pages[:-1])
    everything = hardened.everything
    assert len(everything) >= 400  # the whole demo graph was recorded since 2000
    assert [p["offset"] for p in pages] == [sum(len(q["rows"]) for q in pages[:i]) for i in range(len(pages))]
    assert {p["total_rows"] for p in pages} == {len(everything)}
    paged = [row for page in pages for row in page["rows"]]
    assert [row["doc_id"] for row in paged] == [row["doc_id"] for row in everything]
    assert paged == json.loads(json.dumps(everything, default=str))  # nothing cut from a row
    # the text block is a short summary, not the rows again
    assert all(len(page.content[0].text) < 300 for page in hardened.pages)
    assert hardened.pages[0].content[0].text.startswith(f"analyst/changed_between: rows 1-{len(pages[0]['rows'])} of")


@pytest.mark.models
def test_page_rows_and_cursors_belong_to_one_query(hardened: Hardened) -> None:
    small = data(hardened.calls["small_page"])
    assert len(small["rows"]) == 3 and small["next"]
    assert "cursor: not a `next` value" in error_text(hardened.calls["foreign_cursor"])
    assert "cursor: not a `next` value" in error_text(hardened.calls["garbage_cursor"])


# ------------------------------------------------------------------ contract


@pytest.mark.models
def test_unknown_and_mistyped_arguments_are_refused(hardened: Hardened) -> None:
    for name, tool in hardened.tools.items():
        assert tool.input_schema.get("additionalProperties") is False, name
    assert "valid integer" in error_text(hardened.calls["k_text"])
    assert "valid integer" in error_text(hardened.calls["k_bool"])
    for label, argument in (("unknown_argument", "as_at"), ("query_unknown_argument", "parameters"),
                            ("ingest_typo", "dryrun")):
        message = error_text(hardened.calls[label])
        assert argument in message and "Extra inputs are not permitted" in message, message


@pytest.mark.models
def test_list_queries_publishes_each_params_schema_and_query_checks_it(hardened: Hardened) -> None:
    listed = {q["name"]: q for q in data(hardened.calls["list_queries"])["queries"]}
    assert set(listed) == {n.split("/", 1)[1] for n in cypher.analyst_names()}
    chain = listed["chain"]["params_schema"]
    assert chain["required"] == ["doc_id"] and chain["additionalProperties"] is False
    assert chain["properties"]["doc_id"]["type"] == "string"
    assert {"type": "null"} in chain["properties"]["as_of"]["anyOf"]
    assert listed["rule_audit"]["params_schema"]["properties"]["samples"]["anyOf"][0]["maximum"] == 1000
    message = error_text(hardened.calls["datetime_not_text"])
    assert "params.known_from" in message and "not of type 'string'" in message


@pytest.mark.models
def test_server_info_carries_the_package_version(hardened: Hardened) -> None:
    assert hardened.initialized is not None
    assert hardened.initialized.server_info.name == "car-graph"
    assert hardened.initialized.server_info.version == package_version() != ""


# ------------------------------------------------------------------ schema and cypher_read


@pytest.mark.models
def test_schema_answers_labels_types_properties_indexes_and_statuses(hardened: Hardened) -> None:
    schema = data(hardened.calls["schema"])
    assert {"Document", "Entity", "Run"} <= set(schema["labels"])
    assert {"SUPERSEDES", "IN_SCOPE"} <= set(schema["relationship_types"])
    document = {p["property"] for p in schema["node_properties"] if p["labels"] == ["Document"]}
    assert {"id", "title", "text", "published"} <= document
    assert any(p["type"] == "SUPERSEDES" and p["property"] == "rule" for p in schema["relationship_properties"])
    assert schema["indexes"] and all("name" in index for index in schema["indexes"])
    assert schema["statuses"] == ["active", "superseded", "partially_superseded", "withdrawn", "unresolved"]
    assert "in_force" in schema["verdicts"]
    assert hardened.tools["schema"].annotations.read_only_hint


@pytest.mark.models
def test_cypher_read_refuses_writes_files_and_procedures_and_caps_rows(hardened: Hardened) -> None:
    for label in ("cypher_create", "cypher_delete", "cypher_load_csv", "cypher_procedure"):
        message = error_text(hardened.calls[label])
        assert "cypher_read runs read-only statements only" in message, (label, message)
        assert hardened.calls[label].structured_content["retryable"] is False
    assert "Create" in error_text(hardened.calls["cypher_create"])
    assert "LoadCSV" in error_text(hardened.calls["cypher_load_csv"])
    assert hardened.counts["before"]["documents"] > 0  # and the graph kept its documents
    capped = data(hardened.calls["cypher_capped"])
    assert capped["columns"] == ["id"] and len(capped["rows"]) == 5 and capped["capped"] is True
    assert capped["query_type"] == "r"
    assert data(hardened.calls["cypher_params"])["rows"] == [{"by": LAWRENCE, "rule": "explicit"}]
    slow = error_text(hardened.calls["cypher_slow"])
    assert "Neo4j refused the statement" in slow and "timed" in slow.lower(), slow


# ------------------------------------------------------------------ writes


@pytest.mark.models
def test_rules_and_patterns_are_refused_over_mcp_without_allow_rules(hardened: Hardened) -> None:
    assert "--allow-rules" in error_text(hardened.calls["rules_refused"])
    assert hardened.counts["after_rules_refused"] == hardened.counts["after_refusal"]


def test_ingest_refuses_overwriting_or_superseding_existing_documents(hardened: Hardened) -> None:
    refused = data(hardened.calls["overwrite"])
    reasons = {p["line"]: p["reason"] for p in refused["skipped"]}
    assert set(reasons) == {1, 2} and refused["documents"] == 0
    assert f"id '{BOWERS}' is already in the graph" in reasons[1] and "--allow-overwrite" in reasons[1]
    assert f"supersedes '{BOWERS}', already in the graph" in reasons[2]
    assert hardened.counts["after_refusal"] == hardened.counts["before"]
    assert hardened.titles["after_refusal"] == hardened.titles["before"] == ["Bowers v. Hardwick"]
    again = data(hardened.calls["ingest_again"])  # an id this server itself added is no exception
    assert "is already in the graph" in again["skipped"][0]["reason"]
    annotations = hardened.tools["ingest_records"].annotations
    assert annotations.destructive_hint is False and annotations.read_only_hint is False


@pytest.mark.models
def test_dry_run_reports_what_would_change_and_writes_nothing(hardened: Hardened) -> None:
    rehearsal = data(hardened.calls["dry_run"])
    assert rehearsal["dry_run"] is True and rehearsal["added"] == 2 and rehearsal["replaced"] == 0
    assert rehearsal["edges_opened"] == {"explicit": 1}
    assert all({"id", "before", "after"} <= set(flip) for flip in rehearsal["flips"])
    assert hardened.calls["dry_run"].content[0].text.startswith("Dry run, nothing written")
    assert hardened.counts["after_dry_run"] == hardened.counts["before"]
    written = data(hardened.calls["ingest"])  # the same batch for real
    assert written["dry_run"] is False and written["added"] == 2 and written["run"]


@pytest.mark.models
def test_every_mcp_ingest_records_its_source_and_client(hardened: Hardened) -> None:
    written = data(hardened.calls["ingest"])
    assert (written["source"], written["client"]) == ("mcp", CLIENT_NAME)
    assert hardened.titles["run"] == [{"source": "mcp", "client": CLIENT_NAME}]


@pytest.mark.models
def test_allow_overwrite_marks_ingest_destructive_and_replaces(demo_graph, neo4j_env, tmp_path) -> None:  # noqa: F811
    seen: dict[str, Any] = {}

    async def work(session: ClientSession, _initialized: types.InitializeResult) -> None:
        seen["tools"] = {t.name: t for t in (await session.list_tools()).tools}
        first = new_record(NEW_POLICY, "Remote work policy v1")
        seen["add"] = await session.call_tool("ingest_records", {"records": [first]})
        seen["replace"] = await session.call_tool("ingest_records", {"records": [
            new_record(NEW_POLICY, "Remote work policy v1, corrected")]})

    try:
        anyio.run(session_run, stdio_server(server_env(neo4j_env), tmp_path / "out", "--allow-ingest",
                                            "--allow-overwrite"), tmp_path / "err", work)
        assert "cypher_read" not in seen["tools"]  # only with --allow-cypher
        assert seen["tools"]["ingest_records"].annotations.destructive_hint is True
        assert data(seen["add"])["added"] == 1
        replaced = data(seen["replace"])
        assert replaced["replaced"] == 1 and replaced["skipped"] == []
        [row] = demo_graph.store.read("document_text", doc_id=NEW_POLICY)
        assert row["title"] == "Remote work policy v1, corrected"
    finally:
        demo_graph.delete([NEW_POLICY])


# ------------------------------------------------------------------ HTTP


def test_http_matches_the_bearer_scheme_case_insensitively(demo_graph, neo4j_env) -> None:  # noqa: F811
    token = "t" * 20 + "-hardening"
    server = start_http_server(server_env(neo4j_env, CAR_GRAPH_MCP_TOKEN=token))
    try:
        async def scenario() -> list[int]:
            return [await raw_post(server.url, f"{scheme} {token}")
                    for scheme in ("bearer", "BEARER", "Bearer", "Basic")]

        assert anyio.run(scenario) == [200, 200, 200, 401]
    finally:
        stop(server)


# ------------------------------------------------------------------ history, known_at, ids with '/'


@pytest.mark.models
def test_history_gives_every_version_and_edge_and_names_the_nearest_ids_when_unknown(hardened: Hardened) -> None:
    bowers = data(hardened.calls["history_bowers"])
    assert bowers["doc_id"] == BOWERS and bowers["current"] is True
    assert bowers["versions"][-1]["current"] is True and bowers["versions"][-1]["title"] == "Bowers v. Hardwick"
    [edge] = [e for e in bowers["edges"] if e["other_id"] == LAWRENCE]
    assert (edge["direction"], edge["rule"], edge["current"]) == ("incoming", "explicit", True)
    assert hardened.calls["history_bowers"].content[0].text.startswith(f"{BOWERS} [current]")
    assert data(hardened.calls["history_slashed"])["versions"][0]["title"] == "Annex"
    unknown = error_text(hardened.calls["history_unknown"])
    assert "no document 'scotus:478-us-18'" in unknown and BOWERS in unknown
    assert "Extra inputs are not permitted" in error_text(hardened.calls["history_as_of"])
    assert hardened.tools["history"].annotations.read_only_hint is True


@pytest.mark.models
def test_the_document_resource_takes_as_of_and_known_at_and_percent_encoded_ids(hardened: Hardened) -> None:
    def explanation(label: str) -> dict[str, Any]:
        text = hardened.resources[label]
        assert not text.startswith("ERROR"), text
        return json.loads(text)["explanation"]

    assert explanation("bowers")["status"] == "superseded"
    assert explanation("bowers_as_of_1990")["status"] == "active"  # Lawrence came in 2003
    assert explanation("slashed")["doc_id"] == SLASHED
    # the demo graph was recorded today: in 2000 car-graph held no such document
    assert hardened.resources["bowers_known_2000"].startswith("ERROR") and \
        f"no document '{BOWERS}'" in hardened.resources["bowers_known_2000"]
    assert "known_at" in hardened.resources["bowers_known_bad"]


@pytest.mark.models
def test_the_prompt_takes_known_at_beside_as_of(hardened: Hardened) -> None:
    assert {"question", "as_of", "known_at"} <= set(hardened.prompt_arguments)
    assert "Lawrence v. Texas" in hardened.prompts["now"]
    assert not hardened.prompts["known_2000"].startswith("ERROR"), hardened.prompts["known_2000"]
    assert "Lawrence v. Texas" not in hardened.prompts["known_2000"]  # nothing recorded in 2000
    assert hardened.prompts["known_bad"].startswith("ERROR") and "known_at" in hardened.prompts["known_bad"]
