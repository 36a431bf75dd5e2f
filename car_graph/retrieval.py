"""Question -> parameters -> one Cypher statement -> typed results.

The retrieval logic itself is queries/retrieve.cypher; this module only prepares its parameters
(embedding, Lucene queries, identifiers found by the spaCy pipeline) and maps rows to dataclasses.
The baselines the evaluation compares against (dense, bm25, hybrid) are sibling statements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from neo4j.time import Date as Neo4jDate

from car_graph.errors import ConfigError, NotFoundError
from car_graph.linking import EntityLinker, LinkingSettings
from car_graph.types import Explanation, Hop, Result, Retrieval, Status

if TYPE_CHECKING:
    from car_graph.embedding import Embedder
    from car_graph.ingest.entities import EntityExtractor
    from car_graph.store import GraphStore

SYSTEMS = ("bm25", "dense", "hybrid", "car")


@dataclass(frozen=True)
class RetrievalSettings:
    """Tuning knobs of the fused anchor stage; defaults are what the evaluation reports."""

    candidates: int = 50        # candidates taken from each source before fusion
    min_anchors: int = 10       # anchors closed over (at least k)
    entity_boost: float = 1.0   # added per linked entity that holds the document in scope
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
        from car_graph.ingest.domains import domain_from_json

        for row in store.read("read_domains"):
            extractor.register_domain(domain_from_json(row["spec"], f"graph domain {row['name']}"))
        self.linker = EntityLinker(store, extractor, extractor.registry, self.settings.linking)
        # Question analysis (embedding, entity linking) is shared by every system an evaluation
        # runs; a Retriever lives for one retrieval or one evaluation, so the graph is stable.
        self._prepared: dict[str, dict[str, Any]] = {}

    def prepare(self, questions: Iterable[str]) -> None:
        """Analyse many questions at once (one batched embedding call)."""
        from car_graph.ingest.entities import fulltext_query

        todo = [q for q in dict.fromkeys(questions) if q not in self._prepared]
        if not todo:
            return
        vectors = self.embedder.embed_documents(todo)
        for question, vector in zip(todo, vectors, strict=True):
            self._prepared[question] = {
                "embedding": vector,
                "fulltext": fulltext_query(question),
                "entities": self.link_entities(question),
            }

    def link_entities(self, question: str) -> list[dict[str, Any]]:
        """The entities the question names, as retrieve.cypher's ``$entities`` items."""
        return [e.parameter() for e in self.linker.link(question)]

    def question_parameters(self, question: str) -> dict[str, Any]:
        self.prepare([question])
        return dict(self._prepared[question])

    def _common(self, question: str, k: int, as_of: date | None, domain: str | None) -> dict[str, Any]:
        if k < 1:
            raise ConfigError("k must be at least 1")
        return {
            **self.question_parameters(question),
            "k": k,
            "as_of": as_of,
            "domain": domain,
            "candidates": max(self.settings.candidates, k),
            "entity_boost": self.settings.entity_boost,
            "anchors": max(self.settings.min_anchors, k),
        }

    def retrieve(
        self, question: str, k: int = 5, as_of: date | None = None, domain: str | None = None,
        *, closure: bool = True,
    ) -> Retrieval:
        params = self._common(question, k, as_of, domain)
        rows = self.store.read("retrieve", closure=closure, **params)
        results = []
        suppressed: set[str] = set()
        ambiguous: dict[str, None] = {}
        for row in rows:
            chain = tuple(hop_from(h) for h in row["chain"])
            if chain:
                suppressed.add(row["anchor_id"])
            # kappa = |docs sharing the anchor's scope| / |closure of the anchor| (paper, Def. 5)
            if row["anchor_closure"] and row["anchor_scope_docs"] > row["anchor_closure"]:
                ambiguous.update(dict.fromkeys(row["anchor_scope"]))
            results.append(
                Result(
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
            )
        anchors = tuple(rows[0]["anchor_ids"]) if rows else ()
        return Retrieval(
            question=question,
            as_of=as_of,
            results=tuple(results),
            anchors=anchors,
            suppressed=len(suppressed),
            ambiguous_scopes=tuple(ambiguous),
            question_entities=tuple(f"{e['type']}:{e['key']}" for e in params["entities"]),
        )

    def search(
        self, system: str, question: str, k: int = 5, as_of: date | None = None,
        domain: str | None = None,
    ) -> tuple[list[str], list[str]]:
        """(ranked doc ids, anchor ids) for one evaluated system."""
        if system in ("car", "hybrid"):
            retrieval = self.retrieve(question, k, as_of, domain, closure=system == "car")
            return retrieval.ids, list(retrieval.anchors)
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

    def explain(self, doc_id: str, as_of: date | None = None) -> Explanation:
        rows = self.store.read("explain", doc_id=doc_id, as_of=as_of)
        if not rows:
            raise NotFoundError(f"no document {doc_id!r}" + (f" as of {as_of}" if as_of else ""))
        row = rows[0]
        controlling = tuple(
            Result(
                doc_id=c["doc_id"],
                title=c["title"] or "",
                kind=c["kind"],
                domain=c["domain"],
                published=to_date(c["published"]),
                status=Status(c["status"]),
                score=1.0,
                anchor_id=doc_id,
                chain=tuple(hop_from(h) for h in c["chain"]),
            )
            for c in row["controlling"]
        )
        return Explanation(
            doc_id=row["doc_id"],
            title=row["title"] or "",
            status=Status(row["status"]),
            as_of=as_of,
            controlling=controlling,
            superseded_by=tuple(hop_from(h) for h in row["superseded_by"]),
            supersedes=tuple(hop_from(h) for h in row["supersedes"]),
            scope=tuple(row["scope"]),
        )
