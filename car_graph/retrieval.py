"""Question -> parameters -> one Cypher statement -> typed results.

The retrieval logic itself is Cypher: ``car`` (queries/anchors.cypher handed to
queries/closure.cypher, composed into one statement by car_graph/cypher.py). This module only
prepares its parameters (embedding, Lucene queries, entities linked from the question) and maps
rows to dataclasses.
The baselines the evaluation compares against (dense, bm25, hybrid) are sibling statements.
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from neo4j.time import Date as Neo4jDate

from car_graph import cypher
from car_graph.domains import stored_domains
from car_graph.embedding import Embedder
from car_graph.errors import ConfigError, NotFoundError, UnknownDomainError
from car_graph.extraction import EntityExtractor
from car_graph.linking import (
    EntityLinker,
    LinkingSettings,
    NameIndex,
    anchor_lexical_query,
    fulltext_query,
    holds_passage,
    linked_words,
    lucene_escape,
    name_spellings,
    word_readings,
    words,
)
from car_graph.store import GraphStore
from car_graph.types import Explanation, Hop, Result, Retrieval, Status

logger = logging.getLogger(__name__)

SYSTEMS = ("bm25", "dense", "hybrid", "car")
EXPLAIN_LIMIT = 1000  # controlling documents listed by explain
# fulltext hits read for a quoted passage (quote_sharers.cypher): a verdict needs to know only
# whether more than a few documents share it, well under this
QUOTE_HITS = 200
# fulltext hits read for a stretch of a question no subject of its verdict writes
# (quoted_documents.cypher): the document it quotes ranks near the top for the stretch's own
# terms; a passage the first few hits do not hold is quoted from nothing the verdict can name
QUOTED_HITS = 10
# other documents of a kind holding a question's names read (kind_holders.cypher): a verdict
# asks only whether any does
KIND_HOLDERS_READ = 1
# fulltext hits read for one word of a question (word_holders.cypher): a word more documents hold
# than this is no word of one topic, and whether the asked document holds it is then unknown
WORD_HOLDERS_READ = 50
# how many (date, instant) pairs answering_kinds keeps for one graph version
ANSWERING_KINDS_KEPT = 64
PREPARED_LIMIT = 10_000  # analysed questions a Retriever remembers (an evaluation's set)


def phrase_query(passage: str) -> str:
    """``passage`` as a Lucene phrase query: the index analyses it as it analysed the documents;
    inside quotes only a quote and a backslash are special, and both are word breaks anyway."""
    return '"' + re.sub(r'["\\]', " ", passage) + '"'


def hit_holds(hit: Mapping[str, Any], wanted: Sequence[str]) -> bool:
    """A fulltext hit's title and text hold ``wanted`` word for word: the English analyser
    stems and drops stop words, so a phrase hit is only a candidate."""
    return holds_passage(f"{hit['title'] or ''} {hit['text'] or ''}", wanted)


@dataclass(frozen=True)
class RetrievalSettings:
    """Tuning knobs of the fused anchor stage; defaults are what the evaluation reports."""

    candidates: int = 50        # candidates taken from each source before fusion
    # as of a date or as known at an instant the indexes' top candidates are filtered after
    # ranking: the search goes deeper (4x a step) until the anchors wanted are found, up to this
    max_candidates: int = 3200
    min_anchors: int = 10       # anchors closed over (at least k)
    entity_boost: float = 1.0   # added per linked entity that holds the document in scope
    coverage_boost: float = 1.0  # added per linked entity beyond the first a document holds
    scope_cap: int = 200        # a linked entity with more documents is not enumerated whole
    linking: LinkingSettings = field(default_factory=LinkingSettings)
    # Keep the corpus's linkable names in memory per graph version (NameIndex) instead of one
    # fulltext and one exact look-up per question; False: those look-ups, as before.
    cache_names: bool = True


# a question whose analysis meets another graph version in car's snapshot is analysed again;
# under writes that never pause, the last answer is kept after this many tries (with a warning)
VERSION_ATTEMPTS = 3


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
        self._prepared: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.refresh()

    def refresh(self) -> None:
        """Read what question analysis takes from the graph: its version first (so a write
        landing meanwhile shows as a newer version later, never as an older one), the stored
        user domains and the domains of the documents it holds; with ``cache_names``, the names
        a question may link follow (``load_names``). Forgets the questions analysed so far.

        Run on construction and whenever car's snapshot carries another version
        (``retrieve``), so another process's ingest is picked up at the next question.
        """
        version = tuple(self.store.read("graph_version")[0]["version"])
        # User domains ingested from YAML are stored in the graph: register them so this
        # process links their identifiers as the ingesting one did.
        for domain in stored_domains(self.store):
            self.extractor.register_domain(domain)
        # Questions are read with the domains of the documents the graph holds: a domain
        # without documents never links a question through its patterns.
        graph_domains = [row["domain"] for row in self.store.read("document_domains")]
        domains = self.extractor.registry.for_graph(graph_domains)
        # what ``domain=`` may name: the domains of the documents (the filter is on them)
        self._document_domains = frozenset(d for d in graph_domains if d)
        # one assignment: a thread analysing a question meanwhile uses the old state whole.
        # The names are not read yet: a Retriever that answers one question (the CLI) would pay
        # for reading every name of a large corpus to save one look-up (see _linker)
        self._state = (version, domains, EntityLinker(self.store, self.extractor, domains,
                                                      self.settings.linking))
        self._analysed = 0  # questions analysed against this version
        # Question analysis (embedding, entity linking) is shared by every system an evaluation
        # runs; it holds for the version it was made against. So do answering_kinds' reads.
        self._prepared = OrderedDict()
        self._answering: dict[tuple[date | None, datetime | None], frozenset[str]] = {}

    def load_names(self) -> None:
        """Read the corpus's linkable names (NameIndex) for the current version now; later
        questions link names without a look-up. Done by itself from a version's second
        question on (or a batch of several), with ``cache_names``."""
        version, domains, _ = self._state
        names = NameIndex(self.store.read("name_index"), version)
        if self._state[0] == version:  # not refreshed meanwhile
            self._state = (version, domains, EntityLinker(self.store, self.extractor, domains,
                                                          self.settings.linking, names))

    def _linker(self, questions: int) -> tuple[tuple[str, ...], EntityLinker]:
        """The version and linker to analyse ``questions`` more questions with: the names are
        read once a version has more than one question to analyse."""
        self._analysed += questions
        if self.settings.cache_names and self._state[2].names is None and self._analysed > 1:
            self.load_names()
        version, _, linker = self._state
        return version, linker

    @property
    def version(self) -> tuple[str, ...]:
        """The graph version the current question analysis was made against."""
        return self._state[0]

    @property
    def domains(self) -> Any:
        return self._state[1]

    @property
    def linker(self) -> EntityLinker:
        return self._state[2]

    def prepare(self, questions: Iterable[str]) -> None:
        """Analyse many questions at once: the linker reads the corpus's names once. Each
        question is embedded on its own, as ``CarClient.answer`` and ``retrieve`` embed it: the
        default int8 embedder quantizes activations per batch, so a text's vector depends on
        what it is batched with (cosine 0.990-0.997 to the same question alone), and an
        evaluation must measure the vectors a user's question gets."""
        todo = [q for q in dict.fromkeys(questions) if q not in self._prepared]
        if not todo:
            return
        prepared = self._prepared
        version, linker = self._linker(len(todo))
        vectors = [self.embedder.embed_documents([q])[0] for q in todo]
        # bounded: a long-lived client answering endless distinct questions must not grow
        while len(prepared) + len(todo) > max(PREPARED_LIMIT, len(todo)) and prepared:
            prepared.popitem(last=False)
        for question, vector in zip(todo, vectors, strict=True):
            prepared[question] = self._analysis(question, vector, version, linker)

    def analyse(self, question: str) -> dict[str, Any]:
        """One question's analysis, not remembered: its embedding, Lucene queries and linked
        entities (what ``prepare`` computes per question; benchmarks time this)."""
        version, linker = self._linker(1)
        return self._analysis(question, self.embedder.embed_documents([question])[0], version, linker)

    def _analysis(self, question: str, vector: list[float], version: tuple[str, ...],
                  linker: EntityLinker) -> dict[str, Any]:
        linked = linker.link(question)
        return {
            "embedding": vector,
            "fulltext": fulltext_query(question),  # the bm25 baseline's query
            "anchor_fulltext": anchor_lexical_query(question, self.settings.linking, linked_words(linked)),
            "entities": [e.parameter() for e in linked],
            "word_readings": word_readings(linked),
            "name_spellings": name_spellings(linked),
            "graph_version": version,
        }

    def forget(self, question: str) -> None:
        """Drop one question's remembered analysis (the next call analyses it again)."""
        self._prepared.pop(question, None)

    def link_entities(self, question: str) -> list[dict[str, Any]]:
        """The entities the question names, as anchors.cypher's ``$entities`` items."""
        return [e.parameter() for e in self.linker.link(question)]

    def question_parameters(self, question: str) -> dict[str, Any]:
        while True:
            prepared = self._prepared
            self.prepare([question])
            try:
                return dict(prepared[question])
            except KeyError:  # a refresh in another thread replaced the cache meanwhile
                continue

    def check_domain(self, domain: str | None, known_at: datetime | None = None) -> None:
        """``domain`` (a retrieval's ``domain=``, ``--domain``) names a domain the graph holds
        documents of; else UnknownDomainError naming those it holds -- a misspelt domain would
        only filter every document out. One not in the cached list is looked for again once the
        graph's version has moved (another process may have ingested it meanwhile). Not checked
        with ``known_at``: a domain whose documents were deleted since was held then."""
        if domain is None or known_at is not None or domain in self._document_domains:
            return
        if tuple(self.store.read("graph_version")[0]["version"]) != self.version:
            self.refresh()
        if domain not in self._document_domains:
            raise UnknownDomainError(domain, tuple(sorted(self._document_domains)))

    def _common(self, question: str, k: int, as_of: date | None, domain: str | None,
                known_at: datetime | None = None) -> dict[str, Any]:
        if k < 1:
            raise ConfigError("k must be at least 1")
        self.check_domain(domain, known_at)
        return {
            **self.question_parameters(question),
            "k": k,
            "as_of": as_of,
            "known_at": known_at,
            "domain": domain,
            "candidates": max(self.settings.candidates, k),
            "holders": 0,
            "entity_boost": self.settings.entity_boost,
            "coverage_boost": self.settings.coverage_boost,
            "scope_cap": self.settings.scope_cap,
            "anchors": max(self.settings.min_anchors, k),
        }

    def reads_alike(self, k: int, other: int) -> bool:
        """A retrieval at ``k`` and one at ``other`` read the same anchors from the same
        candidates (``_common``: anchors and candidates per source are at least the settings'),
        so they differ only in how many result rows come back."""
        settings = self.settings
        return (max(settings.min_anchors, k) == max(settings.min_anchors, other)
                and max(settings.candidates, k) == max(settings.candidates, other))

    def _anchor_parameters(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {key: params[key] for key in (
            "embedding", "entities", "entity_boost", "coverage_boost", "as_of", "known_at", "domain", "anchors",
            "candidates", "scope_cap", "holders")} | {"fulltext": params["anchor_fulltext"]}

    def retrieve(
        self, question: str, k: int = 5, as_of: date | None = None, domain: str | None = None,
        known_at: datetime | None = None,
        *, readings: int = 0, reading_margin: float = 0.0, holders: int | None = None,
    ) -> Retrieval:
        """Anchors (queries/anchors.cypher) and their controlling documents
        (queries/closure.cypher) in one statement, ``car`` (composed by the catalogue): one round
        trip and one snapshot. ``known_at``: the graph as car-graph recorded it at that instant
        (None: the current graph).

        ``readings`` > 0 also returns, from the same walk, the closure of each of the top
        ``readings`` anchors within ``reading_margin`` of the best one (and, for a question
        linking several entities, of those holding one): ``Retrieval.readings``, what
        ``explain`` says of each -- the verdict's candidates, without a second statement (read
        as known at ``known_at`` too). ``holders``: how many of each linked entity's best
        holders come back wherever they rank (default: ``k`` with readings, else none); a
        verdict asks for its own number, so that what it reads does not follow ``k``."""
        for attempt in range(1, VERSION_ATTEMPTS + 1):
            params = self._common(question, k, as_of, domain, known_at)
            # a verdict judges each subject a question names among its holders: with readings,
            # each linked entity's best holders come back wherever they rank
            params["holders"] = (k if readings else 0) if holders is None else holders
            found, cut = self._read_deep_enough(params, k=k, readings=readings,
                                                reading_margin=reading_margin,
                                                reading_limit=EXPLAIN_LIMIT)
            seen = tuple(found[0]["graph_version"]) if found else params["graph_version"]
            if seen == params["graph_version"]:
                break
            # the graph changed since the question was analysed (another client's ingest, say):
            # analyse it again against the graph as it is now
            if attempt == VERSION_ATTEMPTS:
                logger.warning("the graph kept changing while %r was answered; its entities were "
                               "linked against an earlier version", question)
            elif seen != self.version:
                self.refresh()
        anchors = found[0]["anchors"] if found else []
        anchor_ids = tuple(a["id"] for a in anchors)
        anchor_scores = tuple(float(a["score"]) for a in anchors)
        anchor_held = tuple(tuple(a["held"]) for a in anchors)
        # the fused score less the boosts anchors.cypher added for the entities each anchor holds
        weights = {f"{e['type']}:{e['key']}": float(e["weight"]) for e in params["entities"]}
        anchor_text_scores = tuple(
            score - self.settings.entity_boost * sum(weights.get(e, 0.0) for e in held)
            - self.settings.coverage_boost * max(len(held) - 1, 0)
            for score, held in zip(anchor_scores, anchor_held, strict=True))
        rows = [row for row in found if row["doc_id"] is not None]
        explained = tuple(self._explanation(reading, as_of, known_at)
                          for reading in (rows[0]["readings"] or [] if rows else []))
        results = []
        suppressed: set[str] = set()
        ambiguous: dict[str, None] = {}
        for row in rows:
            chain = tuple(hop_from(h) for h in row["chain"])
            if chain:
                suppressed.add(row["anchor_id"])
            # kappa > 1 (paper, Def. 5): a scope entity of the anchor holds several chains (two
            # heads or more: @several_chains, the test of analyst/multi_chain_scopes), so the
            # scope alone does not identify the chain. A scope holding more documents than the
            # anchor's closure is no such sign: the anchor may sit inside its one chain
            for scope in row["anchor_scope"]:
                if scope["several_chains"]:
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
            anchor_scores=anchor_scores,
            anchor_held=anchor_held if any(anchor_held) else (),
            anchor_text_scores=anchor_text_scores,
            # LinkedEntity.parameter: only identifiers and partial identifiers count mentions
            question_identifiers=tuple(f"{e['type']}:{e['key']}" for e in params["entities"]
                                       if e["mentions"]),
            readings=explained,
            beyond=sum(1 for a in anchors if a["rank"] >= params["anchors"]),
            question_readings=tuple(params["word_readings"]),
            question_spellings=tuple(params["name_spellings"]),
            anchor_search_cut=cut,
            cues=self.linker.registry.lexicon,
        )

    def _read_deep_enough(self, params: dict[str, Any], **extra: Any) -> tuple[list[Any], bool]:
        """car's rows, searched deep enough. Each index returns its top ``candidates`` before
        the time filter (as of a date, as known at an instant), so documents that arrived later
        can crowd out every one visible then: search again 4x deeper until the anchors wanted
        are found, the indexes hold no more, or ``settings.max_candidates`` is reached -- then
        True (the bound cut the search; Retrieval.anchor_search_cut). ``params['candidates']``
        is left at the depth read."""
        searchable: int | None = None
        while True:
            found = self.store.read("car", **self._anchor_parameters(params), **extra)
            if params["as_of"] is None and params["known_at"] is None:
                return found, False
            anchors = found[0]["anchors"] if found else []
            if sum(1 for a in anchors if a["rank"] < params["anchors"]) >= params["anchors"]:
                return found, False
            if searchable is None:
                searchable = int(self.store.read("searchable_count")[0]["searchable"])
            if params["candidates"] >= searchable:
                return found, False
            if params["candidates"] >= self.settings.max_candidates:
                return found, True
            params["candidates"] = min(params["candidates"] * 4, self.settings.max_candidates)

    def _explanation(self, reading: Mapping[str, Any], as_of: date | None,
                     known_at: datetime | None) -> Explanation:
        """One reading of car.cypher (an anchor's own closure) as ``explain`` gives it."""
        doc_id = reading["doc_id"]
        controlling = tuple(self._result({**c, "score": 1.0, "anchor_id": doc_id},
                                         tuple(hop_from(h) for h in c["chain"]))
                            for c in reading["controlling"])
        return self._explained(doc_id, reading, as_of, known_at, controlling)

    @staticmethod
    def _explained(doc_id: str, row: Mapping[str, Any], as_of: date | None,
                   known_at: datetime | None, controlling: tuple[Result, ...]) -> Explanation:
        # a document not among its own controlling documents is voided: superseded
        mine = [c for c in controlling if c.doc_id == doc_id]
        return Explanation(
            doc_id=doc_id,
            title=row["title"] or "",
            status=mine[0].status if mine else Status.SUPERSEDED,
            as_of=as_of,
            controlling=controlling,
            superseded_by=tuple(hop_from(h) for h in row["superseded_by"]),
            supersedes=tuple(hop_from(h) for h in row["supersedes"]),
            scope=tuple(row["scope"]),
            known_at=known_at,
            ambiguous_scopes=tuple(row["several_chains"]),
            text=row.get("text") or "",
            kind=row.get("kind"),
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
            amendments=tuple(hop_from(h) for h in row.get("amendments") or ()),
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
        self.check_domain(domain, known_at)
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

    def quote_sharers(self, doc_id: str, passage: str, as_of: date | None = None,
                      known_at: datetime | None = None) -> int:
        """How many other documents of ``doc_id``'s kind and scope, outside its supersession
        chain, hold ``passage`` (a span of its title or text, as it writes it) in their title
        and text, word for word: whether a question quoting it names ``doc_id`` or a family's
        boilerplate (``quoting.MAX_QUOTE_SHARERS``). In the corpus as of ``as_of`` and as
        recorded at ``known_at`` (None: now), the one the verdict's retrieval read."""
        wanted = words(passage)
        if not wanted:
            return 0
        rows = self.store.read("quote_sharers", doc_id=doc_id, lucene=phrase_query(passage),
                               limit=QUOTE_HITS, as_of=as_of, known_at=known_at)
        return sum(hit_holds(row, wanted) for row in rows)

    def quoted_documents(self, passage: str, as_of: date | None = None,
                         known_at: datetime | None = None) -> list[tuple[str, str]]:
        """The documents the fulltext index finds best for ``passage`` (a stretch of a
        question's words, its terms OR-ed; queries/quoted_documents.cypher), as (id, title and
        text): where a verdict looks for a document the question quotes that no linked name led
        to. In the corpus as of ``as_of`` and as recorded at ``known_at`` (None: now)."""
        lucene = fulltext_query(passage)
        if not lucene:
            return []
        rows = self.store.read("quoted_documents", lucene=lucene, limit=QUOTED_HITS,
                               as_of=as_of, known_at=known_at)
        return [(row["id"], f"{row['title'] or ''} {row['text'] or ''}") for row in rows]

    def answering_kinds(self, as_of: date | None = None,
                        known_at: datetime | None = None) -> frozenset[str]:
        """The kinds of document that, in the graph as of ``as_of`` and as recorded at
        ``known_at`` (None: now), supersede others and are never superseded themselves
        (queries/answering_kinds.cypher); read once per graph version, date and instant."""
        known = self._answering  # refresh() starts a new one for a new graph version
        key = (as_of, known_at)
        if key not in known:
            if len(known) >= ANSWERING_KINDS_KEPT:  # replays of many instants: keep it bounded
                known.clear()
            rows = self.store.read("answering_kinds", as_of=as_of, known_at=known_at)
            known[key] = frozenset(rows[0]["kinds"])
        return known[key]

    def kind_holders(self, doc_id: str, mentions: Sequence[Sequence[str]],
                     as_of: date | None = None, known_at: datetime | None = None) -> int:
        """How many other documents of ``doc_id``'s kind hold (are scoped to, identified or named
        by) an entity of every one of ``mentions`` (each the "type:key" of the entities one
        mention was linked to), counted up to ``KIND_HOLDERS_READ`` (queries/kind_holders.cypher).
        In the corpus as of ``as_of`` and as recorded at ``known_at`` (None: now)."""
        asked = [[dict(zip(("type", "key"), entity.split(":", 1), strict=True)) for entity in group]
                 for group in mentions]
        if not asked or not all(asked):
            raise ValueError("kind_holders needs at least one mention, each of one entity or more")
        rows = self.store.read("kind_holders", doc_id=doc_id, mentions=asked, limit=KIND_HOLDERS_READ,
                               as_of=as_of, known_at=known_at)
        return rows[0]["holders"] if rows else 0

    def word_holders(self, doc_id: str, kind: str, asked: Sequence[str], as_of: date | None = None,
                     known_at: datetime | None = None) -> list[tuple[bool, int] | None]:
        """For each word of ``asked``: whether ``doc_id`` holds it in some form (the index stems)
        and how many other documents of ``kind`` do; None when more hits than
        ``WORD_HOLDERS_READ`` leave both unknown. A word no document holds: (False, 0). The
        corpus as of ``as_of`` and as recorded at ``known_at`` (None: now); one statement
        (queries/word_holders.cypher)."""
        asks = [{"i": i, "lucene": lucene_escape(word)} for i, word in enumerate(asked)]
        found: list[tuple[bool, int] | None] = [(False, 0)] * len(asked)
        if not asks:
            return found
        for row in self.store.read("word_holders", asks=asks, doc_id=doc_id, kind=kind,
                                   limit=WORD_HOLDERS_READ, as_of=as_of, known_at=known_at):
            found[row["i"]] = ((row["own"], row["holders"])
                               if row["own"] or row["read"] < WORD_HOLDERS_READ else None)
        return found

    def passage_holders(self, asks: Sequence[tuple[str, str]], as_of: date | None = None,
                        known_at: datetime | None = None) -> list[int | None]:
        """For each (doc_id, passage) -- a span of the document's title or text -- how many
        other documents of its kind, anywhere in the corpus and outside its supersession chain,
        hold the passage word for word; None when the count vouches for nothing: the fulltext
        index does not find the document itself by the passage (stop words only), or finds more
        hits than are read. The corpus as of ``as_of`` and as recorded at ``known_at`` (None:
        now). One statement for all of them."""
        phrases = [{"i": i, "doc_id": doc_id, "limit": QUOTE_HITS,
                    "lucene": phrase_query(passage)}
                   for i, (doc_id, passage) in enumerate(asks) if words(passage)]
        counts: list[int | None] = [None] * len(asks)
        if not phrases:
            return counts
        for row in self.store.read("passage_holders", asks=phrases, as_of=as_of, known_at=known_at):
            hits, passage = row["hits"], asks[row["i"]][1]
            if row["read"] < QUOTE_HITS and any(hit["own"] for hit in hits):
                wanted = words(passage)
                counts[row["i"]] = sum(not hit["own"] and hit_holds(hit, wanted) for hit in hits)
        return counts

    def explain(self, doc_id: str, as_of: date | None = None,
                known_at: datetime | None = None) -> Explanation:
        """Where one document stands as of a date: its status, the edges in force around it and
        its controlling documents (closure.cypher with the document as the only anchor).
        ``known_at``: as car-graph recorded it at that instant (None: the current graph)."""

        clocks = {"known_at": known_at}

        def work(tx: Any) -> tuple[list[Any], list[Any]]:
            own = list(tx.run(cypher.statement("explain", history=cypher.reads_history("explain", clocks)),
                              doc_id=doc_id, as_of=as_of, known_at=known_at))
            if not own or not own[0]["visible"]:
                return own, []
            rows = list(tx.run(
                cypher.statement("closure", history=cypher.reads_history("closure", clocks)), anchors=[{"id": doc_id, "rank": 0, "score": 1.0}],
                as_of=as_of, known_at=known_at, embedding=None, k=EXPLAIN_LIMIT,
            ))
            return own, rows

        own, rows = self.store.in_read_transaction(work)
        if not own or not own[0]["visible"]:
            raise NotFoundError(f"no document {doc_id!r}" + (f" as of {as_of}" if as_of else "")
                                + (f" as known at {known_at.isoformat()}" if known_at else ""))
        controlling = tuple(self._result(c, tuple(hop_from(h) for h in c["chain"])) for c in rows)
        return self._explained(own[0]["doc_id"], own[0], as_of, known_at, controlling)
