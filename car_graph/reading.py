"""Reading a question's words: one Unicode-aware tokenizer, each content word weighed by its
rarity, and whether the documents a retrieval found account for them (``accounted_for``).

A question about something the graph does not hold ("Is Roe v. Wade still good law?" asked of
a graph of advisories) still retrieves documents: dense search always returns its nearest. What
gives it away is that none of them holds the question's own rare words ("roe", "wade"). The
share of the question's content weight the best document holds is the evidence the verdict's
``not_found`` reads; its threshold is data (``resources/verdict.yaml``), fitted on the dev
verdict sets (``python -m car_graph_benchmarks.verdicts --fit``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml
from rapidfuzz import process
from rapidfuzz.distance import OSA

from car_graph.errors import ConfigError
from car_graph.lexicon import Lexicon
from car_graph.word_frequency import zipf_frequency

# letters and digits of any script, split at everything else (and at "_"): "médicament" and
# "東京" are one word each, "zip_next" two
_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The case-folded words of ``text``, in order."""
    return _TOKEN.findall(text.casefold())


@dataclass(frozen=True)
class AccountingWeights:
    """How content words are weighed, and the share below which nothing accounts for them."""

    zipf_ceiling: float      # a word's weight: ceiling - its Zipf frequency (rarer: heavier)
    min_weight: float        # the least weight of a content word (everyday words still count a little)
    number_weight: float     # a number's weight (a year, a version, an identifier's digits)
    min_share: float         # below this share of the weight held, nothing accounts for the question
    typo_min_length: float = 5  # a word this long is held by a word one edit away ("Aspkrin")

    def weight(self, word: str) -> float:
        """A rare word weighs more than an everyday one, a number a fixed weight.

        >>> AccountingWeights(7.0, 0.25, 2.0, 0.4).weight("wade") > 2.0
        True
        """
        if word.isdigit():
            return self.number_weight
        return max(self.min_weight, self.zipf_ceiling - zipf_frequency(word))


@functools.cache
def weights() -> AccountingWeights:
    """The bundled weights (``resources/verdict.yaml``'s ``accounting``), read once."""
    path = resources.files("car_graph") / "resources" / "verdict.yaml"
    raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        return AccountingWeights(**{k: float(v) for k, v in raw["accounting"].items()})
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"resources/verdict.yaml: bad 'accounting' section: {exc}") from exc


@dataclass(frozen=True)
class Accounting:
    """How much of a question's content the best-fitting document holds."""

    share: float                    # of the question's content weight, 0..1 (1 when it has none)
    best: str | None                # the document holding the most
    unexplained: tuple[str, ...]    # content words no document holds, heaviest first
    weight: float                   # the question's content weight

    def to_json(self) -> dict[str, Any]:
        return {"share": round(self.share, 3), "best": self.best,
                "unexplained": list(self.unexplained), "weight": round(self.weight, 2)}


_CLAUSE = re.compile(r"[.!?;:,]\s|\n")  # a clause break (not the dot inside "Node.js")
_PHRASE_WORDS = 5  # the longest setting or reporter phrase read


def setting_phrases(question: str, lexicon: Lexicon, stop_words: frozenset[str]) -> frozenset[str]:
    """Words that say where the asker meets the subject or who reported it, not what it is:
    the capitalised words right after a first-person possessive ("our PHP site", "my Rust CLI"),
    a clause's words before its reporting verb and the verb ("Cargo audit warns about ..."),
    the words after a reporter phrase ("According to Trivy, ..."). A word the question also
    writes outside such a phrase is kept.

    >>> from car_graph.lexicon import lexicon
    >>> sorted(setting_phrases("Cargo audit warns about a flaw in my Rust CLI", lexicon(),
    ...                        frozenset({"about", "a", "in", "my"})))
    ['audit', 'cargo', 'cli', 'rust', 'warns']
    """
    phrase: set[int] = set()
    words_at: list[str] = []
    for clause in _CLAUSE.split(question):
        written = [m.group(0) for m in _TOKEN.finditer(clause)]
        said = [w.casefold() for w in written]
        base = len(words_at)
        words_at.extend(said)
        opener = lexicon.reporter_opener.match(clause)
        if opener is not None:
            skipped = len(tokens(clause[:opener.end()]))
            phrase.update(base + i for i in range(skipped, min(len(said), skipped + _PHRASE_WORDS)))
            continue
        verb = next((i for i, w in enumerate(said[:_PHRASE_WORDS + 1]) if w in lexicon.reporting_verbs), None)
        if verb is not None:
            phrase.update(base + i for i in range(verb + 1) if said[i] not in stop_words)
        for i, w in enumerate(said):
            if w in lexicon.asker_possessives:
                j = i + 1
                while j < len(said) and j <= i + _PHRASE_WORDS and written[j][:1].isupper():
                    phrase.add(base + j)
                    j += 1
    outside = {w for i, w in enumerate(words_at) if i not in phrase}
    return frozenset(words_at[i] for i in phrase) - outside


def content_words(question: str, lexicon: Lexicon, stop_words: frozenset[str],
                  ignore: Iterable[str] = ()) -> list[str]:
    """The question's words that say what it is about: not stop words, status or frame words,
    nor words ``ignore`` names (the asker's setting, an identifier scheme's own name), each once.

    >>> from car_graph.lexicon import lexicon
    >>> content_words("Is Roe v. Wade still good law?", lexicon(), frozenset({"is", "v"}))
    ['roe', 'wade']
    """
    skip = lexicon.status_words | lexicon.frame_words | stop_words | set(ignore)
    return list(dict.fromkeys(w for w in tokens(question) if w not in skip and len(w) > 1))


def accounted_for(words: Iterable[str], documents: Mapping[str, str], stem: Any,
                  rates: AccountingWeights) -> Accounting:
    """The share of ``words``' weight the best of ``documents`` (id -> text) holds, a word held
    when the document writes it, a word of the same ``stem``, or -- a word of at least
    ``typo_min_length`` letters -- a word one edit away (a typo the linker did not resolve).

    >>> rates = AccountingWeights(7.0, 0.25, 2.0, 0.4)
    >>> a = accounted_for(["roe", "wade"], {"d1": "Bowers v. Hardwick"}, str, rates)
    >>> a.share, a.unexplained
    (0.0, ('roe', 'wade'))
    """
    asked = {w: rates.weight(w) for w in words}
    total = sum(asked.values())
    if total == 0:
        return Accounting(1.0, None, (), 0.0)
    held_by: dict[str, set[str]] = {}
    best, best_weight = None, 0.0
    for doc_id, text in documents.items():
        written = set(tokens(text))
        stems = {stem(w) for w in written}
        held = {w for w in asked if w in written or stem(w) in stems
                or (len(w) >= rates.typo_min_length and not w.isdigit()
                    and process.extractOne(w, written, scorer=OSA.distance, score_cutoff=1) is not None)}
        held_by[doc_id] = held
        weight = sum(asked[w] for w in held)
        if weight > best_weight:
            best, best_weight = doc_id, weight
    anywhere = set().union(*held_by.values()) if held_by else set()
    unexplained = tuple(sorted((w for w in asked if w not in anywhere), key=lambda w: -asked[w]))
    return Accounting(best_weight / total, best, unexplained, total)
