"""The ingestion pipeline: records -> spaCy entities -> embeddings -> batched writes -> rules.

Every write is an idempotent MERGE, one transaction per batch, so re-running the same input
changes nothing. Supersession rules run in Cypher after all batches are written (a rule may link
documents from different batches or earlier runs); then explicit references are resolved,
cycles are detected and marked, and documents no rule could decide are flagged unresolved.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from car_graph.errors import InputProblem, RulesError
from car_graph.ingest.keys import normalize_key
from car_graph.ingest.records import DocumentRecord, parse_date
from car_graph.ingest.rules import Rule, bundled_rules

if TYPE_CHECKING:
    from car_graph.embedding import Embedder
    from car_graph.ingest.entities import EntityExtractor
    from car_graph.store import GraphStore

logger = logging.getLogger(__name__)

# Scope types whose keys are plain names (packages carry an ecosystem prefix, so they are
# matched at query time through the fuzzy entity index instead).
NAMED_SCOPE_TYPES = ("drug", "case")


@dataclass
class IngestSummary:
    documents: int = 0
    scope_links: int = 0
    mentions: int = 0
    edges_by_rule: dict[str, int] = field(default_factory=dict)
    skipped: list[InputProblem] = field(default_factory=list)
    cycles: list[list[str]] = field(default_factory=list)
    missing_references: list[str] = field(default_factory=list)
    unresolved: int = 0
    graph: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "scope_links": self.scope_links,
            "mentions": self.mentions,
            "edges_by_rule": self.edges_by_rule,
            "skipped": [
                {"source": p.source, "line": p.line, "reason": p.reason} for p in self.skipped
            ],
            "cycles": self.cycles,
            "missing_references": self.missing_references,
            "unresolved": self.unresolved,
            "graph": self.graph,
            "seconds": round(self.seconds, 2),
        }


def entity_name(entity_type: str, key: str) -> str:
    """The human form of a scope key: packages drop their ecosystem prefix ("pypi:django")."""
    if entity_type == "package" and ":" in key:
        return key.split(":", 1)[1]
    return key


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and value is not None


def _property_value(value: Any) -> Any | None:
    """Neo4j stores scalars and homogeneous lists of scalars; anything else stays in JSON only."""
    if _scalar(value):
        return value
    if isinstance(value, list) and value and all(_scalar(v) for v in value):
        if len({type(v) for v in value}) == 1:
            return value
    return None


def canonicalize_versions(record: DocumentRecord, rules: Sequence[Rule]) -> dict[str, Any]:
    """Attributes with version strings rewritten to the ecosystem's canonical form.

    Rules that compare versions (``match.versioning``) compare strings in Cypher; two spellings
    of one version ("1.0" and "1.0.0" under PEP 440) must therefore be written identically.
    """
    from car_graph.ingest import versions

    attributes = dict(record.attributes)
    for rule in rules:
        if rule.match is None or rule.match.versioning is None:
            continue
        names = []
        if record.kind in rule.newer_kinds:
            names.append(rule.match.newer)
        if record.kind in rule.older_kinds:
            names.append(rule.match.older)
        scheme = rule.match.versioning
        if scheme.startswith("@"):
            scheme = str(attributes.get(scheme[1:]) or "")
        if not scheme:
            continue
        for name in names:
            value = attributes.get(name)
            if isinstance(value, str):
                attributes[name] = _canonical_or_raw(versions, scheme, value)
            elif isinstance(value, list):
                attributes[name] = [
                    _canonical_or_raw(versions, scheme, v) if isinstance(v, str) else v
                    for v in value
                ]
    return attributes


def _canonical_or_raw(versions: Any, scheme: str, value: str) -> str:
    try:
        return str(versions.canonical(scheme, value))
    except ValueError:
        # An unparsable version still matches an identical spelling; ordering is not needed here.
        return value


def document_row(
    record: DocumentRecord, embedding: list[float], rules: Sequence[Rule]
) -> dict[str, Any]:
    attributes = canonicalize_versions(record, rules)
    withdrawn = attributes.get("withdrawn")
    props = {}
    for name, value in attributes.items():
        stored = _property_value(value)
        if stored is not None:
            props[f"attr_{name}"] = stored
    refs = record.supersedes
    return {
        "id": record.id,
        "title": record.title,
        "text": record.text,
        "kind": record.kind,
        "domain": record.domain,
        "published": record.published,
        "published_at": record.published_at,
        "withdrawn": parse_date(withdrawn, "attributes.withdrawn")
        if isinstance(withdrawn, str)
        else None,
        "attributes": json.dumps(attributes, sort_keys=True, default=str),
        "props": props,
        "supersedes_ids": [r.id for r in refs],
        "supersedes_effective": [r.effective.isoformat() if r.effective else "" for r in refs],
        "supersedes_evidence": [r.evidence or "" for r in refs],
        "supersedes_partial": [r.partial for r in refs],
        "embedding": embedding,
    }


def scope_rows(record: DocumentRecord) -> list[dict[str, str]]:
    return [
        {"doc_id": record.id, "type": etype, "key": normalize_key(key), "name": entity_name(etype, key)}
        for etype, keys in record.scope.items()
        for key in keys
    ]


def embedding_text(record: DocumentRecord) -> str:
    return f"{record.title}\n{record.text}" if record.title else record.text


def _batches(items: Sequence[DocumentRecord], size: int) -> Iterator[Sequence[DocumentRecord]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def rules_for(records: Sequence[DocumentRecord]) -> list[Rule]:
    """The bundled rules of every domain present in the records (domains without rules: none)."""
    rules: list[Rule] = []
    for domain in sorted({r.domain for r in records if r.domain}):
        try:
            rules.extend(bundled_rules(domain))
        except RulesError:
            logger.info("no bundled rules for domain %r", domain)
    return rules


def ingest_records(
    records: Iterable[DocumentRecord],
    store: GraphStore,
    embedder: Embedder,
    extractor: EntityExtractor,
    rules: Sequence[Rule] | None = None,
    *,
    batch_size: int = 256,
    progress: bool = True,
    problems: Sequence[InputProblem] = (),
    on_batch: Callable[[int], None] | None = None,
) -> IngestSummary:
    """Load records into the graph and apply supersession rules. Returns what was done.

    ``rules`` None means the bundled rules of the records' domains. ``problems`` are input
    records rejected upstream (they are reported in the summary, not retried).
    """
    started = time.perf_counter()
    records = list(records)
    summary = IngestSummary(skipped=list(problems))
    rules = rules_for(records) if rules is None else list(rules)

    names: dict[str, set[str]] = {}
    for record in records:
        for etype, keys in record.scope.items():
            if etype in NAMED_SCOPE_TYPES:
                names.setdefault(etype, set()).update(entity_name(etype, k) for k in keys)
    for etype, values in names.items():
        extractor.add_names(etype, sorted(values))

    bar = tqdm(total=len(records), unit="doc", desc="ingest", disable=not progress)
    for batch in _batches(records, batch_size):
        texts = [embedding_text(r) for r in batch]
        vectors = embedder.embed_documents(texts)
        found = extractor.extract_many(texts)
        documents, scope, mentions = [], [], []
        for record, vector, entities in zip(batch, vectors, found, strict=True):
            documents.append(document_row(record, vector, rules))
            own = scope_rows(record)
            scope.extend(own)
            scoped = {(row["type"], row["key"]) for row in own}
            for mention in entities:
                if (mention.type, mention.key) not in scoped:
                    scoped.add((mention.type, mention.key))
                    mentions.append(
                        {"doc_id": record.id, "type": mention.type, "key": mention.key,
                         "name": mention.name}
                    )
        store.write_batch(documents, scope, mentions)
        summary.documents += len(documents)
        summary.scope_links += len(scope)
        summary.mentions += len(mentions)
        bar.update(len(batch))
        if on_batch:
            on_batch(summary.documents)
    bar.close()

    resolve_supersession(store, rules, summary)
    summary.graph = store.counts()
    summary.seconds = time.perf_counter() - started
    return summary


def resolve_supersession(store: GraphStore, rules: Sequence[Rule], summary: IngestSummary) -> None:
    """Explicit edges, then every rule, then cycles, then the unresolved flags (all in Cypher)."""
    explicit = store.write("link_explicit")
    if explicit:
        summary.missing_references = list(explicit[0]["missing"])
    for rule in rules:
        store.write("apply_rule", **rule.parameters())
    cycles = [list(r["cycle"]) for r in store.write("detect_cycles")]
    summary.cycles = cycles
    for rule in rules:
        params = rule.parameters()
        flagged = store.write(
            "mark_unresolved",
            newer_kinds=params["newer_kinds"],
            older_kinds=params["older_kinds"],
            scope_types=params["scope_types"],
            scope_mode=params["scope_mode"],
            domain=params["domain"],
        )
        summary.unresolved += int(flagged[0]["flagged"]) if flagged else 0
    summary.edges_by_rule = store.edges_by_rule()

