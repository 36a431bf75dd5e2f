"""Every example of docs/agents.md runs, against ``car-graph mcp`` over the bundled demo graph,
and shows what the page says:

* the two host configuration blocks (stdio, HTTP) are valid JSON a client can connect with;
* each tool example (a snippet run inside an open ``ClientSession``) runs, and every line ending
  in a ``# value`` comment evaluates to that value ("..." standing for what the page left out);
* the HTTP program runs and prints the summary the page shows (the stdio program is run by
  tests/integration/test_mcp_server.py);
* the page is a guide of at most 400 lines naming every tool, each with an example, and the
  limits.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from test_mcp_server import (
    CALL_SECONDS,
    neo4j_env,  # noqa: F401  (a fixture)
    server_env,
    start_http_server,
    stdio_server,
    stop,
)

from car_graph import mcp_server
from car_graph.client import CarClient
from car_graph.connection import new_driver

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
PAGE = DOC.read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
CONFIGS = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", PAGE, flags=re.S)]
PROGRAMS = [b for b in PYTHON if "asyncio.run(main())" in b]
SNIPPETS = [b for b in PYTHON if b not in PROGRAMS]
# a line of a snippet whose value the page shows: `expression   # value`
CLAIM = re.compile(r"^(?P<expr>[^\s#].*?)\s+#\s(?P<value>.+)$")
DOCUMENTED_PORT = "8765"
TOKEN = "agents-md-example-token"


def claims_of(block: str) -> list[tuple[int, str, str]]:
    """(line, expression, shown value) of each line of ``block`` that shows its value."""
    found = []
    for number, line in enumerate(block.splitlines()):
        match = CLAIM.match(line)
        if match is None:
            continue
        try:
            ast.parse(match["expr"], mode="eval")
        except SyntaxError:
            continue
        found.append((number, match["expr"], match["value"]))
    return found


def shortened(text: str) -> str:
    """A shown value as a regular expression: "..." stands for what the page left out."""
    return ".*".join(map(re.escape, text.split("...")))


def shows(actual: Any, value: str) -> bool:
    """``actual`` is what the page shows as ``value`` (a Python literal)."""
    expected = ast.literal_eval(value)
    if isinstance(expected, str) and "..." in expected:
        return isinstance(actual, str) and re.fullmatch(shortened(expected), actual, flags=re.S) is not None
    return bool(actual == expected)


def instrumented(block: str) -> str:
    """``block`` as the body of ``async def example(session, seen)``, each claimed line's value
    also appended to ``seen`` (an expression with ``await`` can only be evaluated in place)."""
    lines = block.splitlines()
    for number, expr, _value in claims_of(block):
        lines[number] = f"seen.append(({number}, ({expr})))"
    return "async def example(session, seen):\n" + textwrap.indent("\n".join(lines), "    ") + "\n"


# ------------------------------------------------------------------ the page itself


def test_agents_md_is_a_guide_with_an_example_for_every_tool_and_the_limits() -> None:
    assert len(PAGE.splitlines()) <= 400
    driver = new_driver("bolt://127.0.0.1:1", "neo4j", "unused")
    with CarClient(driver, uri="bolt://127.0.0.1:1", owns_driver=True) as car:
        server = mcp_server.build_server(car, allow_ingest=True, allow_cypher=True)

        async def names() -> set[str]:
            async with Client(server) as client:
                return {t.name for t in (await client.list_tools()).tools}

        tools = anyio.run(names)
    assert len(tools) == 10
    for tool in tools:
        assert any(f'call_tool("{tool}"' in block for block in SNIPPETS), f"no example calls {tool}"
    assert any("read_resource(" in b for b in SNIPPETS) and any("get_prompt(" in b for b in SNIPPETS)
    for words in ("--call-timeout", "retryable: true", "--max-result-chars", "`next`", "page_rows",
                  "--allow-ingest", "--allow-overwrite", "--allow-rules", "--allow-cypher",
                  "known_at", "ambiguous", "multiple", "changed_between", "percent-encoded"):
        assert words in PAGE, words
    # one stdio and one HTTP host configuration
    [stdio] = [c["mcpServers"]["car-graph"] for c in CONFIGS if "command" in c["mcpServers"]["car-graph"]]
    [http] = [c["mcpServers"]["car-graph"] for c in CONFIGS if "url" in c["mcpServers"]["car-graph"]]
    assert stdio["command"] == "car-graph" and stdio["args"][0] == "mcp"
    assert http["url"] == f"http://127.0.0.1:{DOCUMENTED_PORT}/mcp"
    assert http["headers"]["Authorization"].startswith("Bearer ")
    assert all(claims_of(block) for block in SNIPPETS)  # each snippet shows what it gives


def test_the_claim_checker_can_fail() -> None:
    assert shows("superseded", "'superseded'") and not shows("in_force", "'superseded'")
    assert shows("Error: x: more", "'Error: x: ...'") and not shows("Oops: x", "'Error: ...'")
    assert shows((1, True), "(1, True)") and not shows((2, True), "(1, True)")
    assert claims_of('a["b"]   # 1\nprint(a)  # a remark\n') == [(0, 'a["b"]', "1"), (1, "print(a)", "a remark")]


# ------------------------------------------------------------------ the examples, run


@pytest.fixture(scope="module")
def snippet_runs(demo_graph, neo4j_env, tmp_path_factory) -> list[tuple[list[tuple[int, Any]], str]]:  # noqa: F811
    """Each snippet run in order in one stdio session (--allow-ingest --allow-cypher): the values
    its claimed lines had, and the error it raised ('' if none)."""
    folder = tmp_path_factory.mktemp("agents-md")
    runs: list[tuple[list[tuple[int, Any]], str]] = []
    counts = demo_graph.store.counts()

    async def work() -> None:
        params = stdio_server(server_env(neo4j_env), folder / "out", "--allow-ingest", "--allow-cypher")
        with open(folder / "err", "w", encoding="utf-8") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, read_timeout_seconds=CALL_SECONDS) as session:
                    await session.initialize()
                    for number, block in enumerate(SNIPPETS):
                        namespace: dict[str, Any] = {}
                        exec(compile(instrumented(block), f"{DOC.name}[snippet {number}]", "exec"), namespace)
                        seen: list[tuple[int, Any]] = []
                        try:
                            await namespace["example"](session, seen)
                            runs.append((seen, ""))
                        except Exception as exc:  # reported by the snippet's test
                            runs.append((seen, f"{type(exc).__name__}: {exc}"))

    anyio.run(work)
    assert demo_graph.store.counts() == counts  # the examples write nothing (dry runs, refusals)
    return runs


@pytest.mark.neo4j
@pytest.mark.models
@pytest.mark.parametrize("number", range(len(SNIPPETS)))
def test_agents_md_tool_example_runs_and_gives_what_it_shows(number: int, snippet_runs) -> None:
    seen, error = snippet_runs[number]
    assert not error, (SNIPPETS[number], error)
    claims = claims_of(SNIPPETS[number])
    values = dict(seen)
    assert set(values) == {line for line, _, _ in claims}
    for line, expr, value in claims:
        assert shows(values[line], value), (expr, values[line], value)


@pytest.mark.neo4j
@pytest.mark.models
def test_agents_md_http_program_and_host_configurations_connect(demo_graph, neo4j_env, monkeypatch) -> None:  # noqa: F811
    [program] = [p for p in PROGRAMS if "streamable_http_client" in p]
    shown = re.search(r"prints a one-line summary such as `(.*?)`", PAGE).group(1)
    server = start_http_server(server_env(neo4j_env, CAR_GRAPH_MCP_TOKEN=TOKEN))
    try:
        url = server.url
        # the page's port is the default; this server took a free one
        monkeypatch.setenv("CAR_GRAPH_MCP_TOKEN", TOKEN)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(program.replace(f"http://127.0.0.1:{DOCUMENTED_PORT}/mcp", url), DOC.name, "exec"),
                 {"__name__": "__doc_example__"})
        printed = out.getvalue().splitlines()
        assert re.fullmatch(shortened(shown), printed[0]), (shown, printed)

        [http] = [c["mcpServers"]["car-graph"] for c in CONFIGS if "url" in c["mcpServers"]["car-graph"]]
        headers = {k: v.replace(v.split(" ", 1)[1], TOKEN) for k, v in http["headers"].items()}

        async def over_http() -> set[str]:
            async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=CALL_SECONDS)) as client:
                async with streamable_http_client(http["url"].replace(DOCUMENTED_PORT, url.rsplit(":", 1)[1].split("/")[0]),
                                                  http_client=client) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return {t.name for t in (await session.list_tools()).tools}

        assert "ask" in anyio.run(over_http)
    finally:
        stop(server)

    [stdio] = [c["mcpServers"]["car-graph"] for c in CONFIGS if "command" in c["mcpServers"]["car-graph"]]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # `car-graph` on PATH
    params = StdioServerParameters(command=stdio["command"], args=stdio["args"],
                                   env={**os.environ, **neo4j_env, "PATH": path})

    async def over_stdio() -> set[str]:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return {t.name for t in (await session.list_tools()).tools}

    assert "ask" in anyio.run(over_stdio)
