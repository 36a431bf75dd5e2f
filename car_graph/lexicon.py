"""The cue words question reading uses, loaded from data (``resources/lexicon/<language>.yaml``).

Status words, question-frame words, first-person possessives, reporting verbs and phrases, the
words before a version bound or an identifier's number: English lives in ``en.yaml``, not in
Python, so a domain or a user extends it without a code change (a rules file's ``lexicon:`` key,
``Lexicon.extended``) and another language is another file. Read on first use, never at import.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from importlib import resources
from typing import Any

import yaml

from car_graph.errors import ConfigError


@dataclass(frozen=True)
class Lexicon:
    """One language's cue words (lower case; a phrase's words separated by one space)."""

    language: str
    status_words: frozenset[str]
    frame_words: frozenset[str]
    asker_possessives: frozenset[str]
    reporting_verbs: frozenset[str]
    reporter_openers: tuple[str, ...]
    reporter_determiners: frozenset[str]
    version_bounds: tuple[str, ...]
    number_cues: tuple[str, ...]

    def extended(self, extra: Mapping[str, Iterable[str]]) -> Lexicon:
        """This lexicon with ``extra``'s words added to the lists it names (a rules file's
        ``lexicon:`` mapping). An unknown list name is an error naming the known ones."""
        known = {f.name for f in fields(self)} - {"language"}
        unknown = sorted(set(extra) - known)
        if unknown:
            raise ConfigError(f"unknown lexicon list(s) {unknown}; known: {sorted(known)}")
        changes: dict[str, Any] = {}
        for name, words in extra.items():
            current = getattr(self, name)
            added = [_norm(w) for w in words]
            changes[name] = (current | frozenset(added) if isinstance(current, frozenset)
                             else tuple(dict.fromkeys([*current, *added])))
        return replace(self, **changes)

    @functools.cached_property
    def version_bound(self) -> re.Pattern[str]:
        """Matches at the end of the text before a number that is a version ("through 3002")."""
        return _ending_in(self.version_bounds, symbols=("<=", ">=", "<", ">"))

    @functools.cached_property
    def number_cue(self) -> re.Pattern[str]:
        """Matches at the end of the text before a number that is an identifier's tail."""
        return _ending_in(self.number_cues, symbols=("#",))

    @functools.cached_property
    def reporter_opener(self) -> re.Pattern[str]:
        """Matches a reporter phrase opening a clause ("According to Trivy, ...")."""
        alternatives = "|".join(_phrase(p) for p in sorted(self.reporter_openers, key=len, reverse=True))
        return re.compile(rf"(?i)^\W*(?:{alternatives})\b" if alternatives else r"(?!)")


def _norm(word: str) -> str:
    return " ".join(str(word).lower().split())


def _phrase(phrase: str) -> str:
    return r"\s+".join(re.escape(w) for w in phrase.split())


def _ending_in(phrases: Iterable[str], symbols: Iterable[str]) -> re.Pattern[str]:
    words = "|".join(_phrase(p) for p in sorted(phrases, key=len, reverse=True))
    marks = "|".join(re.escape(s) for s in symbols)
    return re.compile(rf"(?i)(?:\b(?:{words})|{marks})\s*$")


LISTS = ("status_words", "frame_words", "asker_possessives", "reporting_verbs", "reporter_openers",
         "reporter_determiners", "version_bounds", "number_cues")


def parse(raw: Mapping[str, Any], where: str) -> Lexicon:
    """A lexicon from a YAML mapping; every list is required, of strings."""
    missing = [name for name in LISTS if name not in raw]
    if missing:
        raise ConfigError(f"{where}: lexicon lacks {missing}")
    values: dict[str, Any] = {}
    for name in LISTS:
        words = raw[name]
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ConfigError(f"{where}: lexicon list {name!r} must be a list of strings")
        normed = [_norm(w) for w in words]
        kind = next(f.type for f in fields(Lexicon) if f.name == name)
        values[name] = frozenset(normed) if "frozenset" in str(kind) else tuple(dict.fromkeys(normed))
    return Lexicon(language=str(raw.get("language", "")), **values)


@functools.cache
def lexicon(language: str = "en") -> Lexicon:
    """The bundled lexicon of ``language`` (read once)."""
    if not re.fullmatch(r"[a-z]{2,3}", language):
        raise ConfigError(f"not a language code: {language!r}")
    path = resources.files("car_graph") / "resources" / "lexicon" / f"{language}.yaml"
    if not path.is_file():
        raise ConfigError(f"no lexicon for language {language!r}")
    return parse(yaml.safe_load(path.read_text(encoding="utf-8")), f"lexicon/{language}.yaml")
