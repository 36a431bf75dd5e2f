"""Which entities a question names: identifiers exactly, names with measured typo tolerance,
partial identifiers only when they point at few things. Generic: every domain fact (identifier
patterns, which identifiers may be named by their digits, name qualifiers) comes from the
``DomainRegistry`` the linker is given -- the retriever gives it the domains of the documents the
graph holds (``DomainRegistry.for_graph``), so a question is never read with the patterns of a
domain the graph has no document of. The question-side Lucene helpers (``question_terms``,
``fuzzy_query``, ``fulltext_query``) live here too.

Kinds of keys, and how each is linked:

* **Identifiers** (any declared pattern: CVE, NDC, a user's ticket id ...) and identifier-like
  tokens (letters and digits, or digits and hyphens) match entity keys exactly after
  normalisation -- never fuzzily, so CVE-2026-34569 never links its neighbour -34568.
* **Partial identifiers**: a distinctive run of at least ``min_partial_digits`` digits (a
  domain may set its own per identifier: ``IdentifierSpec.min_partial_digits``; not a
  year, not part of an identifier or version the question spells out), bare or in any phrasing,
  links the identifiers of partial-capable types whose key ends with it -- only when at most
  ``max_partial_matches`` do: among the documents of the names the question also gives
  ("django ... 2718"), or, when they hold none or no name is given, in the whole corpus. They
  are linked with equal weight, so the rest of the question (the fused semantic and lexical
  score) decides between them. "PREFIX-...DIGITS" narrows to keys that also start with the
  prefix.
* **Names** (scope keys people type: packages, drugs, cases, employees): every significant word
  of the name must be in the question. A word of 4+ letters may be off by one edit when the
  question's word is not itself a common word. A correction every candidate name it completes
  reads the same way links at full weight ("Kell" is one edit from "kwell" and "cell", but only
  Kwell is a name it completes); one with two or three readings ("Tovan": Povan or Trovan) links
  each reading at a share of the weight, so the rest of the question decides; more link none.
  Words of multi-word names may be off by one from 5 letters, where the other words vouch.
  Short names (at most ``short_name_length`` characters: tickers "GS", "C") link only as exact,
  case-preserving tokens.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import Stemmer
from rapidfuzz.distance import OSA

from car_graph.domains import DomainRegistry
from car_graph.extraction import EntityExtractor, english_tokenizer, stop_words
from car_graph.lexicon import Lexicon, lexicon
from car_graph.store import GraphStore
from car_graph.word_frequency import zipf_frequency

# ``words``: what a lower-cased text is made of -- letters and digits of any script ("médicament"
# is one word), split at everything else and at "_"
_WORD = re.compile(r"[^\W_]+")
# Tokens a question may use as identifiers: letters+digits or digit groups joined by - . / _ :
_ID_TOKEN = re.compile(r"(?<![\w-])(?=[\w.:/-]*\d)[A-Za-z0-9][\w.:/-]*[A-Za-z0-9](?![\w-])")
_DIGIT_RUN = re.compile(r"(?<!\d)\d+(?!\d)")
# "PREFIX-…1234" / "PREFIX-...1234": an identifier with its middle elided
_ELIDED = re.compile(r"(?<![\w-])([A-Za-z][\w-]*?)[-\s]*(?:…|\.\.\.+)\s*(\d{3,})(?!\d)")
# a dot only inside the token ("B.V"): a sentence's full stop is no part of "... shares of K."
_SHORT_TOKEN = re.compile(r"(?<![\w&.-])[A-Za-z](?:[A-Za-z0-9&]|\.(?=[A-Za-z0-9&])){0,2}(?![\w&-]|\.\w)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")
_INITIAL_BEFORE = re.compile(r"(?:^|\s)[A-Za-z]\.\s+\W*$")
_LABEL_COLON = re.compile(r":\s")
_YEAR = re.compile(r"^(?:1[89]|20)\d\d$")
# The English cue words (a bound of versions before a number, "numbered" before an identifier's
# tail, first-person possessives, reporting verbs) are data: car_graph/resources/lexicon/en.yaml.


@dataclass(frozen=True)
class LinkingSettings:
    min_fuzzy_length: int = 4           # one edit allowed from this many letters (single-word names)
    min_fuzzy_length_multiword: int = 5  # ... in names of two or more significant words
    common_word_zipf: float = 3.0       # a question word this frequent in English is never "corrected"
    short_name_length: int = 3          # names this short match only as exact, case-preserving tokens
    min_partial_digits: int = 4
    max_partial_matches: int = 3
    max_typo_readings: int = 3          # a typo with more readings than this links none of them
    name_candidates: int = 200          # fuzzy entity-name hits examined per question
    fuzzy_stems: bool = True            # also match a rare term's Porter stem with one edit
    term_pairs: bool = True             # also match the terms the question writes side by side, as phrases
    # Boost weights per kind of link. The dense and lexical scores are each normalised to [0, 1],
    # so an exact identifier (weight > 2) outranks every document that lacks it however well the
    # words match; a name (shared by many documents) only tips the balance -- unless a document
    # holds several linked entities (anchors.cypher's coverage boost).
    identifier_weight: float = 2.5
    name_weight: float = 1.0
    # A name word is *ordinary* in the corpus when it is a common English word (common_word_zipf)
    # and at least this many documents use it in their title or text without a name holding it
    # as a token scoping them, more of them than the name's own ("memory": hundreds of
    # documents, vm-memory two; a brand repeated in its molecule's other documents is no
    # English word). A name whose every significant word is ordinary does not link on those
    # words alone: only when the question writes the whole multi-token name as the corpus
    # spells it ("vm-memory"). ``None`` turns the rule off.
    ordinary_word_documents: int | None = 3
    ordinary_word_hits: int = 1000  # fulltext hits read per word to count its ordinary uses
    # A title defines a short name when its capitals are the initials of the words before it and
    # at most this many other content words are in the title ("The PPP Internet Protocol Control
    # Protocol (IPCP)" defines IPCP; "Server-Side Request Forgery (SSRF) in axios and node-fetch"
    # does not). A short name more documents define than max_defining_documents is a class of
    # documents, not one thing's name.
    definition_extra_words: int = 1
    max_defining_documents: int = 10
    # A defined name is near an identifier: the documents defining it are what the question
    # names, so they outrank siblings that use the acronym in every line (dense + lexical fit is
    # at most 2); the rest of the question decides among the editions defining it.
    defined_weight: float = 2.0


# the type of a short name linked through the titles that define it (no Entity node holds it)
DEFINED_NAME = "defined_name"


@dataclass(frozen=True)
class LinkedEntity:
    type: str
    key: str
    weight: float
    how: str  # identifier | partial | name | short_name | typo_reading | defined
    documents: tuple[str, ...] = ()  # defined: the documents whose titles define the name
    # typo_reading and partial: what the question writes that was read several ways ("bextar":
    # Bextra or Bexxar; "1705": the tail of two identifiers). Its readings are one mention of the
    # question, not several
    reading_of: str = ""
    # name and typo_reading: the question's words that name it, in the name's order, when they
    # are not the key's own words -- its significant words alone, a typo's correction ("zope"
    # read as zope2): how the question writes the name
    written_as: tuple[str, ...] = ()

    def parameter(self) -> dict[str, Any]:
        """The entity as anchors.cypher's ``$entities`` item. Identifiers also count where a
        document merely mentions them (at half weight); names only where they are scope; a
        name a title defines, in the documents listed."""
        return {"type": self.type, "key": self.key, "weight": self.weight,
                "mentions": self.how in ("identifier", "partial"), "documents": list(self.documents)}


def word_readings(linked: Iterable[LinkedEntity]) -> list[tuple[str, ...]]:
    """The linked entities ("type:key") read from one thing the question writes several ways
    (``LinkedEntity.reading_of``), one tuple per such word: one mention's readings."""
    read_from: dict[str, list[str]] = {}
    for e in linked:
        if e.reading_of:
            read_from.setdefault(e.reading_of, []).append(f"{e.type}:{e.key}")
    return [tuple(g) for g in read_from.values() if len(g) > 1]


def name_spellings(linked: Iterable[LinkedEntity]) -> list[tuple[str, tuple[str, ...]]]:
    """The linked entities ("type:key") the question names with words other than the key's
    own (``LinkedEntity.written_as``), each with those words."""
    return [(f"{e.type}:{e.key}", e.written_as) for e in linked if e.written_as]


@dataclass(frozen=True)
class TitleDefinition:
    """A short name a title defines: "The Point-to-Point Protocol (PPP) Version 2" defines
    ``PPP`` (as written) for "Point to Point Protocol", version 2."""

    short: str
    expansion: str
    versions: tuple[str, ...] = ()


# "(PPP)", "(IPv6)": a parenthesised term of letters and digits
_PARENTHESISED = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9]*)\s*\)")
_TITLE_WORD = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*")
# a version in a title: "Version 1.2", "v1.2", a bare dotted number
_TITLE_VERSION = re.compile(
    r"(?i)\bversion\s+(\d+(?:\.\d+)*)|\bv(\d+(?:\.\d+)+)\b|(?<![\w.])(\d+\.\d+(?:\.\d+)*)(?![\w.])")
# a term written with two or more capitals, as a question writes an acronym ("PPP", "IPv6")
_CAPITALISED_TERM = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?![\w-])")
# the version a question gives right after a name: "TLS 1.0", "TLS version 1.3", "TLSv1.2"
_VERSION_AFTER = re.compile(r"(?i)\s*(?:version\s+|v)?(\d+(?:\.\d+)*)(?![\w.]|\.\d)")


def title_versions(title: str) -> tuple[str, ...]:
    """The versions a title gives ("... Version 1.2", "v1.2", "1.2")."""
    return tuple(dict.fromkeys(next(g for g in m.groups() if g) for m in _TITLE_VERSION.finditer(title)))


def title_definitions(title: str, stop_words: frozenset[str], extra_words: int = 1) -> list[TitleDefinition]:
    """The short names ``title`` defines: a parenthesised term with two or more capitals, each
    capital (in order) the initial of a word just before it -- stop words, the later parts of
    hyphenated words and a version between them skipped ("Point-to-Point Protocol (PPP)",
    "Real-time Inter-network Defense (RID)", "Internet Protocol, Version 6 (IPv6)") -- in a title with at most ``extra_words`` content words
    besides the definition, its stop words and its version ("The PPP Internet Protocol Control
    Protocol (IPCP)"). A title that merely uses the name ("PPP LCP Extensions") defines none."""
    out = []
    for m in _PARENTHESISED.finditer(title):
        short = m.group(1)
        capitals = [c for c in short if c.isupper()]
        if len(capitals) < 2:
            continue
        spans = list(_TITLE_WORD.finditer(title[:m.start()]))
        before = [w.group(0) for w in spans]
        # words that may lie between the initials: stop words ("to"), the later parts of a
        # hyphenated compound ("Real-time Inter-network Defense (RID)"), a version
        skippable = [w.group(0).lower() in stop_words or w.group(0).lower() in ("version", "v")
                     or w.group(0)[0].isdigit() or (w.start() > 0 and title[w.start() - 1] == "-")
                     for w in spans]
        i = len(before) - 1
        start = None
        for letter in reversed(capitals):
            while i >= 0 and before[i][0].lower() != letter.lower() and skippable[i]:
                i -= 1
            if i < 0 or before[i][0].lower() != letter.lower():
                start = None
                break
            start = i
            i -= 1
        if start is None:
            continue
        versions = title_versions(title)
        rest = before[:start] + _TITLE_WORD.findall(title[m.end():])
        extra = [w for w in rest if w.lower() not in stop_words and w.lower() not in ("version", "v")
                 and not any(w == v or w.lower() == f"v{v}" for v in versions) and not w.isdigit()]
        if len(extra) <= extra_words:
            out.append(TitleDefinition(short, " ".join(before[start:]), versions))
    return out


def defined_terms(question: str) -> list[tuple[str, str]]:
    """(term, version) for each term the question writes with two or more capitals ("PPP",
    "IPv6"), with the version it gives right after it ("TLS 1.0" -> ("TLS", "1.0"); none: "")."""
    out = []
    for m in _CAPITALISED_TERM.finditer(question):
        term = m.group(0)
        if sum(c.isupper() for c in term) < 2:
            continue
        version = _VERSION_AFTER.match(question, m.end())
        out.append((term, version.group(1) if version else ""))
    return list(dict.fromkeys(out))


def without_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with each (start, end) span blanked (same length, so offsets stay valid)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric runs, split the way Lucene's standard analyser splits."""
    return _WORD.findall(text.lower())


# A qualified name: words of letters joined, with no space, by '/', '.', '_' or ':' -- a path, a
# module or a member ("go/scanner", "net/http", "torch.load", "zip_next"); "HTTP/2" and "1.2" are not
_QUALIFIED_NAME = re.compile(r"(?<![\w/.:])[a-z][a-z0-9]*(?:[/._:]+[a-z][a-z0-9]*)+")


def only_in_qualified_names(word: str, text: str, question: str) -> bool:
    """``text`` writes ``word`` (as ``words`` spells it) only as a segment of qualified names
    ("go/scanner") and the question writes none of those names: a question using the bare
    segment as an ordinary word ("our scanner flagged ...") does not cite the name, as the
    linker does not link a name on a common word alone."""
    lowered = text.lower()
    if word in words(_QUALIFIED_NAME.sub(" ", lowered)):
        return False
    names = {n for n in _QUALIFIED_NAME.findall(lowered) if word in words(n)}
    return bool(names) and names.isdisjoint(_QUALIFIED_NAME.findall(question.lower()))


def holds_passage(text: str, passage: Sequence[str]) -> bool:
    """``text`` holds the words of ``passage`` (as ``words`` splits them) in order, adjacent."""
    written, n = words(text), len(passage)
    wanted = list(passage)
    return n > 0 and any(written[i:i + n] == wanted for i in range(len(written) - n + 1))


# --------------------------------------------------------------------------- Lucene queries


@functools.cache
def _tokenizer() -> Any:
    return english_tokenizer()  # the extractor's blank English one when it was built first


_ALNUM = re.compile(r"[^\W_]+")
_LETTER = re.compile(r"[^\W\d_]")


@functools.lru_cache(maxsize=1024)
def _token_words(text: str) -> tuple[tuple[str, ...], ...]:
    """The text's spaCy tokens, spaces skipped, each as its lowercased alphanumeric runs (none
    for punctuation): what ``question_terms`` and ``adjacent_term_pairs`` read. A question's
    analysis asks both several times; the tokenizer runs once."""
    return tuple(() if token.is_punct else tuple(_ALNUM.findall(token.lower_))
                 for token in _tokenizer()(text) if not token.is_space)


def question_terms(text: str) -> list[str]:
    """Content terms of a question: spaCy tokens split into alphanumeric runs, lowercased, length
    >= 3, not in spaCy's English stop list; first occurrence order, no duplicates.

    "What did Lochner v. New York hold?" -> ["lochner", "new", "york", "hold"]; "TCK-2021-44228"
    -> ["tck", "2021", "44228"] (as Lucene's standard analyzer splits it).
    """
    stop = stop_words()
    terms = (part for parts in _token_words(text) for part in parts)
    return list(dict.fromkeys(t for t in terms if len(t) >= 3 and t not in stop))


_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/]|\s)')
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT"})


def adjacent_term_pairs(text: str) -> list[tuple[str, str]]:
    """Pairs of content terms (``question_terms``' rules) the text writes side by side, with no
    stop word, short word or punctuation between them; first occurrence order, no duplicates.

    "Is the medicine, prescribed for testosterone deficiency, still sold?" ->
    [("testosterone", "deficiency")]."""
    stop = stop_words()
    pairs: dict[tuple[str, str], None] = {}
    previous: str | None = None
    for parts in _token_words(text):
        if len(parts) != 1 or len(parts[0]) < 3 or parts[0] in stop:
            previous = None  # a break
            continue
        if previous is not None:
            pairs.setdefault((previous, parts[0]))
        previous = parts[0]
    return list(pairs)


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


@functools.cache
def _zipf(word: str) -> float:
    # wordfreq's value; plain words without importing wordfreq (0.25 s per CLI question)
    return zipf_frequency(word)


def is_common_word(word: str, threshold: float) -> bool:
    """An English word at least this frequent (wordfreq's Zipf scale: 3 = once per million
    words) is taken as meant, not as a typo of a name ("panic" is not "sanic")."""
    return _zipf(word) >= threshold


def name_word_pattern(word: str) -> str:
    """A regex matching a lower-cased name (or key) that holds ``word`` as a token, for
    name_word_use.cypher: "vm-memory" holds "memory", "mongodb" does not hold "go"."""
    return f"(?s).*(?<![a-z0-9]){re.escape(word)}(?![a-z0-9]).*"


def is_ordinary(ordinary: int, own: int, settings: LinkingSettings) -> bool:
    """Whether a name word is used as an ordinary word in the corpus: by at least
    ``ordinary_word_documents`` documents no name holding it scopes, and by more documents than
    the name's own (``ordinary`` and ``own`` as name_word_use.cypher counts them)."""
    threshold = settings.ordinary_word_documents
    return threshold is not None and ordinary >= threshold and ordinary > own


def written_whole(name: str, question: str) -> bool:
    """The question writes the name as the corpus spells it, every token in order and nothing
    between them but the name's own separators ("vm-memory", "Internet Protocol", "zip_next"),
    for names of two or more words; a one-word name written whole is only its word."""
    return len(words(name)) >= 2 and spelled_out(name, question)


def written_as_spelled(name: str, question: str) -> bool:
    """The question writes the name with the name's own separators (the "v." and spaces of
    "Brown v. United States", the hyphen of "vm-memory"), with any spacing and capitals:
    stricter than ``spelled_out``, whose separators are interchangeable ("shell_quote" spells
    out "shell-quote")."""
    spelled = r"\s+".join(re.escape(part) for part in name.split())
    return re.search(rf"(?<![\w-]){spelled}(?![\w-])", question, re.IGNORECASE) is not None


def spelled_out(name: str, question: str) -> bool:
    """The question writes the name's words in order, joined by separators only, and not as a
    part of a longer name: "example.org/org/tool" is not spelled out in
    "example.org/org/tool-os", "acme" not in "acme-user-sessions", "acme" is in "acme server"."""
    return bool(written_spans(name, question))


_NAME_SEPARATORS = r"[\s\-_./:]*"
_ANY_PUNCTUATION = r"[\W_]*"


def written_spans(name: str, question: str, separators: str = _NAME_SEPARATORS,
                  corrections: Mapping[str, str] | None = None) -> list[tuple[int, int]]:
    """Where the question spells the name out (``spelled_out``): the (start, end) of each.
    ``separators``: what may stand between its words (``_ANY_PUNCTUATION``: also the commas and
    apostrophes of "Hust v. Moore-McCormack Lines, Inc."). ``corrections`` (question word ->
    name word, ``covering``'s): a question word stands for the name word it corrects ("Lnies")."""
    tokens = words(name)
    if not tokens:
        return []
    readings: dict[str, list[str]] = {}
    for said, meant in (corrections or {}).items():
        readings.setdefault(meant, []).append(said)

    def token(t: str) -> str:
        return "(?:" + "|".join(re.escape(w) for w in [t, *readings.get(t, ())]) + ")"

    pattern = r"(?<![\w-])" + separators.join(map(token, tokens)) + r"(?![\w-])"
    return [m.span() for m in re.finditer(pattern, question, re.IGNORECASE)]


def inside_other_names(
    names: Sequence[str], question: str, still_named: Callable[[int, list[str]], bool],
    corrections: Sequence[Mapping[str, str]] | None = None,
) -> set[int]:
    """The names (by position) the question gives only as part of another name it writes whole:
    "In re Moore", covered by the "Moore" of "Moore v. Illinois Central Railroad Co.", is a
    part of that name, not a second thing the question asks about. Such a name is not
    written whole itself (its words in order, any punctuation between them), and
    ``still_named(i, words)`` -- its own coverage test -- fails on the question's words outside
    the other names of as many distinct words or more that the question writes whole. A name written whole
    ("golang.org/x/net" inside "golang.org/x/net/http2", "Drotrecogin alfa (Activated)"
    beside "Drotrecogin alfa") is always kept. ``corrections``: per name, the typos its
    covering read (``covering``): a name written whole but for a typo ("Hust v. Moore-McCormack
    Lnies, Inc.") is written whole."""
    def spans(i: int) -> list[tuple[int, int]]:
        return written_spans(names[i], question, _ANY_PUNCTUATION,
                             corrections[i] if corrections is not None else None)

    whole = [(i, span) for i, name in enumerate(names) if len(words(name)) >= 2
             for span in spans(i)]
    if not whole:
        return set()
    inside = set()
    distinct = [set(words(name)) for name in names]
    for i, mine in enumerate(distinct):
        if spans(i):
            continue
        # names of as many distinct words as this one count too: "tokio-udp" written whole holds
        # the "tokio" that covers "tokio-fs" (whose "fs" is too short to be significant), and
        # "host/containerd/imgcrypt" the words of "host/containerd/containerd/v2"
        others = [span for j, span in whole
                  if len(distinct[j]) >= len(mine) and distinct[j] != mine]
        if others and not still_named(i, words(without_spans(question, others))):
            inside.add(i)
    return inside


def unwritten_relatives(names: Sequence[tuple[str, Sequence[str]]], question: str) -> set[int]:
    """The names (by position; each as (name, its ``significant_words``)) the question gives only
    through another name it spells out: the same significant words, and words of its own too
    short to count that the question does not write -- "acme-fs" beside "acme" in "... part of
    the Acme 0.1 family ...", its "fs" nowhere in the question. The question names the other
    one, not its longer relative; "acme fs" would name both."""
    said = set(words(question))
    relatives = set()
    for i, (name, significant) in enumerate(names):
        short = [w for w in words(name) if len(w) < 3 and w not in significant]
        if not short or not said.isdisjoint(short):
            continue
        if any(j != i and set(other_significant) == set(significant)
               and spelled_out(other, question)
               for j, (other, other_significant) in enumerate(names)):
            relatives.add(i)
    return relatives


def significant_words(
    name: str, stop_words: frozenset[str], qualifiers: frozenset[str] = frozenset()
) -> list[str]:
    """The words of a name that identify it: not stop words, not qualifiers, 3+ characters."""
    return [
        w for w in dict.fromkeys(words(name))
        if len(w) >= 3 and w not in stop_words and w not in qualifiers
    ]


def covering(
    name: str,
    question_words: Iterable[str],
    stop_words: frozenset[str] = frozenset(),
    qualifiers: frozenset[str] = frozenset(),
    corrections: Mapping[str, Sequence[str]] | None = None,
    settings: LinkingSettings | None = None,
) -> dict[str, str] | None:
    """How the question names this entity, or None if it does not: every significant word of the
    name must appear in the question, exactly or as a correction of a question word
    (``corrections``: question word -> the name words it is one edit from). Returns the
    corrections used (question word -> name word; empty when every word was exact)."""
    settings = settings or LinkingSettings()
    significant = significant_words(name, stop_words, qualifiers)
    if not significant:
        return None
    asked = set(question_words)
    min_fuzzy = (settings.min_fuzzy_length if len(significant) == 1
                 else settings.min_fuzzy_length_multiword)
    used: dict[str, str] = {}
    for w in significant:
        if w in asked:
            continue
        via = sorted(q for q, near in (corrections or {}).items() if q in asked and w in near)
        if len(w) < min_fuzzy or not via:
            return None
        used.update((q, w) for q in via)
    return used


def in_name_order(name: str, question_words: Sequence[str], stop_words: frozenset[str] = frozenset(),
                  qualifiers: frozenset[str] = frozenset(), used: Mapping[str, str] | None = None) -> bool:
    """The question writes the name's significant words in the name's order (with gaps): for a
    name type whose word order tells two names apart (``NameSpec.ordered``). A question word
    stands for the name word it is, or the one ``used`` (``covering``'s corrections) reads it as."""
    wanted = significant_words(name, stop_words, qualifiers)
    found = 0
    for word in question_words:
        if found < len(wanted) and wanted[found] in (word, (used or {}).get(word)):
            found += 1
    return found == len(wanted)


def readings_per_name(coverings: Sequence[Mapping[str, str]],
                      readings: Mapping[str, set[str]] | None = None) -> list[int]:
    """For each of several covered names, how many readings its least certain typo has among
    all the covered names: 1 when every typo was corrected the same way for every name it
    helped cover (an exact name: 1). "Kell" one edit from both "kwell" and "cell" reads as
    Kwell alone when no covered name needs "cell"; "axois" covering both Axios and Axoid has
    two readings, and each name gets 2. ``readings``: ``typo_readings(coverings)``, when the
    caller has it already."""
    readings = typo_readings(coverings) if readings is None else readings
    return [max((len(readings[q]) for q in used), default=1) for used in coverings]


def typo_readings(coverings: Sequence[Mapping[str, str]]) -> dict[str, set[str]]:
    """question word -> the name words it was read as, over all the covered names."""
    readings: dict[str, set[str]] = {}
    for used in coverings:
        for question_word, name_word in used.items():
            readings.setdefault(question_word, set()).add(name_word)
    return readings


def typo_corrections(
    question_words: Iterable[str],
    vocabulary: Iterable[str],
    settings: LinkingSettings,
    stop_words: frozenset[str] = frozenset(),
) -> dict[str, tuple[str, ...]]:
    """question word -> the words of the candidate names' vocabulary it is one edit from, for
    question words that are not themselves in it and are neither stop words nor common English
    words. Several readings may remain; ``readings_per_name`` counts them over the names they
    complete."""
    vocab = set(vocabulary)
    out: dict[str, tuple[str, ...]] = {}
    for q in dict.fromkeys(question_words):
        if q in vocab or q in stop_words or len(q) < settings.min_fuzzy_length - 1 or q.isdigit():
            continue
        near = sorted(v for v in vocab
                      if len(v) >= settings.min_fuzzy_length and abs(len(v) - len(q)) <= 1
                      and not v.isdigit() and OSA.distance(q, v) <= 1)
        if near and not is_common_word(q, settings.common_word_zipf):
            out[q] = tuple(near)
    return out


def partial_digit_runs(question: str, spelled: Sequence[tuple[int, int]], settings: LinkingSettings,
                       least: int | None = None, cues: Lexicon | None = None) -> list[str]:
    """Digit runs that may be the tail of an identifier: long enough (``least`` digits, else
    ``settings.min_partial_digits``), not a year (unless a word
    before it says it is a number: "numbered 1962"), not a version a bound gives ("through 3002"),
    and not inside an identifier, version or date the question spells out (``spelled``: their
    char spans). ``cues``: the lexicon (its version bounds and number cues; English by default)."""
    cues = cues or lexicon()
    runs = []
    for m in _DIGIT_RUN.finditer(question):
        digits = m.group(0)
        if len(digits) < (least or settings.min_partial_digits):
            continue
        if len(digits) == 4 and _YEAR.match(digits) and not cues.number_cue.search(question, 0, m.start()):
            continue
        if any(s <= m.start() and m.end() <= e for s, e in spelled):
            continue
        if cues.version_bound.search(question, 0, m.start()):
            continue  # a version, not an identifier's tail
        before = question[max(0, m.start() - 1):m.start()]
        after = question[m.end():m.end() + 2]
        if before in (".", ",") or (after[:1] in (".", ",") and after[1:2].isdigit()):
            continue  # part of a number such as 4.17 or 1,000
        runs.append(digits)
    return list(dict.fromkeys(runs))


def written_as_name(word: str, question: str) -> bool:
    """The question writes ``word`` (as ``words`` gives it) capitalised other than at a
    sentence's start: a word of a name it gives ("as Williamson County held"), however common
    the word is in English -- not the question's own wording ("My grandmother ...", "... still
    shows ...")."""
    for m in re.finditer(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", question, re.IGNORECASE):
        before = question[: m.start()]
        # after a one-letter abbreviation ("Smith v. State", "J. Doe") no sentence starts
        opens_sentence = bool(_SENTENCE_START.search(before)) and not _INITIAL_BEFORE.search(before)
        if m.group(0)[:1].isupper() and not opens_sentence:
            return True
    return False


_REPORTER_WORDS = 5  # the longest noun phrase read as a reporter
_CLAUSE_BREAK = re.compile(r"[.!?;:,]\s|\n")  # not the dot inside "Node.js" or "v1.2"


@functools.lru_cache(maxsize=256)  # ``judge`` asks once per subject of a several-subject question
def setting_words(question: str, cues: Lexicon | None = None) -> frozenset[str]:
    """Words (as ``words`` gives them) the question writes only as names of the asker's own
    setting: capitalised words right after a first-person possessive ("Our PHP site may have
    ...", "in our Kotlin Android app"), or in the noun phrase opening a clause whose verb
    reports ("Maven dependency check warns about ...", "GitHub Dependabot says ..."). They say
    where the asker meets the thing asked about and who reported it, not which document it is:
    one document of thousands writing "PHP" is no subject of "Our PHP site may have cross-site
    scripting". A name the asker also writes elsewhere ("In our Acme service, is the Acme parser
    flaw fixed?") is not only the setting's. ``cues``: the lexicon (English by default)."""
    cues = cues or lexicon()
    spans = written_words(question)
    tokens = [w for w, _, _ in spans]
    capital = [question[begin].isupper() for _, begin, _ in spans]
    setting = set()
    for i, token in enumerate(tokens):
        if token in cues.asker_possessives:
            j = i + 1
            while j < len(tokens) and capital[j]:
                setting.add(j)
                j += 1
    stop = stop_words()
    opens = [0, *(i for i in range(1, len(spans))
                  if _CLAUSE_BREAK.search(question, spans[i - 1][2], spans[i][1]))]
    determiners = cues.reporter_determiners
    for start, end in zip(opens, [*opens[1:], len(tokens)], strict=True):
        opener = cues.reporter_opener.match(question, spans[start][1]) if start < end else None
        if opener is not None:  # "According to Trivy, ...": the phrase after the opener reports
            first = next((i for i in range(start, end) if spans[i][1] >= opener.end()), end)
            setting.update(i for i in range(first, min(end, first + _REPORTER_WORDS))
                           if capital[i] and tokens[i] not in determiners)
            continue
        verb = next((i for i in range(start, end) if tokens[i] in cues.reporting_verbs), None)
        if verb is None or not 0 < verb - start <= _REPORTER_WORDS:
            continue
        if all(w in determiners or w not in stop for w in tokens[start:verb]):
            setting.update(i for i in range(start, verb)
                           if capital[i] and tokens[i] not in determiners)
    elsewhere = {t for i, t in enumerate(tokens) if i not in setting}
    return frozenset(tokens[i] for i in setting) - elsewhere


def written_words(text: str) -> list[tuple[str, int, int]]:
    """``words(text)``, each with the span of ``text`` it was read from (start, end), so a
    caller can see how it was written (its capital). Read from the lower-cased text itself, so
    the two split alike even where lower-casing changes a text's length ("İ" is two characters
    lower-cased)."""
    lowered: list[str] = []
    origin: list[int] = []  # the position in ``text`` of each character of ``lowered``
    for i, char in enumerate(text):
        low = char.lower()
        lowered.append(low)
        origin.extend([i] * len(low))
    return [(m.group(0), origin[m.start()], origin[m.end() - 1] + 1)
            for m in _WORD.finditer("".join(lowered))]


def short_name_tokens(question: str, stop_words: frozenset[str], settings: LinkingSettings) -> list[str]:
    """Tokens of at most ``short_name_length`` characters that may be a short name as written.

    Lowercase tokens count unless they are stop words or common words ("six", "the"). Tokens with
    a capital ("GS", "C", "MS", "Go") count unless they are a stop word used as a word: opening a
    sentence ("A blackout ...", "IT teams ..."), or the article/pronoun "A"/"I" followed by a
    lowercase word ("a company", "I think"). They link only to an entity spelled exactly so.
    """
    out = []
    for m in _SHORT_TOKEN.finditer(question):
        token = m.group(0)
        if len(token) > settings.short_name_length:
            continue
        lowered = token.lower()
        opens_sentence = bool(_SENTENCE_START.search(question[: m.start()]))
        # a token opening a sentence as a label ("Go: data race in net/http") is the name of
        # what the rest says, not a word of it
        labels = opens_sentence and bool(_LABEL_COLON.match(question, m.end()))
        if opens_sentence and not token.isupper() and not labels:
            continue  # "Has", "Can": a capitalised word opening the sentence
        if token.islower():
            if lowered in stop_words or is_common_word(lowered, 4.0):
                continue
        elif lowered in stop_words:
            # mid-sentence, a capital marks a name ("Is Go still affected?"); opening a sentence
            # it marks nothing, and "A"/"I" before a lowercase word are the article and pronoun
            used_as_word = token in ("A", "I") and re.match(r"\s+[a-z]", question[m.end():])
            if (opens_sentence and not labels) or used_as_word:
                continue
        out.append(token)
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- the name index

# Lucene's StandardTokenizer (UAX #29 word boundaries), as the entity_names index splits a name
# or key, for the characters names use: letters, digits and "_" join; a letter-letter pair also
# across ". : ' ’ ·" ("node.js", "o'brien"), a digit-digit pair across ". , ; ' ’" ("1.2.3");
# anything else (space, "-", "/", "@") splits. Lower-cased as the standard analyzer does.
_LUCENE_TOKEN = re.compile(
    r"\w+(?:(?:(?<=[^\W\d_])[.:'\u2019\u00b7](?=[^\W\d_])|(?<=\d)[.,;'\u2019](?=\d))\w+)*")
# FuzzyQuery's maxExpansions: a fuzzy term matching more index terms than this uses only some of
# them in Lucene, which the index cannot tell; such a question falls back to the Lucene look-up
LUCENE_MAX_EXPANSIONS = 50


def lucene_tokens(text: str) -> list[str]:
    """The tokens the ``standard-no-stop-words`` analyzer indexes for ``text``."""
    return [t.lower() for t in _LUCENE_TOKEN.findall(text)]


def compound_tokens(text: str) -> list[str]:
    """The index tokens of ``text`` that join several words ("zip_next", "gitea.dev"), which
    question_terms splits into their words."""
    return [t for t in lucene_tokens(text) if len(_ALNUM.findall(t)) > 1 and _LETTER.search(t)]


def _one_deletion(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


@dataclass(frozen=True)
class NamedEntity:
    type: str
    key: str
    name: str | None

    def __getitem__(self, column: str) -> Any:  # rows of match_entities/match_entity_names alike
        return getattr(self, column)


class NameIndex:
    """The corpus's linkable names in memory: every entity that scopes or names a document
    (queries/name_index.cypher), read once per graph version instead of a fulltext and an exact
    look-up per question.

    ``candidates`` answers what match_entities.cypher's Lucene query answers -- the entities with
    a name or key token equal to an exact term or within one edit (Damerau: a transposition is
    one) of a fuzzy term -- and says when it cannot answer the same (more candidates than the
    statement's limit, or a fuzzy term past Lucene's expansions), so the caller asks Lucene."""

    def __init__(self, rows: Iterable[Mapping[str, Any]], version: Sequence[str] = ()) -> None:
        self.version = tuple(version)
        self.entities = [NamedEntity(r["type"], r["key"], r["name"]) for r in rows]
        self.by_token: dict[str, list[int]] = {}
        self.by_name: dict[str, list[int]] = {}
        for i, entity in enumerate(self.entities):
            for token in dict.fromkeys(lucene_tokens(entity.name or "") + lucene_tokens(entity.key)):
                self.by_token.setdefault(token, []).append(i)
            if entity.name is not None:
                self.by_name.setdefault(entity.name, []).append(i)
        # one-deletion neighbourhoods of the index's tokens (SymSpell): a fuzzy term's matches
        # are the tokens sharing it or one of its deletions, checked with OSA
        self._deletions: dict[str, list[str]] | None = None

    def __len__(self) -> int:
        return len(self.entities)

    def _near(self, term: str) -> list[str]:
        if self._deletions is None:
            deletions: dict[str, list[str]] = {}
            for token in self.by_token:
                if len(token) > 2:  # a fuzzy term has 3+ letters: a 2-letter token is found as itself
                    for variant in _one_deletion(token):
                        deletions.setdefault(variant, []).append(token)
            self._deletions = deletions
        found = {term} if term in self.by_token else set()
        for variant in {term} | _one_deletion(term):
            if variant in self.by_token:
                found.add(variant)
            found.update(self._deletions.get(variant, ()))
        return [t for t in found if OSA.distance(term, t) <= 1]

    def candidates(self, exact: Iterable[str], fuzzy: Iterable[str], limit: int) -> list[NamedEntity] | None:
        """The entities Lucene's ``exact OR fuzzy~1`` query finds, or None when the index
        cannot vouch for the same answer (the caller then runs match_entities)."""
        hits: set[int] = set()
        for term in exact:
            hits.update(self.by_token.get(term, ()))
        for term in fuzzy:
            tokens = self._near(term)
            if len(tokens) > LUCENE_MAX_EXPANSIONS:
                return None
            for token in tokens:
                hits.update(self.by_token[token])
        if len(hits) > limit:
            return None
        return [self.entities[i] for i in sorted(hits, key=lambda i: (self.entities[i].type, self.entities[i].key))]

    def named(self, names: Iterable[str]) -> list[NamedEntity]:
        """The entities whose display name is exactly one of ``names`` (match_entity_names)."""
        return [self.entities[i] for name in names for i in self.by_name.get(name, ())]


class EntityLinker:
    """Links a question to entity keys in the graph (reads only). With a ``NameIndex`` (the
    corpus's names, cached per graph version) names link without a look-up; without one, each
    question asks the entity_names fulltext index."""

    def __init__(
        self,
        store: GraphStore,
        extractor: EntityExtractor,
        registry: DomainRegistry,
        settings: LinkingSettings | None = None,
        names: NameIndex | None = None,
    ) -> None:
        self.store = store
        self.extractor = extractor
        self.registry = registry
        self.settings = settings or LinkingSettings()
        self.names = names
        # (type, key) -> word -> (ordinary, own) uses (name_word_use.cypher); a linker serves
        # one graph version, so what it read stays true for it
        self._word_use: dict[tuple[str, str], dict[str, tuple[int, int]]] = {}
        self._definitions: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None

    def link(self, question: str) -> list[LinkedEntity]:
        stop = stop_words()
        linked: dict[tuple[str, str], LinkedEntity] = {}

        def add(entity: LinkedEntity) -> None:
            old = linked.get((entity.type, entity.key))
            if old is None or old.weight < entity.weight:
                linked[(entity.type, entity.key)] = entity

        # 1. identifiers: declared patterns, and identifier-like tokens, matched exactly by key
        mentions = self.extractor.extract(question, self.registry)  # the graph's domains only
        spelled = [(m.start, m.end) for m in mentions]
        keys = {m.key for m in mentions if m.type in self.registry.identifier_types}
        for m in _ID_TOKEN.finditer(question):
            keys.add(" ".join(m.group(0).split()).casefold())
            if not m.group(0).isdigit():  # a bare number may still be a partial identifier
                spelled.append((m.start(), m.end()))
        # names are linked on the question without its identifiers: the letters of an
        # identifier's prefix are part of the identifier, not a name of their own (a product
        # named like the prefix)
        named_text = without_spans(question, [(m.start, m.end) for m in mentions
                                              if m.type in self.registry.identifier_types])
        if self.names is not None:
            return self._link_in_one_lookup(question, named_text, keys, spelled, stop, linked, add)
        if keys:
            for row in self.store.read("match_entity_keys", keys=sorted(keys)):
                add(LinkedEntity(row["type"], row["key"], self.settings.identifier_weight, "identifier"))

        # 2. names: fuzzy candidates from the entity-name index, then the coverage policy
        self._link_names(named_text, words(named_text), stop, add)

        # 3. partial identifiers: digit tails that point at few identifiers -- among the
        # documents of the names the question also gives, or else in the whole corpus
        partial_types = sorted(self.registry.partial_types)
        if partial_types:
            named = [{"type": e.type, "key": e.key} for e in linked.values()
                     if e.how in ("name", "short_name")]
            for m in _ELIDED.finditer(question):
                self._link_partial(m.group(2), " ".join(m.group(1).split()).casefold(),
                                   partial_types, named, add)
                spelled.append((m.start(), m.end()))
            for digits in self._digit_runs(question, spelled):
                self._link_partial(digits, "", self._partial_types_of(digits), named, add)
        return list(linked.values())

    def _digit_runs(self, question: str, spelled: Sequence[tuple[int, int]]) -> list[str]:
        """The question's digit runs long enough to name an identifier of some partial-capable
        type (``DomainRegistry.partial_digits``: each type's own least, else the settings')."""
        least = self.registry.partial_digits(self.settings.min_partial_digits)
        return partial_digit_runs(question, spelled, self.settings,
                                  min(least.values(), default=self.settings.min_partial_digits),
                                  self.registry.lexicon)

    def _partial_types_of(self, digits: str) -> list[str]:
        """The partial-capable types whose identifiers ``digits`` is long enough to name."""
        least = self.registry.partial_digits(self.settings.min_partial_digits)
        return sorted(t for t, n in least.items() if len(digits) >= n)

    def _link_in_one_lookup(
        self, question: str, named_text: str, keys: set[str], spelled: list[tuple[int, int]],
        stop: frozenset[str], linked: dict[tuple[str, str], LinkedEntity], add: Any,
    ) -> list[LinkedEntity]:
        """``link`` with the names from the NameIndex: names first (no look-up), then the
        question's identifiers and partial identifiers in one statement (match_identifiers),
        then everything added in ``link``'s order -- identifiers, names, partials -- so the
        same entities link with the same weights as with a look-up per step."""
        names: list[LinkedEntity] = []
        self._link_names(named_text, words(named_text), stop, names.append)
        partial_types = sorted(self.registry.partial_types)
        partials: list[tuple[str, str]] = []
        if partial_types:
            for m in _ELIDED.finditer(question):
                partials.append((m.group(2), " ".join(m.group(1).split()).casefold()))
                spelled.append((m.start(), m.end()))
            partials += [(digits, "") for digits in self._digit_runs(question, spelled)]

        def types_of(digits: str, prefix: str) -> list[str]:
            # "PREFIX-...DIGITS" is read as before: the prefix narrows it
            return partial_types if prefix else self._partial_types_of(digits)

        # the scopes a partial identifier is first looked for in: the names linked, unless an
        # identifier outweighs the same entity (checked below, when the rows are back)
        named_names: dict[tuple[str, str], None] = {}
        for entity in names:
            if entity.how in ("name", "short_name"):
                named_names[(entity.type, entity.key)] = None
        guessed = [{"type": t, "key": k} for t, k in named_names]
        rows: list[Any] = []
        if keys or partials:
            rows = self.store.read(
                "match_identifiers", keys=sorted(keys), scopes=guessed,
                limit=self.settings.max_partial_matches + 1,
                partials=[{"suffix": d, "prefix": p, "scoped": bool(guessed) and not p,
                           "types": types_of(d, p)} for d, p in partials])
        for row in rows:
            if row["kind"] == "key":
                add(LinkedEntity(row["type"], row["key"], self.settings.identifier_weight, "identifier"))
        for entity in names:
            add(entity)
        named = [{"type": e.type, "key": e.key} for e in linked.values() if e.how in ("name", "short_name")]
        if partials and {(n["type"], n["key"]) for n in named} != set(named_names):
            # an identifier took over a named entity: its scope is not one to look in first
            for digits, prefix in partials:
                self._link_partial(digits, prefix, types_of(digits, prefix), named, add)
            return list(linked.values())
        limit = self.settings.max_partial_matches
        for i in range(len(partials)):
            scoped = [r for r in rows if r["kind"] == "partial" and r["partial"] == i and r["scoped"]]
            found = scoped or [r for r in rows if r["kind"] == "partial" and r["partial"] == i and not r["scoped"]]
            if 0 < len(found) <= limit:
                for row in found:
                    add(LinkedEntity(row["type"], row["key"], self.settings.identifier_weight, "partial",
                                     reading_of=partials[i][1] + partials[i][0]))
        return list(linked.values())

    def _link_partial(
        self, digits: str, prefix: str, types: list[str], named: list[dict[str, str]], add: Any
    ) -> None:
        limit = self.settings.max_partial_matches
        rows = []
        if named and not prefix:
            # "Is Go still affected by 5042?": Go's identifiers ending in 5042 first; the whole
            # corpus only when Go has none (the name may be a misnomer, the digits are not)
            rows = self.store.read("match_key_suffix", suffix=digits, prefix="", types=types,
                                   scopes=named, limit=limit + 1)
        if not rows:
            rows = self.store.read("match_key_suffix", suffix=digits, prefix=prefix, types=types,
                                   scopes=[], limit=limit + 1)
        if 0 < len(rows) <= limit:
            for row in rows:
                add(LinkedEntity(row["type"], row["key"], self.settings.identifier_weight, "partial",
                                 reading_of=prefix + digits))

    def definitions(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """short name as written -> (document id, the title's versions) of each document whose
        title defines it (``title_definitions``); read once for the linker's graph version."""
        if self._definitions is None:
            stop = stop_words()
            found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
            for row in self.store.read("defining_titles"):
                for d in title_definitions(row["title"] or "", stop, self.settings.definition_extra_words):
                    found.setdefault(d.short, []).append((row["id"], d.versions))
            self._definitions = {short: sorted(set(docs)) for short, docs in found.items()}
        return self._definitions

    def _link_defined(self, question: str, add: Any) -> None:
        """Terms the question writes with two capitals ("the PPP specification") link the
        documents whose titles define them, not those that merely use them ("PPP LCP
        Extensions"); with a version ("TLS 1.0"), those of the titles giving that version when
        some do."""
        terms = defined_terms(question)
        if not terms:
            return
        settings = self.settings
        definitions = self.definitions()
        for term, version in terms:
            defining = definitions.get(term, [])
            if not defining or len({doc for doc, _ in defining}) > settings.max_defining_documents:
                continue
            versioned = sorted({doc for doc, versions in defining if version and version in versions})
            if versioned:
                add(LinkedEntity(DEFINED_NAME, f"{term.lower()} {version}", settings.defined_weight,
                                 "defined", tuple(versioned)))
            else:
                add(LinkedEntity(DEFINED_NAME, term.lower(), settings.defined_weight, "defined",
                                 tuple(sorted({doc for doc, _ in defining}))))

    def word_use(self, names: Mapping[tuple[str, str], Sequence[str]]) -> dict[tuple[str, str], dict[str, tuple[int, int]]]:
        """How the corpus uses each name's words: (ordinary, own) per word (name_word_use.cypher),
        read once per name for the linker's graph version."""
        missing = [n for n, ws in names.items() if n not in self._word_use and ws]
        todo = [{"type": t, "key": k, "words": [
                    {"word": w, "lucene": lucene_escape(w), "pattern": name_word_pattern(w)}
                    for w in names[(t, k)]]}
                for t, k in missing]
        if todo:
            found: dict[tuple[str, str], dict[str, tuple[int, int]]] = {n: {} for n in missing}
            for row in self.store.read("name_word_use", names=todo,
                                       limit=self.settings.ordinary_word_hits):
                found[(row["type"], row["key"])][row["word"]] = (int(row["ordinary"]), int(row["own"]))
            self._word_use.update(found)
        return {name: self._word_use.get(name, {}) for name in names}

    def ordinary_names(self, names: Mapping[tuple[str, str], tuple[str, Sequence[str]]],
                       question: str) -> set[tuple[str, str]]:
        """Of ``names`` ((type, key) -> (display name, its significant words)), those that must
        not link on their words alone: every word is a common English word that the corpus
        uses as an ordinary word (``is_ordinary``), and the question does not write the whole
        name (``written_whole``)."""
        settings = self.settings
        if settings.ordinary_word_documents is None or not names:
            return set()
        # only English words can be ordinary ones: a rare word the corpus repeats outside its
        # name's documents is still that name ("Accupril" in the texts of quinapril's other
        # documents), so only names made of common English words are counted at all
        english = {n: (display, ws) for n, (display, ws) in names.items()
                   if ws and all(is_common_word(w, settings.common_word_zipf) for w in ws)
                   and not written_whole(display, question)}
        use = self.word_use({n: ws for n, (_, ws) in english.items()})
        return {n for n, (_, ws) in english.items()
                if all(is_ordinary(*use.get(n, {}).get(w, (0, 0)), settings) for w in ws)}

    def _link_names(self, question: str, asked: list[str], stop: frozenset[str], add: Any) -> None:
        settings = self.settings
        candidates: list[Any] = []
        # A deletion leaves a name of min_fuzzy_length letters one letter short, so a rare word
        # one shorter is looked up fuzzily too (typo_corrections accepts it); common ones stay exact.
        # A name the index holds as one token of several words ("zip_next", "gitea.dev") is
        # found only by that token, written whole: its words alone ("zip", "next") find nothing.
        terms = list(dict.fromkeys(question_terms(question) + compound_tokens(question)))
        shortest = settings.min_fuzzy_length - 1
        fuzzy = [t for t in terms if len(t) > shortest
                 or (len(t) == shortest and not is_common_word(t, settings.common_word_zipf))]
        cached = None
        if self.names is not None:
            # fuzzy_query's rule: a term with a digit, or shorter than shortest, stays exact
            edits = [t for t in fuzzy if len(t) >= shortest and not any(c.isdigit() for c in t)]
            cached = self.names.candidates([t for t in terms if t not in edits], edits,
                                           settings.name_candidates)
        if cached is not None:
            candidates = list(cached)
        else:
            lucene = " OR ".join(part for part in (
                fuzzy_query(fuzzy, min_len=shortest),
                fuzzy_query([t for t in terms if t not in fuzzy], max_edits=0)) if part)
            if lucene:
                candidates = list(self.store.read("match_entities", lucene=lucene,
                                                  limit=settings.name_candidates))
        vocabulary = {w for row in candidates for w in words(row["name"] or row["key"])}
        corrections = typo_corrections(asked, vocabulary, settings, stop)
        identifier_types = self.registry.identifier_types
        covered: list[tuple[Any, dict[str, str]]] = []
        for row in candidates:
            name = row["name"] or row["key"]
            if row["type"] in identifier_types:
                continue  # identifiers were matched exactly above, never fuzzily
            if len(name.strip()) <= settings.short_name_length:
                continue  # short names: exact, case-preserving tokens only (below)
            qualifiers = self.registry.qualifiers(row["type"])
            used = covering(name, asked, stop, qualifiers, corrections, settings)
            if used is not None and (not self.registry.ordered(row["type"])
                                     or in_name_order(name, asked, stop, qualifiers, used)):
                covered.append((row, used))
        names = {(row["type"], row["key"]): (row["name"] or row["key"], significant_words(
                     row["name"] or row["key"], stop, self.registry.qualifiers(row["type"])))
                 for row, _ in covered}
        # names made only of words the corpus uses as ordinary words link on more than those words
        ordinary = self.ordinary_names(names, question)
        # ... and a name whose significant words are only what people call an identifier scheme
        # (``IdentifierSpec.scheme_words``: "tck-rs", its "rs" too short to count) is written
        # whole or not at all: "Was the TCK about ... resolved?" names the scheme
        schemes = self.registry.scheme_words
        scheme_only = {n for n, (display, ws) in names.items()
                       if schemes and set(ws) <= schemes and not written_whole(display, question)}
        dropped = ordinary | scheme_only
        covered = [(row, used) for row, used in covered if (row["type"], row["key"]) not in dropped]
        relatives = unwritten_relatives([names[row["type"], row["key"]] for row, _ in covered],
                                        question)
        covered = [pair for i, pair in enumerate(covered) if i not in relatives]
        inside = inside_other_names(
            [row["name"] or row["key"] for row, _ in covered], question,
            lambda i, rest: covering(covered[i][0]["name"] or covered[i][0]["key"], rest, stop,
                                     self.registry.qualifiers(covered[i][0]["type"]),
                                     corrections, settings) is not None,
            [used for _, used in covered])
        covered = [pair for i, pair in enumerate(covered) if i not in inside]
        # An unambiguous name links at full weight; a typo with a few readings ("Tovan": Povan or
        # Trovan) links each reading at a share of it, so the rest of the question decides.
        coverings = [used for _, used in covered]
        read_as = typo_readings(coverings)
        for (row, used), n in zip(covered, readings_per_name(coverings, read_as), strict=True):
            read = {name_word: word for word, name_word in used.items()}
            written = tuple(read.get(w, w) for w in significant_words(
                row["name"] or row["key"], stop, self.registry.qualifiers(row["type"])))
            written_as = written if list(written) != words(row["key"]) else ()
            if n == 1:
                add(LinkedEntity(row["type"], row["key"], settings.name_weight, "name",
                                 written_as=written_as))
            elif n <= settings.max_typo_readings:
                typo = next(q for q in used if len(read_as[q]) == n)  # its least certain word
                add(LinkedEntity(row["type"], row["key"], settings.name_weight / n, "typo_reading",
                                 reading_of=typo, written_as=written_as))
        self._link_defined(question, add)
        shorts = short_name_tokens(question, stop, settings)
        if shorts:
            # As written, or lower-cased when the corpus spells the name in small letters only
            # ("Go" finds "go"); a lowercase "c" never finds "C".
            lowered = {t.lower() for t in shorts}
            wanted = sorted({*shorts, *lowered})
            rows = (self.names.named(wanted) if self.names is not None
                    else self.store.read("match_entity_names", names=wanted))
            kept = [row for row in rows if row["type"] not in identifier_types
                    and (row["name"] in shorts or (row["name"].islower() and row["name"] in lowered))]
            # A short name the corpus uses as an ordinary word is no name ("RSA" of RSA keys
            # for the name rsa; "tar" of archive/tar for the name tar) -- unless the question
            # writes it with the capitals the corpus spells it with ("D" for the name D): a
            # capital mid-sentence marks a name, a lowercase word marks nothing.
            ordinary = self.ordinary_names(
                {(row["type"], row["key"]): (row["name"], lucene_tokens(row["name"]))
                 for row in kept if row["name"] not in shorts or row["name"].islower()},
                question)
            for row in kept:
                if (row["type"], row["key"]) not in ordinary:
                    add(LinkedEntity(row["type"], row["key"], settings.name_weight, "short_name"))


@functools.lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """The original Porter stem, as Lucene's PorterStemFilter (the ``english`` analyzer of the
    document fulltext index) computes it."""
    return _porter().stemWord(word)


@functools.lru_cache(maxsize=1)
def _porter() -> Any:
    return Stemmer.Stemmer("porter")


def linked_words(linked: Iterable[LinkedEntity]) -> frozenset[str]:
    """The lowercased alphanumeric runs of the linked entities' keys ("vm-memory": "vm",
    "memory")."""
    return frozenset(w for e in linked for w in _ALNUM.findall(e.key.lower()))


def anchor_lexical_query(question: str, settings: LinkingSettings | None = None,
                         named: frozenset[str] = frozenset()) -> str:
    """The anchors' Lucene query: the question's content terms OR-ed, and for each rare term
    (at least five letters, no digit, not a common English word) also its one-edit variants --
    so a misspelt name that is no scope entity (a brand in the text) still finds its document,
    while common words stay exact. The document index stems with Porter (its ``english``
    analyzer) and a fuzzy term is not analysed, so the edit is also allowed on the term's stem:
    "Nizaoral" reaches the indexed "nizor" (from "Nizoral") only as "nizaor~1". Then the terms
    written side by side as phrases (``adjacent_term_pairs``), in one group weighing as one
    phrase; a pair holding a word of a linked name (``named``: ``linked_words``) is left out. ""
    when nothing remains."""
    settings = settings or LinkingSettings()
    parts = []
    for term in question_terms(question):
        escaped = lucene_escape(term)
        parts.append(escaped)
        if (len(term) >= 5 and not any(c.isdigit() for c in term)
                and not is_common_word(term, settings.common_word_zipf)):
            parts.append(f"{escaped}~1")
            stem = porter_stem(term.casefold()) if settings.fuzzy_stems else term
            if stem != term.casefold() and len(stem) >= 4:
                parts.append(f"{lucene_escape(stem)}~1")
    pairs = [pair for pair in adjacent_term_pairs(question) if named.isdisjoint(pair)] \
        if settings.term_pairs else []
    if pairs:
        # A document writing two of the question's words as the question does ("testosterone
        # deficiency") outranks one holding each apart, however often. The phrases weigh
        # together as one (boost 1/n): a question quoting a long description would otherwise
        # lift that part's verbatim match above the documents its other parts are about. A
        # linked name already says which documents hold it; a phrase with it ("the RID
        # specification") would only favour documents writing it in running text.
        phrases = " OR ".join(f'"{first} {second}"' for first, second in pairs)
        parts.append(f"({phrases})^{1 / len(pairs):.4g}")
    return " OR ".join(parts)
