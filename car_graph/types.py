"""Typed results. Field names match the RETURN columns of the Cypher that produces them."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any

import pytz  # type: ignore[import-untyped]  # the driver's own UTC (neo4j requires pytz)

# The Neo4j driver sends a datetime in datetime.timezone.utc so that the server compares it
# unequal to the same instant read back from it (pytz UTC): transaction times are compared in
# the driver's own UTC.
UTC = pytz.utc


def instant(value: date | datetime | str, *, day_end: bool) -> datetime:
    """A point of transaction time (UTC) from a date, a datetime or their ISO text. A date
    stands for its last microsecond (``day_end``: --known-at 2019-06-01 means "knowing
    everything recorded on that day") or for its first one (``purge --before 2019-06-01``
    erases what was closed before the day began); a datetime without a zone is UTC."""
    if isinstance(value, str):
        text = value.strip()
        try:
            # a date-only text, extended (2026-12-07) or basic (20261207), is a date: its end
            # (or start) -- never the midnight datetime.fromisoformat reads '20261207' as
            value = (date.fromisoformat(text) if _DATE_ONLY.fullmatch(text)
                     else datetime.fromisoformat(text))
        except ValueError as exc:
            raise ValueError(f"not a date (YYYY-MM-DD) or an ISO datetime: {value!r}") from exc
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    start = datetime.combine(value, time(0), tzinfo=UTC)
    return start + timedelta(days=1, microseconds=-1) if day_end else start


_DATE_ONLY = re.compile(r"\d{4}-?\d{2}-?\d{2}")


@dataclass(frozen=True)
class RunRef:
    """``--known-at run:42``: the graph as run 42 left it (its last commit)."""

    number: int

    def __str__(self) -> str:
        return f"run:{self.number}"


KnownAt = date | datetime | str | RunRef | None  # what --known-at and the client's known_at accept
_RUN_REF = re.compile(r"run:(\d+)", re.IGNORECASE)


def known_at_instant(value: KnownAt) -> datetime | None:
    """--known-at as the instant whose recorded state is read (None: the current state)."""
    parsed = parse_known_at(value)
    if isinstance(parsed, RunRef):
        raise ValueError(f"{parsed} names a run: resolve it against the graph (pin_known_at)")
    return parsed


def parse_known_at(value: KnownAt) -> datetime | RunRef | None:
    """The one parser of a known-at value on every surface (CLI, client, MCP, query -p): a
    date (YYYY-MM-DD or YYYYMMDD: the END of that day, UTC), an ISO datetime (no zone: UTC),
    or ``run:N`` (the state run N left). ValueError names what is accepted."""
    if value is None or isinstance(value, RunRef):
        return value
    if isinstance(value, str):
        match = _RUN_REF.fullmatch(value.strip())
        if match:
            return RunRef(int(match.group(1)))
        try:
            return instant(value, day_end=True)
        except ValueError as exc:
            raise ValueError(f"not a date (YYYY-MM-DD: the end of that day, UTC), an ISO "
                             f"datetime or run:N: {value!r}") from exc
    if isinstance(value, date | datetime):
        return instant(value, day_end=True)
    raise ValueError(f"not a date, an ISO datetime or run:N: {value!r}")


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"                    # a full superseder is effective
    PARTIALLY_SUPERSEDED = "partially_superseded"  # only partial superseders (in part, lot recall)
    WITHDRAWN = "withdrawn"                      # withdrawn, and nothing supersedes it
    UNRESOLVED = "unresolved"                    # same scope as a possible superseder, no rule decided


@dataclass(frozen=True)
class Hop:
    """One SUPERSEDES edge walked from the anchor towards the controlling document."""

    from_id: str        # the older document
    to_id: str          # the document that supersedes it
    rule: str
    effective: date | None
    evidence: str | None
    partial: bool = False

    def how(self) -> str:
        """``via RULE[ on DATE][ (in part)]``: how this edge supersedes, as the CLI prints it."""
        when = f" on {self.effective}" if self.effective else ""
        return f"via {self.rule}{when}{' (in part)' if self.partial else ''}"


@dataclass(frozen=True)
class Result:
    """One controlling document, with the anchor it was reached from and the chain between them."""

    doc_id: str
    title: str
    kind: str | None
    domain: str | None
    published: date | None
    status: Status
    score: float
    anchor_id: str
    chain: tuple[Hop, ...] = ()
    text: str = ""
    # partial edges in force into the chain's documents that the chain does not take (a memo
    # that amended a version in part, beside the versions that replaced it in full)
    amendments: tuple[Hop, ...] = ()

    @property
    def is_anchor(self) -> bool:
        return not self.chain


@dataclass(frozen=True)
class Retrieval:
    """A ranked answer plus what the query learned along the way."""

    question: str
    as_of: date | None
    results: tuple[Result, ...]
    anchors: tuple[str, ...]           # fused anchor ids, best first
    suppressed: int                    # superseded anchors replaced by their controlling documents
    ambiguous_scopes: tuple[str, ...]  # anchor scopes holding more than one chain (kappa > 1)
    question_entities: tuple[str, ...] = ()
    known_at: datetime | None = None   # read as car-graph recorded the graph then (None: now)
    # the fused score of each of ``anchors`` (same order); empty when unknown (hand-made
    # retrievals): the verdict then trusts the top anchor as before
    anchor_scores: tuple[float, ...] = ()
    # the linked entities of the question each of ``anchors`` holds (scoped to, identified or
    # named by; same order); empty when the question links none or the retrieval is hand-made
    anchor_held: tuple[tuple[str, ...], ...] = ()
    # how well each of ``anchors`` fits the question's words alone: its fused score without the
    # boosts of the linked entities it holds (dense + lexical, each in [0, 1]; same order). A
    # document that only carries a name the question uses, and fits nothing else it says, is not
    # singled out by that name. Empty when unknown.
    anchor_text_scores: tuple[float, ...] = ()
    # the question's entities linked as identifiers (or partial identifiers), a subset of
    # ``question_entities``: what singles a document out however little of its text matches
    question_identifiers: tuple[str, ...] = ()
    # the closures the same statement walked for the anchors a verdict may name (asked for with
    # ``readings``): what ``explain`` would say of each, best anchor first. Not in to_json.
    readings: tuple[Explanation, ...] = ()
    # the last ``beyond`` of ``anchors`` are not among the top ones: holders of a linked entity
    # returned wherever they rank (anchors.cypher's $holders) for a verdict that judges each
    # subject a question names among its holders. Not in to_json.
    beyond: int = 0
    # entities of ``question_entities`` read from one word the question writes several ways (a
    # typo one edit from several names: "Bextar", Bextra or Bexxar; digits several identifiers
    # end in: "1705", CVE-2022-1705 or GO-2023-1705), one tuple per word: the readings of one
    # mention, not several mentions. Not in to_json.
    question_readings: tuple[tuple[str, ...], ...] = ()
    # entities of ``question_entities`` the question names with words other than the key's own
    # (a typo's correction: "Zope" for zope2; the name's significant words alone), each with
    # those words in the name's order: how the question writes the name. Not in to_json.
    question_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # with known_at: what the reader must know about that instant (a later instant answered as
    # of the last commit, history purged before it); in to_json when set
    known_at_note: str | None = None
    # as of a date / known at an instant the anchor search went deeper to find enough anchors
    # visible then, and its bound stopped it first (RetrievalSettings.max_candidates); in
    # to_json when True
    anchor_search_cut: bool = False
    # the cue words the question was read with: English plus the graph's domains' own
    # (``DomainRegistry.lexicon``, a car_graph.lexicon.Lexicon: typed Any, as types sits below
    # lexicon in the layers); None: the bundled English alone. Not in to_json.
    cues: Any = None

    @property
    def ids(self) -> list[str]:
        return [r.doc_id for r in self.results]

    @property
    def spellings(self) -> dict[str, tuple[str, ...]]:
        """``question_spellings`` as a mapping: entity -> the words the question writes it with."""
        return dict(self.question_spellings)

    @functools.cached_property
    def walked(self) -> Mapping[str, Explanation]:
        """``readings`` by document id, built once per retrieval (several verdict rules ask)."""
        return MappingProxyType({e.doc_id: e for e in self.readings})

    def to_json(self) -> dict[str, Any]:
        """The shape of ``car-graph retrieve --json`` (without the verdict), a contract."""
        return {
            "question": self.question,
            "as_of": self.as_of,
            "anchors": list(self.anchors[:len(self.anchors) - self.beyond]),
            "suppressed": self.suppressed,
            "ambiguous_scopes": list(self.ambiguous_scopes),
            "question_entities": list(self.question_entities),
            "anchor_scores": [round(x, 6) for x in
                              self.anchor_scores[:len(self.anchor_scores) - self.beyond]],
            "results": [
                {**asdict(r), "status": str(r.status), "chain": [asdict(h) for h in r.chain]}
                for r in self.results
            ],
            # only when asked for: the shape without --known-at is unchanged
            **({"known_at": self.known_at.isoformat()} if self.known_at else {}),
            **({"known_at_note": self.known_at_note} if self.known_at_note else {}),
            **({"anchor_search_cut": True} if self.anchor_search_cut else {}),
        }


@dataclass(frozen=True)
class Explanation:
    """Where one document stands: its status and every chain to its controlling documents."""

    doc_id: str
    title: str
    status: Status
    as_of: date | None
    controlling: tuple[Result, ...]
    superseded_by: tuple[Hop, ...]
    supersedes: tuple[Hop, ...]
    scope: tuple[str, ...] = field(default_factory=tuple)
    known_at: datetime | None = None   # as car-graph recorded it then (None: now)
    # the document's own text, for the verdict's reading of a question that quotes it; not part
    # of explain's JSON (the shape stays as it was)
    text: str = field(default="", repr=False)
    # its kind, for the verdict (which kinds a question asks about); not part of explain's JSON
    kind: str | None = None
    # its scope entities that hold several supersession chains on as_of (the scopes
    # analyst/multi_chain_scopes reports): the verdict's caution. None: not read (an
    # explanation made by hand)
    ambiguous_scopes: tuple[str, ...] | None = None
    known_at_note: str | None = None   # as Retrieval.known_at_note; in to_json when set

    def to_json(self) -> dict[str, Any]:
        """The shape of ``car-graph explain --json``, a contract (``known_at`` only when asked
        for, so the shape without it is unchanged)."""
        data = asdict(self)
        data["status"] = str(self.status)
        del data["text"], data["kind"]
        if self.known_at is None:
            del data["known_at"]
        else:
            data["known_at"] = self.known_at.isoformat()
        if not self.known_at_note:
            del data["known_at_note"]
        return data


@dataclass(frozen=True)
class DocumentHistory:
    """Every recorded version of one document and every edge it was ever an end of, current
    and closed, with both clocks (queries/history.cypher; dates and instants as ISO text)."""

    doc_id: str
    current: bool                      # a document now (False: deleted, kept as history)
    retired_at: str | None             # when it was deleted
    versions: tuple[dict[str, Any], ...]  # oldest first; the current one last
    edges: tuple[dict[str, Any], ...]     # by recorded_from

    def to_json(self) -> dict[str, Any]:
        """The shape of ``car-graph history --json``, a contract."""
        return {"doc_id": self.doc_id, "current": self.current, "retired_at": self.retired_at,
                "versions": [dict(v) for v in self.versions], "edges": [dict(e) for e in self.edges]}
