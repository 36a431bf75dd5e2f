"""One exception root for car-graph.

CarError
├── ConfigError              settings or connection details are missing or invalid
├── ServerError              the managed local Neo4j could not be installed, started or stopped
├── ServerUnavailableError   the Neo4j server could not be reached or went away mid-operation
├── UnsafeTargetError        a destructive operation was aimed at a non-loopback server
├── UnknownQueryError        a Cypher statement name is not in the catalogue
├── QueryParameterError      an analyst query got an unknown parameter or lacks a required one
├── SchemaMismatchError      the vector index disagrees with the embedding model
├── EmbedderMismatchError    the graph's vectors came from another embedding model or variant
├── IngestError              an input record is malformed (file, line, reason)
├── RulesError               a supersession rules file is invalid
│   ├── RulesWarningError        --strict: a rule matches nothing, or cannot evaluate records
│   └── RulesChangeRefused       a rules change would close many edges and was not confirmed
├── UnknownDomainError       a domain name the graph does not hold
├── NotFoundError            a document id does not exist
│   └── UnknownDocumentError     ... with the nearest ids that do
├── EmptyGraphError          the database holds no documents yet
├── UnknownRunError          --known-at run:N names a run the graph has no commit of
├── HistoryPurgedError       --strict: --known-at is before a purge's cut-off
└── MissingExtraError        an optional extra (a RAG adapter's framework, matplotlib) is not installed
"""

from __future__ import annotations

from dataclasses import dataclass


class CarError(Exception):
    """Root of every error car-graph raises on purpose."""


class ConfigError(CarError):
    """Settings or connection details are missing or invalid."""


class ServerError(CarError):
    """The managed local Neo4j server could not be installed, started or stopped."""


class ServerUnavailableError(CarError):
    """Neo4j could not be reached, or went away in the middle of an operation."""

    def __init__(self, uri: str, what: str, detail: str) -> None:
        super().__init__(uri, what, detail)
        self.uri, self.what, self.detail = uri, what, detail

    def __str__(self) -> str:
        return (
            f"Neo4j at {self.uri} is unreachable ({self.what}: {self.detail}). Writes are whole "
            "transactions, so nothing is half-written. If it is car-graph's managed server, "
            "start it with `car-graph neo4j start`; otherwise start your server or fix "
            "NEO4J_URI, then run the command again (ingest is idempotent)."
        )


class DeadlineExceededError(CarError):
    """Work stopped at its deadline (``car-graph mcp --call-timeout``), or because its caller
    cancelled it: the request may be fine, and calling again (with less to do) may succeed."""

    def __init__(self, seconds: float, *, cancelled: bool = False) -> None:
        super().__init__(seconds, cancelled)
        self.seconds, self.cancelled = seconds, cancelled

    def __str__(self) -> str:
        if self.cancelled:
            return "the call was cancelled by its client; its work was stopped"
        return (f"the call ran past its deadline of {self.seconds:g} s and was stopped (its Neo4j "
                "transaction too)")


class UnsafeTargetError(CarError):
    """A destructive operation was aimed at a server that is not on loopback."""


class BadIncludeError(CarError):
    """A catalogue statement's ``//@include`` line is cyclic or binds a parameter the included
    statement does not have, or a ``@fragment(...)`` use is unknown, leaves a slot unbound,
    binds an undeclared one, or the fragment itself is malformed."""


class UnknownQueryError(CarError, KeyError):
    def __init__(self, name: str, suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(name)
        self.name = name
        self.suggestions = suggestions

    def __str__(self) -> str:
        hint = f"; nearest: {', '.join(self.suggestions)}" if self.suggestions else ""
        return f"no Cypher statement named {self.name!r} in the catalogue{hint}"


class QueryParameterError(CarError):
    """An analyst query got an unknown parameter or lacks a required one."""


class SchemaMismatchError(CarError):
    def __init__(self, index: str, expected: int, found: int) -> None:
        super().__init__(index, expected, found)
        self.index, self.expected, self.found = index, expected, found

    def __str__(self) -> str:
        return (
            f"vector index {self.index!r} has dimension {self.found}, but the embedding model "
            f"produces {self.expected}; drop the index (car-graph reset --yes) or configure the "
            "model the index was built with"
        )


class EmbedderMismatchError(CarError):
    """The graph records another embedder (model or variant) than the one about to write."""

    def __init__(self, recorded: str, configured: str, inferred: bool = False) -> None:
        super().__init__(recorded, configured, inferred)
        self.recorded, self.configured, self.inferred = recorded, configured, inferred

    def __str__(self) -> str:
        how = ("(inferred: its vectors predate embedder records, and car-graph then ran "
               "only that variant)" if self.inferred else "")
        return (
            f"this graph's document vectors come from {self.recorded} {how}".rstrip() + ", but "
            f"the configured embedder is {self.configured}; vectors of the two would be mixed "
            "in one index. Nothing was written. Either set CAR_EMBEDDING_MODEL / "
            "CAR_EMBEDDING_VARIANT to what the graph records, or rebuild the graph with the "
            "new embedder (car-graph reset --yes, then ingest again)"
        )


@dataclass(frozen=True)
class InputProblem:
    """One rejected input record: where it was and why."""

    source: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}"


class IngestError(CarError):
    def __init__(self, source: str, line: int, reason: str) -> None:
        super().__init__(source, line, reason)
        self.problem = InputProblem(source, line, reason)

    def __str__(self) -> str:
        return str(self.problem)


class RulesError(CarError):
    def __init__(self, source: str, reason: str) -> None:
        super().__init__(source, reason)
        self.source, self.reason = source, reason

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"


class RulesWarningError(RulesError):
    """Under ``--strict``: the rules in force match nothing or cannot evaluate some records
    (nothing was written)."""

    def __init__(self, warnings: list[str]) -> None:
        super().__init__("rules", "; ".join(warnings))
        self.warnings = warnings

    def __str__(self) -> str:
        return ("the rules would not do what they say (--strict; nothing was written):\n  "
                + "\n  ".join(self.warnings))


class RulesChangeRefused(RulesError):
    """A rules change would close more of the graph's rule edges than the limit allows, and was
    not confirmed (``--yes``); nothing was written. ``change`` is the dry run's report."""

    def __init__(self, ruleset: str, closing: int, edges: int, limit: float, change: object) -> None:
        super().__init__(ruleset, f"would close {closing} of {edges} rule edges")
        self.ruleset, self.closing, self.edges, self.limit = ruleset, closing, edges, limit
        self.change = change

    def __str__(self) -> str:
        return (f"the new rules for {self.ruleset!r} would close {self.closing} of its "
                f"{self.edges} rule edges (more than {self.limit:.0%}); nothing was written. "
                "Check the rules file (see the warnings), preview with --dry-run, or pass --yes "
                "to apply it")


class UnknownDomainError(CarError, LookupError):
    """A domain name (``--domain``, ``domains show``) that the graph does not hold."""

    def __init__(self, name: str, known: tuple[str, ...] = ()) -> None:
        super().__init__(name, known)
        self.name, self.known = name, known

    def __str__(self) -> str:
        held = ", ".join(self.known) if self.known else "none"
        return f"no domain {self.name!r} in the graph (domains it holds: {held})"


class NotFoundError(CarError, LookupError):
    """A document id does not exist in the graph."""


class UnknownDocumentError(NotFoundError):
    def __init__(self, doc_id: str, nearest: tuple[str, ...] = ()) -> None:
        super().__init__(doc_id, nearest)
        self.doc_id, self.nearest = doc_id, nearest

    def __str__(self) -> str:
        hint = f"; nearest ids: {', '.join(self.nearest)}" if self.nearest else ""
        return f"no document {self.doc_id!r}{hint}"


class EmptyGraphError(CarError):
    def __str__(self) -> str:
        return ("the graph holds no documents yet: load some with `car-graph ingest FILE.jsonl` "
                "(or `car-graph demo` for the bundled sample)")


class UnknownRunError(CarError, LookupError):
    def __init__(self, number: int, last: int | None) -> None:
        super().__init__(number, last)
        self.number, self.last = number, last

    def __str__(self) -> str:
        runs = f"runs go up to {self.last}" if self.last is not None else "no run is recorded yet"
        return f"no committed run {self.number} in the graph ({runs}; `car-graph runs` lists them)"


class HistoryPurgedError(CarError):
    """--strict: the instant asked for is before a purge's cut-off, so the answer may lack
    what was erased."""

    def __init__(self, note: str) -> None:
        super().__init__(note)
        self.note = note

    def __str__(self) -> str:
        return f"{self.note} (--strict refuses; drop it to answer with this note)"


class MissingExtraError(CarError, ImportError):
    def __init__(self, module: str, extra: str) -> None:
        super().__init__(module, extra)
        self.module, self.extra = module, extra

    def __str__(self) -> str:
        return (f"{self.module} is not installed; it comes with the {self.extra!r} extra: "
                f"pip install 'car-graph[{self.extra}]'")
