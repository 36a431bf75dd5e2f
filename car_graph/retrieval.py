"""Question -> parameters -> one Cypher statement -> typed results.

The retrieval logic itself is Cypher: ``car`` (queries/anchors.cypher handed to
queries/closure.cypher, composed into one statement by car_graph/cypher.py). This module only
prepares its parameters (embedding, Lucene queries, entities linked from the question) and maps
rows to dataclasses.
The baselines the evaluation compares against (dense, bm25, hybrid) are sibling statements.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from neo4j.time import Date as Neo4jDate

from car_graph import cypher
from car_graph.domains import stored_domains
from car_graph.embedding import Embedder
from car_graph.errors import ConfigError, NotFoundError
from car_graph.extraction import EntityExtractor
from car_graph.linking import EntityLinker, LinkingSettings, anchor_lexical_query, fulltext_query
from car_graph.store import GraphStore
from car_graph.types import Explanation, Hop, Result, Retrieval, Status

SYSTEMS = ("bm25", "dense", "hybrid", "car")
EXPLAIN_LIMIT = 1000  # controlling documents listed by explain
PREPARED_LIMIT = 10_000  # analysed questions a Retriever remembers (an evaluation's set)


@dataclass(frozen=True)
class RetrievalSettings:
    """Tuning knobs of the fused anchor stage; defaults are what the evaluation reports."""

    candidates: int = 50        # candidates taken from each source before fusion
    min_anchors: int = 10       # anchors closed over (at least k)
    entity_boost: float = 1.0   # added per linked entity that holds the document in scope
    coverage_boost: float = 1.0  # added per linked entity beyond the first a document holds
    scope_cap: int = 200        # a linked entity with more documents is not enumerated whole
    linking: LinkingSettings = field(default_factory=LinkingSettings)


def to_date(value: Any) -> date | None:
    if value is None:
        return None
    if isinstance(value, Neo4jDate):
        return value.to_native()
    if isinstance(value, date):
        return value
    raise TypeError(f"not a date: {value!r}")


def hop_from(row: Mapping[str, Any]) -> Hop:
    return Hop(
        from_id=row["from_id"],
        to_id=row["to_id"],
        rule=row["rule"] or "",
        effective=to_date(row["effective"]),
        evidence=row["evidence"],
        partial=bool(row["partial"]),
    )


class Retriever:
    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        extractor: EntityExtractor,
        settings: RetrievalSettings | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.extractor = extractor
        self.settings = settings or RetrievalSettings()
        # User domains ingested from YAML are stored in the graph: register them so this
        # process links their identifiers as the ingesting one did.
        for domain in stored_domains(store):
            extractor.register_domain(domain)
        # Questions are read with the domains of the documents the graph holds, read once here
        # (a client builds a new Retriever after it changes the graph): a domain without
        # documents never links a question through its patterns.
        graph_domains = [row["domain"] for row in store.read("document_domains")]
        self.domains = extractor.registry.for_graph(graph_domains)
        self.linker = EntityLinker(store, extractor, self.domains, self.settings.linking)
        # Question analysis (embedding, entity linking) is shared by every system an evaluation
        # runs; a Retriever lives for one retrieval or one evaluation, so the graph is stable.
        self._prepared: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def prepare(self, questions: Iterable[str]) -> None:
        """Analyse many questions at once (one batched embedding call)."""
        todo = [q for q in dict.fromkeys(questions) if q not in self._prepared]
        if not todo:
            return
        vectors = self.embedder.embed_documents(todo)
        # bounded: a long-lived client answering endless distinct questions must not grow
        while len(self._prepared) + len(todo) > max(PREPARED_LIMIT, len(todo)) and self._prepared:
            self._prepared.popitem(last=False)
        for question, vector in zip(todo, vectors, strict=True):
            self._prepared[question] = {
                "embedding": vector,
                "fulltext": fulltext_query(question),  # the bm25 baseline's query
                "anchor_fulltext": anchor_lexical_query(question, self.settings.linking),
                "entities": self.link_entities(question),
            }

    def link_entities(self, question: str) -> list[dict[str, Any]]:
        """The entities the question names, as anchors.cypher's ``$entities`` items."""
        return [e.parameter() for e in self.linker.link(question)]

    def question_parameters(self, question: str) -> dict[str, Any]:
        self.prepare([question])
        return dict(self._prepared[question])

    def _common(self, question: str, k: int, as_of: date | None, domain: str | None,
                known_at: datetime | None = None) -> dict[str, Any]:
        if k < 1:
            raise ConfigError("k must be at least 1")
        return {
            **self.question_parameters(question),
            "k": k,
            "as_of": as_of,
            "known_at": known_at,
            "domain": domain,
            "candidates": max(self.settings.candidates, k),
            "entity_boost": self.settings.entity_boost,
            "coverage_boost": self.settings.coverage_boost,
            "scope_cap": self.settings.scope_cap,
            "anchors": max(self.settings.min_anchors, k),
        }

    def _anchor_parameters(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {key: params[key] for key in (
            "embedding", "entities", "entity_boost", "coverage_boost", "as_of", "known_at", "domain", "anchors",
            "candidates", "scope_cap")} | {"fulltext": params["anchor_fulltext"]}

    def retrieve(
        self, question: str, k: int = 5, as_of: date | None = None, domain: str | None = None,
        known_at: datetime | None = None,
    ) -> Retrieval:
        """Anchors (queries/anchors.cypher) and their controlling documents
        (queries/closure.cypher) in one statement, ``car`` (composed by the catalogue): one round
        trip and one snapshot. ``known_at``: the graph as car-graph recorded it at that instant
        (None: the current graph)."""
        params = self._common(question, k, as_of, domain, known_at)
        found = self.store.read("car", **self._anchor_parameters(params), k=k)
        anchor_ids = tuple(a["id"] for a in found[0]["anchors"]) if found else ()
        rows = [row for row in found if row["doc_id"] is not None]
        results = []
        suppressed: set[str] = set()
        ambiguous: dict[str, None] = {}
        for row in rows:
            chain = tuple(hop_from(h) for h in row["chain"])
            if chain:
                suppressed.add(row["anchor_id"])
            # kappa > 1 (paper, Def. 5): a scope entity of the anchor holds more documents than
            # the anchor's closure, so the scope alone does not identify the chain
            for scope in row["anchor_scope"]:
                if scope["docs"] > row["anchor_closure"]:
                    ambiguous[scope["entity"]] = None
            results.append(self._result(row, chain))
        return Retrieval(
            question=question,
            as_of=as_of,
            results=tuple(results),
            anchors=anchor_ids,
            suppressed=len(suppressed),
            ambiguous_scopes=tuple(ambiguous),
            question_entities=tuple(f"{e['type']}:{e['key']}" for e in params["entities"]),
            known_at=known_at,
        )

    @staticmethod
    def _result(row: Mapping[str, Any], chain: tuple[Hop, ...]) -> Result:
        return Result(
            doc_id=row["doc_id"],
            title=row["title"] or "",
            kind=row["kind"],
            domain=row["domain"],
            published=to_date(row["published"]),
            status=Status(row["status"]),
            score=float(row["score"]),
            anchor_id=row["anchor_id"],
            chain=chain,
            text=row["text"] or "",
        )

    def search(
        self, system: str, question: str, k: int = 5, as_of: date | None = None,
        domain: str | None = None, known_at: datetime | None = None,
    ) -> tuple[list[str], list[str]]:
        """(ranked doc ids, anchor ids) for one evaluated system. ``known_at`` (the graph as
        recorded then) applies to car and hybrid; the single-index baselines read the current
        graph only and refuse it."""
        if system == "car":
            retrieval = self.retrieve(question, k, as_of, domain, known_at)
            return retrieval.ids, list(retrieval.anchors)
        if system == "hybrid":  # the same fused anchors, no closure
            params = self._common(question, k, as_of, domain, known_at)
            rows = self.store.read("anchors", **self._anchor_parameters(params))
            ids = [r["doc_id"] for r in rows]
            return ids[:k], ids
        if known_at is not None and system in ("dense", "bm25"):
            raise ConfigError(f"--known-at applies to car and hybrid, not to the {system} baseline")
        params = self.question_parameters(question)
        if system == "dense":
            rows = self.store.read(
                "search_vector", embedding=params["embedding"], k=k, as_of=as_of, domain=domain,
                candidates=max(self.settings.candidates, k),
            )
        elif system == "bm25":
            if not params["fulltext"]:
                return [], []
            rows = self.store.read(
                "search_fulltext", fulltext=params["fulltext"], k=k, as_of=as_of, domain=domain,
                candidates=max(self.settings.candidates, k),
            )
        else:
            raise ConfigError(f"unknown system {system!r}; choose from {', '.join(SYSTEMS)}")
        ids = [r["doc_id"] for r in rows]
        return ids, ids

    def explain(self, doc_id: str, as_of: date | None = None,
                known_at: datetime | None = None) -> Explanation:
        """Where one document stands as of a date: its status, the edges in force around it and
        its controlling documents (closure.cypher with the document as the only anchor).
        ``known_at``: as car-graph recorded it at that instant (None: the current graph)."""

        def work(tx: Any) -> tuple[list[Any], list[Any]]:
            own = list(tx.run(cypher.statement("explain"), doc_id=doc_id, as_of=as_of,
                              known_at=known_at))
            if not own or not own[0]["visible"]:
                return own, []
            rows = list(tx.run(
                cypher.statement("closure"), anchors=[{"id": doc_id, "rank": 0, "score": 1.0}],
                as_of=as_of, known_at=known_at, embedding=None, k=EXPLAIN_LIMIT,
            ))
            return own, rows

        own, rows = self.store.in_read_transaction(work)
        if not own or not own[0]["visible"]:
            raise NotFoundError(f"no document {doc_id!r}" + (f" as of {as_of}" if as_of else "")
                                + (f" as known at {known_at.isoformat()}" if known_at else ""))
        row = own[0]
        controlling = tuple(self._result(c, tuple(hop_from(h) for h in c["chain"])) for c in rows)
        mine = [c for c in controlling if c.doc_id == doc_id]
        return Explanation(
            doc_id=row["doc_id"],
            title=row["title"] or "",
            status=mine[0].status if mine else Status.SUPERSEDED,
            as_of=as_of,
            controlling=controlling,
            superseded_by=tuple(hop_from(h) for h in row["superseded_by"]),
            supersedes=tuple(hop_from(h) for h in row["supersedes"]),
            scope=tuple(row["scope"]),
            known_at=known_at,
        )
