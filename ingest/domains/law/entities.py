"""The law domain's entities: U.S. Reports citations (identifiers) and case names.

Case names are names (typo-tolerant when a question names a known case) and are also guessed
from text by token patterns ("X v. Y", multiword parties, "'s", connectors "of"/"the"/"ex rel."),
run only when the text holds a "v."/"vs." token.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from car_graph.domains import IdentifierSpec, NameSpec
from car_graph.keys import normalize_key

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc, Span

_US_REPORTS_PARTS = re.compile(r"(\d{1,3})\s+U\.?\s?S\.?\s+(\d{1,4}|_{3,})")


def us_reports_key(text: str) -> str | None:
    m = _US_REPORTS_PARTS.search(text)
    return f"{m.group(1)} u.s. {m.group(2)}" if m else normalize_key(text)


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
_VERSUS_HINT = re.compile(r"\s(?:v|vs|V)\.?\s")
CASES_KEY = "car_cases"
_PATTERN_ID = "pattern"


def case_patterns() -> list[list[dict[str, Any]]]:
    cap = {"TEXT": {"REGEX": _CAP_RE}, "LOWER": {"NOT_IN": _NOT_PARTY}}
    more = {"TEXT": {"REGEX": _CAP_OR_POSS_RE}, "LOWER": {"NOT_IN": _NOT_PARTY}, "OP": "*"}
    conn: list[dict[str, Any]] = [{"LOWER": {"IN": _CONNECTORS}}, {"LOWER": {"IN": _CONNECTORS}, "OP": "?"}]
    run: list[dict[str, Any]] = [cap, more]

    def party(connectors: int) -> list[dict[str, Any]]:
        tokens: list[dict[str, Any]] = list(run)
        for _ in range(connectors):
            tokens += conn + run
        return tokens

    return [
        party(left) + [{"ORTH": {"IN": _VERSUS}}] + party(right)
        for left in range(2)
        for right in range(3)
    ]


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


class CaseMatcher:
    """Case-name guesses into ``doc.spans[car_cases]`` (trimmed; the resolver weighs them
    against known corpus names and identifiers)."""

    def __init__(self, nlp: Language) -> None:
        from spacy.matcher import Matcher

        self.matcher = Matcher(nlp.vocab)
        self.matcher.add("case", case_patterns())

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span

        spans = []
        if _VERSUS_HINT.search(doc.text):
            for _, start, end in self.matcher(doc):
                trimmed = _trim_case(Span(doc, start, end, label="case", span_id=_PATTERN_ID))
                if trimmed is not None:
                    spans.append(trimmed)
        doc.spans[CASES_KEY] = spans
        return doc


def add_case_matcher(nlp: Language) -> str:
    """Add the case-name component to ``nlp`` (once); returns the spans key it writes."""
    from spacy.language import Language

    if not Language.has_factory("car_cases"):
        Language.factory("car_cases", func=lambda nlp, name: CaseMatcher(nlp))
    if "car_cases" not in nlp.pipe_names:
        nlp.add_pipe("car_cases", after="car_identifiers")
    return CASES_KEY


IDENTIFIERS = (
    IdentifierSpec(
        "us_reports", r"(?<![\w.,])\d{1,3}\s+U\.?\s?S\.?\s+(?:\d{1,4}|_{3,})(?![\w])",
        key=us_reports_key,
    ),
)
NAMES = (NameSpec("case", mentions=True, ordered=True),)  # "A v. B" and "B v. A" are two cases
IDENTIFIER_ATTRIBUTES = {"citation": None, "docket": "docket"}
