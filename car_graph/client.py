"""CarClient: the Python entry point for RAG applications.

    with CarClient.from_env() as car:
        for result in car.retrieve("Is lodash still vulnerable to prototype pollution?"):
            print(result.doc_id, result.status, [h.rule for h in result.chain])

The driver is created at the edge (``from_env``) or passed in; models load on first use.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from neo4j import Driver
from rapidfuzz import fuzz, process
from tqdm import tqdm

from car_graph import analyst, schema
from car_graph.analyst import QueryResult
from car_graph.connection import open_driver
from car_graph.domains import Domain, domain_to_mapping, stored_domains
from car_graph.embedding import DEFAULT_EMBEDDING_DEVICE, Embedder, create_embedder
from car_graph.errors import (
    ConfigError,
    EmptyGraphError,
    NotFoundError,
    RulesChangeRefused,
    RulesWarningError,
    UnknownDocumentError,
    UnknownDomainError,
)
from car_graph.evaluation import (
    EvaluationReport,
    VerdictReport,
    evaluate,
    read_queries,
    recorded_embedders,
)
from car_graph.extraction import EntityExtractor
from car_graph.history import KnownAtPin, RunInfo, list_runs, pin_known_at
from car_graph.ingest.pipeline import (
    DeleteSummary,
    DomainRemoval,
    IngestSummary,
    PurgeSummary,
    add_mentioned_names,
    delete_documents,
    flips,
    ingest_records,
    purge_history,
    rehearse_statuses,
    remove_domain,
    rule_warnings,
    rules_for_records,
)
from car_graph.ingest.rulesets import Vocabulary, add_records, stored_rulesets, tally
from car_graph.ingest.sources import read_source
from car_graph.metrics import Reading, VerdictOutcome, score_verdicts
from car_graph.records import DocumentRecord
from car_graph.retrieval import Retrieval, RetrievalSettings, Retriever
from car_graph.rules import ANY_DOMAIN, Rule, read_domain_file, ruleset_name
from car_graph.settings import Settings
from car_graph.store import GraphStore, RehearsalStore
from car_graph.target import resolve_target
from car_graph.types import DocumentHistory, Explanation, KnownAt, Result, instant
from car_graph.verdict import (
    VERDICT_DEPTH,
    VERDICT_MARGIN,
    Verdict,
    kind_of_status,
    outcome,
    verdict_for,
    with_llm,
)

logger = logging.getLogger(__name__)

# A rules change that would close more than this share of its rule set's edges is refused
# unless confirmed (--yes): a misspelt scope type or kind closes them all.
RULES_CHANGE_CLOSE_LIMIT = 0.25


@dataclass
class DomainInfo:
    """A domain as the graph knows it (``car-graph domains``)."""

    name: str
    documents: int
    declared: bool  # a YAML declaration is stored (identifiers, names)
    builtin: bool  # an installed domain (a folder of ingest/domains/ or an entry point)
    ruleset: dict[str, Any] | None  # the stored rule set (StoredRuleSet.to_json) or None
    declaration: dict[str, Any] | None = None  # `domains show`: the stored declaration
    changes: list[dict[str, Any]] = field(default_factory=list)  # `domains show`: newest first

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "documents": self.documents, "declared": self.declared,
                "builtin": self.builtin, "ruleset": self.ruleset,
                "declaration": self.declaration, "changes": self.changes}


class CarClient:
    def __init__(
        self,
        driver: Driver,
        database: str | None = None,
        *,
        embedder: Embedder | None = None,
        extractor: EntityExtractor | None = None,
        embedding_model: str | None = None,
        embedding_variant: str | None = None,
        embedding_device: str | None = None,
        home: Path | None = None,
        retrieval_settings: RetrievalSettings | None = None,
        owns_driver: bool = False,
        uri: str | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.store = GraphStore(driver, database, uri)
        self._embedder = embedder
        self._extractor = extractor
        self._embedding_model = embedding_model
        self._embedding_variant = embedding_variant
        self._embedding_device = embedding_device
        self._home = home
        self._retrieval_settings = retrieval_settings
        self._owns_driver = owns_driver
        self._retriever: Retriever | None = None
        # models and the retriever are made once even when threads (car-graph mcp's concurrent
        # reads) ask for them at the same moment; using them needs no lock
        self._creating = threading.RLock()

    @classmethod
    def from_env(cls, settings: Settings | None = None, **kwargs: Any) -> CarClient:
        """Connect with NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD, or the managed local server.

        The driver comes from connection.open_driver, with car-graph's notification policy."""

        settings = settings or Settings.from_env()
        target = resolve_target(settings)
        return cls(
            open_driver(target),
            settings.database,
            embedding_model=settings.embedding_model,
            embedding_variant=settings.embedding_variant,
            embedding_device=settings.embedding_device,
            home=settings.home,
            owns_driver=True,
            uri=target.uri,
            **kwargs,
        )

    # -- lazily loaded models ------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            with self._creating:
                if self._embedder is None:
                    # None falls back to the library defaults; from_env passes the environment's choices
                    self._embedder = create_embedder(
                        self._embedding_model, self._embedding_variant,
                        device=self._embedding_device or DEFAULT_EMBEDDING_DEVICE, home=self._home)
        return self._embedder

    @property
    def extractor(self) -> EntityExtractor:
        if self._extractor is None:
            with self._creating:
                if self._extractor is None:
                    # Rules only: a statistical model, if one happens to be installed, would cut
                    # ingest throughput ~15x for mentions that retrieval does not use.
                    self._extractor = EntityExtractor(use_statistical=False)
        return self._extractor

    @property
    def retriever(self) -> Retriever:
        """One Retriever per client, rebuilt after this client changes the graph (its linker
        reads the graph's domains once, and it remembers analysed questions)."""
        retriever = self._retriever
        if retriever is None:
            with self._creating:
                retriever = self._retriever
                if retriever is None:
                    retriever = Retriever(self.store, self.embedder, self.extractor,
                                          self._retrieval_settings)
                    self._retriever = retriever
                    self._warn_if_questions_embed_differently()
        return retriever

    def _warn_if_questions_embed_differently(self) -> None:
        """Questions embedded by another variant than the documents still find them (the
        variants agree closely) but rank a little differently: say so once, don't refuse."""
        from car_graph import schema
        from car_graph.embedding import identity_of

        recorded, mine = schema.recorded_embedder(self.store), identity_of(self.embedder)
        if recorded is not None and (recorded.model, recorded.variant) != (mine.model_name, mine.variant):
            logger.warning("the graph's documents were embedded by %s, questions are embedded by "
                           "%s [%s]; set CAR_EMBEDDING_MODEL / CAR_EMBEDDING_VARIANT to match",
                           recorded.describe(), mine.model_name, mine.variant)

    # -- operations ----------------------------------------------------------------------------
    def apply_schema(self) -> Any:

        return schema.apply(self.driver, self.database, self.embedder.dimensions)

    def claim_embedder(self) -> Any:
        """Record this client's embedder on the graph, or raise EmbedderMismatchError if the
        graph's vectors came from another model or variant (nothing is written then)."""
        from car_graph import schema
        from car_graph.embedding import identity_of

        identity = identity_of(self.embedder)
        return schema.claim_embedder(self.store, identity.model_name, identity.variant,
                                     identity.dimensions)

    def ingest(
        self,
        records: Iterable[DocumentRecord],
        rules: Sequence[Rule] | None = None,
        *,
        progress: bool = False,
        problems: Sequence[Any] = (),
        domain: Domain | None = None,
        batch_size: int = 256,
        ruleset: str | None = None,
        rules_source: str = "api",
        rules_origin: str | None = None,
        refresh: bool = False,
        strict: bool = False,
        yes: bool = False,
        dry_run: bool = False,
        close_limit: float = RULES_CHANGE_CLOSE_LIMIT,
        vocabulary: Vocabulary | None = None,
    ) -> IngestSummary:
        """Load records. ``domain``: a user domain (identifier patterns, name types) declared in
        YAML; it is registered for extraction and stored in the graph for later questions.

        Rules: the graph keeps its rule sets and applies them to every later ingest. ``rules``
        given is a new version of the rule set ``ruleset`` (default: the name of ``domain`` when
        one is given, as a rules file names its domain; else ``*``): a rules change, applied to
        the whole graph. A change that would close more
        than ``close_limit`` of the set's edges raises RulesChangeRefused (nothing written)
        unless ``yes``. ``dry_run``: do everything in a transaction that is rolled back, and
        report what would change (edges opened and closed, statuses that flip).

        The summary's ``warnings`` list every rule that matches no document and the records a
        rule cannot evaluate (``vocabulary``: of the records, when they are a stream read
        beforehand -- ``ingest_file`` does so; a sequence is read here); ``strict`` makes them
        a RulesWarningError before anything is written. ``refresh``: write unchanged records
        again too, so their rules are re-evaluated."""
        self.apply_schema()
        self.claim_embedder()
        self._retriever = None  # questions analysed before this ingest may link differently
        # the graph's own domains first (an ingest without --rules derives links as the one
        # that declared them did); a domain given here replaces its stored version
        for stored in stored_domains(self.store):
            if stored.name not in self.extractor.registry and (domain is None or stored.name != domain.name):
                self.extractor.register_domain(stored)
        if domain is not None:
            self.extractor.register_domain(domain)
        if ruleset is None and domain is not None:
            ruleset = domain.name
        if vocabulary is None:
            vocabulary = {}
            if isinstance(records, Sequence):
                add_records(vocabulary, records)
        planned = rules_for_records(self.store, self.extractor.registry,
                                    {d for d, _ in vocabulary}, rules, ruleset)
        warnings = rule_warnings(self.store, planned, vocabulary)
        if strict and warnings:
            raise RulesWarningError([str(w) for w in warnings])
        run_ingest = functools.partial(
            self._ingest_into, records=records, rules=rules, domain=domain, ruleset=ruleset,
            rules_source=rules_source, rules_origin=rules_origin, refresh=refresh,
            progress=progress, problems=problems, batch_size=batch_size)
        if dry_run:
            summary = self._rehearse(run_ingest)
        else:
            if rules is not None and not yes:
                self._check_rules_change(rules, ruleset, rules_source, rules_origin, close_limit,
                                         warnings)
            summary = run_ingest(self.store)
        summary.warnings = warnings
        return summary

    def _ingest_into(self, store: GraphStore, records: Iterable[DocumentRecord],
                     rules: Sequence[Rule] | None, *, domain: Domain | None,
                     overlap: bool = True, **options: Any) -> IngestSummary:
        if domain is not None:
            store.write("upsert_domain", domain=domain.name,
                        spec=json.dumps(domain_to_mapping(domain), sort_keys=True))
        return ingest_records(records, store, self.embedder, self.extractor, rules,
                              overlap=overlap, **options)

    def _rehearse(self, work: Callable[..., IngestSummary]) -> IngestSummary:
        """Run ``work(store)`` in one transaction that is rolled back; the summary says what it
        did, with the statuses that flipped."""
        with RehearsalStore.over(self.store) as rehearsal:
            before = rehearse_statuses(rehearsal)
            summary = work(rehearsal, overlap=False)
            summary.flips = flips(before, rehearse_statuses(rehearsal))
        summary.dry_run = True
        return summary

    def _check_rules_change(self, rules: Sequence[Rule], ruleset: str | None, source: str,
                            origin: str | None, close_limit: float,
                            warnings: Sequence[Any] = ()) -> None:
        """Refuse a rules change that would close more than ``close_limit`` of its rule set's
        edges: rehearsed alone (no records), then rolled back."""
        name = ruleset or ruleset_name(rules)
        old = stored_rulesets(self.store).get(name)
        if old is None:
            return
        held = sum(n for rule, n in self.store.edges_by_rule().items()
                   if rule in {r.name for r in old.rules})
        with RehearsalStore.over(self.store) as rehearsal:
            summary = ingest_records([], rehearsal, self.embedder, self.extractor, rules,
                                     ruleset=name, rules_source=source, rules_origin=origin,
                                     progress=False, overlap=False)
        closing = sum(c.closed_count for c in summary.rules_changes)
        summary.warnings = list(warnings)
        if held and closing > close_limit * held:
            raise RulesChangeRefused(name, closing, held, close_limit, summary)

    def ingest_file(
        self, path: Path, *, format: str = "jsonl", rules_path: Path | None = None,
        progress: bool = False, batch_size: int = 256, refresh: bool = False,
        strict: bool = False, yes: bool = False, dry_run: bool = False,
    ) -> IngestSummary:
        """Ingest a file (``format``: jsonl or a domain's format), with ``rules_path`` as the new
        version of the rule set its file names (see :meth:`ingest`)."""
        problems: list[Any] = []
        domain, rules, ruleset = read_domain_file(rules_path) if rules_path else (None, None, None)
        if domain is not None:
            self.extractor.register_domain(domain)
        # Names documents mention must be known before any text is read: a first, cheap pass
        # over the file (no embedding), which also tallies what the records offer the rules;
        # the second pass streams the records batch by batch.
        vocabulary: Vocabulary = {}
        add_mentioned_names(self.extractor, tally(vocabulary, read_source(path, format, [])))
        records = read_source(path, format, problems)
        return self.ingest(records, rules, progress=progress, problems=problems, domain=domain,
                           batch_size=batch_size, ruleset=ruleset,
                           rules_source="file" if rules_path else "api",
                           rules_origin=str(rules_path) if rules_path else None,
                           refresh=refresh, strict=strict, yes=yes, dry_run=dry_run,
                           vocabulary=vocabulary)

    def delete(self, ids: Sequence[str]) -> DeleteSummary:
        """Delete documents (by id) with their edges, re-evaluating what depended on them."""

        self._retriever = None
        return delete_documents(self.store, ids)

    def domains(self) -> list[DomainInfo]:
        """Every domain the graph knows: of its documents, its stored declarations and its rule
        sets (``*``: rules for every domain), with where each comes from."""
        documents = {row["domain"]: int(row["documents"]) for row in self.store.read("domain_documents")}
        declared = {d.name for d in stored_domains(self.store)}
        rulesets = stored_rulesets(self.store)
        installed = set(self.extractor.registry.names)
        names = sorted({*(d for d in documents if d), *declared, *rulesets},
                       key=lambda n: (n == ANY_DOMAIN, n))
        return [DomainInfo(
            name=name, documents=documents.get(name, 0), declared=name in declared,
            builtin=name in installed and name not in declared,
            ruleset=rulesets[name].to_json() if name in rulesets else None,
        ) for name in names]

    def domain(self, name: str) -> DomainInfo:
        """One domain (see :meth:`domains`) with its declaration and its rule set's recorded
        changes; UnknownDomainError naming the known ones otherwise."""
        found = {d.name: d for d in self.domains()}
        if name not in found:
            raise UnknownDomainError(name, tuple(found))
        info = found[name]
        declaration = next((d for d in stored_domains(self.store) if d.name == name), None)
        info.declaration = domain_to_mapping(declaration) if declaration is not None else None
        info.changes = [
            {key: (json.loads(value) if key in ("opened", "closed") else
                   str(value) if key == "at" else value) for key, value in dict(row).items()}
            for row in self.store.read("ruleset_history", name=name)]
        return info

    def remove_domain(self, name: str) -> DomainRemoval:
        """Forget a domain's stored declaration and rule set (its rules' edges close, reason
        ``rule removed``); its documents stay. UnknownDomainError if the graph keeps neither."""
        info = {d.name: d for d in self.domains()}.get(name)
        if info is None or not (info.declared or info.ruleset):
            raise UnknownDomainError(name, tuple(d.name for d in self.domains()
                                                 if d.declared or d.ruleset))
        self._retriever = None
        return remove_domain(self.store, name)

    def purge(self, before: date | datetime | str | None = None, *, ids: Sequence[str] = (),
              reason: str | None = None) -> PurgeSummary:
        """Really erase history, as a recorded purge run (with ``reason``): what was closed
        before ``before`` (a date: its first instant; a datetime without a zone is UTC) --
        closed versions no kept edge needs, closed edges, retired documents left without
        either -- or the whole recorded history of the documents ``ids``. The current state is
        never touched, nor any answer at an instant after the cut-off."""

        return purge_history(self.store, None if before is None else instant(before, day_end=False),
                             ids, reason)

    def retrieve(
        self, question: str, k: int = 5, as_of: date | None = None, domain: str | None = None,
        *, known_at: KnownAt = None,
    ) -> list[Result]:
        return list(self.retrieve_report(question, k, as_of, domain, known_at=known_at).results)

    def retrieve_report(
        self, question: str, k: int = 5, as_of: date | None = None, domain: str | None = None,
        *, known_at: KnownAt = None, strict: bool = False,
    ) -> Retrieval:
        """Results plus the query's anchors, suppressed anchors and ambiguous scopes.
        ``known_at`` (a date: its end; a datetime; ISO text; ``run:N``): the answer car-graph
        would have given then, from the graph as it had recorded it (None: the current graph;
        car_graph/history.py). ``strict``: refuse an instant before a purge's cut-off."""
        pin = self.pin_known_at(known_at, strict=strict)
        retrieval = self.retriever.retrieve(question, k, as_of, domain, pin.instant if pin else None)
        return _stamped(retrieval, pin)

    def runs(self) -> list[RunInfo]:
        """Every recorded run, oldest first (`car-graph runs`)."""
        return list_runs(self.store)

    def pin_known_at(self, known_at: KnownAt, *, strict: bool = False) -> KnownAtPin | None:
        """``known_at`` resolved against the graph's commits (car_graph/history.py)."""
        if known_at is None:
            return None
        self._require_documents()
        return pin_known_at(self.store, known_at, strict=strict)

    def _known_instant(self, known_at: KnownAt) -> datetime | None:
        """The transaction time a known-at read uses (pin_known_at), or None for now."""
        pin = self.pin_known_at(known_at)
        return pin.instant if pin is not None else None

    def _require_documents(self) -> None:
        """EmptyGraphError before any ingest (rather than answers about a graph never loaded)."""
        if self.document_count() == 0 and not self.store.read("known_at_pin", known_at=None,
                                                               run=None)[0]["last"]:
            raise EmptyGraphError()

    def explain(self, doc_id: str, as_of: date | None = None, *,
                known_at: KnownAt = None, strict: bool = False) -> Explanation:
        """Raises UnknownDocumentError (with the nearest existing ids) for an unknown id.
        ``known_at``: as car-graph recorded the document and its edges then (``strict``: as
        retrieve_report)."""

        pin = self.pin_known_at(known_at, strict=strict)
        try:
            return _stamped(self.retriever.explain(doc_id, as_of, pin.instant if pin else None), pin)
        except NotFoundError as exc:
            if self.document_count() == 0:

                raise EmptyGraphError() from exc
            raise UnknownDocumentError(doc_id, self.nearest_ids(doc_id)) from exc

    def history(self, doc_id: str) -> DocumentHistory:
        """Every recorded version of ``doc_id`` and every supersession edge it was an end of,
        current and closed, with both clocks (queries/history.cypher). A deleted document has
        its history too; an id never recorded raises UnknownDocumentError."""
        rows = self.store.read("history", doc_id=doc_id)
        if not rows:
            if self.document_count() == 0:
                raise EmptyGraphError()
            raise UnknownDocumentError(doc_id, self.nearest_ids(doc_id))
        row = rows[0]
        return DocumentHistory(
            doc_id=row["doc_id"], current=bool(row["current"]),
            retired_at=analyst.plain(row["retired_at"]),
            versions=tuple(analyst.plain(v) for v in row["versions"]),
            edges=tuple(analyst.plain(e) for e in row["edges"]),
        )

    def document_count(self) -> int:
        return self.store.counts()["documents"]

    def nearest_ids(self, doc_id: str, limit: int = 5, pool: int = 20_000) -> tuple[str, ...]:
        """Existing ids closest to ``doc_id`` (edit similarity), drawn from those sharing its
        longest prefix that has any, so large graphs are not scanned whole."""

        candidates: list[str] = []
        for cut in (doc_id.find(":") + 1, 3, 0):
            prefix = doc_id[:cut] if cut > 0 else ""
            candidates = [r["doc_id"] for r in self.store.read("document_ids", prefix=prefix, limit=pool)]
            if candidates:
                break
        matches = process.extract(doc_id, candidates, scorer=fuzz.WRatio, limit=limit)
        return tuple(match for match, _score, _ in matches)

    def answer(
        self, question: str, as_of: date | None = None, *, k: int = 5, domain: str | None = None,
        llm: Callable[[str], str] | None = None, margin: float = VERDICT_MARGIN,
        known_at: KnownAt = None, strict: bool = False,
    ) -> Verdict:
        """Is the document the question is about in force, and if not, what controls it?

        Deterministic, and one statement: retrieval returns, from the same walk, the closures
        of the top anchors (and of the best holders of each entity the question links, when it
        links several), as of ``as_of``; one subject is asserted only
        when the evidence singles it out, else the verdict is AMBIGUOUS with its candidates.
        The verdict is a function of the question and the graph: ``k`` sets how many results
        ``verdict.retrieval`` lists, never what the verdict weighs (``_judged_retrievals``).
        With ``llm`` (a function prompt -> text) the verdict also carries the model's answer to
        ``verdict.prompt()``; car-graph never calls a model on its own. ``known_at``: the
        verdict car-graph would have given then (readings and any explain read as recorded then).
        """

        pin = self.pin_known_at(known_at, strict=strict)
        listed, judged = self._judged_retrievals(question, k, as_of, domain, pin.instant if pin else None)
        verdict = self.verdict_on(judged, k=VERDICT_DEPTH, margin=margin)
        if listed is not judged or pin is not None:
            verdict = replace(verdict, retrieval=_stamped(listed, pin))
        return with_llm(verdict, llm) if llm is not None else verdict

    def _judged_retrievals(self, question: str, k: int, as_of: date | None, domain: str | None,
                           known_at: datetime | None) -> tuple[Retrieval, Retrieval]:
        """(the retrieval listing ``k`` results, the retrieval the verdict is judged on). The
        verdict reads what its own depth gives, never ``k``: ``VERDICT_DEPTH`` close anchors
        weighed, the closures of every anchor a retrieval at that depth returns
        (``_reading_depth``: a question may quote one far behind the lead as a second subject,
        quoting.quoted_beside; measured at 0-2 % of the statement's time, no measurable
        difference between the top 5 and the top 10, docs/notes/verdict-rules-2026-12.md) and ``VERDICT_DEPTH``
        holders of each entity the question links. One statement serves both when ``k``
        changes only how many rows come back (``Retriever.reads_alike``); a longer listing
        costs a second one."""
        retriever, readings = self.retriever, self._reading_depth(VERDICT_DEPTH)
        if retriever.reads_alike(k, VERDICT_DEPTH):
            retrieval = retriever.retrieve(question, k, as_of, domain, known_at, readings=readings,
                                           reading_margin=math.inf, holders=VERDICT_DEPTH)
            return retrieval, retrieval
        return (retriever.retrieve(question, k, as_of, domain, known_at),
                retriever.retrieve(question, VERDICT_DEPTH, as_of, domain, known_at, readings=readings,
                                   reading_margin=math.inf, holders=VERDICT_DEPTH))

    def _reading_depth(self, k: int) -> int:
        """How many top anchors' closures a verdict's retrieval walks: every anchor it returns
        (at least k). When close candidates of a kind that only answers are set aside
        (``verdict.asked_window``), the readings the question asks about fill the k places
        from further down: "Is the medicine given for convulsion banned now?" leads with a
        withdrawal whose reason is convulsion, and the sixth approval for it is as likely
        meant as the second."""
        return max(k, self.retriever.settings.min_anchors)

    def verdict_on(self, retrieval: Retrieval, *, k: int = 5, margin: float = VERDICT_MARGIN,
                   explain: Callable[[str], Explanation] | None = None) -> Verdict:
        """The verdict on a retrieval: the close anchors' closures, judged by
        ``verdict.judge``; a question whose linked entities are held by different anchors gets
        one verdict per named subject. Closures come from ``retrieval.readings`` (walked by the
        retrieval itself); only an anchor it did not walk costs an ``explain``."""
        walked = retrieval.walked
        explain_one = explain or (lambda doc_id: self.retriever.explain(
            doc_id, retrieval.as_of, retrieval.known_at))

        def closure_of(doc_id: str) -> Explanation:
            return walked[doc_id] if doc_id in walked else explain_one(doc_id)

        counted: dict[tuple[str, str], int] = {}

        def sharers(doc_id: str, passage: str) -> int:  # in the corpus the retrieval read
            # asked once per verdict: the rules ask of one quote again (a mention's verdict,
            # then the whole question's), and the answer cannot change within one retrieval
            if (doc_id, passage) not in counted:
                counted[doc_id, passage] = self.retriever.quote_sharers(
                    doc_id, passage, retrieval.as_of, retrieval.known_at)
            return counted[doc_id, passage]

        return verdict_for(retrieval, closure_of, k, margin, sharers=sharers, corpus=self.retriever)

    def context(
        self, question: str, as_of: date | None = None, *, k: int = 5, domain: str | None = None,
        limit: int | None = 8, known_at: KnownAt = None,
    ) -> str:
        """The prompt-ready context block for ``question``: ``answer(...).context()``; with
        ``known_at``, first a line saying which recorded state answered ("As known at ..."), so
        a historical answer never reads as today's."""
        verdict = self.answer(question, as_of, k=k, domain=domain, known_at=known_at)
        retrieval = verdict.retrieval
        if retrieval is None or retrieval.known_at is None:
            return verdict.context(limit)
        note = f" Note: {retrieval.known_at_note}." if retrieval.known_at_note else ""
        return (f"As known at {retrieval.known_at.isoformat()} (car-graph's record then, not "
                f"necessarily today's).{note}\n{verdict.context(limit)}")

    def guard(
        self, documents: Iterable[Any], question: str | None = None, as_of: date | None = None,
        known_at: KnownAt = None, policy: str = "annotate", id_key: str = "doc_id",
    ) -> Any:
        """Guard what another retriever returned (car_graph/guard.py): each item (a string, a
        mapping with ``text``/``page_content`` and ``metadata``, or an object with those
        attributes) matched to a car-graph document by ``metadata[id_key]`` or by its text,
        with its status, verdict and controlling documents as of ``as_of``, and the
        ``policy``'s context (keep, annotate, replace, drop). Returns a GuardReport; items the
        graph does not hold pass through untouched."""
        from car_graph import guard
        from car_graph.extraction import stop_words

        return guard.guard(self.store, lambda: self.embedder, documents, question=question,
                           as_of=as_of, known_at=self._known_instant(known_at), policy=policy,
                           id_key=id_key, stop=stop_words())

    def check(self, text: str, as_of: date | None = None, *, known_at: KnownAt = None) -> Any:
        """The citator (car_graph/citator.py): every mention in ``text`` of a document the
        graph holds (identifiers of the graph's domains, names written in full), with its
        span, line, status as of ``as_of`` and controlling documents. Returns a CheckReport."""
        from car_graph import citator

        retriever = self.retriever
        if retriever.linker.names is None:  # a text has many lines: no name look-up per line
            retriever.load_names()
        return citator.check(self.store, retriever.linker, retriever.domains, text, as_of,
                             self._known_instant(known_at))

    def query(self, name: str, **params: Any) -> QueryResult:
        """Run an analyst query (``queries/analyst/NAME.cypher``) in a READ transaction."""

        return analyst.run_query(self.driver, self.database, name, params)

    def evaluate(
        self, queries_path: Path, k: int = 5, systems: Sequence[str] | None = None,
        domain: str | None = None, progress: bool = False, depth: int | None = None,
        known_at: KnownAt = None,
    ) -> EvaluationReport:
        """Score every system at k; ``depth`` > k retrieves deeper once, for ``tca_curves()``."""

        return evaluate(
            self.retriever, read_queries(queries_path), k=k, systems=systems, domain=domain,
            progress=progress, depth=depth, known_at=self._known_instant(known_at),
        )

    def evaluate_verdicts(
        self, queries_path: Path, k: int = 5, domain: str | None = None,
        margins: Sequence[float] = (VERDICT_MARGIN,), progress: bool = False,
    ) -> VerdictReport:
        """Score ``answer``'s verdicts on a queries file (gold: ``gold`` = the controlling
        documents, ``anchors`` = what the question is about), beside the naive baseline (the
        top-1 dense document's own status). With several ``margins`` each is scored from the
        same retrievals (the first is the reported one; the rest form the sweep). The verdicts
        do not depend on ``k`` (``answer``); it is reported as given."""
        if not margins:
            raise ConfigError("give at least one margin")
        queries = read_queries(queries_path)
        self.retriever.prepare(q.question for q in queries)
        cache: dict[tuple[str, date | None], Explanation] = {}

        def explain_as_of(as_of: date | None) -> Callable[[str], Explanation]:
            def explain(doc_id: str) -> Explanation:
                if (doc_id, as_of) not in cache:
                    cache[(doc_id, as_of)] = self.retriever.explain(doc_id, as_of)
                return cache[(doc_id, as_of)]
            return explain

        runs: dict[float, list[Any]] = {m: [] for m in margins}
        baseline: list[Any] = []
        for query in tqdm(queries, disable=not progress, desc="verdicts", unit="q"):
            explain = explain_as_of(query.as_of)
            retrieval = self.retriever.retrieve(query.question, VERDICT_DEPTH, query.as_of, domain,
                                                readings=self._reading_depth(VERDICT_DEPTH),
                                                reading_margin=math.inf, holders=VERDICT_DEPTH)
            for margin in margins:
                verdict = self.verdict_on(retrieval, k=VERDICT_DEPTH, margin=margin, explain=explain)
                runs[margin].append((outcome(verdict), query.gold, query.anchors))
            dense, _ = self.retriever.search("dense", query.question, 1, query.as_of, domain)
            baseline.append((naive_outcome(explain(dense[0]) if dense else None),
                             query.gold, query.anchors))
        return VerdictReport(
            k=k, n=len(queries), margin=margins[0],
            systems={"car": score_verdicts(runs[margins[0]]),
                     "dense_top1_status": score_verdicts(baseline)},
            sweep={m: score_verdicts(runs[m]) for m in margins},
            **recorded_embedders(self.retriever),
        )

    # -- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        if self._owns_driver:
            self.driver.close()

    def __enter__(self) -> CarClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()



def naive_outcome(explanation: Explanation | None) -> VerdictOutcome:
    """The naive baseline's verdict: the top-1 dense document taken as the subject, with its
    own status and controlling documents."""
    if explanation is None:
        return VerdictOutcome(kind="not_found")
    kind = kind_of_status(explanation.status).value
    return VerdictOutcome(kind=kind, reading=Reading(
        explanation.doc_id, kind, frozenset(r.doc_id for r in explanation.controlling)))


def _stamped(answer: Any, pin: KnownAtPin | None) -> Any:
    """A Retrieval or Explanation stamped with the instant its known-at read answers for (the
    last commit when the instant asked is beyond it) and the pin's note."""
    if pin is None:
        return answer
    return replace(answer, known_at=pin.shown, known_at_note=pin.note)
