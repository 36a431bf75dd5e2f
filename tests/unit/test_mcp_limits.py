"""The MCP server's pure parts: the character budget, cursors, parameter schemas from the
catalogue headers, strict argument models and the bearer check (no Neo4j, no subprocess)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver.tools import Tool
from pydantic import ValidationError

from car_graph import cypher
from car_graph.mcp_server import (
    BearerTokenMiddleware,
    CarTools,
    CheckedRecords,
    InputRejected,
    check_against_schema,
    check_records,
    decode_cursor,
    encode_cursor,
    fit,
    ok_result,
    page_rows_of,
    params_schema,
    plan_operators,
    result_chars,
)


def test_fit_cuts_the_largest_values_first_and_names_them() -> None:
    data = {"verdict": "superseded", "text": "x" * 10_000,
            "rows": [{"n": i, "evidence": "e" * 50} for i in range(500)]}
    cut, paths = fit(json.loads(json.dumps(data)), 5_000)
    assert result_chars(cut) <= 5_000
    assert cut["verdict"] == "superseded"  # short values stay whole
    assert set(paths) == {"text", "rows"}
    assert cut["text"].startswith("xxx") and cut["text"].endswith("…")
    assert cut["rows"] == data["rows"][: len(cut["rows"])]  # a prefix of the rows, in order


def test_fit_cuts_inside_the_one_item_that_dominates_a_list() -> None:
    data = {"results": [{"doc_id": "a", "text": "t" * 20_000}, {"doc_id": "b", "text": "short"}]}
    cut, paths = fit(data, 3_000)
    assert [r["doc_id"] for r in cut["results"]] == ["a", "b"]  # both results kept
    assert paths == ["results[0].text"]


def test_fit_leaves_a_result_within_budget_untouched() -> None:
    data = {"a": [1, 2, 3], "b": "text"}
    assert fit(json.loads(json.dumps(data)), 1_000) == (data, [])


def test_ok_result_text_is_a_summary_and_the_whole_fits_the_budget() -> None:
    result = ok_result({"rows": [{"x": "y" * 100} for _ in range(2_000)]}, "2000 rows", 10_000)
    text = result.content[0].text
    assert text.startswith("2000 rows") and "Cut to fit 10,000 characters: rows" in text
    assert len(text) + len(json.dumps(result.structured_content)) <= 10_000
    assert result.structured_content["truncated"] == ["rows"]


def test_page_rows_stop_at_the_budget_and_reach_every_row() -> None:
    rows = [{"i": i, "pad": "p" * 200} for i in range(100)]
    seen, offset = [], 0
    while offset < len(rows):
        page, cut = page_rows_of(rows, offset, 50, 2_000)
        assert page and not cut and result_chars(page) <= 2_000
        seen += page
        offset += len(page)
    assert seen == rows


def test_a_row_too_large_alone_is_cut_and_named_by_its_position() -> None:
    rows = [{"i": 0}, {"i": 1, "sample_edges": [{"e": "x" * 40} for _ in range(1_000)]}]
    page, cut = page_rows_of(rows, 1, 10, 3_000)
    assert len(page) == 1 and page[0]["i"] == 1 and result_chars(page) <= 3_000
    assert cut == ["rows[1].sample_edges"]
    assert len(rows[1]["sample_edges"]) == 1_000  # the caller's rows are not changed


def test_a_cursor_is_accepted_only_for_the_call_it_was_given_for() -> None:
    cursor = encode_cursor(120, "key-a")
    assert decode_cursor(cursor, "key-a") == 120
    assert decode_cursor(None, "key-a") == 0
    for bad, key in ((cursor, "key-b"), ("garbage", "key-a"), (encode_cursor(-1, "key-a"), "key-a")):
        with pytest.raises(InputRejected, match="not a `next` value"):
            decode_cursor(bad, key)


def test_params_schema_follows_the_query_header() -> None:
    schema = params_schema("analyst/rule_audit")
    assert schema["additionalProperties"] is False and schema["required"] == []
    assert schema["properties"]["rule"] == {"anyOf": [{"type": "string", "maxLength": 1024}, {"type": "null"}]}
    assert schema["properties"]["samples"]["anyOf"][0] == {"type": "integer", "minimum": 0, "maximum": 1000}
    changed = params_schema("analyst/changed_between")
    assert changed["required"] == ["known_from", "known_to"]
    for name in cypher.analyst_names():  # every analyst query has one, naming every parameter
        assert set(params_schema(name)["properties"]) == set(cypher.declared_parameters(name))


def test_query_params_are_checked_against_the_published_schema() -> None:
    check_against_schema("analyst/changed_between", {"known_from": "2020-01-01", "known_to": "2021-01-01"})
    with pytest.raises(InputRejected, match=r"params\.known_from: 5 is not of type 'string'"):
        check_against_schema("analyst/changed_between", {"known_from": 5, "known_to": "2021-01-01"})
    with pytest.raises(InputRejected, match="params_schema"):
        check_against_schema("analyst/rule_audit", {"samples": 5_000})


def _strict_tool(name: str) -> Tool:
    from car_graph.mcp_server import strict_arguments

    tools = CarTools(car=None)  # type: ignore[arg-type]  # only the signatures are used
    return strict_arguments(Tool.from_function(getattr(tools, name), description=name))


@pytest.mark.parametrize("arguments", [
    {"question": "q", "k": "5"},
    {"question": "q", "k": True},
    {"question": "q", "k": 5.0},
    {"question": "q", "k": 5, "unknown": 1},
    {"question": 42},
])
def test_strict_arguments_refuse_unknown_names_and_coerced_types(arguments: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        _strict_tool("retrieve").fn_metadata.validate_arguments(arguments)


def test_strict_arguments_still_read_dates_and_publish_no_extra_properties() -> None:
    tool = _strict_tool("retrieve")
    parsed = tool.fn_metadata.validate_arguments({"question": "q", "k": 5, "as_of": "2020-01-02"})
    assert str(parsed["as_of"]) == "2020-01-02" and parsed["k"] == 5
    assert tool.parameters["additionalProperties"] is False
    ingest = _strict_tool("ingest_records")
    assert ingest.context_kwarg == "ctx" and set(ingest.parameters["properties"]) == {"records", "rules", "dry_run"}


def test_plan_operators_walk_the_whole_plan() -> None:
    plan = {"operatorType": "ProduceResults@neo4j", "children": [
        {"operatorType": "Create@neo4j", "children": [{"operatorType": "Argument@neo4j", "children": []}]}]}
    assert plan_operators(plan) == ["ProduceResults", "Create", "Argument"]
    assert plan_operators(None) == []


def test_records_reusing_or_superseding_existing_ids_are_rejected_with_their_line() -> None:
    checked = check_records([{"id": "old", "text": "t"}, {"id": "new", "text": "t", "supersedes": ["old"]},
                             {"id": "fresh", "text": "t", "supersedes": ["new"]}, {"text": "no id"}])
    kept = checked.without_existing({"old"})
    assert isinstance(kept, CheckedRecords)
    assert [r.id for r in kept.records] == ["fresh"] and kept.lines == [3]
    reasons = {p.line: p.reason for p in kept.problems}
    assert set(reasons) == {1, 2, 4}
    assert "id 'old' is already in the graph" in reasons[1] and "--allow-overwrite" in reasons[1]
    assert "supersedes 'old', already in the graph" in reasons[2]


async def _status(middleware: BearerTokenMiddleware, authorization: bytes) -> int:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"authorization", authorization)]}
    await middleware(scope, None, send)
    return sent[0]["status"] if sent else 200


@pytest.mark.parametrize(("authorization", "status"), [
    (b"Bearer sixteen-chars-token", 200), (b"bearer sixteen-chars-token", 200),
    (b"BEARER sixteen-chars-token", 200), (b"Basic sixteen-chars-token", 401),
    (b"Bearer sixteen-chars-tokem", 401), (b"Bearersixteen-chars-token", 401),
])
def test_the_bearer_scheme_is_matched_case_insensitively(authorization: bytes, status: int) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        return None

    middleware = BearerTokenMiddleware(app, "sixteen-chars-token")
    assert anyio.run(_status, middleware, authorization) == status
