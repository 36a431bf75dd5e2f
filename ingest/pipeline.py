"""The ingestion pipeline: records -> spaCy entities -> embeddings -> batched writes -> rules.

Every write is an idempotent MERGE, one transaction per batch, so re-running the same input
changes nothing. Supersession rules run in Cypher after all batches are written (a rule may link
documents from different batches or earlier runs); then explicit references are resolved,
cycles are detected and marked, and documents no rule could decide are flagged unresolved.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tqdm import tqdm

from car_graph.domains import DomainRegistry
from car_graph.embedding import Embedder, provenance_of
from car_graph.errors import InputProblem
from car_graph.extraction import EntityExtractor, EntityMention, ScopedText
from car_graph.ingest.rulesets import (
    RulesDiff,
    RuleWarning,
    bundled_rulesets,
    check_unique_names,
    diagnose,
    diff_rules,
    merged,
    rules_fingerprint,
    rules_in_force,
    stored_rulesets,
    vocabulary_of_graph,
)
from car_graph.ingest.rulesets import Vocabulary as Vocabulary
from car_graph.keys import normalize_key
from car_graph.records import DocumentRecord, SupersedesRef, parse_date, stored_attributes
from car_graph.rules import Rule, canonicalize_versions, rule_to_mapping, ruleset_name
from car_graph.store import GraphStore, RecordedRun

logger = logging.getLogger(__name__)

@dataclass
class RulesChange:
    """A rule set's new version as one run applied it: the diff, and the edges the change
    opened and closed (rule -> count; closed: rule -> reason -> count)."""

    diff: RulesDiff
    source: str
    version: int | None = None
    opened: dict[str, int] = field(default_factory=dict)
    closed: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def closed_count(self) -> int:
        return sum(sum(reasons.values()) for reasons in self.closed.values())

    def to_json(self) -> dict[str, Any]:
        return {**self.diff.to_json(), "source": self.source, "version": self.version,
                "opened": self.opened, "closed": self.closed}


@dataclass
class IngestSummary:
    documents: int = 0  # valid records now in the graph (written, or unchanged and skipped)
    updated: int = 0  # of them, replaced: a changed record written over its earlier version
    unchanged: int = 0
    added: int = 0  # of them, new ids
    scope_links: int = 0
    identifier_links: int = 0
    name_links: int = 0
    mentions: int = 0
    edges_by_rule: dict[str, int] = field(default_factory=dict)
    skipped: list[InputProblem] = field(default_factory=list)
    cycles: list[list[str]] = field(default_factory=list)
    missing_references: list[str] = field(default_factory=list)
    self_references: list[str] = field(default_factory=list)
    unresolved: int = 0
    graph: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    # what this run changed: edges opened by rule, and closed by rule and reason
    edges_opened: dict[str, int] = field(default_factory=dict)
    edges_closed: dict[str, dict[str, int]] = field(default_factory=dict)
    rules_changes: list[RulesChange] = field(default_factory=list)
    warnings: list[RuleWarning] = field(default_factory=list)
    run: int | None = None  # the recorded run (None: nothing changed)
    dry_run: bool = False
    flips: list[dict[str, Any]] = field(default_factory=list)  # dry run: statuses that change

    def to_json(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "updated": self.updated,
            "replaced": self.updated,
            "added": self.added,
            "unchanged": self.unchanged,
            "scope_links": self.scope_links,
            "identifier_links": self.identifier_links,
            "name_links": self.name_links,
            "mentions": self.mentions,
            "edges_by_rule": self.edges_by_rule,
            "skipped": [
                {"source": p.source, "line": p.line, "reason": p.reason} for p in self.skipped
            ],
            "cycles": self.cycles,
            "missing_references": self.missing_references,
            "self_references": self.self_references,
            "unresolved": self.unresolved,
            "graph": self.graph,
            "seconds": round(self.seconds, 2),
            "edges_opened": self.edges_opened,
            "edges_closed": self.edges_closed,
            "rules_changes": [c.to_json() for c in self.rules_changes],
            "warnings": [w.to_json() for w in self.warnings],
            "run": self.run,
            "dry_run": self.dry_run,
            "flips": self.flips,
        }


def edge_changes(store: GraphStore, run: RecordedRun) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """The edges ``run`` opened (rule -> count) and closed (rule -> reason -> count) so far."""
    opened: dict[str, int] = {}
    closed: dict[str, dict[str, int]] = {}
    for row in store.read("run_edge_changes", **run.params()):
        if row["change"] == "opened":
            opened[row["rule"]] = int(row["edges"])
        else:
            closed.setdefault(row["rule"], {})[row["reason"] or "closed"] = int(row["edges"])
    return opened, closed


class LazyRun:
    """The recorded run of an ingest, begun when it first writes: an ingest that changes
    nothing (every record unchanged) records no run and leaves the graph as it was.

    ``run`` is the commit open now (begun on first use): each batch writes under a commit of
    its own, closed by ``commit()`` once the batch and its supersession are written, so what a
    batch wrote is visible to --known-at from when it committed, not from when the run began."""

    def __init__(self, store: GraphStore, command: str, embedder: str | None = None) -> None:
        self.store = store
        self.command = command
        self.embedder = embedder
        self._run: RecordedRun | None = None
        self._open: RecordedRun | None = None

    @property
    def run(self) -> RecordedRun:
        if self._open is None:
            if self._run is None:
                self._run = self._open = self.store.begin_run(self.command, self.embedder)
            else:
                self._open = self.store.begin_commit(self._run.number)
        return self._open

    def commit(self) -> None:
        """Close the open commit (if any): what it wrote is visible to --known-at from now."""
        if self._open is not None:
            self.store.end_commit(self._open)
            self._open = None

    @property
    def begun(self) -> RecordedRun | None:
        return self._run


def applicable(rules: Sequence[Rule], record: DocumentRecord) -> list[Rule]:
    """The rules that may link ``record``: those of its domain and those naming none."""
    return [r for r in rules if r.domain is None or r.domain == record.domain]


def record_hash(record: DocumentRecord, rules: Sequence[Rule], domains: str = "") -> str:
    """Fingerprint of everything a record contributes, so an unchanged record is skipped:
    the record, the rules in force that apply to it and (``domains``: the fingerprint of the
    domains that apply to the record, ``registry.for_document(record.domain).fingerprint()``)
    what they derive from it -- a newly declared identifier or name attribute re-derives links."""
    payload = json.dumps([record.to_json(), sorted(r.name for r in applicable(rules, record)), domains],
                         sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def text_hash(record: DocumentRecord) -> str:
    return hashlib.sha256(embedding_text(record).encode("utf-8")).hexdigest()


def document_row(
    record: DocumentRecord, embedding: list[float] | None, rules: Sequence[Rule], domains: str = ""
) -> dict[str, Any]:
    """The upsert row: every stored property (replacing the old ones) and the embedding (None
    keeps the stored one: the text did not change)."""
    attributes = canonicalize_versions(record, applicable(rules, record))
    withdrawn = attributes.get("withdrawn")
    refs: list[SupersedesRef] = []
    for ref in record.supersedes:  # first reference to a target wins
        if all(ref.id != r.id for r in refs):
            refs.append(ref)
    props: dict[str, Any] = {
        "title": record.title,
        "text": record.text,
        "kind": record.kind,
        "domain": record.domain,
        "published": record.published,
        "published_at": getattr(record, "published_at", None),
        # a year or a month (absent: the day is known); ``order: later`` compares at it
        "published_precision": None if record.date_precision == "day" else record.date_precision,
        "withdrawn": parse_date(withdrawn, "attributes.withdrawn") if isinstance(withdrawn, str) else None,
        "attributes": json.dumps(attributes, sort_keys=True, default=str),
        "supersedes_ids": [r.id for r in refs],
        "supersedes_effective": [r.effective.isoformat() if r.effective else "" for r in refs],
        "supersedes_evidence": [r.evidence or "" for r in refs],
        "supersedes_partial": [r.partial for r in refs],
        "content_hash": record_hash(record, rules, domains),
        "pending": True,  # until this batch's supersession is resolved (crash-safe resume)
        "text_hash": text_hash(record),
    }
    props.update({f"attr_{name}": value for name, value in stored_attributes(attributes).items()})
    return {"id": record.id, "props": {k: v for k, v in props.items() if v is not None},
            "embedding": embedding}


def scope_rows(record: DocumentRecord, registry: DomainRegistry) -> list[dict[str, str]]:
    """IN_SCOPE links; an entity's name is its key as people write it (the domain's display).
    ``registry`` here and below: the domains that apply to the record (``for_document``)."""
    return [
        {"doc_id": record.id, "type": etype, "key": normalize_key(key),
         "name": registry.display_name(etype, key)}
        for etype, keys in record.scope.items()
        for key in keys
    ]


def identifier_rows(record: DocumentRecord, registry: DomainRegistry) -> list[dict[str, str]]:
    """IDENTIFIED_BY links: attribute values that identify the document (declared identifier
    attributes, and any value that is wholly one declared identifier), so a question naming an
    id that sits only in a structured field still finds its document."""
    return [
        {"doc_id": record.id, "type": etype, "key": key, "name": surface}
        for etype, key, surface in registry.identifiers_of_attributes(record.attributes)
    ]


def name_rows(record: DocumentRecord, registry: DomainRegistry) -> list[dict[str, str]]:
    """NAMED links: values of declared name attributes (a brand beside the generic name) --
    linked from questions like scope names, typo-tolerant, but never scope for rules."""
    return [
        {"doc_id": record.id, "type": etype, "key": key, "name": surface}
        for etype, key, surface in registry.names_of_attributes(record.attributes)
    ]


def embedding_text(record: DocumentRecord) -> str:
    return f"{record.title}\n{record.text}" if record.title else record.text


def _batches(items: Iterable[DocumentRecord], size: int) -> Iterator[list[DocumentRecord]]:
    batch: list[DocumentRecord] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def rule_fingerprint(rule: Rule) -> str:
    return hashlib.sha256(json.dumps(rule.parameters(), sort_keys=True, default=str).encode()).hexdigest()


def add_mentioned_names(extractor: EntityExtractor, records: Iterable[DocumentRecord]) -> None:
    """Teach the extractor the scope names its domains find in text (one pass, no embedding):
    of each record, the names of the types that the domains applying to it find in text."""
    registry = extractor.registry
    names: dict[str, set[str]] = {}
    for record in records:
        domains = registry.for_document(record.domain)
        mention_types = domains.mention_name_types
        for etype, keys in record.scope.items():
            if etype in mention_types:
                names.setdefault(etype, set()).update(domains.display_name(etype, k) for k in keys)
    for etype, values in names.items():
        extractor.add_names(etype, sorted(values))


def ingest_records(
    records: Iterable[DocumentRecord],
    store: GraphStore,
    embedder: Embedder,
    extractor: EntityExtractor,
    rules: Sequence[Rule] | None = None,
    *,
    ruleset: str | None = None,
    rules_source: str = "api",
    rules_origin: str | None = None,
    refresh: bool = False,
    batch_size: int = 256,
    progress: bool = True,
    problems: Sequence[InputProblem] = (),
    on_batch: Callable[[int], None] | None = None,
    overlap: bool = True,
) -> IngestSummary:
    """Load records into the graph and keep supersession up to date. Returns what was done.

    Streaming: records flow batch by batch (``batch_size`` records: one embedding call, one
    ``nlp.pipe``, one write transaction, then the batch's supersession), so memory does not grow
    with the corpus. With ``overlap`` (the default) the next batch is embedded and run through
    spaCy on a second thread while this one is written: at most two batches in memory, writes
    in input order as without it. A record whose content is unchanged since it was last written
    is skipped (``refresh``: written again all the same, its rules re-evaluated); a changed one
    replaces its old version (properties, links, rule edges) and keeps its embedding when its
    text is the same. Rules, explicit references, cycle marks and unresolved dates are computed
    only for the documents a batch wrote and the scopes they joined or left.

    Rules: the graph keeps the rule sets it was built with (:mod:`car_graph.ingest.rulesets`)
    and applies all of them to every record it writes. ``rules`` given is a new version of the
    rule set ``ruleset`` (default: :func:`~car_graph.rules.ruleset_name`), applied to the whole
    graph first -- rules removed from it close their edges (reason ``rule removed``), changed
    ones re-derive theirs (``rule changed``) -- and kept; ``rules_source`` / ``rules_origin``
    say where it came from. Records of a built-in domain whose rule set the graph does not hold
    yet bring its bundled rules, applied to the whole graph once at the end.

    Each record is read with the declarations of the domains that apply to it
    (``DomainRegistry.for_document``). ``problems`` are input records rejected upstream
    (reported in the summary). Names that documents mention (scope types a domain finds in
    text) are collected first when ``records`` is a sequence; a one-shot iterator adds each
    batch's names as it arrives.
    """
    started = time.perf_counter()
    # a list is kept by reference: a streaming reader fills it as records are read
    summary = IngestSummary(skipped=problems if isinstance(problems, list) else list(problems))
    registry = extractor.registry
    if isinstance(records, Sequence):
        add_mentioned_names(extractor, records)
    # the transaction time of everything this ingest writes, and what embedded its vectors: the
    # same export gives slightly different int8 vectors on another CPU (docs/embedding.md)
    run = LazyRun(store, "ingest", json.dumps(provenance_of(embedder), sort_keys=True))

    rulesets = stored_rulesets(store)
    changes: list[tuple[str, list[Rule], str, str | None]] = []
    if rules is not None:
        changes.append((ruleset or ruleset_name(rules), list(rules), rules_source, rules_origin))
    # a stored bundled rule set follows its domain's bundled file (a newer car-graph)
    for name, stored in sorted(rulesets.items()):
        if stored.source == "bundled" and all(name != c[0] for c in changes):
            bundled = bundled_rulesets(registry, [name]).get(name)
            if bundled is not None and rules_fingerprint(bundled) != stored.fingerprint:
                changes.append((name, bundled, "bundled", None))
    # A rules change: the removed rules' edges close now (nothing may derive from them); the
    # new set is in force for every batch, and applied to the whole graph at the end (below),
    # where the change is recorded -- so an ingest killed half-way applies it again when re-run.
    pending: list[tuple[str, list[Rule], RulesDiff, str, str | None]] = []
    in_force = {name: list(stored.rules) for name, stored in rulesets.items()}
    for name, new_rules, source, origin in changes:
        check_unique_names(name, new_rules, rulesets)
        diff = diff_rules(name, rulesets.get(name), new_rules)
        if diff.empty:
            continue
        if diff.removed:
            store.write("close_rule_edges", rules=list(diff.removed), reason="rule removed",
                        **run.run.params())
            store.write("delete_rules", rules=list(diff.removed))
        in_force[name] = new_rules
        pending.append((name, new_rules, diff, source, origin))

    stored_fingerprints = {r["name"]: r["fingerprint"] for r in store.read("read_rules")}
    active: dict[str, Rule] = {r.name: r for name in sorted(in_force) for r in in_force[name]}
    new_bundled: dict[str, list[Rule]] = {}
    domains_seen: set[str] = set()

    bar = tqdm(total=len(records) if isinstance(records, Sequence) else None, unit="doc",
               desc="ingest", disable=not progress)
    batches = _batches(records, batch_size)

    def prepare_next() -> PreparedBatch | None:
        """Read the next batch and do the work that writes nothing: which records changed, their
        embeddings and entity mentions. Runs on the prefetch thread while the previous batch is
        written, so it alone uses the embedder and extractor, and it alone updates the rules."""
        batch = next(batches, None)
        if batch is None:
            return None
        fresh_domains = sorted({r.domain for r in batch if r.domain} - domains_seen - set(rulesets))
        domains_seen.update(fresh_domains)
        for domain, bundled in bundled_rulesets(registry, fresh_domains).items():
            new_bundled[domain] = bundled
            for rule in bundled:
                active.setdefault(rule.name, rule)
        if not isinstance(records, Sequence):
            add_mentioned_names(extractor, batch)
        return prepare_batch(batch, store, embedder, extractor, list(active.values()), refresh=refresh)

    # One batch in flight: batch n+1 is read, embedded and run through spaCy while batch n is
    # written and its supersession resolved. Writes stay strictly in order, on this thread, one
    # transaction per batch, so a killed ingest leaves exactly what the sequential one left.
    # Transaction time: the prefetch thread only reads; the run is begun (LazyRun) and every
    # version closed here, on this thread, and close_document_versions reads the version it
    # closes inside the batch's own write transaction -- never from the prefetched state, which
    # only says which records changed (re-read below when the batch just written holds them).
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="car-graph-prefetch") as prefetch:
        upcoming: Future[PreparedBatch | None] | None = prefetch.submit(prepare_next) if overlap else None
        written: set[str] = set()
        while True:
            prepared = upcoming.result() if upcoming is not None else prepare_next()
            if prepared is None:
                break
            if overlap and written & {r.id for r in prepared.batch}:
                # an id of the batch just written came again: its state was read before that
                # write committed, so read it again (and embed what that changes)
                prepared = prepare_batch(prepared.batch, store, embedder, extractor, prepared.rules,
                                         refresh=refresh)
            upcoming = prefetch.submit(prepare_next) if overlap else None
            write_prepared(prepared, store, registry, summary, run)
            written = {r.id for r in prepared.batch}
            bar.update(len(prepared.batch))
            if on_batch:
                on_batch(summary.documents)
    bar.close()

    # Rules new to the graph (a built-in domain's bundled rules, first seen now) see every pair
    # once; their rule sets are kept from now on.
    # Rules new to the graph or changed since its last ingest (a rules change, a built-in
    # domain's bundled rules first seen now) see every pair once; rules removed leave unresolved
    # dates and cycle marks to re-derive with those that stay.
    renewed = [r for r in active.values() if stored_fingerprints.get(r.name) != rule_fingerprint(r)]
    if renewed or any(diff.removed for _, _, diff, _, _ in pending):
        resolve_supersession(store, renewed, summary, ids=None, all_rules=list(active.values()),
                             run=run.run)
        remember_rules(store, renewed)
    for name, new_rules, diff, source, origin in pending:
        opened, closed = edge_changes(store, run.run)
        touched = {*diff.added, *diff.changed, *diff.removed}
        change = RulesChange(diff, source, None,
                             {rule: n for rule, n in opened.items() if rule in touched},
                             {rule: reasons for rule, reasons in closed.items() if rule in touched})
        change.version = keep_ruleset(store, name, new_rules, diff, run.run, source=source,
                                      origin=origin, opened=change.opened, closed=change.closed)
        summary.rules_changes.append(change)
    for domain, bundled in sorted(new_bundled.items()):
        keep_ruleset(store, domain, bundled, diff_rules(domain, None, bundled), run.run,
                     source="bundled", origin=None, opened={}, closed={})
    if summary.missing_references:
        summary.missing_references = still_missing(store, summary.missing_references)
    finish(store, summary, run)
    summary.seconds = time.perf_counter() - started
    return summary


def finish(store: GraphStore, summary: IngestSummary, run: LazyRun) -> None:
    """The summary's graph totals and what the run changed (nothing when it never began)."""
    run.commit()
    if run.begun is not None:
        summary.run = run.begun.number
        store.write("record_run_counts", run=summary.run, added=summary.added,
                    updated=summary.updated, deleted=None)
        summary.edges_opened, summary.edges_closed = edge_changes(store, run.begun)
    summary.edges_by_rule = store.edges_by_rule()
    summary.graph = store.counts()
    summary.unresolved = summary.graph["unresolved"]


def remember_rules(store: GraphStore, rules: Sequence[Rule]) -> None:
    store.write("upsert_rules", rules=[
        {"name": r.name, "fingerprint": rule_fingerprint(r),
         "parameters": json.dumps(r.parameters(), sort_keys=True, default=str)}
        for r in rules])


def keep_ruleset(store: GraphStore, name: str, rules: Sequence[Rule], diff: RulesDiff,
                 run: RecordedRun, *, source: str, origin: str | None,
                 opened: Mapping[str, int], closed: Mapping[str, Mapping[str, int]]) -> int:
    row = store.write(
        "store_ruleset", name=name, source=source, origin=origin,
        rules=json.dumps([rule_to_mapping(r) for r in rules], sort_keys=True, default=str),
        fingerprint=rules_fingerprint(rules), added=list(diff.added), changed=list(diff.changed),
        removed=list(diff.removed), opened=json.dumps(opened, sort_keys=True),
        closed=json.dumps(closed, sort_keys=True), **run.params())
    return int(row[0]["version"])


def rules_for_records(store: GraphStore, registry: DomainRegistry, domains: Iterable[str | None],
                      rules: Sequence[Rule] | None = None, ruleset: str | None = None) -> list[Rule]:
    """The rules an ingest of records of ``domains`` would apply: the graph's rule sets, with
    ``rules`` (when given) as the new version of ``ruleset``, and the bundled rules of built-in
    domains the graph keeps no rule set for."""
    rulesets = {name: list(s.rules) for name, s in stored_rulesets(store).items()}
    if rules is not None:
        rulesets[ruleset or ruleset_name(rules)] = list(rules)
    for domain, bundled in bundled_rulesets(registry, domains).items():
        rulesets.setdefault(domain, bundled)
    return [rule for name in sorted(rulesets) for rule in rulesets[name]]


def rule_warnings(store: GraphStore, rules: Sequence[Rule], records: Vocabulary) -> list[RuleWarning]:
    """:func:`~car_graph.ingest.rulesets.diagnose` of ``rules`` against ``records`` (the
    vocabulary of those about to be ingested, rulesets.tally), and -- only when a name matches
    none of them -- against the graph's documents of the rules' domains too (one scan)."""
    if not rules:
        return []
    warnings = diagnose(rules, records)
    if any(w.about == "unmatched" for w in warnings):
        domains = None if any(r.domain is None for r in rules) else sorted({r.domain or "" for r in rules})
        warnings = diagnose(rules, merged(vocabulary_of_graph(store, domains), records))
    return warnings


def rehearse_statuses(store: GraphStore) -> dict[str, tuple[str | None, str]]:
    """Every document's status (no date cut-off): id -> (title, status)."""
    return {row["id"]: (row["title"], row["status"]) for row in store.read("document_statuses", ids=None)}


def flips(before: Mapping[str, tuple[str | None, str]],
          after: Mapping[str, tuple[str | None, str]]) -> list[dict[str, Any]]:
    """The documents present before and after whose status differs."""
    return [{"id": doc, "title": after[doc][0], "before": before[doc][1], "after": after[doc][1]}
            for doc in sorted(before.keys() & after.keys()) if before[doc][1] != after[doc][1]]


def still_missing(store: GraphStore, reported: Sequence[str]) -> list[str]:
    """Of the references batches reported missing ("newer -> target"), those still missing when
    the run ends, in the order first reported: a later batch may have written the target."""
    newer = sorted({entry.split(" -> ", 1)[0] for entry in reported})
    now = {row["missing"] for row in store.read("still_missing_references", ids=newer)}
    return [entry for entry in dict.fromkeys(reported) if entry in now]


@dataclass
class PreparedBatch:
    """A batch with everything computed before it is written: the graph's state of its ids,
    the records that changed (new, different, or left pending by a killed ingest), the vectors
    of those whose text changed and the entity mentions of every changed record."""

    batch: list[DocumentRecord]
    rules: list[Rule]
    state: dict[str, dict[str, Any]]
    changed: list[DocumentRecord]
    vectors: dict[str, list[float]]
    mentions: list[list[EntityMention]]


def prepare_batch(
    batch: list[DocumentRecord], store: GraphStore, embedder: Embedder, extractor: EntityExtractor,
    rules: list[Rule], *, refresh: bool = False,
) -> PreparedBatch:
    registry = extractor.registry
    state: dict[str, Any] = {row["id"]: dict(row) for row in store.read("document_state", ids=[r.id for r in batch])}
    # changed, new, or written by an ingest that was killed before resolving it; each record
    # under the domains that apply to it (for_document: its own domain's declarations)
    changed = [r for r in batch
               if refresh
               or state.get(r.id, {}).get("content_hash")
               != record_hash(r, rules, registry.for_document(r.domain).fingerprint())
               or state[r.id]["pending"]]
    if not changed:
        return PreparedBatch(batch, rules, state, [], {}, [])
    fresh = [r for r in changed if state.get(r.id, {}).get("text_hash") != text_hash(r)]
    vectors = dict(zip([r.id for r in fresh], embedder.embed_documents([embedding_text(r) for r in fresh]), strict=True))
    found = extractor.extract_many(
        [ScopedText(embedding_text(r), registry.for_document(r.domain)) for r in changed])
    return PreparedBatch(batch, rules, state, changed, vectors, found)


def write_prepared(prepared: PreparedBatch, store: GraphStore, registry: DomainRegistry,
                   summary: IngestSummary, run: LazyRun) -> None:
    """Write a prepared batch in one transaction, then resolve its supersession; the batch's
    documents stay pending until that is committed too. ``run``: the ingest's recorded run,
    begun by the first batch that changes something."""
    batch, rules, state, changed = prepared.batch, prepared.rules, prepared.state, prepared.changed
    summary.documents += len(batch)  # every valid record is in the graph after its batch
    summary.unchanged += len(batch) - len(changed)
    if not changed:
        return
    vectors = prepared.vectors
    documents, scope, identifiers, names, mentions = [], [], [], [], []
    for record, entities in zip(changed, prepared.mentions, strict=True):
        domains = registry.for_document(record.domain)
        documents.append(document_row(record, vectors.get(record.id), rules, domains.fingerprint()))
        own = scope_rows(record, domains)
        scope.extend(own)
        identifiers.extend(identifier_rows(record, domains))
        names.extend(name_rows(record, domains))
        scoped = {(row["type"], row["key"]) for row in own}
        for mention in entities:
            if (mention.type, mention.key) not in scoped:
                scoped.add((mention.type, mention.key))
                mentions.append({"doc_id": record.id, "type": mention.type, "key": mention.key,
                                 "name": mention.name})
    replaced = [r.id for r in changed if r.id in state]
    store.write_batch(documents, scope, mentions, identifiers, replace=replaced, names=names, run=run.run)
    summary.updated += len(replaced)
    summary.added += len(changed) - len(replaced)
    summary.scope_links += len(scope)
    summary.identifier_links += len(identifiers)
    summary.name_links += len(names)
    summary.mentions += len(mentions)
    # Scopes a changed document left: their other members may have lost a later neighbour.
    new_scope = {(row["doc_id"], row["type"], row["key"]) for row in scope}
    left = [{"type": e["type"], "key": e["key"]} for r in replaced for e in state[r]["scope"]
            if (r, e["type"], e["key"]) not in new_scope]
    neighbours = [row["id"] for row in store.read("scope_members", scopes=left)] if left else []
    resolve_supersession(store, rules, summary, ids=[r.id for r in changed], stale=neighbours, run=run.run)
    store.write("clear_pending", ids=[r.id for r in changed])
    run.commit()


def resolve_supersession(
    store: GraphStore,
    rules: Sequence[Rule],
    summary: IngestSummary,
    ids: list[str] | None,
    stale: Sequence[str] = (),
    all_rules: Sequence[Rule] | None = None,
    *,
    run: RecordedRun,
) -> None:
    """Explicit references, rule edges, unresolved dates and cycle marks for the pairs that
    involve ``ids`` (None: every pair, for rules new to the graph: their edges not made again
    are closed). ``stale``: documents whose unresolved date must be recomputed because a
    neighbour left their scope. ``run``: the recorded run; what changes is closed, not
    overwritten (graph_schema/README.md, "Two clocks")."""
    recorded = run.params()
    if ids is not None:
        explicit = store.write("link_explicit", ids=ids, **recorded)
        if explicit:
            summary.missing_references.extend(explicit[0]["missing"])
            summary.self_references.extend(explicit[0]["self"])
    for rule in rules:
        statement = "apply_rule_previous" if rule.order == "previous" else "apply_rule"
        store.write(statement, ids=ids, **rule.parameters(), **recorded,
                    reason="rule changed" if ids is None else "record changed")
        if ids is None:
            store.write("close_stale_rule_edges", rule=rule.name, **recorded)
    store.write("reopen_edges", now=run.at)
    recompute = None if ids is None else sorted({*ids, *stale})
    rederive_unresolved(store, recompute, all_rules if all_rules is not None else rules, run)
    mark_cycles(store, summary, ids)
    mark_recorded_cycles(store, ids)


def rederive_unresolved(store: GraphStore, ids: list[str] | None,
                        rules: Sequence[Rule | Mapping[str, Any]], run: RecordedRun) -> None:
    """Recompute unresolved_from for ``ids`` (None: every document) under ``rules`` (Rule, or
    the stored parameters of one); a document whose date changes closes the version that had
    the old one, so a --known-at read sees the status it had then."""
    # mark_unresolved lowers the date of any document a batch document joins in scope, not
    # only the batch's own: those neighbours are watched too, or their date would change in
    # place and a --known-at read would see the new one before it was recorded
    # (no rules: nothing marks a neighbour, so only the batch's own dates can change)
    watched = ids
    if ids is not None and rules:
        watched = sorted({*ids, *(r["id"] for r in store.read("scope_neighbours", ids=ids))})
    before = {r["id"]: r["unresolved_from"] for r in store.read("document_unresolved", ids=watched)}
    # the neighbours are recomputed too, not only lowered: a batch document that changed kind or
    # scope may no longer leave its neighbour undecided (reset, then every pair of a watched one)
    store.write("reset_unresolved", ids=watched)
    for rule in rules:
        params = rule.parameters() if isinstance(rule, Rule) else rule
        if not params:
            continue
        store.write(
            "mark_unresolved", ids=watched, scope_all=params.get("scope_all", False),
            **{k: params[k] for k in ("newer_kinds", "older_kinds", "scope_types", "domain")},
        )
    after = {r["id"]: r["unresolved_from"] for r in store.read("document_unresolved", ids=watched)}
    changed = sorted(i for i in {*before, *after} if before.get(i) != after.get(i))
    if changed:
        store.write("close_document_versions", reason="rederived", **run.params(),
                    rows=[{"id": i, "before": {"unresolved_from": before.get(i)}} for i in changed])


def mark_cycles(store: GraphStore, summary: IngestSummary, ids: list[str] | None) -> None:
    """Strongly connected components of the full edges (None: the whole graph; otherwise the
    components that can hold a new cycle after a batch wrote ``ids``); full edges inside one are
    marked maybe_cycle, every other edge unmarked.

    Bounded by what a batch changed: a new cycle runs through a touched document with a full
    edge in and out (cycle_candidates.cypher), so only those documents' components are walked --
    along full edges only, one linear walk per component however many of the batch's documents
    it holds. The marks already set are read back (an index look-up) so that cycles a change
    broke are cleared: a cycle that still exists outside the walked components consists of
    marked edges alone, so the search over them finds it again."""
    rows: list[dict[str, Any]]
    if ids is None:
        rows = [dict(r) for r in store.read("full_edges")]
    else:
        rows = []
        seen: set[str] = set()
        for candidate in store.read("cycle_candidates", ids=ids):
            if candidate["id"] in seen:
                continue
            walk = store.read("supersession_component", id=candidate["id"])[0]
            seen.update(walk["members"])
            rows.extend(dict(edge) for edge in walk["edges"])
    walked = {(r["newer"], r["older"], r["rule"]) for r in rows}
    rows.extend(dict(r) for r in store.read("cycle_marked_edges")
                if (r["newer"], r["older"], r["rule"]) not in walked)
    graph: dict[str, list[str]] = {}
    for row in rows:
        if row["full"]:
            graph.setdefault(row["newer"], []).append(row["older"])
    component = strongly_connected(graph)
    updates = []
    for row in rows:
        flag = (bool(row["full"]) and component.get(row["newer"]) is not None
                and component.get(row["newer"]) == component.get(row["older"]))
        if flag != row["maybe_cycle"]:
            updates.append({"newer": row["newer"], "older": row["older"], "rule": row["rule"], "flag": flag})
    if updates:
        store.write("mark_cycle_edges", rows=updates)
    members: dict[int, list[str]] = {}
    for node, comp in component.items():
        members.setdefault(comp, []).append(node)
    for nodes in members.values():
        if len(nodes) > 1:
            cycle = sorted(nodes)
            if cycle not in summary.cycles:
                summary.cycles.append(cycle)


def mark_recorded_cycles(store: GraphStore, ids: list[str] | None) -> None:
    """Mark each document on the walked components of the recorded graph (every full edge ever
    recorded, current or closed) with whether it lies on a cycle there (None: the whole graph).
    A cycle of any recorded state is a cycle of that graph, so a document marked false lets a
    --known-at read void it at once (fragments/recorded_acyclic.cypher) instead of running
    voided.cypher's search for a way back -- quadratic along a long chain. Walked as
    mark_cycles walks: only the components of touched documents with a full edge in and out;
    the marks only grow with what is recorded (a purge removing edges leaves a true mark that
    is merely cautious)."""
    edges: list[tuple[str, str]] = []
    marks: dict[str, bool | None] = {}
    if ids is None:
        for row in store.read("recorded_cycle_edges"):
            edges.append((row["newer"], row["older"]))
            marks[row["newer"]] = row["newer_mark"]
            marks[row["older"]] = row["older_mark"]
    else:
        seen: set[str] = set()
        for candidate in store.read("recorded_cycle_candidates", ids=ids):
            if candidate["id"] in seen:
                continue  # a component an earlier candidate's walk covered
            walk = store.read("recorded_cycle_component", id=candidate["id"])[0]
            seen.update(m["id"] for m in walk["members"])
            marks.update((m["node"], m["mark"]) for m in walk["members"])
            edges.extend((e["newer"], e["older"]) for e in walk["edges"])
    graph: dict[str, list[str]] = {}
    for newer, older in edges:
        graph.setdefault(newer, []).append(older)
    on_cycle = strongly_connected(graph)
    # only a document with an edge in and an edge out can lie on a cycle, and only those are
    # marked: a read tells the others from their edges alone (recorded_acyclic.cypher), and a
    # document that merely supersedes or is superseded is left as it was written
    inner = set(graph).intersection(older for _, older in edges)
    updates = [{"node": node, "mark": node in on_cycle} for node, mark in marks.items()
               if node in inner and mark is not (node in on_cycle)]
    if updates:
        store.write("mark_recorded_cycles", rows=updates)


def strongly_connected(graph: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Tarjan's algorithm, iteratively (chains may be thousands long): node -> component number
    for every node on a cycle (components of one node without a self-loop are left out)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: dict[str, int] = {}
    counter = 0
    comp = 0
    nodes = set(graph) | {v for targets in graph.values() for v in targets}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    for member in members:
                        out[member] = comp
                    comp += 1
    return out


@dataclass
class DeleteSummary:
    deleted: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    reevaluated: int = 0
    run: int | None = None
    edges_opened: dict[str, int] = field(default_factory=dict)
    edges_closed: dict[str, dict[str, int]] = field(default_factory=dict)
    orphan_entities: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"deleted": self.deleted, "missing": self.missing, "reevaluated": self.reevaluated,
                "run": self.run, "edges_opened": self.edges_opened,
                "edges_closed": self.edges_closed, "orphan_entities": self.orphan_entities}


def delete_documents(store: GraphStore, ids: Sequence[str]) -> DeleteSummary:
    """Delete documents -- close them and their edges, keeping the last version as history
    (``car-graph purge`` erases it) -- and re-derive what depended on them with the graph's
    rules: the rule edges of the documents that shared their scope (under ``order: previous``
    the chain closes over the gap, v1 -> v3 once v2 is gone), their unresolved dates, and the
    cycle marks around the documents they were linked with. Entities nothing refers to any
    more go."""
    run = store.begin_run("delete")
    unique = list(dict.fromkeys(ids))
    # the last version is kept (closed) and the node retired in one transaction
    _, rows = store.write_in_one_transaction([
        ("close_document_versions", {"rows": [{"id": i, "before": {}} for i in unique],
                                     "reason": "deleted", **run.params()}),
        ("delete_documents", {"ids": unique, **run.params()}),
    ])
    row = rows[0] if rows else {"deleted": [], "neighbours": [], "linked": []}
    summary = DeleteSummary(deleted=list(row["deleted"]),
                            missing=[i for i in dict.fromkeys(ids) if i not in set(row["deleted"])],
                            run=run.number)
    neighbours = sorted(set(row["neighbours"]))
    touched = sorted({*neighbours, *row["linked"]})
    if touched:
        rules = rules_in_force(stored_rulesets(store))
        resolve_supersession(store, rules, IngestSummary(), ids=touched, run=run)
    summary.orphan_entities = int(store.write("delete_orphan_entities")[0]["deleted"])
    summary.reevaluated = len(neighbours)
    store.write("record_run_counts", run=run.number, added=None, updated=None,
                deleted=len(summary.deleted))
    store.end_commit(run)
    summary.edges_opened, summary.edges_closed = edge_changes(store, run)
    return summary


@dataclass
class DomainRemoval:
    domain: str
    declaration: bool = False
    rules: list[str] = field(default_factory=list)
    edges_closed: dict[str, dict[str, int]] = field(default_factory=dict)
    run: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "declaration": self.declaration, "rules": self.rules,
                "edges_closed": self.edges_closed, "run": self.run}


def remove_domain(store: GraphStore, name: str) -> DomainRemoval:
    """Forget a domain's stored declaration and rule set: its rules' edges close (reason
    ``rule removed``), unresolved dates and cycle marks are re-derived with the rules left, and
    the removal is recorded as the rule set's last change. Its documents stay."""
    removal = DomainRemoval(name)
    removal.declaration = bool(store.write("delete_domain", domain=name)[0]["deleted"])
    rulesets = stored_rulesets(store)
    stored = rulesets.get(name)
    if stored is None:
        return removal
    run = store.begin_run("remove rules")
    removal.run = run.number
    removal.rules = [r.name for r in stored.rules]
    if removal.rules:
        store.write("close_rule_edges", rules=removal.rules, reason="rule removed", **run.params())
        store.write("delete_rules", rules=removal.rules)
    left = [r for other, s in rulesets.items() if other != name for r in s.rules]
    resolve_supersession(store, [], IngestSummary(), ids=None, all_rules=left, run=run)
    removal.edges_closed = edge_changes(store, run)[1]
    store.write("remove_ruleset", name=name, removed=removal.rules,
                closed=json.dumps(removal.edges_closed, sort_keys=True), **run.params())
    store.end_commit(run)
    return removal


@dataclass
class PurgeSummary:
    before: str | None                 # the cut-off (--before), ISO; None for DOC_IDs
    versions: int = 0
    edges: int = 0
    retired: int = 0
    run: int | None = None             # the purge's own recorded run
    documents: list[str] = field(default_factory=list)  # DOC_IDs purged (found)
    missing: list[str] = field(default_factory=list)    # DOC_IDs the graph never held
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before, "versions": self.versions, "edges": self.edges,
                "retired": self.retired, "run": self.run, "documents": self.documents,
                "missing": self.missing, "reason": self.reason}


def purge_history(store: GraphStore, before: datetime | None = None, ids: Sequence[str] = (),
                  reason: str | None = None) -> PurgeSummary:
    """Erase history on purpose and on the record: everything closed before ``before`` (closed
    versions no kept edge needs, closed edges, retired documents left without either), or the
    whole recorded history of the documents ``ids`` (their closed versions and edges; a deleted
    one's retired node too). The purge is itself a recorded run with its cut-off, ids and
    ``reason``; the current state is never touched, and no answer at an instant after the
    cut-off changes. The erased bytes can stay in the store files and transaction logs for a
    while (docs/history.md, "What stays in the store files")."""
    if (before is None) == (not ids):
        raise ValueError("purge: give either a cut-off (before) or document ids, not both")
    run = store.begin_run("purge")
    unique = list(dict.fromkeys(ids))
    if before is not None:
        row = store.write("purge_history", before=before)[0]
        found: list[str] = []
    else:
        row = store.write("purge_documents", ids=unique)[0]
        found = list(row["found"])
    summary = PurgeSummary(before.isoformat() if before is not None else None,
                           int(row["versions"]), int(row["edges"]), int(row["retired"]),
                           run=run.number, documents=found,
                           missing=[i for i in unique if i not in set(found)], reason=reason)
    store.write("record_purge", run=run.number, cutoff=before, documents=unique or None,
                reason=reason, versions=summary.versions, edges=summary.edges,
                retired=summary.retired)
    store.end_commit(run)
    return summary
