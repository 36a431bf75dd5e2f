"""``car-graph mcp``: verdicts, chains and the analyst library as MCP tools for AI agents.

Built on the official ``mcp`` SDK: ``MCPServer`` (FastMCP's name since SDK 2). Two transports:

* stdio (default): one client, the process that started the server. stdout carries protocol
  messages only (the SDK moves file descriptor 1 onto stderr while it serves, so even a stray
  print lands in the log); every log line goes to stderr.
* streamable HTTP (``--http``): loopback addresses only, every request checked against a bearer
  token (constant-time compare) before it reaches the SDK's app.

Safe by construction:

* no tool takes Cypher unless the server runs with ``--allow-cypher`` (``cypher_read``: a READ
  transaction with a deadline and a row cap, refused when the planner reports a write).
  ``query`` runs a statement of the analyst catalogue (``queries/analyst/*.cypher``) by name, in
  a READ transaction, with parameters checked against the schema taken from the statement's
  header; every other tool reads through ``GraphStore``'s READ sessions. The one writer,
  ``ingest_records``, is registered only with ``--allow-ingest`` and adds new ids only unless
  ``--allow-overwrite``;
* inputs are bounded (question and id length, k, parameter, record and rule sizes) and strict:
  an unknown argument or a value of the wrong JSON type (``k: "5"``) is refused;
* outputs are bounded: every result fits ``--max-result-chars`` (structured content and text
  together); listing tools page with a ``next`` cursor; the text block is a short summary;
* every call has a deadline (``--call-timeout``): what is left of it is the Neo4j timeout of
  each transaction the call opens, and past it (or when its client cancels it) the call answers
  a retryable error at once and its transactions are terminated. Reads run side by side, each
  on its own sessions; a write runs alone;
* every failure is a tool error with a message a model can act on, never a traceback. A lost
  database is a *retryable* error (``"retryable": true`` in the result); the driver reconnects on
  its own when Neo4j is back, so the next call succeeds.

Tool results are the ``--json`` shapes of the matching CLI commands (``ask``, ``retrieve``,
``explain``, ``query``, ``stats``), rendered as the CLI renders them (``json.dumps`` with
``default=str``), plus paging keys (``next``, ``offset``, ``total_rows``) and ``truncated`` when
something was cut to fit the budget; tests/integration/test_mcp_server.py compares them with the
CLI's output.
"""

from __future__ import annotations

import base64
import contextvars
import copy
import functools
import hashlib
import hmac
import importlib.metadata
import inspect
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Annotated, Any, Literal, LiteralString, NotRequired, TypeVar, cast

import anyio
import jsonschema  # type: ignore[import-untyped]
import neo4j
from neo4j.exceptions import (
    AuthError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from car_graph import analyst, connection, cypher
from car_graph import target as targets
from car_graph.client import CarClient
from car_graph.domains import Domain, domain_from_mapping
from car_graph.errors import (
    CarError,
    ConfigError,
    DeadlineExceededError,
    EmptyGraphError,
    InputProblem,
    MissingExtraError,
    NotFoundError,
    ServerUnavailableError,
)
from car_graph.records import DocumentRecord, parse_record
from car_graph.rules import Rule, parse_rules
from car_graph.settings import Settings
from car_graph.stats import graph_stats
from car_graph.types import Explanation, Retrieval, RunRef, Status, parse_known_at
from car_graph.verdict import Verdict, VerdictKind

try:
    from mcp.server.mcpserver import Context, MCPServer, UserMessage
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
    from mcp.server.mcpserver.resources import TextResource
    from mcp.server.mcpserver.tools import Tool
    from mcp.server.transport_security import TransportSecuritySettings
    from mcp.shared.exceptions import MCPError
    from mcp.types import (
        INTERNAL_ERROR,
        INVALID_PARAMS,
        CallToolResult,
        TextContent,
        ToolAnnotations,
    )
except ImportError as exc:  # the SDK is the optional extra "mcp"
    raise MissingExtraError("mcp", "mcp") from exc

logger = logging.getLogger("car_graph.mcp")

SERVER_NAME = "car-graph"
TOKEN_ENV = "CAR_GRAPH_MCP_TOKEN"
MIN_TOKEN_CHARS = 16
DEFAULT_PORT = 8765
MCP_PATH = "/mcp"
# a document's resource; an id holding '/' is percent-encoded in it (car://doc/a%2Fb)
DOC_URI_TEMPLATE = "car://doc/{doc_id}{?as_of,known_at}"

# Input bounds. A question is a sentence or a paragraph, not a document; k beyond 50 is a dump
# of the graph, not an answer; ids and keys share the ingest limit of an index key.
MAX_QUESTION_CHARS = 2_000
MAX_K = 50
MAX_ID_CHARS = 1_024
MAX_DOMAIN_CHARS = 200
MAX_QUERY_PARAMS = 16
MAX_PARAMS_BYTES = 64 * 1024          # an embedding of 4,096 floats fits
MAX_QUERY_INT = 1_000                 # $limit, $samples, $min_chains ...
MAX_LIST_ITEMS = 4_096
MAX_INGEST_RECORDS = 500
MAX_RECORD_BYTES = 256 * 1024
MAX_INGEST_BYTES = 4 * 1024 * 1024    # the SDK's HTTP body limit too
MAX_RULES_BYTES = 256 * 1024
# An outage is reported after this many seconds of the driver's own retries, not its default 30.
TRANSACTION_RETRY_SECONDS = 5.0
# Output bounds: a tool result (structured content and text block together) holds at most
# --max-result-chars characters of JSON; listing tools page with a cursor.
DEFAULT_MAX_RESULT_CHARS = 40_000
MIN_MAX_RESULT_CHARS = 4_000
SUMMARY_CHARS = 600                   # the text block: a short summary, not the JSON again
PAGE_OVERHEAD_CHARS = 3 * SUMMARY_CHARS + 1_000  # a page's other keys, its summary and cut notes
DEFAULT_PAGE_ROWS = 100
MAX_PAGE_ROWS = 500
MAX_CURSOR_CHARS = 200
# cypher_read (--allow-cypher)
MAX_CYPHER_CHARS = 10_000
DEFAULT_CYPHER_ROWS = 100
MAX_CYPHER_ROWS = 1_000
DEFAULT_CYPHER_TIMEOUT = 30.0
# Deadlines: every tool call (--call-timeout); cypher_read's statement is also held to
# --cypher-timeout, whichever comes first
DEFAULT_CALL_TIMEOUT = 30.0
TERMINATE_SECONDS = 5.0  # terminating a stopped call's transactions waits no longer than this

RETRY_HINT = ("This is temporary: nothing was changed; call the tool again once the database "
              "is back (the server reconnects by itself).")

# -- input types (the tools' JSON Schemas) -----------------------------------------------------

Question = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                description="A question in plain language.")]
AsOf = Annotated[date | None, Field(description="Answer as of this date (YYYY-MM-DD): later "
                                                "documents and edges do not count. Omit for today.")]
KnownAt = Annotated[str | None, Field(max_length=40, description=(
    "Answer as car-graph would have then, from what it had recorded by this date (YYYY-MM-DD: "
    "the end of that day, UTC), ISO datetime (no zone: UTC) or run (run:N: the state run N "
    "left, see `car-graph runs`); omit for the current graph. Beside as_of, the date the "
    "answer is about."))]
TopK = Annotated[int, Field(strict=True, ge=1, le=MAX_K, description="Results retrieved before the verdict.")]
DomainName = Annotated[str | None, Field(max_length=MAX_DOMAIN_CHARS,
                                     description="Only documents of this domain (e.g. law).")]
DocId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS,
                             description="A document id, e.g. scotus:478-us-186.")]
QueryName = Annotated[str, Field(pattern=r"^(analyst/)?[a-z0-9_]{1,64}$",
                                 description="An analyst query name from list_queries, e.g. chain.")]
QueryParams = Annotated[dict[str, Any], Field(max_length=MAX_QUERY_PARAMS, description=(
    "The query's parameters by name (see list_queries); omitted optional ones are null."))]
Embeds = Annotated[dict[str, Annotated[str, Field(max_length=MAX_QUESTION_CHARS)]] | None, Field(
    max_length=4, description="Parameters to bind to the embedding of a text, e.g. "
                              "{\"embedding\": \"Is Vioxx still approved?\"} for stale_crowding.")]
# Prompt arguments are strings on the wire; their lengths and dates are checked in the prompt.
PromptQuestion = Annotated[str, Field(description="The question you are about to answer.")]
PromptAsOf = Annotated[str | None, Field(description="As of this date (YYYY-MM-DD); omit for today.")]
PromptKnownAt = Annotated[str | None, Field(description=(
    "As car-graph had recorded it by then (YYYY-MM-DD: the end of that day, ISO datetime, or "
    "run:N); omit for the current graph."))]
Records = Annotated[list[dict[str, Any]], Field(min_length=1, max_length=MAX_INGEST_RECORDS, description=(
    "Generic JSONL records as objects: {id, text, title?, domain?, kind?, published?, scope?, "
    "supersedes?, attributes?} (docs/domains.md)."))]
Rules = Annotated[dict[str, Any] | None, Field(description=(
    "A rules/domain file as an object ({domain, rules: [...], identifiers?, names?}); omit for "
    "the bundled rules of the records' domains."))]
DryRun = Annotated[bool, Field(description=(
    "Report what would change (added, replaced, edges opened and closed, statuses that flip) "
    "without writing anything."))]
Cursor = Annotated[str | None, Field(max_length=MAX_CURSOR_CHARS, description=(
    "The `next` value of the previous page; omit for the first page."))]
PageRows = Annotated[int, Field(ge=1, le=MAX_PAGE_ROWS, description=(
    "Rows per page at most (a page also stops at the server's character budget)."))]
CypherText = Annotated[str, Field(min_length=1, max_length=MAX_CYPHER_CHARS, description=(
    "One read-only Cypher statement; values go in `params` as $name."))]
CypherRows = Annotated[int, Field(ge=1, le=MAX_CYPHER_ROWS, description="Rows returned at most.")]


# -- result types (the tools' output schemas; the shapes of the CLI's --json) -------------------

class HopJson(TypedDict):
    from_id: str
    to_id: str
    rule: str
    effective: str | None
    evidence: str | None
    partial: bool


class SubjectJson(TypedDict):
    doc_id: str
    title: str
    scope: list[str]


class ControllingJson(TypedDict):
    doc_id: str
    title: str
    kind: str | None
    domain: str | None
    published: str | None
    status: str
    chain: list[HopJson]


class SourceJson(TypedDict):
    n: int
    doc_id: str
    title: str
    status: str
    role: str


VerdictName = Literal["in_force", "superseded", "partially_superseded", "withdrawn", "unresolved",
                      "not_found", "ambiguous", "multiple"]


class ConfidenceJson(TypedDict):
    score: float | None
    lead: float | None
    margin: float | None
    singled_out_by: str


class AgreedJson(TypedDict):
    """What every candidate of an ambiguous verdict reads alike (each superseded, or each
    withdrawn, with the same controlling documents)."""

    verdict: VerdictName
    status: str
    controlling: list[ControllingJson]


class ReadingJson(TypedDict):
    """A candidate of an ambiguous verdict, or one subject of a question naming several."""

    subject: SubjectJson | None
    status: str
    verdict: VerdictName
    summary: str
    score: float | None
    superseded_by: list[HopJson]
    controlling: list[ControllingJson]
    agreed_reading: AgreedJson | None


class AccountingJson(TypedDict):
    """What the documents found hold of the question's content words (NOT_FOUND's evidence)."""

    share: float
    best: str | None
    unexplained: list[str]
    weight: float


class WhyAnchorJson(TypedDict):
    doc_id: str
    score: float | None
    text_fit: float | None
    holds: list[str]
    role: str


class WhyJson(TypedDict):
    """The evidence the verdict weighed (``Verdict.why``)."""

    singled_out_by: str
    score: float | None
    lead: float | None
    margin: float | None
    question_entities: list[str]
    anchors: list[WhyAnchorJson]
    accounting: AccountingJson | None


class AskResult(TypedDict):
    """``car-graph ask --json``, plus the prompt-ready context block."""

    question: str
    as_of: str | None
    verdict: VerdictName
    summary: str
    subject: SubjectJson | None
    superseded_by: list[HopJson]
    controlling: list[ControllingJson]
    ambiguous_scopes: list[str]
    notes: list[str]
    sources: list[SourceJson]
    llm_answer: str | None
    decisive: bool
    confidence: ConfidenceJson
    candidates: list[ReadingJson]
    subjects: list[ReadingJson]
    agreed_reading: AgreedJson | None
    accounting: AccountingJson | None
    why: WhyJson
    context: str
    known_at: NotRequired[str]
    truncated: NotRequired[list[str]]


class ResultJson(TypedDict):
    doc_id: str
    title: str
    kind: str | None
    domain: str | None
    published: str | None
    status: str
    score: float
    anchor_id: str
    chain: list[HopJson]
    text: str
    amendments: NotRequired[list[HopJson]]


class RetrieveResult(TypedDict):
    """``car-graph retrieve --json``."""

    question: str
    as_of: str | None
    anchors: list[str]
    suppressed: int
    ambiguous_scopes: list[str]
    question_entities: list[str]
    anchor_scores: list[float]
    results: list[ResultJson]
    verdict: VerdictName
    verdict_summary: str
    known_at: NotRequired[str]
    truncated: NotRequired[list[str]]


class ExplainResult(TypedDict):
    """``car-graph explain --json``, plus the chains as text."""

    doc_id: str
    title: str
    status: str
    as_of: str | None
    controlling: list[ResultJson]
    superseded_by: list[HopJson]
    supersedes: list[HopJson]
    scope: list[str]
    ambiguous_scopes: NotRequired[list[str] | None]
    known_at: NotRequired[str]
    chains_text: str
    truncated: NotRequired[list[str]]


class HistoryResult(TypedDict):
    """``car-graph history DOC_ID --json``."""

    doc_id: str
    current: bool
    retired_at: str | None
    versions: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    truncated: NotRequired[list[str]]


class QueryResultJson(TypedDict):
    """``car-graph query NAME --json``, one page of its rows: ``offset`` is the first row's
    position, ``next`` the cursor of the next page (null on the last)."""

    query: str
    columns: list[str]
    rows: list[dict[str, Any]]
    offset: NotRequired[int]
    total_rows: NotRequired[int]
    next: NotRequired[str | None]
    truncated: NotRequired[list[str]]


class ParameterJson(TypedDict):
    name: str
    type: str
    optional: bool


class QueryInfo(TypedDict):
    name: str
    purpose: str
    parameters: list[ParameterJson]
    resource: str
    params_schema: NotRequired[dict[str, Any]]


class ListQueriesResult(TypedDict):
    queries: list[QueryInfo]
    next: NotRequired[str | None]
    truncated: NotRequired[list[str]]


class StatsResult(TypedDict):
    """``car-graph stats --json``."""

    documents: int
    entities: int
    supersedes: int
    unresolved: int
    chains: int
    documents_in_chains: int
    chain_lengths: dict[str, int]
    scope_sizes: dict[str, dict[str, int]]
    edges_by_rule: dict[str, int]
    truncated: NotRequired[list[str]]


class ProblemJson(TypedDict):
    source: str
    line: int
    reason: str


class IngestResult(TypedDict):
    """``car-graph ingest --json`` (without ``strict``); ``skipped`` holds one entry per rejected
    record, ``line`` being its 1-based position in ``records``."""

    documents: int
    updated: int
    unchanged: int
    scope_links: int
    identifier_links: int
    name_links: int
    mentions: int
    edges_by_rule: dict[str, int]
    skipped: list[ProblemJson]
    cycles: list[list[str]]
    missing_references: list[str]
    self_references: list[str]
    unresolved: int
    graph: dict[str, int]
    seconds: float
    skipped_count: int
    added: NotRequired[int]
    replaced: NotRequired[int]
    edges_opened: NotRequired[dict[str, int]]
    edges_closed: NotRequired[dict[str, dict[str, int]]]
    flips: NotRequired[list[dict[str, Any]]]
    warnings: NotRequired[list[Any]]
    run: NotRequired[int | None]
    dry_run: NotRequired[bool]
    source: NotRequired[str]
    client: NotRequired[str | None]
    truncated: NotRequired[list[str]]


class SchemaResult(TypedDict):
    """The graph's schema: labels, relationship types, properties, indexes, and the values
    car-graph gives document statuses and verdicts."""

    labels: list[str]
    relationship_types: list[str]
    node_properties: list[dict[str, Any]]
    relationship_properties: list[dict[str, Any]]
    indexes: list[dict[str, Any]]
    statuses: list[str]
    verdicts: list[str]
    truncated: NotRequired[list[str]]


class CypherReadResult(TypedDict):
    columns: list[str]
    rows: list[dict[str, Any]]
    row_limit: int
    capped: bool
    query_type: str
    truncated: NotRequired[list[str]]


# -- shapes shared with the CLI --------------------------------------------------------------

def as_json(data: Any) -> Any:
    """Plain JSON values exactly as ``car-graph ... --json`` prints them (dates as ISO text)."""
    return json.loads(json.dumps(data, default=str))


def retrieval_json(retrieval: Retrieval, verdict: Verdict) -> dict[str, Any]:
    """``car-graph retrieve --json``: the retrieval plus the verdict."""
    return {**retrieval.to_json(), "verdict": verdict.kind.value, "verdict_summary": verdict.summary}


def explanation_json(explanation: Explanation) -> dict[str, Any]:
    """``car-graph explain --json``."""
    return explanation.to_json()


def chains_text(explanation: Explanation) -> str:
    """The document, its scope, then each chain to a controlling document, one hop a line."""
    when = f" as of {explanation.as_of}" if explanation.as_of else ""
    lines = [f"{explanation.doc_id} [{explanation.status}] {explanation.title}{when}".rstrip(),
             f"scope: {', '.join(explanation.scope) or '-'}"]
    for hop in explanation.supersedes:
        lines.append(f"supersedes {hop.from_id} {hop.how()}")
    for result in explanation.controlling:
        if result.doc_id == explanation.doc_id:
            lines.append(f"in force itself [{result.status}]")
            continue
        published = f" ({result.published})" if result.published else ""
        lines.append(f"controlled by {result.doc_id} [{result.status}] {result.title}{published}")
        for hop in result.chain:
            lines.append(f"  {hop.from_id} -> {hop.to_id} {hop.how()}")
            if hop.evidence:
                lines.append(f"    evidence: {hop.evidence}")
    return "\n".join(lines)


# -- input checks beyond the schemas -----------------------------------------------------------

def check_known_at(value: str | None) -> datetime | RunRef | None:
    """known_at as the CLI's --known-at takes it (the one parser: an instant, a date's end or
    run:N), or InputRejected naming what is accepted."""
    try:
        return parse_known_at(value)
    except ValueError as exc:
        raise InputRejected(f"known_at: {exc}") from exc


def check_as_of(value: str | None) -> date | None:
    """as_of given as text (a prompt argument, a URI parameter) as a date, or InputRejected."""
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise InputRejected(f"as_of {value!r} is not a date YYYY-MM-DD") from exc


class InputRejected(CarError):
    """A tool argument is outside what the server accepts (size, shape, type)."""


class ParamNamesRejected(InputRejected):
    """``query``'s params name an unknown parameter or miss a required one."""


def _json_size(value: Any) -> int:
    return len(json.dumps(value, default=str).encode("utf-8"))


def check_question(question: str) -> str:
    if not question.strip():
        raise InputRejected("the question is empty")
    return question


def check_query_params(name: str, params: Mapping[str, Any]) -> None:
    """Each given value against the type its statement's header declares (string, int, float,
    boolean, date, list<...>), and within the server's size limits. Missing and unknown names are
    analyst.bind's to report."""
    if _json_size(params) > MAX_PARAMS_BYTES:
        raise InputRejected(f"params are {_json_size(params):,} bytes of JSON (at most {MAX_PARAMS_BYTES:,})")
    declared = cypher.declared_parameters(name)
    for key, value in params.items():
        entry = declared.get(key)
        if entry is None or value is None:
            continue
        kind = entry.type.split("|")[0]
        if not _value_fits(kind, value):
            raise InputRejected(
                f"{name.split('/', 1)[-1]}: ${key} must be {_describe_kind(kind)}"
                f" (the header declares {entry.type}), got {type(value).__name__} {_clip(value)}")
        if kind == "int" and not 0 <= value <= (MAX_K if key == "k" else MAX_QUERY_INT):
            raise InputRejected(f"${key} must be between 0 and {MAX_K if key == 'k' else MAX_QUERY_INT}")
        if isinstance(value, list) and len(value) > MAX_LIST_ITEMS:
            raise InputRejected(f"${key} holds {len(value):,} items (at most {MAX_LIST_ITEMS:,})")


_KIND_WORDS = {"string": "a string", "int": "an integer", "float": "a number", "boolean": "true or false",
               "date": "a date 'YYYY-MM-DD'"}
_PLURALS = {"string": "strings", "int": "integers", "float": "numbers", "boolean": "booleans",
            "date": "dates 'YYYY-MM-DD'"}


def _describe_kind(kind: str) -> str:
    if kind.startswith("list<"):
        inner = kind[len("list<"):-1]
        return f"a list of {_PLURALS.get(inner, inner)}"
    return _KIND_WORDS.get(kind, kind)


def _value_fits(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str) and len(value) <= MAX_ID_CHARS
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "date":
        if not isinstance(value, str):
            return False
        try:
            date.fromisoformat(value)
        except ValueError:
            return False
        return True
    if kind.startswith("list"):
        inner = kind[len("list<"):-1] if kind.startswith("list<") else "any"
        return isinstance(value, list) and all(_value_fits(inner, v) for v in value)
    return True  # a type the header names loosely ("any", a map): Neo4j checks it


def _clip(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class CheckedRecords:
    records: list[DocumentRecord]    # in input order
    problems: list[InputProblem]     # one per rejected record; line = position in the input
    lines: list[int] = field(default_factory=list)  # each kept record's position in the input

    def without_existing(self, existing: set[str]) -> CheckedRecords:
        """The records that neither reuse an id in ``existing`` nor supersede one of them; each
        other one a problem naming why (nothing is written for it)."""
        kept, lines, problems = [], [], list(self.problems)
        for record, line in zip(self.records, self.lines, strict=True):
            named = sorted({ref.id for ref in record.supersedes} & existing)
            if record.id in existing:
                reason = (f"id {record.id!r} is already in the graph: this server adds new documents "
                          "only (start it with --allow-overwrite to replace documents)")
            elif named:
                reason = (f"supersedes {', '.join(map(repr, named))}, already in the graph: this server "
                          "does not change what existing documents' status is by explicit edges "
                          "(start it with --allow-overwrite)")
            else:
                kept.append(record)
                lines.append(line)
                continue
            problems.append(InputProblem("records", line, reason))
        problems.sort(key=lambda p: p.line)
        return CheckedRecords(kept, problems, lines)


def check_records(objects: Sequence[Any]) -> CheckedRecords:
    """Parse inline records as the JSONL reader does; a bad, oversized or repeated record is a
    problem of its own (the others still load), a batch too large as a whole is an error."""
    if len(objects) > MAX_INGEST_RECORDS:
        raise InputRejected(f"{len(objects)} records (at most {MAX_INGEST_RECORDS} per call)")
    total = 0
    records: list[DocumentRecord] = []
    problems: list[InputProblem] = []
    lines: list[int] = []
    seen: dict[str, int] = {}
    for number, obj in enumerate(objects, start=1):
        size = _json_size(obj)
        total += size
        if total > MAX_INGEST_BYTES:
            raise InputRejected(f"the records are over {MAX_INGEST_BYTES:,} bytes of JSON; send "
                                "fewer per call")
        try:
            if size > MAX_RECORD_BYTES:
                raise ValueError(f"record is {size:,} bytes of JSON (at most {MAX_RECORD_BYTES:,})")
            record = parse_record(obj)
            if record.id in seen:
                raise ValueError(f"duplicate id {record.id!r} (record {seen[record.id]} was kept)")
        except ValueError as exc:
            problems.append(InputProblem("records", number, str(exc)))
            continue
        seen[record.id] = number
        records.append(record)
        lines.append(number)
    return CheckedRecords(records, problems, lines)


def parse_rules_object(data: Mapping[str, Any]) -> tuple[Domain | None, list[Rule] | None]:
    """A rules/domain file given as an object: (its Domain or None, its rules or None)."""
    if _json_size(data) > MAX_RULES_BYTES:
        raise InputRejected(f"rules are over {MAX_RULES_BYTES:,} bytes of JSON")
    domain = domain_from_mapping(data, "rules")
    rules = parse_rules(data, "rules") if data.get("rules") is not None else None
    return domain, rules


# -- errors ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ToolFailure:
    message: str
    retryable: bool


def describe_failure(exc: BaseException) -> ToolFailure:
    """What a model is told about a failure: a message it can act on, and whether calling again
    may help. Unexpected exceptions are logged with their traceback on stderr, not sent."""
    if isinstance(exc, DeadlineExceededError):
        return ToolFailure(f"{exc}. Call again, asking for less if it keeps happening (a smaller "
                           "k, a narrower query, fewer records per ingest).", True)
    if isinstance(exc, ServerUnavailableError):
        return ToolFailure(f"Neo4j is unavailable ({exc.what}: {exc.detail}). {RETRY_HINT}", True)
    if isinstance(exc, (ServiceUnavailable, SessionExpired)):
        return ToolFailure(f"Neo4j is unavailable ({exc}). {RETRY_HINT}", True)
    if isinstance(exc, Neo4jError) and (exc.code or "").endswith("DatabaseUnavailable"):
        return ToolFailure(f"Neo4j is unavailable ({exc.code}). {RETRY_HINT}", True)
    if isinstance(exc, Neo4jError):
        return ToolFailure(f"Neo4j refused the statement: {exc.code}: {exc.message}", False)
    if isinstance(exc, CarError):
        return ToolFailure(str(exc), False)
    if isinstance(exc, DriverError):
        return ToolFailure(f"Neo4j driver error: {exc}. {RETRY_HINT}", True)
    logger.error("unexpected error in a tool", exc_info=exc)
    return ToolFailure(f"internal error in car-graph ({type(exc).__name__}); the server's log "
                       "(stderr) has the details", False)


def error_result(failure: ToolFailure) -> CallToolResult:
    prefix = "Error (retryable)" if failure.retryable else "Error"
    return CallToolResult(
        content=[TextContent(type="text", text=f"{prefix}: {failure.message}")],
        structured_content={"error": failure.message, "retryable": failure.retryable},
        is_error=True,
    )


def result_chars(value: Any) -> int:
    """Characters of ``value`` as JSON (``json.dumps`` defaults: non-ASCII escaped, so never
    fewer than the wire's)."""
    return len(json.dumps(value, default=str))


MIN_CUT_STRING = 80


def _largest_cut(value: Any, path: str) -> tuple[int, str, Any, Any] | None:
    """(size, path, container, key) of the largest string or list inside ``value`` that can still
    be cut (a string longer than MIN_CUT_STRING, a non-empty list). A list one of whose items
    holds more than half of it is cut inside that item, not halved."""
    best: tuple[int, str, Any, Any] | None = None
    children: list[tuple[str, Any, Any]] = []
    if isinstance(value, dict):
        children = [(f"{path}.{key}" if path else str(key), value, key) for key in value]
    elif isinstance(value, list):
        children = [(f"{path}[{i}]", value, i) for i in range(len(value))]
    for where, container, key in children:
        child = container[key]
        option: tuple[int, str, Any, Any] | None = None
        if isinstance(child, str) and len(child) > MIN_CUT_STRING:
            option = (result_chars(child), where, container, key)
        elif isinstance(child, list) and child:
            option = (result_chars(child), where, container, key)
            inner = _largest_cut(child, where)
            if inner is not None and inner[0] * 2 > option[0]:
                option = inner
        elif isinstance(child, dict):
            option = _largest_cut(child, where)
        if option is not None and (best is None or option[0] > best[0]):
            best = option
    return best


def fit(data: Any, budget: int) -> tuple[Any, list[str]]:
    """``data`` (plain JSON, changed in place) cut until it takes at most ``budget`` characters
    of JSON: the largest string or list first, halved each time (a string keeps its start and
    ends in '…'). Returns it and the paths cut (``results[2].text``). What cannot fit even then
    is an InputRejected."""
    cut: list[str] = []
    for _attempt in range(400):
        if result_chars(data) <= budget:
            return data, sorted(set(cut))
        target = _largest_cut(data, "")
        if target is None:
            break
        _size, path, container, key = target
        value = container[key]
        if isinstance(value, str):
            container[key] = value[: max(MIN_CUT_STRING // 2, len(value) // 2)] + "…"
        else:
            container[key] = value[: len(value) // 2]
        cut.append(path)
    if result_chars(data) <= budget:
        return data, sorted(set(cut))
    raise InputRejected(f"the result does not fit in {budget:,} characters even cut down; "
                        "ask for less (a smaller k, fewer rows)")


def clip_text(text: str, limit: int = SUMMARY_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ok_result(data: Any, summary: str, budget: int) -> CallToolResult:
    """The structured result, cut to fit ``budget`` with the text block; the text block is the
    short ``summary`` (plus what was cut), not the JSON again."""
    data = as_json(data)
    text = clip_text(summary)
    data, cut = fit(data, budget - SUMMARY_CHARS * 2 - 40)
    if cut and isinstance(data, dict):
        data["truncated"] = cut
        text += clip_text(f" Cut to fit {budget:,} characters: {', '.join(cut)}.", SUMMARY_CHARS)
        data, _ = fit(data, budget - len(text))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


# -- paging ------------------------------------------------------------------------------------

def cursor_key(*parts: Any) -> str:
    """What a cursor belongs to (a query and its arguments): a cursor of another call is refused."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def encode_cursor(offset: int, key: str) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": offset, "k": key}).encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None, key: str) -> int:
    """The offset a cursor stands for; InputRejected if it is not one this call was given."""
    if cursor is None:
        return 0
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        offset = data["o"]
        if data["k"] != key or not isinstance(offset, int) or offset < 0:
            raise ValueError(cursor)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputRejected("cursor: not a `next` value this tool returned for the same name and "
                            "arguments; omit it to start from the first page") from exc
    return offset


def page_rows_of(rows: Sequence[Any], offset: int, size: int, budget: int) -> tuple[list[Any], list[str]]:
    """Rows from ``offset``: at most ``size``, and no more than fit in ``budget`` characters
    (at least one row, cut down to fit if it is alone too large; its cut paths returned)."""
    page: list[Any] = []
    used = 2
    for row in rows[offset: offset + size]:
        chars = result_chars(row) + 2
        if page and used + chars > budget:
            break
        page.append(row)
        used += chars
    cut: list[str] = []
    if page and used > budget:
        row, inner = fit(copy.deepcopy(page[0]), budget - 4)
        page[0] = row
        cut = [f"rows[{offset}].{path}" for path in inner]
    return page, cut


T = TypeVar("T")


# -- deadlines ---------------------------------------------------------------------------------
#
# Every tool call gets a CallBudget: --call-timeout seconds from the moment it starts. It reaches
# Neo4j through the driver the tools use (BudgetedDriver): every transaction a call opens gets
# what is left of the budget as its server-side timeout and the call's id in its metadata, and
# no statement starts once the budget is spent or the call was cancelled -- the checkpoints of
# the Python steps between statements. The reply does not wait for them: the call answers at its
# deadline (a retryable error) and stops its transactions by their metadata (terminate_call).

CALL_METADATA_KEY = "car_call"
MIN_STATEMENT_SECONDS = 0.01  # less than this left: the statement is not started
BUDGET_CLOCK_SLACK = 0.25
# Neo4j's codes for a transaction stopped by its timeout or terminated (by terminate_call)
_STOPPED_CODES = re.compile(r"\.Transaction\.(?:TransactionTimedOut\w*|Terminated|LockClientStopped)$")


@dataclass
class CallBudget:
    """One tool call's deadline, and whether it was stopped (past it, or cancelled)."""

    seconds: float
    started: float = field(default_factory=time.monotonic)
    call_id: str = field(default_factory=lambda: secrets.token_hex(8))
    stopped: threading.Event = field(default_factory=threading.Event)
    by_client: bool = False

    def remaining(self) -> float:
        return self.started + self.seconds - time.monotonic()

    def stop(self, *, by_client: bool) -> None:
        """No statement of this call starts from now on (its deadline passed, or ``by_client``:
        its client cancelled it)."""
        self.by_client = by_client
        self.stopped.set()

    def check(self) -> float:
        """The seconds left; DeadlineExceededError when none are or the call was stopped."""
        left = self.remaining()
        if self.stopped.is_set() or left < MIN_STATEMENT_SECONDS:
            raise DeadlineExceededError(self.seconds, cancelled=self.by_client)
        return left

    def timeout(self, given: float | None = None) -> float:
        """A transaction's timeout: the time left, or ``given`` if that is shorter."""
        left = self.check()
        return left if given is None or given <= 0 else min(left, given)

    def metadata(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return {**(given or {}), CALL_METADATA_KEY: self.call_id}


_CURRENT_CALL: contextvars.ContextVar[CallBudget | None] = contextvars.ContextVar(
    "car_graph_mcp_call", default=None)


def current_budget() -> CallBudget | None:
    """The budget of the tool call this thread works for, if any."""
    return _CURRENT_CALL.get()


def stopped_by_budget(exc: BaseException, budget: CallBudget) -> bool:
    """``exc`` is Neo4j stopping a transaction because this call's budget ran out (its timeout,
    or terminate_call), not a statement's own --cypher-timeout or an error of its own."""
    # the server's timeout may fire a moment before this process's clock says the budget is
    # spent: within BUDGET_CLOCK_SLACK it is the budget's
    return (isinstance(exc, Neo4jError) and bool(_STOPPED_CODES.search(exc.code or ""))
            and (budget.stopped.is_set() or budget.remaining() < BUDGET_CLOCK_SLACK))


class BudgetedSession:
    """A driver session whose transactions carry the current call's budget (timeout, metadata);
    outside a tool call it is the session itself."""

    def __init__(self, session: neo4j.Session) -> None:
        self._session = session

    def __enter__(self) -> BudgetedSession:
        self._session.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._session.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    def run(self, query: Any, parameters: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        budget = current_budget()
        if budget is None:
            return self._session.run(query, parameters, **kwargs)
        text = query.text if isinstance(query, neo4j.Query) else query
        given = query.timeout if isinstance(query, neo4j.Query) else None
        metadata = query.metadata if isinstance(query, neo4j.Query) else None
        timed = neo4j.Query(text, metadata=budget.metadata(metadata), timeout=budget.timeout(given))
        return self._session.run(timed, parameters, **kwargs)

    def begin_transaction(self, metadata: dict[str, Any] | None = None,
                          timeout: float | None = None) -> Any:
        budget = current_budget()
        if budget is None:
            return self._session.begin_transaction(metadata=metadata, timeout=timeout)
        return self._session.begin_transaction(metadata=budget.metadata(metadata),
                                               timeout=budget.timeout(timeout))

    def execute_read(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return self._session.execute_read(_budgeted_work(work), *args, **kwargs)

    def execute_write(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return self._session.execute_write(_budgeted_work(work), *args, **kwargs)


def _budgeted_work(work: Callable[..., T]) -> Callable[..., T]:
    """A transaction function run with the current call's timeout and metadata; each attempt
    (the driver retries) first checks the budget."""
    budget = current_budget()
    if budget is None:
        return work

    def attempt(tx: neo4j.ManagedTransaction, *args: Any, **kwargs: Any) -> T:
        budget.check()
        return work(tx, *args, **kwargs)

    given = getattr(work, "timeout", None)
    return cast(Callable[..., T], neo4j.unit_of_work(
        metadata=budget.metadata(getattr(work, "metadata", None)),
        timeout=budget.timeout(given))(attempt))


class BudgetedDriver:
    """The driver the tools' CarClient uses: its sessions are BudgetedSessions and its
    ``execute_query`` carries the budget too; everything else is the driver's."""

    def __init__(self, driver: neo4j.Driver) -> None:
        self._driver = driver

    @property
    def inner(self) -> neo4j.Driver:
        return self._driver

    def __getattr__(self, name: str) -> Any:
        return getattr(self._driver, name)

    def session(self, **config: Any) -> BudgetedSession:
        return BudgetedSession(self._driver.session(**config))

    def execute_query(self, query: Any, parameters: dict[str, Any] | None = None,
                      *args: Any, **kwargs: Any) -> Any:
        budget = current_budget()
        if budget is not None:
            text = query.text if isinstance(query, neo4j.Query) else query
            given = query.timeout if isinstance(query, neo4j.Query) else None
            metadata = query.metadata if isinstance(query, neo4j.Query) else None
            query = neo4j.Query(text, metadata=budget.metadata(metadata),
                                timeout=budget.timeout(given))
        return self._driver.execute_query(query, parameters, *args, **kwargs)

    def __enter__(self) -> BudgetedDriver:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._driver.close()


def with_call_budgets(car: CarClient) -> CarClient:
    """``car`` with its Neo4j work under the call budgets: its driver (and its store's, which
    its retriever reads through) replaced by a BudgetedDriver over the same connection pool.
    Idempotent."""
    if not isinstance(car.driver, BudgetedDriver):
        budgeted = cast(neo4j.Driver, BudgetedDriver(car.driver))
        car.driver = budgeted
        car.store.driver = budgeted
    return car


class ReadWriteLock:
    """Reads share, a write is alone: many reads at once, a write waits for the reads in flight
    and holds new ones back until it is done (so a read never sees the retriever or the domains
    half-changed by an ingest)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False
        self._writers_waiting = 0

    @contextmanager
    def reading(self, budget: CallBudget) -> Iterator[None]:
        with self._cond:
            while self._writing or self._writers_waiting:
                if not self._cond.wait(timeout=budget.check()):
                    budget.check()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self, budget: CallBudget) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            try:
                while self._writing or self._readers:
                    if not self._cond.wait(timeout=budget.check()):
                        budget.check()
                self._writing = True
            finally:
                self._writers_waiting -= 1
                self._cond.notify_all()
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


# -- the tools -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    """What the server allows and how much it returns (the ``car-graph mcp`` flags)."""

    max_result_chars: int = DEFAULT_MAX_RESULT_CHARS
    allow_overwrite: bool = False
    cypher_timeout: float = DEFAULT_CYPHER_TIMEOUT
    # rules and domain declarations (identifier patterns) change how every later question is
    # read and what controls what: refused over MCP unless the operator allows them
    allow_rules: bool = False
    # every call's deadline (--call-timeout), in seconds
    call_timeout: float = DEFAULT_CALL_TIMEOUT


# Plan operators cypher_read refuses besides any plan the planner does not call read-only:
# writes, file and URL loading, procedures (which may do anything), administration.
_REFUSED_OPERATORS = re.compile(
    r"^(?:Create|Merge|Delete|DetachDelete|Set|Remove|Foreach|LoadCSV|ProcedureCall|"
    r"SystemProcedureCall|Show|Terminate|Transaction|Alter|Drop|Grant|Deny|Revoke|Enable|"
    r"Start|Stop)", re.IGNORECASE)
EXPLAIN_PREFIX = "EXPLAIN "


def plan_operators(plan: Mapping[str, Any] | None) -> list[str]:
    """Every operator of an EXPLAIN plan (``Create@neo4j`` read as ``Create``)."""
    if not plan:
        return []
    own = str(plan.get("operatorType", "")).split("@", 1)[0]
    return [own] + [op for child in plan.get("children", []) for op in plan_operators(child)]


def client_name(ctx: Context | None) -> str | None:
    """The name the MCP client gave in its initialize request, if any."""
    try:
        params = ctx.session.client_params if ctx is not None else None
    except (AttributeError, LookupError, ValueError):  # no request in progress
        return None
    info = getattr(params, "client_info", None)
    return clip_text(str(info.name), 200) if info is not None and info.name else None


class CarTools:
    """The tools, resources and prompt over one CarClient. Each call runs in a worker thread
    under its own CallBudget (``Limits.call_timeout``); reads run side by side, each on its own
    sessions, while a write (``ingest_records``) runs alone: it replaces the client's retriever
    and registers domains that every read uses."""

    def __init__(self, car: CarClient, limits: Limits | None = None) -> None:
        self.car = car
        self.limits = limits or Limits()
        self._access = ReadWriteLock()

    async def _within_budget(self, work: Callable[[], T], *, write: bool = False) -> T:
        """``work()`` in a worker thread, under a new call budget. At the deadline the call
        answers DeadlineExceededError without waiting for the thread; cancelled by its client
        (the SDK cancels the request's task), it stops at once. Either way its transactions
        are terminated and the thread starts no further statement."""
        budget = CallBudget(self.limits.call_timeout)

        def in_thread() -> T:
            _CURRENT_CALL.set(budget)  # in this call's own copy of the context
            with (self._access.writing if write else self._access.reading)(budget):
                budget.check()
                try:
                    return work()
                except Neo4jError as exc:
                    if stopped_by_budget(exc, budget):
                        raise DeadlineExceededError(budget.seconds, cancelled=budget.by_client) from exc
                    raise

        with anyio.move_on_after(budget.remaining()) as scope:
            try:
                return await anyio.to_thread.run_sync(in_thread, abandon_on_cancel=True)
            except anyio.get_cancelled_exc_class():
                if not scope.cancel_called:  # not our deadline: the client cancelled the call
                    budget.stop(by_client=True)
                    await self._terminate(budget)
                raise
        budget.stop(by_client=False)
        await self._terminate(budget)
        raise DeadlineExceededError(budget.seconds)

    async def _terminate(self, budget: CallBudget) -> None:
        """Terminate whatever transaction of the call is still open on Neo4j (shielded: it runs
        while the call itself is being cancelled). A failure is logged, never raised."""
        def terminate() -> None:
            try:
                stopped = self.car.store.write("terminate_call", call=budget.call_id)
            except (Neo4jError, DriverError, CarError) as exc:
                logger.warning("could not terminate the transactions of call %s: %s", budget.call_id, exc)
                return
            if stopped:
                logger.info("terminated %d transaction(s) of call %s", len(stopped), budget.call_id)

        with anyio.CancelScope(shield=True), anyio.move_on_after(TERMINATE_SECONDS):
            await anyio.to_thread.run_sync(terminate, abandon_on_cancel=True)

    def _row_budget(self, columns: Sequence[str]) -> int:
        """Characters a page's rows may take: what is left of the budget once the page's other
        keys and its text block are counted, so the page is never cut afterwards."""
        return self.limits.max_result_chars - PAGE_OVERHEAD_CHARS - result_chars(list(columns))

    async def _tool(self, work: Callable[[], Any], summary: Callable[[Any], str], *,
                    write: bool = False) -> CallToolResult:
        try:
            data = as_json(await self._within_budget(work, write=write))
            return ok_result(data, summary(data), self.limits.max_result_chars)
        except Exception as exc:  # every failure becomes a tool error, never a traceback
            return error_result(describe_failure(exc))

    def _answer(self, question: str, as_of: date | None, k: int = 5,
                domain: str | None = None, known_at: datetime | RunRef | None = None) -> Verdict:
        verdict = self.car.answer(check_question(question), as_of=as_of, k=k, domain=domain,
                                  known_at=known_at)
        # nothing found in an empty graph is a setup problem, not an answer (as in the CLI)
        if verdict.kind is VerdictKind.NOT_FOUND and self.car.document_count() == 0:
            raise EmptyGraphError()
        return verdict

    # The docstrings are the tools' descriptions: written for the model that reads them.
    async def ask(self, question: Question, as_of: AsOf = None,
            known_at: KnownAt = None) -> Annotated[CallToolResult, AskResult]:
        """Is the document a question is about still in force, and if not, what controls it?

        Returns the verdict (in_force, superseded, partially_superseded, withdrawn, unresolved,
        not_found), the subject document, its direct superseders, the controlling documents with
        the chain of SUPERSEDES hops (rule, effective date, evidence) to each, numbered sources,
        and `context`: a prompt-ready block to answer from and cite. Check this before citing a
        case, an advisory or a drug approval.
        """
        def work() -> dict[str, Any]:
            verdict = self._answer(question, as_of, known_at=check_known_at(known_at))
            # the instant that answered (a run's last commit, the last commit for a later
            # instant), with its note, as `car-graph ask --json` gives them
            seen = verdict.retrieval.known_at if verdict.retrieval is not None else None
            note = verdict.retrieval.known_at_note if verdict.retrieval is not None else None
            return {**verdict.to_json(), "context": verdict.context(),
                    **({"known_at": seen.isoformat()} if seen else {}),
                    **({"known_at_note": note} if note else {})}

        return await self._tool(work, lambda d: f"Verdict: {d['verdict']}. {d['summary']} "
                                          "(the structured result has the chains, sources and "
                                          "`context`.)")

    async def retrieve(self, question: Question, k: TopK = 5, as_of: AsOf = None,
                 domain: DomainName = None,
                 known_at: KnownAt = None) -> Annotated[CallToolResult, RetrieveResult]:
        """Controlling Authority Retrieval: the documents that control what the question is
        about, best first, each with its status, score, the anchor it was reached from and the
        chain from that anchor; plus the verdict on the top result."""
        def work() -> dict[str, Any]:
            verdict = self._answer(question, as_of, k=k, domain=domain,
                                   known_at=check_known_at(known_at))
            assert verdict.retrieval is not None  # answer() keeps the retrieval it decided on
            return retrieval_json(verdict.retrieval, verdict)

        def summary(d: dict[str, Any]) -> str:
            top = "; ".join(f"{r['doc_id']} [{r['status']}] {r['title']}" for r in d["results"][:3])
            return (f"{len(d['results'])} results (best first: {top or '-'}). Verdict "
                    f"{d['verdict']}: {d['verdict_summary']}")

        return await self._tool(work, summary)

    async def explain(self, doc_id: DocId, as_of: AsOf = None,
                known_at: KnownAt = None) -> Annotated[CallToolResult, ExplainResult]:
        """Where one document stands: its status, scope, the edges in force around it, and every
        chain to the documents that control it, as data and as text (`chains_text`). An unknown
        id is an error that names the nearest existing ids."""
        def work() -> dict[str, Any]:
            explanation = self.car.explain(doc_id, as_of=as_of, known_at=check_known_at(known_at))
            return {**explanation_json(explanation), "chains_text": chains_text(explanation)}

        return await self._tool(work, lambda d: (
            f"{d['doc_id']} [{d['status']}] {d['title']}; controlled by "
            f"{', '.join(c['doc_id'] for c in d['controlling']) or '-'}."))

    async def history(self, doc_id: DocId) -> Annotated[CallToolResult, HistoryResult]:
        """Every recorded version of one document and every SUPERSEDES edge it was ever an end
        of, current and closed, with both clocks: valid time (published, withdrawn, an edge's
        effective date) and transaction time (recorded_from / recorded_until, the run that
        closed it and why). A deleted document has its history too. Use it to see when
        car-graph learned what it answers, and what it answered before (`known_at`)."""
        def work() -> dict[str, Any]:
            return self.car.history(doc_id).to_json()

        return await self._tool(work, lambda d: (
            f"{d['doc_id']} [{'current' if d['current'] else 'deleted at ' + str(d['retired_at'])}]: "
            f"{len(d['versions'])} recorded versions, {len(d['edges'])} edges "
            f"({sum(1 for e in d['edges'] if e.get('current'))} current)."))

    async def query(self, name: QueryName, params: QueryParams | None = None, embed: Embeds = None,
              cursor: Cursor = None,
              page_rows: PageRows = DEFAULT_PAGE_ROWS) -> Annotated[CallToolResult, QueryResultJson]:
        """Run one query of the analyst library by name (see list_queries), read-only. `params`
        binds its parameters (checked against the query's `params_schema`); `embed` binds a
        parameter to the embedding of a text (stale_crowding's `embedding`). Rows come a page at
        a time: while `next` is not null, call again with the same arguments and
        `cursor` = `next` for the following rows."""
        def work() -> Any:
            full = analyst.resolve_name(name)
            given = dict(params or {})
            check_query_params(full, given)
            key = cursor_key("query", full, given, embed)
            offset = decode_cursor(cursor, key)
            for param, text in (embed or {}).items():
                given[param] = self.car.embedder.embed_query(check_question(text))
            check_query_params(full, given)
            try:  # the published schema, before bind reads the clock parameters' values
                check_against_schema(full, given)
            except ParamNamesRejected:
                analyst.bind(full, given)  # unknown and missing ones named as the CLI names them
                raise
            analyst.bind(full, given)
            result = analyst.run_query(self.car.driver, self.car.database, full, given).to_json()
            rows = result["rows"]
            page, cut = page_rows_of(rows, offset, page_rows, self._row_budget(result["columns"]))
            end = offset + len(page)
            return {**result, "rows": page, "offset": offset, "total_rows": len(rows),
                    "next": encode_cursor(end, key) if end < len(rows) else None,
                    **({"truncated": cut} if cut else {})}

        def summary(d: dict[str, Any]) -> str:
            shown = (f"rows {d['offset'] + 1}-{d['offset'] + len(d['rows'])}" if d["rows"]
                     else "no rows")
            more = ("; more rows: call again with cursor = `next`" if d["next"]
                    else "; that is the last page")
            return f"{d['query']}: {shown} of {d['total_rows']}{more}."

        return await self._tool(work, summary)

    async def list_queries(self, cursor: Cursor = None,
                     page_rows: PageRows = DEFAULT_PAGE_ROWS) -> Annotated[CallToolResult, ListQueriesResult]:
        """The analyst query library: each query's name, purpose, parameters (optional ones may
        be omitted), `params_schema` (the JSON Schema `query` checks `params` against) and the
        resource holding its Cypher text. Paged like `query` (`next`, `cursor`)."""
        def work() -> dict[str, Any]:
            catalogue = as_json(query_catalogue())
            key = cursor_key("list_queries")
            offset = decode_cursor(cursor, key)
            page, cut = page_rows_of(catalogue, offset, page_rows, self._row_budget([]))
            end = offset + len(page)
            return {"queries": page, "next": encode_cursor(end, key) if end < len(catalogue) else None,
                    **({"truncated": cut} if cut else {})}

        return await self._tool(work, lambda d: (
            f"{len(d['queries'])} analyst queries: {', '.join(q['name'] for q in d['queries'])}"
            + ("; more: call again with cursor = `next`." if d["next"] else ".")))

    async def stats(self) -> Annotated[CallToolResult, StatsResult]:
        """The graph's shape: documents, entities, SUPERSEDES edges, chain lengths, scope sizes
        and edges per rule."""
        def work() -> dict[str, Any]:
            report = graph_stats(self.car.store)
            if report.documents == 0:
                raise EmptyGraphError()
            return report.to_json()

        return await self._tool(work, lambda d: (
            f"{d['documents']} documents, {d['entities']} entities, {d['supersedes']} SUPERSEDES "
            f"edges, {d['chains']} chains, {d['unresolved']} unresolved."))

    async def schema(self) -> Annotated[CallToolResult, SchemaResult]:
        """The graph's schema, to write queries against: node labels, relationship types, the
        properties of each (with their types), indexes, and the values of document `status` and
        of verdicts."""
        def work() -> dict[str, Any]:
            store = self.car.store

            def rows(name: str) -> list[dict[str, Any]]:
                return [{key: analyst.plain(value) for key, value in record.items()}
                        for record in store.read(name)]

            return {
                "labels": [r["label"] for r in rows("schema_labels")],
                "relationship_types": [r["type"] for r in rows("schema_relationship_types")],
                "node_properties": rows("schema_node_properties"),
                "relationship_properties": rows("schema_relationship_properties"),
                "indexes": rows("show_indexes"),
                "statuses": [status.value for status in Status],
                "verdicts": [kind.value for kind in VerdictKind],
            }

        return await self._tool(work, lambda d: (
            f"{len(d['labels'])} labels ({', '.join(d['labels'][:12])}), "
            f"{len(d['relationship_types'])} relationship types "
            f"({', '.join(d['relationship_types'][:12])}), {len(d['indexes'])} indexes; "
            f"statuses: {', '.join(d['statuses'])}."))

    async def cypher_read(self, statement: CypherText, params: QueryParams | None = None,
                    row_limit: CypherRows = DEFAULT_CYPHER_ROWS) -> Annotated[CallToolResult, CypherReadResult]:
        """Run one read-only Cypher statement (prefer `query` and the analyst library; see
        `schema` for labels and properties). It runs in a READ transaction with a deadline; a
        statement the planner says writes, loads files or calls procedures is refused before it
        runs. At most `row_limit` rows come back (`capped` says there were more)."""
        def work() -> dict[str, Any]:
            given = dict(params or {})
            if _json_size(given) > MAX_PARAMS_BYTES:
                raise InputRejected(f"params are over {MAX_PARAMS_BYTES:,} bytes of JSON")
            return self._read_cypher(statement, given, row_limit)

        return await self._tool(work, lambda d: (
            f"{len(d['rows'])} rows" + (f" (capped at {d['row_limit']}; there are more)" if d["capped"]
                                        else "") + f", columns: {', '.join(d['columns'])}."))

    def _read_cypher(self, statement: str, params: dict[str, Any], row_limit: int) -> dict[str, Any]:
        # The statement is the caller's own Cypher, run as given (never assembled from pieces):
        # the one place car-graph runs text that is not in its catalogue. EXPLAIN asks the
        # planner what it would do without doing it.
        given, explained = cast_cypher(statement), cast_cypher(EXPLAIN_PREFIX + statement)
        with self.car.driver.session(database=self.car.database,
                                     default_access_mode=neo4j.READ_ACCESS) as session:
            with session.begin_transaction(timeout=self.limits.cypher_timeout) as tx:
                summary = tx.run(explained, params).consume()
                operators = plan_operators(summary.plan)
                refused = sorted({op for op in operators if _REFUSED_OPERATORS.match(op)})
                if summary.query_type != "r" or refused:
                    raise InputRejected(
                        "cypher_read runs read-only statements only: the planner reports "
                        f"query type {summary.query_type!r}"
                        + (f" with {', '.join(refused)}" if refused else "")
                        + " (writes, LOAD CSV, procedure calls and administration are refused; "
                          "use `schema` for labels and properties)")
                result = tx.run(given, params)
                columns = list(result.keys())
                records = result.fetch(row_limit + 1)
                tx.rollback()
        return {"columns": columns,
                "rows": [{key: analyst.plain(record[key]) for key in columns}
                         for record in records[:row_limit]],
                "row_limit": row_limit, "capped": len(records) > row_limit,
                "query_type": summary.query_type or ""}

    async def ingest_records(self, ctx: Context, records: Records, rules: Rules = None,
                       dry_run: DryRun = False) -> Annotated[CallToolResult, IngestResult]:
        """Load documents given inline as generic JSONL records (at most 500 per call). Each
        rejected record is listed in `skipped` with its position and the reason (nothing is
        written for it); the valid ones are loaded. Unless the server allows overwriting, a
        record whose id is already in the graph, or whose `supersedes` names a document already
        in the graph, is rejected. SUPERSEDES edges come from the records' explicit `supersedes`
        and from `rules` (or the bundled rules of their domains). `dry_run`: report what would
        change (added, replaced, edges opened and closed, statuses that flip) and write
        nothing."""
        client = client_name(ctx)

        def work() -> dict[str, Any]:
            checked = check_records(records)
            if rules is not None and not self.limits.allow_rules:
                raise InputRejected("rules and domain declarations are refused over MCP unless the "
                                    "server runs with --allow-rules; load them with "
                                    "`car-graph ingest --rules FILE`")
            domain, parsed_rules = parse_rules_object(rules) if rules is not None else (None, None)
            if not self.limits.allow_overwrite:
                named = sorted({r.id for r in checked.records}
                               | {ref.id for r in checked.records for ref in r.supersedes})
                existing = {row["doc_id"] for row in self.car.store.read("existing_documents", ids=named)}
                checked = checked.without_existing(existing)
                if parsed_rules is not None and not dry_run:
                    self._refuse_closing_rules(checked, parsed_rules, domain)
            summary = self.car.ingest(checked.records, parsed_rules, problems=checked.problems,
                                      domain=domain, dry_run=dry_run, rules_source="mcp",
                                      rules_origin=client)
            out = {**summary.to_json(), "skipped_count": len(summary.skipped),
                   "source": "mcp", "client": client}
            if summary.run is not None and not summary.dry_run:
                self.car.store.write("stamp_run_source", run=summary.run, source="mcp", client=client)
            # the ingest dropped the client's retriever: the next one is built here, alone,
            # not by several reads at once
            _ = self.car.retriever
            return out

        def text(d: dict[str, Any]) -> str:
            opened = sum(d.get("edges_opened", {}).values())
            closed = sum(sum(r.values()) for r in d.get("edges_closed", {}).values())
            head = "Dry run, nothing written: would have " if d.get("dry_run") else "Ingested: "
            return (f"{head}{d.get('added', 0)} added, {d.get('replaced', 0)} replaced, "
                    f"{d['unchanged']} unchanged, {d['skipped_count']} rejected; {opened} edges "
                    f"opened, {closed} closed; {len(d.get('flips', []))} statuses flip"
                    + ("" if d.get("dry_run") else f" (run {d.get('run')})") + ".")

        return await self._tool(work, text, write=True)

    def _refuse_closing_rules(self, checked: CheckedRecords, rules: list[Rule],
                              domain: Domain | None) -> None:
        """Without --allow-overwrite, rules that would close an edge already in the graph (a
        rules change that rewrites what controls existing documents) are refused."""
        rehearsal = self.car.ingest(checked.records, rules, problems=checked.problems,
                                    domain=domain, dry_run=True)
        closed = sum(sum(r.values()) for r in rehearsal.edges_closed.values())
        if closed:
            raise InputRejected(
                f"these rules would close {closed} SUPERSEDES edge(s) already in the graph; this "
                "server does not rewrite existing authorities (start it with --allow-overwrite; "
                "dry_run shows what would change)")

    # -- resources and prompt ------------------------------------------------------------------
    async def document(self, doc_id: str, as_of: str | None = None,
                       known_at: str | None = None) -> str:
        """A document's text, metadata, status and chains (explain's result) as JSON; ``as_of``
        and ``known_at`` as for ``explain`` (URI query parameters)."""
        try:
            if len(doc_id) > MAX_ID_CHARS:
                raise InputRejected(f"a document id has at most {MAX_ID_CHARS} characters")
            day = check_as_of(as_of)
            when = check_known_at(known_at)

            def work() -> dict[str, Any]:
                explanation = self.car.explain(doc_id, as_of=day, known_at=when)
                row = self.car.store.read("document_text", doc_id=doc_id)[0]
                return {"doc_id": row["doc_id"], "title": row["title"] or "", "kind": row["kind"],
                        "domain": row["domain"], "published": row["published"],
                        "text": row["text"] or "",
                        "explanation": {**explanation_json(explanation),
                                        "chains_text": chains_text(explanation)}}

            data, cut = fit(as_json(await self._within_budget(work)), self.limits.max_result_chars // 2)
            if cut:
                data["truncated"] = cut
            return json.dumps(data, indent=1, sort_keys=True)
        except NotFoundError as exc:
            raise ResourceNotFoundError(str(exc)) from exc
        except Exception as exc:  # a clean message; the SDK logs no traceback for ResourceError
            raise ResourceError(describe_failure(exc).message) from exc

    async def check_before_you_cite(self, question: PromptQuestion, as_of: PromptAsOf = None,
                                    known_at: PromptKnownAt = None) -> list[UserMessage]:
        """Before citing anything about QUESTION: the verdict and numbered sources (status,
        chain, evidence) put in front of the model, with instructions to answer from what is in
        force."""
        try:
            if len(question) > MAX_QUESTION_CHARS:
                raise InputRejected(f"the question has more than {MAX_QUESTION_CHARS} characters")
            day = check_as_of(as_of)
            when = check_known_at(known_at)
            verdict = await self._within_budget(lambda: self._answer(question, day, known_at=when))
        except Exception as exc:  # an MCPError passes the SDK untouched: the message, no traceback
            failure = describe_failure(exc)
            code = INTERNAL_ERROR if failure.retryable else INVALID_PARAMS
            raise MCPError(code, failure.message, {"retryable": failure.retryable}) from exc
        text = verdict.prompt(CITE_INSTRUCTIONS)
        budget = self.limits.max_result_chars
        if len(text) > budget:  # the instructions first, the end ("Answer:") kept
            text = text[: budget - 200] + "\n… (sources cut to fit)\n\nAnswer:"
        return [UserMessage(text)]


def cast_cypher(text: str) -> LiteralString:
    """The caller's statement typed as the driver wants it (cypher_read only)."""
    return cast(LiteralString, text)


CITE_INSTRUCTIONS = (
    "Check before you cite. The block below says whether the document this question is about is "
    "still in force, and which documents control it, with the chain of supersession and its "
    "evidence. Answer only from these sources. A document marked SUPERSEDED or WITHDRAWN is no "
    "longer good authority: say so, and cite the document marked CONTROLLING instead. Cite "
    "sources as [n]."
)


_SCHEMA_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string", "maxLength": MAX_ID_CHARS},
    "int": {"type": "integer", "minimum": 0, "maximum": MAX_QUERY_INT},
    "float": {"type": "number"},
    "boolean": {"type": "boolean"},
    "date": {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
    "datetime": {"type": "string", "maxLength": 40,
                 "description": "an ISO datetime, or YYYY-MM-DD for the end of that day (UTC)"},
}


def _type_schema(kind: str, name: str) -> dict[str, Any]:
    """The JSON Schema of one header type (``int``, ``list<float>``, ``date|null`` ...)."""
    alternatives = [k for k in kind.split("|") if k and k != "null"]
    nullable = "null" in kind.split("|")
    schemas: list[dict[str, Any]] = []
    for alternative in alternatives or ["any"]:
        if alternative.startswith("list"):
            inner = alternative[len("list<"):-1] if alternative.startswith("list<") else "any"
            schemas.append({"type": "array", "maxItems": MAX_LIST_ITEMS,
                            "items": _SCHEMA_TYPES.get(inner, {})})
        elif alternative == "int" and name == "k":
            schemas.append({"type": "integer", "minimum": 0, "maximum": MAX_K})
        else:
            schemas.append(dict(_SCHEMA_TYPES.get(alternative, {})))
    if nullable:
        schemas.append({"type": "null"})
    return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}


@functools.cache
def params_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of a catalogue statement's ``params``, from its header: each declared
    parameter with its type, the ones not declared ``|null`` required, no others."""
    declared = cypher.declared_parameters(name)
    return {
        "type": "object",
        "properties": {p.name: _type_schema(p.type, p.name) for p in declared.values()},
        "required": [p.name for p in declared.values() if not p.optional],
        "additionalProperties": False,
    }


def check_against_schema(name: str, params: Mapping[str, Any]) -> None:
    """``params`` against the schema list_queries publishes for ``name``."""
    validator = jsonschema.Draft202012Validator(
        params_schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    error = jsonschema.exceptions.best_match(validator.iter_errors(dict(params)))
    if error is not None:
        where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        names = not error.absolute_path and error.validator in ("required", "additionalProperties")
        raise (ParamNamesRejected if names else InputRejected)(f"{name.split('/', 1)[-1]}: params{where}: {clip_text(error.message, 300)} "
                            "(list_queries gives each query's params_schema)")


def query_catalogue() -> list[dict[str, Any]]:
    """The analyst queries as list_queries returns them."""
    out = []
    for full in cypher.analyst_names():
        short = full.split("/", 1)[1]
        out.append({
            "name": short,
            "purpose": cypher.purpose(full),
            "parameters": [{"name": p.name, "type": p.type, "optional": p.optional}
                           for p in cypher.declared_parameters(full).values()],
            "resource": f"car://query/{short}",
            "params_schema": params_schema(full),
        })
    return out


# -- strict arguments ---------------------------------------------------------------------------

def strict_arguments(tool: Tool) -> Tool:
    """``tool`` with a strict argument model: an unknown argument is an error (and the published
    schema says ``additionalProperties: false``), and values are checked as JSON values, not
    coerced (``k: "5"`` and ``k: true`` are refused; dates are still 'YYYY-MM-DD' text)."""
    base = tool.fn_metadata.arg_model

    def model_validate(cls: type[Any], obj: Any, *, strict: bool | None = None, extra: Any = None,
                       from_attributes: bool | None = None, context: Any | None = None,
                       **options: Any) -> Any:
        # JSON mode: the arguments came as JSON; strict JSON validation reads a date from its
        # text but coerces nothing else
        return cls.model_validate_json(json.dumps(obj), context=context)

    strict_model: type[Any] = type(base.__name__, (base,), {
        "model_config": ConfigDict(arbitrary_types_allowed=True, extra="forbid", strict=True),
        "model_validate": classmethod(model_validate),
        "__module__": base.__module__,
    })
    tool.fn_metadata.arg_model = strict_model
    tool.parameters = strict_model.model_json_schema(by_alias=True)
    return tool


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)


def package_version() -> str:
    """car-graph's version (serverInfo.version)."""
    try:
        return importlib.metadata.version("car-graph")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def build_server(car: CarClient, *, allow_ingest: bool = False, allow_overwrite: bool = False,
                 allow_cypher: bool = False, max_result_chars: int = DEFAULT_MAX_RESULT_CHARS,
                 cypher_timeout: float = DEFAULT_CYPHER_TIMEOUT,
                 allow_rules: bool = False,
                 call_timeout: float = DEFAULT_CALL_TIMEOUT) -> MCPServer:
    """The MCP server over ``car``. ``ingest_records`` exists only with ``allow_ingest`` (and
    replaces documents only with ``allow_overwrite``); ``cypher_read`` only with
    ``allow_cypher``. Every result fits ``max_result_chars``; every call ends by
    ``call_timeout`` seconds (the client's Neo4j work is put under the call budgets:
    with_call_budgets)."""
    if max_result_chars < MIN_MAX_RESULT_CHARS:
        raise ConfigError(f"--max-result-chars must be at least {MIN_MAX_RESULT_CHARS:,}")
    if cypher_timeout <= 0:
        raise ConfigError("--cypher-timeout must be positive")
    if call_timeout <= 0:
        raise ConfigError("--call-timeout must be positive")
    tools = CarTools(with_call_budgets(car), Limits(
        max_result_chars=max_result_chars, allow_overwrite=allow_overwrite,
        cypher_timeout=cypher_timeout, allow_rules=allow_rules, call_timeout=call_timeout))

    def tool(method: Callable[..., Any], annotations: ToolAnnotations) -> Tool:
        return strict_arguments(Tool.from_function(method, description=inspect.getdoc(method),
                                                   annotations=annotations))

    registered = [tool(method, READ_ONLY) for method in (
        tools.ask, tools.retrieve, tools.explain, tools.history, tools.query, tools.list_queries,
        tools.stats, tools.schema)]
    if allow_cypher:
        # read-only by the READ transaction and the plan check; open world: any statement
        registered.append(tool(tools.cypher_read, ToolAnnotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)))
    if allow_ingest:
        registered.append(tool(tools.ingest_records, ToolAnnotations(
            read_only_hint=False, destructive_hint=allow_overwrite, idempotent_hint=True,
            open_world_hint=False)))
    server: MCPServer = MCPServer(
        SERVER_NAME,
        version=package_version(),
        instructions=(
            "car-graph answers whether a document (a court decision, a security advisory, a drug "
            "approval, ...) is still in force and what controls it. Call `ask` before citing "
            "one; `explain` shows a document's chains; `query` runs the named analyst queries "
            "of `list_queries` (read-only); `schema` describes the graph. Results are bounded: "
            "follow `next` to page."),
        log_level="WARNING",
        tools=registered,
    )
    for info in query_catalogue():
        server.add_resource(TextResource(
            uri=info["resource"], name=f"analyst/{info['name']}", description=info["purpose"],
            mime_type="text/plain", text=cypher.text(f"{cypher.ANALYST_FOLDER}/{info['name']}")))
    server.resource(DOC_URI_TEMPLATE, name="document", mime_type="application/json",
                    description=("A document's text, status and chains to what controls it; "
                                 "as_of and known_at as for explain. An id holding '/' is "
                                 "percent-encoded: car://doc/a%2Fb."))(
        tools.document)
    server.prompt(name="check_before_you_cite",
                  description=inspect.getdoc(tools.check_before_you_cite))(tools.check_before_you_cite)
    return server


# -- serving ---------------------------------------------------------------------------------

def open_client(settings: Settings) -> CarClient:
    """The client the server works with, made at the edge. Neo4j being down at start is logged,
    not fatal (tools say so until it is up); wrong credentials are fatal."""
    target = targets.resolve_target(settings)
    driver = connection.new_driver(target.uri, target.user, target.password,
                                   max_transaction_retry_time=TRANSACTION_RETRY_SECONDS)
    try:
        driver.verify_connectivity()
    except AuthError as exc:
        driver.close()
        raise ConfigError(f"Neo4j at {target.uri} rejected user {target.user!r}: {exc}") from exc
    except (DriverError, Neo4jError, OSError) as exc:
        logger.warning("Neo4j at %s is not reachable yet (%s); tools report that until it is",
                       target.uri, exc)
    return CarClient(driver, settings.database, embedding_model=settings.embedding_model,
                     owns_driver=True, uri=target.uri)


def loopback_host(host: str) -> str:
    """``host`` if it is a loopback address (``localhost`` becomes 127.0.0.1), else ConfigError."""
    if host.lower() == "localhost":
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise ConfigError(
            f"refusing to serve MCP on {host}: --http binds loopback only (127.0.0.1, ::1). To reach "
            "it from elsewhere, put a TLS-terminating proxy with its own authentication in front.")
    return str(address)


def resolve_token(env: Mapping[str, str]) -> tuple[str, bool]:
    """(token, generated): CAR_GRAPH_MCP_TOKEN if set, else a fresh random one."""
    given = env.get(TOKEN_ENV)
    if given:
        if len(given) < MIN_TOKEN_CHARS:
            raise ConfigError(f"{TOKEN_ENV} must be at least {MIN_TOKEN_CHARS} characters long")
        return given, False
    return secrets.token_urlsafe(32), True


class BearerTokenMiddleware:
    """ASGI middleware: an HTTP request passes only with ``Authorization: Bearer <token>``;
    anything else gets 401 before the MCP app sees it. Lifespan events pass through."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self._expected = token.encode()

    def authorised(self, value: bytes) -> bool:
        """``Bearer <token>``, the scheme in any case (RFC 9110: schemes are case-insensitive),
        the token compared in constant time."""
        scheme, _sep, given = value.strip().partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        given = [value for key, value in scope.get("headers", []) if key.lower() == b"authorization"]
        if scope["type"] == "http" and len(given) == 1 and self.authorised(given[0]):
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets and anything else: not served
            return
        body = b'{"error": "unauthorized: send Authorization: Bearer <token>"}'
        await send({"type": "http.response.start", "status": 401, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", b'Bearer realm="car-graph"')]})
        await send({"type": "http.response.body", "body": body})


def _stderr_logging(level: str) -> None:
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level),
                        format="car-graph mcp %(levelname)s %(name)s: %(message)s", force=True)


def serve(settings: Settings, *, http: bool = False, host: str = "127.0.0.1",
          port: int = DEFAULT_PORT, allow_ingest: bool = False, allow_overwrite: bool = False,
          allow_cypher: bool = False, max_result_chars: int = DEFAULT_MAX_RESULT_CHARS,
          cypher_timeout: float = DEFAULT_CYPHER_TIMEOUT, log_level: str = "WARNING",
          allow_rules: bool = False, call_timeout: float = DEFAULT_CALL_TIMEOUT) -> None:
    """Run the server until the client disconnects (stdio) or the process is stopped (HTTP)."""
    _stderr_logging(log_level)
    if http:  # before connecting at all
        host = loopback_host(host)
    if allow_overwrite and not allow_ingest:
        raise ConfigError("--allow-overwrite needs --allow-ingest")
    if allow_rules and not allow_ingest:
        raise ConfigError("--allow-rules needs --allow-ingest")
    if max_result_chars < MIN_MAX_RESULT_CHARS:
        raise ConfigError(f"--max-result-chars must be at least {MIN_MAX_RESULT_CHARS:,}")
    token, generated = resolve_token(os.environ) if http else ("", False)
    with open_client(settings) as car:
        server = build_server(car, allow_ingest=allow_ingest, allow_overwrite=allow_overwrite,
                              allow_cypher=allow_cypher, max_result_chars=max_result_chars,
                              cypher_timeout=cypher_timeout, allow_rules=allow_rules,
                              call_timeout=call_timeout)
        if not http:
            server.run(transport="stdio")
            return
        _serve_http(server, host, port, token, generated, log_level)


def _serve_http(server: MCPServer, host: str, port: int, token: str, generated: bool,
                log_level: str) -> None:
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    # The SDK's DNS-rebinding protection, for whichever loopback address this is: a request
    # whose Host or Origin is not loopback is refused even with the token.
    loopbacks = {shown, "127.0.0.1", "localhost", "[::1]"}
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=sorted(f"{h}:*" for h in loopbacks),
        allowed_origins=sorted(f"http://{h}:*" for h in loopbacks))
    app = BearerTokenMiddleware(server.streamable_http_app(host=host, transport_security=security), token)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc}") from exc
    sock.listen(128)
    bound = sock.getsockname()[1]
    # One line a client can parse (tests read the port from it), then the token, once.
    print(f"car-graph mcp: streamable HTTP on http://{shown}:{bound}{MCP_PATH}", file=sys.stderr, flush=True)
    if generated:
        print(f"car-graph mcp: bearer token (shown once; set {TOKEN_ENV} to choose one): {token}",
              file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_config=_uvicorn_log_config(log_level), lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


def _uvicorn_log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, every handler on stderr (its access log defaults to stdout)."""
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "plain"}
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"plain": {"format": "car-graph mcp %(levelname)s %(name)s: %(message)s"}},
        "handlers": {"stderr": handler},
        "loggers": {name: {"handlers": ["stderr"], "level": level, "propagate": False}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access")},
    }


