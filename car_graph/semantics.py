"""The one reference semantics of car-graph: rules -> edges -> closure -> frontier -> status, as of
a date. Pure Python, no Neo4j. Gold builders, generators and tests use it; the Cypher
(queries/apply_rule.cypher, queries/closure.cypher, queries/explain.cypher) is property-tested
against it (tests/integration/test_semantics_property.py).

Definitions (``D`` is the as-of date; ``None`` means no cut-off):

* A document is **visible** at D when it has no ``published`` date or was published on or
  before D.
* An edge ``newer -> older`` ("newer supersedes older") is **in force** at D when its
  ``effective`` date is absent or on or before D, and ``newer`` is visible at D.
* A **rule** links ``newer -> older`` when: they are different documents; their kinds are the
  rule's newer and older kinds; both belong to the rule's domain (if it names one); they share a
  scope entity of one of the rule's scope types (``scope_mode`` 'any') or of every one of them
  ('all'); ``order: later`` requires newer strictly later (by ``published_at`` instants when
  both have one, else by published dates, both required; a date known only to the year or the
  month compares at that precision, where the same year or month counts as later); and the
  attribute condition holds (see :func:`attribute_match`). ``order: previous`` keeps, of the
  pairs ``later`` would link, only those to the newer document's latest earlier documents. One edge per (newer, older, rule):
  two rules linking one pair make two edges, each with its own evidence. The edge takes effect
  on the newer document's published date; ``partial_from`` (a boolean attribute of the newer
  document) overrides the rule's ``partial``.
* An **explicit** edge comes from a record's ``supersedes`` list (rule ``explicit``), effective on
  its own date or else the newer document's; a reference to itself is ignored (and reported).
* **Closure** ``cl(A)`` at D: the visible anchors plus every document reachable from them along
  edges in force (full or partial), from older to newer. Unbounded: chains of any length.
* A document is **voided** at D when some document supersedes it -- transitively, along full
  edges in force at D -- without being superseded by it in turn: the frontier is the set of
  maximal elements of the supersession preorder. On acyclic data that is simply "a full edge in
  force supersedes it". The members of a cycle supersede each other, so a cycle nothing leaves
  stays on the frontier, reported ``unresolved`` (a data error to surface, not to break
  silently); a cycle with an exit is voided by what lies beyond the exit.
* **Frontier** ``front(cl(A))``: the closure's documents that are not voided.
* **Status** of a document at D: ``superseded`` if voided; else ``withdrawn`` if withdrawn on or
  before D; else ``unresolved`` if a full edge in force supersedes it (it is on a cycle); else
  ``partially_superseded`` if a partial edge in force supersedes it; else ``unresolved`` if a
  later document of a superseding kind shares its scope (by some rule's kinds, domain and scope,
  regardless of the attribute condition), is visible at D, and no edge in force decided; else
  ``active``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from car_graph.keys import normalize_key
from car_graph.records import DocumentRecord, stored_attributes
from car_graph.rules import Rule, canonicalize_versions
from car_graph.types import Status

EXPLICIT = "explicit"


@dataclass(frozen=True)
class Edge:
    """``newer`` supersedes ``older`` from ``effective`` on (None: always), by ``rule``."""

    newer: str
    older: str
    effective: date | None = None
    partial: bool = False
    rule: str = EXPLICIT

    def in_force(self, as_of: date | None) -> bool:
        """The edge's own date only; :meth:`AuthorityGraph.in_force` adds the newer document's
        visibility."""
        return as_of is None or self.effective is None or self.effective <= as_of


@dataclass(frozen=True)
class DocFacts:
    """What the semantics needs of a document besides its edges."""

    published: date | None = None
    withdrawn: date | None = None
    unresolved_from: date | None = None  # see :func:`unresolved_from`

    def visible(self, as_of: date | None) -> bool:
        return as_of is None or self.published is None or self.published <= as_of


EdgeLike = Edge | tuple[Any, ...]


class AuthorityGraph:
    """The supersession relation of a corpus, queried as of a date.

    ``docs`` gives published/withdrawn/unresolved facts; documents without facts are always
    visible and never withdrawn (enough for hand-made graphs of edges alone).
    """

    def __init__(
        self, edges: Iterable[EdgeLike] = (), docs: Mapping[str, DocFacts] | None = None
    ) -> None:
        self.docs: dict[str, DocFacts] = dict(docs or {})
        self._edges: list[Edge] = []
        self._into: dict[str, list[Edge]] = {}   # older -> edges superseding it
        self._out_of: dict[str, list[Edge]] = {}  # newer -> edges it makes
        for raw in edges:
            edge = raw if isinstance(raw, Edge) else Edge(*raw)
            if edge.newer == edge.older:
                raise ValueError(f"a document cannot supersede itself: {edge.newer!r}")
            self._edges.append(edge)
            self._into.setdefault(edge.older, []).append(edge)
            self._out_of.setdefault(edge.newer, []).append(edge)

    @property
    def edges(self) -> tuple[Edge, ...]:
        return tuple(self._edges)

    def facts(self, doc: str) -> DocFacts:
        return self.docs.get(doc) or DocFacts()

    def visible(self, doc: str, as_of: date | None) -> bool:
        return self.facts(doc).visible(as_of)

    def in_force(self, edge: Edge, as_of: date | None) -> bool:
        return edge.in_force(as_of) and self.visible(edge.newer, as_of)

    def superseders(self, doc: str, as_of: date | None = None) -> tuple[Edge, ...]:
        """The direct edges (full and partial) in force at ``as_of`` that supersede ``doc``."""
        return tuple(e for e in self._into.get(doc, ()) if self.in_force(e, as_of))

    def descendants(self, doc: str, as_of: date | None = None, full_only: bool = False) -> set[str]:
        """Every document that supersedes ``doc`` directly or transitively (``doc`` only via a
        cycle), along edges in force."""
        seen: set[str] = set()
        queue = deque([doc])
        while queue:
            for edge in self.superseders(queue.popleft(), as_of):
                if full_only and edge.partial:
                    continue
                if edge.newer not in seen:
                    seen.add(edge.newer)
                    queue.append(edge.newer)
        return seen

    def reaches(self, d: str, d2: str, as_of: date | None = None, full_only: bool = False) -> bool:
        """``d ⇝ d2``: ``d2`` supersedes ``d`` directly or through a chain."""
        return d2 in self.descendants(d, as_of, full_only)

    def is_superseded(self, doc: str, as_of: date | None = None) -> bool:
        """Voided: some document supersedes ``doc`` (transitively, along full edges in force)
        without being superseded by it in turn. On a DAG: a full superseder in force exists."""
        ahead = self.descendants(doc, as_of, full_only=True)
        return any(doc not in self.descendants(x, as_of, full_only=True) for x in ahead)

    def in_cycle(self, doc: str, as_of: date | None = None) -> bool:
        """Not voided, yet superseded by a full edge in force: every superseder is on a cycle
        with ``doc`` (mutual supersession, a data error to surface)."""
        return not self.is_superseded(doc, as_of) and any(
            not e.partial for e in self.superseders(doc, as_of)
        )

    def distance(self, start: str, end: str, as_of: date | None = None,
                 full_only: bool = False) -> int | None:
        """Hops of a shortest chain from ``start`` up to ``end`` along edges in force (full
        ones only with ``full_only``); None when none leads there."""
        seen, queue = {start: 0}, deque([start])
        while queue:
            doc = queue.popleft()
            for edge in self.superseders(doc, as_of):
                if (not full_only or not edge.partial) and edge.newer not in seen:
                    seen[edge.newer] = seen[doc] + 1
                    queue.append(edge.newer)
        return seen.get(end)

    def chain_length(self, start: str, end: str, as_of: date | None = None) -> int | None:
        """Hops of the chain shown from ``start`` to ``end``, one of its controlling documents
        (explain, retrieve's results, the analyst query chain): a shortest chain along full
        edges in force when one leads there -- the supersession that voids ``start``, which its
        verdict names -- else a shortest chain along edges in force, full or partial. A partial
        amendment that shortcuts the versions between does not replace them; it is shown beside
        the chain."""
        full = self.distance(start, end, as_of, full_only=True)
        return full if full is not None else self.distance(start, end, as_of)

    def closure(self, anchors: Iterable[str], as_of: date | None = None) -> set[str]:
        """``cl(A)``: the visible anchors plus everything that supersedes them, transitively."""
        result = {a for a in anchors if self.visible(a, as_of)}
        for anchor in list(result):
            result |= self.descendants(anchor, as_of)
        return result

    def frontier(self, docs: Iterable[str], as_of: date | None = None) -> set[str]:
        """The members of ``docs`` that are not voided (``docs`` is normally a closure)."""
        return {d for d in docs if not self.is_superseded(d, as_of)}

    def controlling(self, anchors: Iterable[str], as_of: date | None = None) -> set[str]:
        """``front(cl(A))``, the CAR target of a query with anchors ``A``."""
        return self.frontier(self.closure(anchors, as_of), as_of)

    def status(self, doc: str, as_of: date | None = None) -> Status:
        if self.is_superseded(doc, as_of):
            return Status.SUPERSEDED
        facts = self.facts(doc)
        if facts.withdrawn is not None and (as_of is None or facts.withdrawn <= as_of):
            return Status.WITHDRAWN
        if self.in_cycle(doc, as_of):
            return Status.UNRESOLVED
        edges = self.superseders(doc, as_of)
        if any(e.partial for e in edges):
            return Status.PARTIALLY_SUPERSEDED
        if (
            facts.unresolved_from is not None
            and (as_of is None or facts.unresolved_from <= as_of)
            and not edges
        ):
            return Status.UNRESOLVED
        return Status.ACTIVE


# --------------------------------------------------------------------------- rules -> edges


def as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _kind(value: Any) -> str:
    """Cypher's comparison classes: booleans never equal numbers, numbers compare across int
    and float, strings only with strings."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def cypher_equal(a: Any, b: Any) -> bool:
    if a is None or b is None or _kind(a) != _kind(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(cypher_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def attribute_match(op: str | None, newer_value: Any, older_value: Any) -> bool:
    """A rule's attribute condition on the stored (canonicalised) values:

    * ``in``: the newer value is a scalar equal to the older value or to an element of it;
    * ``intersects``: the two values, each taken as a list, share an element;
    * ``equals``: the values are equal (lists element by element, in order).
    Missing values never match; a boolean never equals a number.
    """
    if op is None:
        return True
    if newer_value is None or older_value is None:
        return False
    if op == "in":
        if isinstance(newer_value, list):
            return False
        return any(cypher_equal(newer_value, o) for o in as_list(older_value))
    if op == "intersects":
        return any(cypher_equal(n, o) for n in as_list(newer_value) for o in as_list(older_value))
    if op == "equals":
        return cypher_equal(newer_value, older_value)
    raise ValueError(f"unknown match op {op!r}")


@dataclass(frozen=True)
class _Doc:
    id: str
    kind: str | None
    domain: str | None
    published: date | None
    published_at: Any
    scope: dict[str, frozenset[str]]
    props: dict[str, Any] = field(default_factory=dict)
    precision: str = "day"


def _prepared(records: Sequence[DocumentRecord], rules: Sequence[Rule]) -> dict[str, _Doc]:
    """Documents as the graph stores them: normalised scope keys, attributes canonicalised and
    reduced to what Neo4j can hold (the functions the pipeline writes with, so both see the same values)."""
    out: dict[str, _Doc] = {}
    for r in records:
        out[r.id] = _Doc(
            r.id, r.kind, r.domain, r.published, getattr(r, "published_at", None),
            {t: frozenset(normalize_key(k) for k in keys) for t, keys in r.scope.items()},
            stored_attributes(canonicalize_versions(r, rules)),
            getattr(r, "date_precision", "day"),
        )
    return out


def scope_mode(rule: Rule) -> str:
    return getattr(rule, "scope_mode", "any")


def _shares_scope(rule: Rule, a: _Doc, b: _Doc) -> bool:
    shared = [bool(a.scope.get(t, frozenset()) & b.scope.get(t, frozenset())) for t in rule.scope_types]
    return all(shared) if scope_mode(rule) == "all" else any(shared)


def _candidates(rule: Rule, docs: Mapping[str, _Doc]) -> Iterable[tuple[_Doc, _Doc]]:
    """(newer, older) pairs of the rule's kinds and domain that share some scope key of the
    rule's types (the full scope condition is checked by the caller)."""
    index: dict[tuple[str, str], list[_Doc]] = {}
    for doc in docs.values():
        if doc.kind in rule.older_kinds and (rule.domain is None or doc.domain == rule.domain):
            for t in rule.scope_types:
                for key in doc.scope.get(t, ()):
                    index.setdefault((t, key), []).append(doc)
    for newer in docs.values():
        if newer.kind not in rule.newer_kinds or (rule.domain and newer.domain != rule.domain):
            continue
        seen: set[str] = set()
        for t in rule.scope_types:
            for key in newer.scope.get(t, ()):
                for older in index.get((t, key), ()):
                    if older.id != newer.id and older.id not in seen:
                        seen.add(older.id)
                        yield newer, older


def coarser_precision(newer: _Doc, older: _Doc) -> str:
    """The coarser of two documents' date precisions ("year" over "month" over "day")."""
    return max(newer.precision, older.precision, key=("day", "month", "year").index)


def _later(newer: _Doc, older: _Doc) -> bool:
    """Instants when both documents carry one (same-day events are ordered), else dates; two
    dates of which one is known only to the year (or month) compare at that precision, where
    the same year is not earlier: a document of 1982 may supersede another of 1982."""
    if newer.published is None or older.published is None:
        return False
    precision = coarser_precision(newer, older)
    if precision == "year":
        return newer.published.year >= older.published.year
    if precision == "month":
        return (newer.published.year, newer.published.month) >= (older.published.year, older.published.month)
    if newer.published_at is not None and older.published_at is not None:
        return bool(newer.published_at > older.published_at)
    return newer.published > older.published


def rule_edges(rules: Sequence[Rule], records: Sequence[DocumentRecord]) -> list[Edge]:
    """Every edge the rules make over ``records``, one per (newer, older, rule), sorted."""
    docs = _prepared(records, rules)
    found: dict[tuple[str, str, str], Edge] = {}
    for rule in rules:
        pairs = []
        for newer, older in _candidates(rule, docs):
            if not _shares_scope(rule, newer, older):
                continue
            if rule.order in ("later", "previous") and not _later(newer, older):
                continue
            if rule.match is not None and not attribute_match(
                rule.match.op, newer.props.get(rule.match.newer), older.props.get(rule.match.older)
            ):
                continue
            pairs.append((newer, older))
        if rule.order == "previous":  # only the latest earlier documents (ties: all of them)
            latest: dict[str, date] = {}
            for newer, older in pairs:
                assert older.published is not None
                if newer.id not in latest or older.published > latest[newer.id]:
                    latest[newer.id] = older.published
            pairs = [(n, o) for n, o in pairs if o.published == latest[n.id]]
        for newer, older in pairs:
            partial = rule.partial
            flag = newer.props.get(rule.partial_from) if rule.partial_from else None
            if isinstance(flag, bool):
                partial = flag
            found[(newer.id, older.id, rule.name)] = Edge(
                newer.id, older.id, newer.published, partial, rule.name
            )
    return [found[key] for key in sorted(found)]


def explicit_edges(records: Sequence[DocumentRecord]) -> list[Edge]:
    """The input's own ``supersedes`` references to documents present, first reference to a
    target wins; references to itself or to absent documents make no edge."""
    present = {r.id for r in records}
    found: dict[tuple[str, str], Edge] = {}
    for r in records:
        for ref in r.supersedes:
            if ref.id == r.id or ref.id not in present or (r.id, ref.id) in found:
                continue
            found[(r.id, ref.id)] = Edge(r.id, ref.id, ref.effective or r.published, ref.partial, EXPLICIT)
    return [found[key] for key in sorted(found)]


def unresolved_from(rules: Sequence[Rule], records: Sequence[DocumentRecord]) -> dict[str, date]:
    """For each document some rule could supersede: the earliest publication date of a later
    document of the rule's newer kind sharing its scope (attribute conditions ignored). From
    that date on, the document is ``unresolved`` unless an edge in force decides it."""
    docs = _prepared(records, rules)
    out: dict[str, date] = {}
    for rule in rules:
        for newer, older in _candidates(rule, docs):
            if _shares_scope(rule, newer, older) and _later(newer, older):
                assert newer.published is not None
                if older.id not in out or newer.published < out[older.id]:
                    out[older.id] = newer.published
    return out


def authority_graph(
    records: Sequence[DocumentRecord], rules: Sequence[Rule] = ()
) -> AuthorityGraph:
    """The reference graph car-graph builds from these records and rules."""
    facts_from = unresolved_from(rules, records)
    docs = {}
    for r in records:
        withdrawn = r.attributes.get("withdrawn")
        docs[r.id] = DocFacts(
            published=r.published,
            withdrawn=date.fromisoformat(withdrawn[:10]) if isinstance(withdrawn, str) else None,
            unresolved_from=facts_from.get(r.id),
        )
    return AuthorityGraph([*rule_edges(rules, records), *explicit_edges(records)], docs)


# --------------------------------------------------------------------------- two clocks


@dataclass
class History:
    """Transaction time beside valid time: the graph as car-graph recorded it, run by run.

    Each run (an ingest, an update, a delete, a rules change) leaves a new state of the whole
    graph, recorded at the run's instant. ``known_at(T)`` is the state after the last run
    recorded at or before T -- the graph car-graph would have answered from at T (nothing
    before the first run); everything valid-time (as-of, in force, closure, status) is then
    :class:`AuthorityGraph`'s, on that state. ``known_at(None)`` is the current state. The
    Cypher reads (the fragments with a ``known_at`` slot: @recorded, @known_version) are
    property-tested against this.
    """

    states: list[tuple[Any, AuthorityGraph]] = field(default_factory=list)

    def record(self, at: Any, graph: AuthorityGraph) -> None:
        """Append the state a run left, recorded at ``at`` (strictly after the previous run)."""
        if self.states and not at > self.states[-1][0]:
            raise ValueError(f"runs must be recorded in strictly increasing time: {at!r}")
        self.states.append((at, graph))

    def known_at(self, at: Any = None) -> AuthorityGraph:
        if at is None:
            return self.states[-1][1] if self.states else AuthorityGraph()
        known = AuthorityGraph()
        for recorded, graph in self.states:
            if recorded > at:
                break
            known = graph
        return known

    def recorded_ids(self, at: Any = None) -> set[str]:
        """The documents recorded (present) at ``at``: ``AuthorityGraph.docs`` keys."""
        return set(self.known_at(at).docs)
