"""Question -> parameters -> one Cypher statement -> typed results.

The retrieval logic itself is queries/retrieve.cypher; this module only prepares its parameters
(embedding, Lucene queries, identifiers found by the spaCy pipeline) and maps rows to dataclasses.
The baselines the evaluation compares against (dense, bm25, hybrid) are sibling statements.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from rapidfuzz.distance import OSA

from neo4j.time import Date as Neo4jDate

from car_graph.errors import ConfigError, NotFoundError
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
    entity_boost: float = 1.0   # added to documents in the scope of an entity the question names
    entity_candidates: int = 50  # fuzzy entity-name hits examined for linking


_WORD = re.compile(r"[a-z0-9]+")
_PARTIAL_CVE = re.compile(
    r"CVE[- ](?P<year>\d{4})-\D{0,3}(?P<tail>\d{3,7})\b|CVE\b\D{0,20}?\b(?:ending|ends)\s+(?:in|with)\s+(?P<end>\d{3,7})",
    re.IGNORECASE,
)
# Shorter words must match exactly ('panic' is one edit from the package 'sanic'); in names of
# two or more words the other words already vouch for the match, so 5 letters suffice there.
MIN_FUZZY_LENGTH = 6
MIN_FUZZY_LENGTH_MULTIWORD = 5


# Words that qualify a name without identifying it: a question about "fenfluramine" names the
# scope entity "fenfluramine hydrochloride".
NAME_QUALIFIERS = frozenset({
    "hydrochloride", "hcl", "sodium", "potassium", "calcium", "magnesium", "acetate", "sulfate",
    "maleate", "tartrate", "citrate", "phosphate", "mesylate", "besylate", "fumarate",
    "succinate", "bromide", "chloride", "hydrobromide", "dihydrochloride", "monohydrate",
    "anhydrous", "disodium", "bitartrate", "hyclate", "propionate", "valerate",
})


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric runs, split the way Lucene's standard analyser splits."""
    return _WORD.findall(text.lower())


def covers(name: str, question_words: Iterable[str], stop_words: frozenset[str] = frozenset()) -> bool:
    """Does the question name this entity? Every significant word of the name (3+ letters, not
    a stop word or a salt/form qualifier) must appear in the question, with one edit allowed
    for long words, so 'crypto' does not name 'golang.org/x/crypto' nor 'django' name
    'django-helpdesk', while 'Harirsburg' still names 'The Harrisburg'."""
    significant = [
        w for w in dict.fromkeys(words(name))
        if len(w) >= 3 and w not in stop_words and w not in NAME_QUALIFIERS
    ]
    if not significant:
        return False
    asked = set(question_words)
    min_fuzzy = MIN_FUZZY_LENGTH if len(significant) == 1 else MIN_FUZZY_LENGTH_MULTIWORD

    def found(word: str) -> bool:
        if word in asked:
            return True
        return len(word) >= min_fuzzy and any(
            abs(len(word) - len(q)) <= 1 and OSA.distance(word, q) <= 1 for q in asked
        )

    return all(found(w) for w in significant)


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

    def link_entities(self, question: str) -> list[dict[str, str]]:
        """Entities the question names: identifiers and corpus names found by the spaCy
        pipeline, scope entities whose name the question covers (typo-tolerant), and CVEs a
        partial identifier points at. Unknown keys are harmless: they match no Entity."""
        from car_graph.ingest.entities import fuzzy_query, question_terms, stop_words

        linked = {(m.type, m.key): None for m in self.extractor.extract(question)}
        lucene = fuzzy_query(question_terms(question))
        if lucene:
            asked = words(question)
            stop = stop_words()
            for row in self.store.read(
                "match_entities", lucene=lucene, limit=self.settings.entity_candidates
            ):
                if covers(row["name"] or row["key"], asked, stop):
                    linked[(row["type"], row["key"])] = None
        for match in _PARTIAL_CVE.finditer(question):
            suffix = match.group("tail") or match.group("end")
            for row in self.store.read(
                "match_cve_suffix", year=match.group("year") or "", suffix=suffix
            ):
                linked[(row["type"], row["key"])] = None
        return [{"type": t, "key": k} for t, k in linked]

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
