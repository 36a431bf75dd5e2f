"""``car-graph mcp``: verdicts, chains and the analyst library as MCP tools for AI agents.

Built on the official ``mcp`` SDK: ``MCPServer`` (FastMCP's name since SDK 2). Two transports:

* stdio (default): one client, the process that started the server. stdout carries protocol
  messages only (the SDK moves file descriptor 1 onto stderr while it serves, so even a stray
  print lands in the log); every log line goes to stderr.
* streamable HTTP (``--http``): loopback addresses only, every request checked against a bearer
  token (constant-time compare) before it reaches the SDK's app.

Safe by construction:

* no tool takes Cypher. ``query`` runs a statement of the analyst catalogue
  (``queries/analyst/*.cypher``) by name, in a READ transaction, with parameters checked against
  the statement's header; every other tool reads through ``GraphStore``'s READ sessions. The one
  writer, ``ingest_records``, is registered only with ``--allow-ingest``;
* inputs are bounded (question and id length, k, parameter, record and rule sizes);
* every failure is a tool error with a message a model can act on, never a traceback. A lost
  database is a *retryable* error (``"retryable": true`` in the result); the driver reconnects on
  its own when Neo4j is back, so the next call succeeds.

Tool results are the ``--json`` shapes of the matching CLI commands (``ask``, ``retrieve``,
``explain``, ``query``, ``stats``), rendered as the CLI renders them (``json.dumps`` with
``default=str``); tests/integration/test_mcp_server.py compares them with the CLI's output.
"""

from __future__ import annotations

import hmac
import inspect
import ipaddress
import json
import logging
import os
import secrets
import socket
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Literal, NotRequired, TypeVar

from neo4j.exceptions import (
    AuthError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from pydantic import Field
from typing_extensions import TypedDict

from car_graph import analyst, connection, cypher
from car_graph import target as targets
from car_graph.client import CarClient
from car_graph.domains import Domain, domain_from_mapping
from car_graph.errors import (
    CarError,
    ConfigError,
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
from car_graph.types import Explanation, Retrieval, known_at_instant
from car_graph.verdict import Verdict, VerdictKind

try:
    from mcp.server.mcpserver import MCPServer, UserMessage
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
    from mcp.server.mcpserver.resources import TextResource
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

RETRY_HINT = ("This is temporary: nothing was changed; call the tool again once the database "
              "is back (the server reconnects by itself).")

# -- input types (the tools' JSON Schemas) -----------------------------------------------------

Question = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                description="A question in plain language.")]
AsOf = Annotated[date | None, Field(description="Answer as of this date (YYYY-MM-DD): later "
                                                "documents and edges do not count. Omit for today.")]
KnownAt = Annotated[str | None, Field(max_length=40, description=(
    "Answer as car-graph would have then, from what it had recorded by this date (YYYY-MM-DD: "
    "the end of that day, UTC) or ISO datetime; omit for the current graph. Beside as_of, "
    "the date the answer is about."))]
TopK = Annotated[int, Field(ge=1, le=MAX_K, description="Results retrieved before the verdict.")]
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
Records = Annotated[list[dict[str, Any]], Field(min_length=1, max_length=MAX_INGEST_RECORDS, description=(
    "Generic JSONL records as objects: {id, text, title?, domain?, kind?, published?, scope?, "
    "supersedes?, attributes?} (docs/domains.md)."))]
Rules = Annotated[dict[str, Any] | None, Field(description=(
    "A rules/domain file as an object ({domain, rules: [...], identifiers?, names?}); omit for "
    "the bundled rules of the records' domains."))]


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
    context: str
    known_at: NotRequired[str]


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
    known_at: NotRequired[str]
    chains_text: str


class QueryResultJson(TypedDict):
    """``car-graph query NAME --json``."""

    query: str
    columns: list[str]
    rows: list[dict[str, Any]]


class ParameterJson(TypedDict):
    name: str
    type: str
    optional: bool


class QueryInfo(TypedDict):
    name: str
    purpose: str
    parameters: list[ParameterJson]
    resource: str


class ListQueriesResult(TypedDict):
    queries: list[QueryInfo]


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

def check_known_at(value: str | None) -> datetime | None:
    """known_at as an instant, or InputRejected naming what is accepted."""
    try:
        return known_at_instant(value)
    except ValueError as exc:
        raise InputRejected(f"known_at: {exc}") from exc


class InputRejected(CarError):
    """A tool argument is outside what the server accepts (size, shape, type)."""


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


def check_records(objects: Sequence[Any]) -> CheckedRecords:
    """Parse inline records as the JSONL reader does; a bad, oversized or repeated record is a
    problem of its own (the others still load), a batch too large as a whole is an error."""
    if len(objects) > MAX_INGEST_RECORDS:
        raise InputRejected(f"{len(objects)} records (at most {MAX_INGEST_RECORDS} per call)")
    total = 0
    records: list[DocumentRecord] = []
    problems: list[InputProblem] = []
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
    return CheckedRecords(records, problems)


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


def ok_result(data: Any) -> CallToolResult:
    data = as_json(data)
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(data, indent=2, sort_keys=True))],
                          structured_content=data)


T = TypeVar("T")


# -- the tools -------------------------------------------------------------------------------

class CarTools:
    """The tools, resources and prompt over one CarClient. Calls are serialised (one lock): the
    client's retriever and entity extractor are shared state, and an ingest must not interleave
    with a read that caches what the graph's domains were."""

    def __init__(self, car: CarClient) -> None:
        self.car = car
        self._lock = threading.Lock()

    def _locked(self, work: Callable[[], T]) -> T:
        with self._lock:
            return work()

    def _tool(self, work: Callable[[], Any]) -> CallToolResult:
        try:
            return ok_result(self._locked(work))
        except Exception as exc:  # every failure becomes a tool error, never a traceback
            return error_result(describe_failure(exc))

    def _answer(self, question: str, as_of: date | None, k: int = 5,
                domain: str | None = None, known_at: datetime | None = None) -> Verdict:
        verdict = self.car.answer(check_question(question), as_of=as_of, k=k, domain=domain,
                                  known_at=known_at)
        # nothing found in an empty graph is a setup problem, not an answer (as in the CLI)
        if verdict.kind is VerdictKind.NOT_FOUND and self.car.document_count() == 0:
            raise EmptyGraphError()
        return verdict

    # The docstrings are the tools' descriptions: written for the model that reads them.
    def ask(self, question: Question, as_of: AsOf = None,
            known_at: KnownAt = None) -> Annotated[CallToolResult, AskResult]:
        """Is the document a question is about still in force, and if not, what controls it?

        Returns the verdict (in_force, superseded, partially_superseded, withdrawn, unresolved,
        not_found), the subject document, its direct superseders, the controlling documents with
        the chain of SUPERSEDES hops (rule, effective date, evidence) to each, numbered sources,
        and `context`: a prompt-ready block to answer from and cite. Check this before citing a
        case, an advisory or a drug approval.
        """
        def work() -> dict[str, Any]:
            when = check_known_at(known_at)
            verdict = self._answer(question, as_of, known_at=when)
            return {**verdict.to_json(), "context": verdict.context(),
                    **({"known_at": when.isoformat()} if when else {})}

        return self._tool(work)

    def retrieve(self, question: Question, k: TopK = 5, as_of: AsOf = None,
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

        return self._tool(work)

    def explain(self, doc_id: DocId, as_of: AsOf = None,
                known_at: KnownAt = None) -> Annotated[CallToolResult, ExplainResult]:
        """Where one document stands: its status, scope, the edges in force around it, and every
        chain to the documents that control it, as data and as text (`chains_text`). An unknown
        id is an error that names the nearest existing ids."""
        def work() -> dict[str, Any]:
            explanation = self.car.explain(doc_id, as_of=as_of, known_at=check_known_at(known_at))
            return {**explanation_json(explanation), "chains_text": chains_text(explanation)}

        return self._tool(work)

    def query(self, name: QueryName, params: QueryParams | None = None,
              embed: Embeds = None) -> Annotated[CallToolResult, QueryResultJson]:
        """Run one query of the analyst library by name (see list_queries), read-only. `params`
        binds its parameters (checked against the query's header); `embed` binds a parameter to
        the embedding of a text (stale_crowding's `embedding`)."""
        def work() -> Any:
            full = analyst.resolve_name(name)
            given = dict(params or {})
            for key, text in (embed or {}).items():
                given[key] = self.car.embedder.embed_query(check_question(text))
            check_query_params(full, given)
            return analyst.run_query(self.car.driver, self.car.database, full, given).to_json()

        return self._tool(work)

    def list_queries(self) -> Annotated[CallToolResult, ListQueriesResult]:
        """The analyst query library: each query's name, purpose and parameters (optional ones
        may be omitted) and the resource holding its Cypher text."""
        return self._tool(lambda: {"queries": query_catalogue()})

    def stats(self) -> Annotated[CallToolResult, StatsResult]:
        """The graph's shape: documents, entities, SUPERSEDES edges, chain lengths, scope sizes
        and edges per rule."""
        def work() -> dict[str, Any]:
            report = graph_stats(self.car.store)
            if report.documents == 0:
                raise EmptyGraphError()
            return report.to_json()

        return self._tool(work)

    def ingest_records(self, records: Records, rules: Rules = None) -> Annotated[CallToolResult, IngestResult]:
        """Load documents given inline as generic JSONL records (idempotent; at most 500 per
        call). Each rejected record is listed in `skipped` with its position and the reason;
        the valid ones are loaded. SUPERSEDES edges come from the records' explicit
        `supersedes` and from `rules` (or the bundled rules of their domains)."""
        def work() -> dict[str, Any]:
            checked = check_records(records)
            domain, parsed_rules = parse_rules_object(rules) if rules is not None else (None, None)
            summary = self.car.ingest(checked.records, parsed_rules, problems=checked.problems,
                                      domain=domain)
            return {**summary.to_json(), "skipped_count": len(summary.skipped)}

        return self._tool(work)

    # -- resources and prompt ------------------------------------------------------------------
    def document(self, doc_id: str) -> str:
        """A document's text, metadata, status and chains (explain's result) as JSON."""
        try:
            if len(doc_id) > MAX_ID_CHARS:
                raise InputRejected(f"a document id has at most {MAX_ID_CHARS} characters")

            def work() -> dict[str, Any]:
                explanation = self.car.explain(doc_id)
                row = self.car.store.read("document_text", doc_id=doc_id)[0]
                return {"doc_id": row["doc_id"], "title": row["title"] or "", "kind": row["kind"],
                        "domain": row["domain"], "published": row["published"],
                        "text": row["text"] or "",
                        "explanation": {**explanation_json(explanation),
                                        "chains_text": chains_text(explanation)}}

            return json.dumps(as_json(self._locked(work)), indent=2, sort_keys=True)
        except NotFoundError as exc:
            raise ResourceNotFoundError(str(exc)) from exc
        except Exception as exc:  # a clean message; the SDK logs no traceback for ResourceError
            raise ResourceError(describe_failure(exc).message) from exc

    def check_before_you_cite(self, question: PromptQuestion,
                              as_of: PromptAsOf = None) -> list[UserMessage]:
        """Before citing anything about QUESTION: the verdict and numbered sources (status,
        chain, evidence) put in front of the model, with instructions to answer from what is in
        force."""
        try:
            if len(question) > MAX_QUESTION_CHARS:
                raise InputRejected(f"the question has more than {MAX_QUESTION_CHARS} characters")
            try:
                day = date.fromisoformat(as_of) if as_of else None
            except ValueError as exc:
                raise InputRejected(f"as_of {as_of!r} is not a date YYYY-MM-DD") from exc
            verdict = self._locked(lambda: self._answer(question, day))
        except Exception as exc:  # an MCPError passes the SDK untouched: the message, no traceback
            failure = describe_failure(exc)
            code = INTERNAL_ERROR if failure.retryable else INVALID_PARAMS
            raise MCPError(code, failure.message, {"retryable": failure.retryable}) from exc
        return [UserMessage(verdict.prompt(CITE_INSTRUCTIONS))]


CITE_INSTRUCTIONS = (
    "Check before you cite. The block below says whether the document this question is about is "
    "still in force, and which documents control it, with the chain of supersession and its "
    "evidence. Answer only from these sources. A document marked SUPERSEDED or WITHDRAWN is no "
    "longer good authority: say so, and cite the document marked CONTROLLING instead. Cite "
    "sources as [n]."
)


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
        })
    return out


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)


def build_server(car: CarClient, *, allow_ingest: bool = False) -> MCPServer:
    """The MCP server over ``car``. ``ingest_records`` exists only with ``allow_ingest``."""
    tools = CarTools(car)
    server: MCPServer = MCPServer(
        SERVER_NAME,
        instructions=(
            "car-graph answers whether a document (a court decision, a security advisory, a drug "
            "approval, ...) is still in force and what controls it. Call `ask` before citing "
            "one; `explain` shows a document's chains; `query` runs the named analyst queries "
            "of `list_queries` (read-only)."),
        log_level="WARNING",
    )
    for method in (tools.ask, tools.retrieve, tools.explain, tools.query, tools.list_queries,
                   tools.stats):
        server.add_tool(method, description=inspect.getdoc(method), annotations=READ_ONLY)
    if allow_ingest:
        server.add_tool(tools.ingest_records, description=inspect.getdoc(tools.ingest_records),
                        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                                    idempotent_hint=True, open_world_hint=False))
    for info in query_catalogue():
        server.add_resource(TextResource(
            uri=info["resource"], name=f"analyst/{info['name']}", description=info["purpose"],
            mime_type="text/plain", text=cypher.text(f"{cypher.ANALYST_FOLDER}/{info['name']}")))
    server.resource("car://doc/{doc_id}", name="document", mime_type="application/json",
                    description="A document's text, status and chains to what controls it.")(
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
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        given = [value for key, value in scope.get("headers", []) if key.lower() == b"authorization"]
        if scope["type"] == "http" and len(given) == 1 and hmac.compare_digest(given[0], self._expected):
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
          port: int = DEFAULT_PORT, allow_ingest: bool = False, log_level: str = "WARNING") -> None:
    """Run the server until the client disconnects (stdio) or the process is stopped (HTTP)."""
    _stderr_logging(log_level)
    if http:  # before connecting at all
        host = loopback_host(host)
    token, generated = resolve_token(os.environ) if http else ("", False)
    with open_client(settings) as car:
        server = build_server(car, allow_ingest=allow_ingest)
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


