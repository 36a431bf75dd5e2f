"""Domains as plugins: what a domain knows about its entities and its sources, in one object.

A domain declares, for the generic machinery (extractor, linker, pipeline, CLI) to use:

* **identifiers** -- patterns that name one thing exactly (a CVE, an NDC, a docket number, a
  ticker symbol written as an id). Matched exactly after normalisation, never fuzzily. A
  pattern marked ``partial`` may also be named by its distinctive trailing digits ("62718").
  Its ``scheme_words`` are what people call the scheme itself ("the CVE", "an NDA"): a question
  writing one bare names no entity whose name is only that word (the crate cve-rs).
* **names** -- scope entity types whose keys are names people type (packages, drugs, cases,
  employees). Linked with typo tolerance; a name type may declare *qualifiers* (words that
  qualify a name without identifying it, such as salts and dosage forms), a display form of its
  keys, whether its names are also found as mentions in document text, and whether the order
  of a name's words tells two names apart (``ordered``: case names, "A v. B" and "B v. A").
* **identifier attributes** -- record attributes whose values identify the document
  (``application_number``, ``aliases``); besides these, any attribute string that matches a
  declared identifier pattern as a whole becomes an identifier of its document.
* **name attributes** -- record attributes whose values are further names of the document's
  subject (a drug's ``trademark``, a product's ``brand_name``): linked like names, with typo
  tolerance, so "Is Nizaoral still available?" finds the approval of Nizoral even when the
  brand is no scope entity and the text stems it out of reach. Never scope: rules don't key on
  them.
* **components** -- optional extra spaCy span components (the law domain's case-name patterns).
* **formats** -- input formats of ``car-graph ingest --format`` (``osv``: OSV JSON), each a
  reader ``(path, problems) -> records``.
* **rules** -- the domain's bundled supersession rules (a YAML resource, ``rules.yaml``).
* **version schemes** -- the names its sources give versioning schemes ("PyPI", "crates.io",
  "Debian:12") mapped to the schemes of ``car_graph.versions``.

Scope. A domain's declarations apply to its own documents: a record whose ``domain`` is a
registered domain is read with that domain's declarations alone (:meth:`DomainRegistry.for_document`).
A record without a domain, or with one that no registered domain declares (generic JSON Lines
may omit the domain, and an export may label its documents without declaring anything), is read
with every registered domain -- the behaviour before domains were scoped. Questions are read
with the domains of the documents the graph holds (:meth:`DomainRegistry.for_graph`), so a
user's domain is never linked through another domain's patterns.

Registration, spaCy-registry style, by name: the built-in domains are the subpackages of
``car_graph.ingest.domains`` (each ``<name>/__init__.py`` defines ``DOMAIN: Domain`` named like
its folder), found by scanning that package -- adding a domain is adding a folder. Other
distributions register theirs through the entry-point group ``car_graph.domains``
(``[project.entry-points."car_graph.domains"] compliance = "my_pkg.domain:DOMAIN"``). A user's
domain is a YAML file -- the same file as its rules -- read by :func:`domain_from_mapping`::

    domain: compliance
    identifiers:
      - {type: ticket, pattern: 'TCK-\\d{4,}', case_insensitive: true, partial: true,
         scheme_words: [ticket, tck]}
    names:
      - {type: drug, qualifiers: [hydrochloride, tablets], mentions: true}
      - {type: case, ordered: true}
    identifier_attributes: {docket: docket, aliases: null}   # null: type from the pattern
    name_attributes: {brand_name: brand}                      # attribute -> name type
    rules: [...]

A bottom-layer module: it imports car_graph.errors and car_graph.keys only (the built-in and
entry-point domains are imported by name when first asked for), and never spaCy.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import pkgutil
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING, Any

import re2

from car_graph.errors import ConfigError, RulesError
from car_graph.keys import NAME_PATTERN, normalize_key
from car_graph.lexicon import LISTS, Lexicon, lexicon

if TYPE_CHECKING:  # pragma: no cover
    from importlib.resources.abc import Traversable

__all__ = [
    "BUILTIN_ROOT",
    "ENTRY_POINT_GROUP",
    "Domain",
    "DomainRegistry",
    "IdentifierSpec",
    "NameSpec",
    "discover_domains",
    "domain_from_json",
    "domain_from_mapping",
    "domain_to_mapping",
    "installed_domains",
    "stored_domains",
]

# Where built-in domains live (one subpackage each) and the entry-point group of other ones.
BUILTIN_ROOT = "car_graph.ingest.domains"
ENTRY_POINT_GROUP = "car_graph.domains"

KeyFunction = Callable[[str], "str | None"]
# A format reader: (path, problems) -> the records of the file; bad records go to ``problems``.
Reader = Callable[..., Iterable[Any]]


def _digits_key(text: str) -> str | None:
    digits = re.sub(r"\D", "", text)
    return digits or None


# Key normalisers a YAML domain may name (Python domains pass any callable).
KEY_FUNCTIONS: Mapping[str, KeyFunction] = {
    "lower": normalize_key,
    "upper": lambda text: " ".join(text.split()).upper(),
    "as_is": lambda text: " ".join(text.split()),
    "digits": _digits_key,
}


@dataclass(frozen=True)
class IdentifierSpec:
    """An identifier pattern. ``pattern`` is a Python regex (use inline flags such as ``(?i:``
    for case-insensitive parts); ``group`` selects the mention inside the match; ``key`` turns a
    mention into the entity key (None drops it, e.g. a spelling that is ambiguous)."""

    type: str
    pattern: str
    group: int = 0
    key: KeyFunction = normalize_key
    partial: bool = False  # may be named by its trailing digits alone
    key_name: str = "lower"  # the KEY_FUNCTIONS name, for YAML round trips
    # An attribute value of this kind identifies its document (an alias does; a value that
    # names another thing, such as the version a document says fixes it, does not).
    identifies_documents: bool = True
    # what a question calls the scheme itself, lowercase ("which TCK covers it?"): such a word
    # written bare is no name of its own (a product named after the scheme, "tck-rs")
    scheme_words: frozenset[str] = frozenset()
    # with ``partial``: the fewest trailing digits that name such an identifier (None: the
    # linker's ``LinkingSettings.min_partial_digits``); a scheme whose numbers run to three
    # digits ("POL-2020-031") is named by "031"
    min_partial_digits: int | None = None
    # A pattern from a user (YAML, the graph, MCP) runs on RE2, in time linear in the text
    # whatever the pattern: ``pattern`` is then the user's own, and the identifier's boundaries
    # (not glued to a word or a hyphenated run) are checked around each match in Python. A
    # built-in domain's pattern is trusted code and runs on Python's engine, bounded in itself.
    linear: bool = False

    @property
    def regex(self) -> Any:
        """An object with ``finditer(text)`` and ``fullmatch(text)`` whose matches have
        ``start(group)`` / ``end(group)``: a compiled ``re`` pattern, or a :class:`LinearPattern`."""
        return linear_pattern(self.pattern) if self.linear else _compiled(self.pattern)

    def key_of(self, text: str) -> str | None:
        key = self.key(text)
        return key or None

    def fullmatch_key(self, value: str) -> str | None:
        """The key when ``value`` is, as a whole, one identifier of this kind."""
        stripped = value.strip()
        match = self.regex.fullmatch(stripped)
        if match is None or match.start(self.group) != 0 or match.end(self.group) != len(stripped):
            return None
        return self.key_of(stripped)


_REGEX_CACHE: dict[str, re.Pattern[str]] = {}

# Constructs RE2 lacks (it guarantees linear time by leaving them out), named in the refusal.
_UNSUPPORTED = ((re.compile(r"\(\?<?[=!]"), "lookahead or lookbehind ((?=, (?!, (?<=, (?<!)"),
                (re.compile(r"\\[1-9]|\(\?P="), "a backreference (\\1, (?P=name))"),
                (re.compile(r"\(\?>"), "an atomic group ((?>)"),
                (re.compile(r"[*+?}][+]"), "a possessive quantifier (*+, ++, ?+)"))
# Identifiers stand alone: the character before a match is no word character or hyphen, the one
# after neither, nor a dot followed by a word character (the Python form for built-ins:
# (?<![\w-])(?:p)(?![\w-]|\.\w)).
_BOUNDED = re.compile(r"^\(\?<!\[\\w-\]\)\(\?:(?P<pattern>.*)\)\(\?!\[\\w-\]\|\\\.\\w\)$", re.S)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


class LinearPattern:
    """A user's identifier pattern on RE2 (google-re2: no backtracking, time linear in the
    text), with the identifier boundaries checked around each match."""

    def __init__(self, pattern: str) -> None:
        options = re2.Options()
        options.log_errors = False  # a refused pattern is reported by the caller, not on stderr
        self.compiled = re2.compile(f"(?:{pattern})", options=options)
        self.groups = self.compiled.groups

    @staticmethod
    def bounded(text: str, start: int, end: int) -> bool:
        if start > 0 and (_word(text[start - 1]) or text[start - 1] == "-"):
            return False
        if end < len(text) and (_word(text[end]) or text[end] == "-"):
            return False
        return not (end + 1 < len(text) and text[end] == "." and _word(text[end + 1]))

    def finditer(self, text: str) -> Iterator[Any]:
        position = 0
        while position <= len(text):
            match = self.compiled.search(text, position)
            if match is None:
                return
            start, end = match.span()
            if self.bounded(text, start, end):
                yield match
                position = end if end > start else end + 1
            else:
                position = start + 1

    def fullmatch(self, text: str) -> Any:
        return self.compiled.fullmatch(text)


_LINEAR_CACHE: dict[str, LinearPattern] = {}


def linear_pattern(pattern: str) -> LinearPattern:
    """The RE2 form of a user's pattern (cached), or RulesError naming what RE2 cannot run."""
    found = _LINEAR_CACHE.get(pattern)
    if found is None:
        try:
            found = _LINEAR_CACHE[pattern] = LinearPattern(pattern)
        except re2.error as e:
            named = [what for construct, what in _UNSUPPORTED if construct.search(pattern)]
            reason = (f"uses {named[0]}, which the linear-time engine (RE2) does not run: "
                      "identifiers are bounded for you, so a lookaround is rarely needed"
                      if named else f"is not a valid regular expression: {e}")
            raise RulesError(f"pattern {pattern!r}", reason) from e
    return found


def _compiled(pattern: str) -> re.Pattern[str]:
    regex = _REGEX_CACHE.get(pattern)
    if regex is None:
        regex = _REGEX_CACHE[pattern] = re.compile(pattern)
    return regex


@dataclass(frozen=True)
class NameSpec:
    """A scope type whose keys are names people type."""

    type: str
    qualifiers: frozenset[str] = frozenset()
    display: Callable[[str], str] | None = None  # key as given -> name as people write it
    mentions: bool = False  # also find these names in document text (spaCy phrase patterns)
    # the order of a name's words tells two names apart ("A v. B" and "B v. A" are two
    # parties' suits); a name of ingredients or parts names one thing in any order
    ordered: bool = False
    display_name: str | None = None  # the YAML form of ``display`` ("after_colon")

    def name_of(self, key: str) -> str:
        return self.display(key) if self.display else key


def after_colon(key: str) -> str:
    """``namespace:name`` -> ``name``: a key that carries a namespace prefix."""
    return key.split(":", 1)[1] if ":" in key else key


DISPLAY_FUNCTIONS: Mapping[str, Callable[[str], str]] = {"after_colon": after_colon}


@dataclass(frozen=True)
class Domain:
    name: str
    identifiers: tuple[IdentifierSpec, ...] = ()
    names: tuple[NameSpec, ...] = ()
    # attribute name -> entity type (None: the type of the identifier pattern its value matches)
    identifier_attributes: Mapping[str, str | None] = field(default_factory=dict)
    # attribute name -> name type: values that are further names of the document's subject
    name_attributes: Mapping[str, str] = field(default_factory=dict)
    # callables ``(nlp) -> spans_key`` adding a spaCy component whose spans are entity guesses
    components: tuple[Callable[[Any], str], ...] = ()
    description: str = ""
    # ``car-graph ingest --format NAME``: format name -> reader ``(path, problems) -> records``
    formats: Mapping[str, Reader] = field(default_factory=dict)
    # the bundled supersession rules (a YAML resource), used for this domain's documents when
    # no rules are given; None: the domain bundles none
    rules: Traversable | None = None
    # a source's name for a versioning scheme -> the scheme (car_graph.versions.SCHEMES);
    # a key ending in ":*" also covers the name followed by any ":<suffix>" (a distribution's
    # version, say)
    version_schemes: Mapping[str, str] = field(default_factory=dict)
    # words the domain adds to the question lexicon's lists (car_graph/lexicon.py: list name ->
    # words, say a status word only this domain's questions use): declared here, or under a
    # ``lexicon:`` key of the bundled rules file (``cue_words``)
    lexicon: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @functools.cached_property
    def cue_words(self) -> Mapping[str, tuple[str, ...]]:
        """``lexicon``, else the ``lexicon:`` of the bundled rules file (read on first use)."""
        if self.lexicon or self.rules is None:
            return self.lexicon
        return _bundled_cue_words(self.rules)

    @property
    def entity_types(self) -> frozenset[str]:
        """Every entity type the domain declares: identifier, name and attribute types."""
        return frozenset(
            [s.type for s in self.identifiers] + [s.type for s in self.names]
            + [t for t in self.identifier_attributes.values() if t]
            + list(self.name_attributes.values())
        )


class DomainRegistry:
    """The domains in force: the installed ones plus any user domain loaded from YAML or the graph.

    Later registrations of a name replace earlier ones. A registry answers for every domain it
    holds; :meth:`for_document` and :meth:`for_graph` give the registry of the domains that
    apply to one record or to the questions asked of a graph (cached views, rebuilt when a
    domain is added). Where two domains' identifier patterns match the same span at the same
    length, the one registered first wins (built-ins in folder-name order).
    """

    def __init__(self, domains: Iterable[Domain] = ()) -> None:
        self._domains: dict[str, Domain] = {}
        self._fingerprint: str | None = None
        self._specs: tuple[IdentifierSpec, ...] | None = None
        self._views: dict[frozenset[str], DomainRegistry] = {}
        for domain in domains:
            self.add(domain)

    @classmethod
    def installed(cls) -> DomainRegistry:
        """A new registry of the built-in and entry-point domains (see the module docstring)."""
        return cls(installed_domains())

    def add(self, domain: Domain) -> None:
        self._domains[domain.name] = domain
        self._fingerprint = None
        self._specs = None
        self._views.clear()
        self.__dict__.pop("lexicon", None)

    def __contains__(self, name: object) -> bool:
        return name in self._domains

    def __iter__(self) -> Iterator[Domain]:
        return iter(self._domains.values())

    def __len__(self) -> int:
        return len(self._domains)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._domains)

    def get(self, name: str) -> Domain | None:
        return self._domains.get(name)

    # ----------------------------------------------------------------- scope

    def subset(self, names: Iterable[str]) -> DomainRegistry:
        """The registered domains among ``names``, in registration order (``self`` when that is
        all of them)."""
        wanted = frozenset(name for name in names if name in self._domains)
        if len(wanted) == len(self._domains):
            return self
        view = self._views.get(wanted)
        if view is None:
            view = self._views[wanted] = DomainRegistry(d for d in self if d.name in wanted)
        return view

    def for_document(self, domain: str | None) -> DomainRegistry:
        """The domains whose declarations apply to a record of ``domain``: that domain alone
        when it is registered; every registered domain when the record names no domain or one
        that nobody declared (generic JSON Lines may omit the domain, or label documents without
        declaring anything)."""
        if domain is not None and domain in self._domains:
            return self.subset((domain,))
        return self

    def for_graph(self, domains: Iterable[str | None]) -> DomainRegistry:
        """The domains whose declarations apply to questions asked of a graph whose documents
        have ``domains``: the union of :meth:`for_document` over them (every registered domain
        while the graph holds no document)."""
        names: set[str] = set()
        empty = True
        for domain in domains:
            empty = False
            view = self.for_document(domain)
            if view is self:
                return self
            names.update(view.names)
        return self if empty else self.subset(names)

    # ----------------------------------------------------------------- declarations

    @property
    def identifier_specs(self) -> tuple[IdentifierSpec, ...]:
        if self._specs is None:
            seen: dict[tuple[str, str], IdentifierSpec] = {}
            for domain in self:
                for spec in domain.identifiers:
                    seen.setdefault((spec.type, spec.pattern), spec)
            self._specs = tuple(seen.values())
        return self._specs

    @property
    def identifier_types(self) -> frozenset[str]:
        return frozenset(s.type for s in self.identifier_specs)

    @property
    def partial_types(self) -> frozenset[str]:
        return frozenset(s.type for s in self.identifier_specs if s.partial)

    def partial_digits(self, default: int) -> dict[str, int]:
        """partial-capable type -> the fewest trailing digits that name one of its identifiers
        (``IdentifierSpec.min_partial_digits``, else ``default``; the least of a type's
        patterns when several declare it)."""
        least: dict[str, int] = {}
        for spec in self.identifier_specs:
            if spec.partial:
                digits = spec.min_partial_digits or default
                least[spec.type] = min(least.get(spec.type, digits), digits)
        return least

    @property
    def scheme_words(self) -> frozenset[str]:
        """The words questions call the identifier schemes by (``IdentifierSpec.scheme_words``)."""
        return frozenset().union(*(s.scheme_words for s in self.identifier_specs))

    @functools.cached_property
    def lexicon(self) -> Lexicon:
        """The English question lexicon with every registered domain's ``cue_words`` added (a
        registry is rebuilt, not changed, when a domain is added to a view; :meth:`add`
        forgets this)."""
        extra: dict[str, list[str]] = {}
        for domain in self:
            for name, words in domain.cue_words.items():
                extra.setdefault(name, []).extend(words)
        return lexicon().extended(extra) if extra else lexicon()

    @property
    def entity_types(self) -> frozenset[str]:
        """Every entity type a registered domain declares."""
        return frozenset().union(*(d.entity_types for d in self))

    def name_spec(self, entity_type: str) -> NameSpec | None:
        for domain in self:
            for spec in domain.names:
                if spec.type == entity_type:
                    return spec
        return None

    @property
    def mention_name_types(self) -> frozenset[str]:
        return frozenset(s.type for d in self for s in d.names if s.mentions)

    def ordered(self, entity_type: str) -> bool:
        """A question names an entity of this type only with its words in the name's order."""
        return any(s.ordered for d in self for s in d.names if s.type == entity_type)

    def qualifiers(self, entity_type: str) -> frozenset[str]:
        return frozenset().union(*(s.qualifiers for d in self for s in d.names if s.type == entity_type))

    def display_name(self, entity_type: str, key: str) -> str:
        spec = self.name_spec(entity_type)
        return spec.name_of(key) if spec else key

    def identifier_attributes(self) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for domain in self:
            out.update(domain.identifier_attributes)
        return out

    def name_attributes(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for domain in self:
            out.update(domain.name_attributes)
        return out

    @property
    def attribute_name_types(self) -> frozenset[str]:
        return frozenset(self.name_attributes().values())

    def names_of_attributes(self, attributes: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """(type, key, surface) for every value of a declared name attribute."""
        declared = self.name_attributes()
        out: dict[tuple[str, str], str] = {}
        for name, value in attributes.items():
            if name not in declared:
                continue
            for item in _strings(value):
                key = normalize_key(item)
                if key:
                    out.setdefault((declared[name], key), " ".join(item.split()))
        return [(t, k, s) for (t, k), s in out.items()]

    def fingerprint(self) -> str:
        """What the domains derive from a record (identifier patterns and their key functions,
        name types, identifier and name attributes), as a short digest: a record ingested under
        other declarations is written again."""
        digest = self._fingerprint
        if digest is None:
            mappings = [domain_to_mapping(d) for d in sorted(self, key=lambda d: d.name)]
            for mapping, domain in zip(mappings, sorted(self, key=lambda d: d.name), strict=True):
                for spec, out in zip(domain.identifiers, mapping["identifiers"], strict=True):
                    out["key"] = spec.key_name or getattr(spec.key, "__qualname__", "")
                mapping["components"] = [getattr(c, "__qualname__", "") for c in domain.components]
            payload = json.dumps(mappings, sort_keys=True, default=str)
            digest = self._fingerprint = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]
        return digest

    def components(self) -> tuple[Callable[[Any], str], ...]:
        return tuple(c for d in self for c in d.components)

    def identifiers_of_attributes(self, attributes: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """(type, key, surface) for every attribute value that identifies its document: values of
        declared identifier attributes, and any string that is wholly one declared identifier."""
        declared = self.identifier_attributes()
        specs = [s for s in self.identifier_specs if s.identifies_documents]
        out: dict[tuple[str, str], str] = {}
        for name, value in attributes.items():
            for item in _strings(value):
                matched = False
                for spec in specs:
                    key = spec.fullmatch_key(item)
                    if key:
                        out.setdefault((spec.type, key), item)
                        matched = True
                if not matched and name in declared:
                    key = normalize_key(item)
                    if key:
                        out.setdefault((declared[name] or name, key), item)
        return [(t, k, s) for (t, k), s in out.items()]

    # ----------------------------------------------------------------- sources

    def formats(self) -> dict[str, Reader]:
        """Every domain's input formats by name; a name two domains declare is an error."""
        return _merged(self, "formats", lambda name: name)

    def version_schemes(self) -> dict[str, str]:
        """Every domain's scheme names, case-folded; one name given two schemes is an error."""
        return _merged(self, "version_schemes", str.casefold)


def _merged(domains: Iterable[Domain], what: str, key: Callable[[str], str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for domain in domains:
        for name, value in getattr(domain, what).items():
            name = key(name)
            if name in out and out[name] != value:
                raise ConfigError(f"{what} {name!r} is declared by two domains: "
                                  f"{owner[name]!r} and {domain.name!r}")
            out[name], owner[name] = value, domain.name
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value.strip() and len(value) <= 200:
            yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str) and item.strip() and len(item) <= 200:
                yield item


# --------------------------------------------------------------------------- registration


def discover_domains(
    root: str = BUILTIN_ROOT, group: str | None = ENTRY_POINT_GROUP
) -> tuple[Domain, ...]:
    """The domains of ``root``'s subpackages (folder-name order), then those the entry-point
    ``group`` names (entry-point-name order). Each is registered under its name: a subpackage's
    ``DOMAIN`` must carry its folder's name, an entry point's object the entry point's name; a
    name registered twice is an error (never a silent override)."""
    found: dict[str, tuple[Domain, str]] = {}

    def register(domain: Any, name: str, where: str) -> None:
        if not isinstance(domain, Domain):
            raise ConfigError(f"{where}: must define DOMAIN, a car_graph.domains.Domain "
                              f"(found {type(domain).__name__})")
        if domain.name != name:
            raise ConfigError(f"{where}: declares domain {domain.name!r} but is registered as {name!r}")
        if name in found:
            raise ConfigError(f"domain {name!r} is registered twice: by {found[name][1]} and by {where}")
        found[name] = (domain, where)

    for info in sorted(pkgutil.iter_modules(importlib.import_module(root).__path__),
                       key=lambda m: m.name):
        if info.ispkg:
            module = importlib.import_module(f"{root}.{info.name}")
            register(getattr(module, "DOMAIN", None), info.name, f"{root}.{info.name}")
    if group:
        for entry in sorted(metadata.entry_points(group=group), key=lambda e: e.name):
            where = f"entry point {entry.name} = {entry.value} (group {group})"
            try:
                domain = entry.load()
            except Exception as e:
                raise ConfigError(f"{where} cannot be loaded: {e}") from e
            register(domain, entry.name, where)
    return tuple(domain for domain, _ in found.values())


@functools.cache
def installed_domains() -> tuple[Domain, ...]:
    """The built-in and entry-point domains, discovered once per process."""
    return discover_domains()


# --------------------------------------------------------------------------- YAML domains

_DOMAIN_KEYS = {"domain", "description", "identifiers", "names", "identifier_attributes",
                "name_attributes", "rules", "lexicon"}


def cue_words_from(raw: Any, where: str) -> dict[str, tuple[str, ...]]:
    """A ``lexicon:`` mapping of a domain or rules file: lexicon list name -> words."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise RulesError(where, f"'lexicon' must be a mapping of list names ({', '.join(LISTS)}) to words")
    unknown = sorted(set(raw) - set(LISTS))
    if unknown:
        raise RulesError(where, f"'lexicon' names unknown lists {unknown}; known: {list(LISTS)}")
    out: dict[str, tuple[str, ...]] = {}
    for name, words in raw.items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            raise RulesError(where, f"'lexicon.{name}' must be a list of words")
        out[name] = tuple(" ".join(w.casefold().split()) for w in words)
    return out


def _bundled_cue_words(rules: Traversable) -> Mapping[str, tuple[str, ...]]:
    import yaml  # a domain's rules file is only read when its cue words are asked for

    source = str(rules)
    try:
        data = yaml.safe_load(rules.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise RulesError(source, f"cannot read the bundled rules: {e}") from e
    return cue_words_from(data.get("lexicon") if isinstance(data, Mapping) else None, source)


def _type_name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        raise RulesError(where, f"'type' must match {NAME_PATTERN.pattern}, got {value!r}")
    return value


def _identifier(raw: Any, where: str) -> IdentifierSpec:
    if not isinstance(raw, Mapping):
        raise RulesError(where, "each identifier is a mapping {type, pattern, ...}")
    unknown = set(raw) - {"type", "pattern", "case_insensitive", "key", "partial", "group",
                          "scheme_words", "min_partial_digits"}
    if unknown:
        raise RulesError(where, f"unknown keys {sorted(unknown)}")
    pattern = raw.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise RulesError(where, "'pattern' must be a non-empty regular expression")
    if raw.get("case_insensitive", False) is True:
        pattern = f"(?i:{pattern})"
    elif raw.get("case_insensitive", False) is not False:
        raise RulesError(where, "'case_insensitive' must be true or false")
    # A user's pattern runs on RE2 (linear time: no pattern can hang a question); identifiers
    # stand alone, which LinearPattern checks around each match.
    try:
        compiled = linear_pattern(pattern)
    except RulesError as e:
        raise RulesError(where, f"'pattern' {e.reason}") from e
    if compiled.fullmatch(""):
        raise RulesError(where, "'pattern' must not match the empty string")
    key_name = raw.get("key", "lower")
    if key_name not in KEY_FUNCTIONS:
        raise RulesError(where, f"'key' must be one of {sorted(KEY_FUNCTIONS)}")
    partial = raw.get("partial", False)
    if not isinstance(partial, bool):
        raise RulesError(where, "'partial' must be true or false")
    group = raw.get("group", 0)
    if not isinstance(group, int) or group < 0 or group > compiled.groups:
        raise RulesError(where, "'group' must be a group number of the pattern")
    return IdentifierSpec(
        type=_type_name(raw.get("type"), where), pattern=pattern, group=group, linear=True,
        key=KEY_FUNCTIONS[key_name], partial=partial, key_name=key_name,
        scheme_words=_scheme_words(raw.get("scheme_words", []), where),
        min_partial_digits=_min_partial_digits(raw.get("min_partial_digits"), partial, where),
    )


def _min_partial_digits(raw: Any, partial: bool, where: str) -> int | None:
    if raw is None:
        return None
    if not partial:
        raise RulesError(where, "'min_partial_digits' applies to a 'partial: true' identifier")
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise RulesError(where, f"'min_partial_digits' must be a whole number of at least 1, got {raw!r}")
    return raw


def _scheme_words(raw: Any, where: str) -> frozenset[str]:
    if not isinstance(raw, list) or not all(isinstance(w, str) and w.strip() for w in raw):
        raise RulesError(where, "'scheme_words' must be a list of words")
    return frozenset(w.strip().casefold() for w in raw)


def _name(raw: Any, where: str) -> NameSpec:
    if isinstance(raw, str):
        raw = {"type": raw}
    if not isinstance(raw, Mapping):
        raise RulesError(where, "each name is a type or a mapping "
                         "{type, qualifiers?, display?, mentions?, ordered?}")
    unknown = set(raw) - {"type", "qualifiers", "display", "mentions", "ordered"}
    if unknown:
        raise RulesError(where, f"unknown keys {sorted(unknown)}")
    qualifiers = raw.get("qualifiers", [])
    if not isinstance(qualifiers, list) or not all(isinstance(q, str) and q for q in qualifiers):
        raise RulesError(where, "'qualifiers' must be a list of words")
    display = raw.get("display")
    if display is not None and display not in DISPLAY_FUNCTIONS:
        raise RulesError(where, f"'display' must be one of {sorted(DISPLAY_FUNCTIONS)}")
    mentions = raw.get("mentions", False)
    if not isinstance(mentions, bool):
        raise RulesError(where, "'mentions' must be true or false")
    ordered = raw.get("ordered", False)
    if not isinstance(ordered, bool):
        raise RulesError(where, "'ordered' must be true or false")
    return NameSpec(
        type=_type_name(raw.get("type"), where),
        qualifiers=frozenset(q.casefold() for q in qualifiers),
        display=DISPLAY_FUNCTIONS[display] if display else None,
        mentions=mentions,
        ordered=ordered,
        display_name=display,
    )


def domain_from_mapping(data: Any, source: str) -> Domain | None:
    """The domain a rules/domain YAML file declares, or None when it declares no entities
    (a file with only ``rules`` is still a valid rules file)."""
    if not isinstance(data, Mapping):
        raise RulesError(source, "a domain file is a mapping")
    unknown = set(data) - _DOMAIN_KEYS
    if unknown:
        raise RulesError(source, f"unknown top-level keys {sorted(unknown)}; allowed: {sorted(_DOMAIN_KEYS)}")
    if not any(data.get(k) for k in ("identifiers", "names", "identifier_attributes", "name_attributes",
                                      "lexicon")):
        return None
    name = data.get("domain")
    if not isinstance(name, str) or not name.strip():
        raise RulesError(source, "a file that declares identifiers or names needs a 'domain' name")
    identifiers = data.get("identifiers") or []
    names = data.get("names") or []
    attributes = data.get("identifier_attributes") or {}
    if not isinstance(identifiers, list):
        raise RulesError(source, "'identifiers' must be a list")
    if not isinstance(names, list):
        raise RulesError(source, "'names' must be a list")
    if isinstance(attributes, list):
        if not all(isinstance(a, str) for a in attributes):
            raise RulesError(source, "'identifier_attributes' as a list holds attribute names")
        attributes = dict.fromkeys(attributes)
    if not isinstance(attributes, Mapping):
        raise RulesError(source, "'identifier_attributes' must be a list or a mapping attribute -> type")
    for attr, etype in attributes.items():
        if not isinstance(attr, str) or not NAME_PATTERN.match(attr):
            raise RulesError(source, f"identifier attribute {attr!r} must match {NAME_PATTERN.pattern}")
        if etype is not None:
            _type_name(etype, f"{source} identifier_attributes.{attr}")
    name_attributes = data.get("name_attributes") or {}
    if not isinstance(name_attributes, Mapping):
        raise RulesError(source, "'name_attributes' must be a mapping attribute -> name type")
    for attr, etype in name_attributes.items():
        if not isinstance(attr, str) or not NAME_PATTERN.match(attr):
            raise RulesError(source, f"name attribute {attr!r} must match {NAME_PATTERN.pattern}")
        _type_name(etype, f"{source} name_attributes.{attr}")
    return Domain(
        name=name.strip(),
        identifiers=tuple(_identifier(r, f"{source} identifiers[{i}]") for i, r in enumerate(identifiers)),
        names=tuple(_name(r, f"{source} names[{i}]") for i, r in enumerate(names)),
        identifier_attributes=dict(attributes),
        name_attributes=dict(name_attributes),
        description=str(data.get("description") or ""),
        lexicon=cue_words_from(data.get("lexicon"), f"{source} lexicon"),
    )


def domain_to_mapping(domain: Domain) -> dict[str, Any]:
    """The YAML form of a domain declared in YAML (stored in the graph so that retrieval, in
    another process, links the same identifiers and names)."""
    return {
        "domain": domain.name,
        "identifiers": [
            {"type": s.type, "pattern": s.pattern, "key": s.key_name, "partial": s.partial,
             "group": s.group, "scheme_words": sorted(s.scheme_words),
             # the user's own pattern, run on RE2 (earlier graphs stored the Python-bounded form)
             **({"engine": "re2"} if s.linear else {"_bounded": True}),
             # only when declared: a domain stored without it reads back as it was
             **({"min_partial_digits": s.min_partial_digits}
                if s.min_partial_digits is not None else {})}
            for s in domain.identifiers
        ],
        "names": [
            {k: v for k, v in {"type": s.type, "qualifiers": sorted(s.qualifiers),
                               "display": s.display_name, "mentions": s.mentions,
                               "ordered": s.ordered}.items()
             if v is not None}
            for s in domain.names
        ],
        "identifier_attributes": dict(domain.identifier_attributes),
        "name_attributes": dict(domain.name_attributes),
        **({"lexicon": {k: list(v) for k, v in domain.lexicon.items()}} if domain.lexicon else {}),
    }


def domain_from_json(text: str, source: str) -> Domain:
    """Inverse of ``json.dumps(domain_to_mapping(d))``. A pattern stored by an earlier version
    (Python-bounded, ``_bounded``) is read back as the user's own pattern on RE2, so a pattern
    stored before this engine cannot hang questions either; RulesError if RE2 cannot run it."""
    data = json.loads(text)
    identifiers = []
    for i, raw in enumerate(data.get("identifiers", [])):
        key_name = raw.get("key", "lower")
        pattern = raw["pattern"]
        if raw.get("engine") != "re2":
            old = _BOUNDED.match(pattern)
            pattern = old.group("pattern") if old else pattern
        try:
            linear_pattern(pattern)
        except RulesError as e:
            raise RulesError(f"{source} identifiers[{i}]",
                             f"{e.reason}; declare the domain again (car-graph ingest --rules)") from e
        identifiers.append(IdentifierSpec(
            type=_type_name(raw["type"], f"{source} identifiers[{i}]"), pattern=pattern, linear=True,
            group=int(raw.get("group", 0)), key=KEY_FUNCTIONS.get(key_name, normalize_key),
            partial=bool(raw.get("partial", False)), key_name=key_name,
            scheme_words=frozenset(raw.get("scheme_words") or ()),
            min_partial_digits=(int(raw["min_partial_digits"])
                                if raw.get("min_partial_digits") is not None else None),
        ))
    names = [_name(raw, f"{source} names[{i}]") for i, raw in enumerate(data.get("names", []))]
    return Domain(
        name=data["domain"], identifiers=tuple(identifiers), names=tuple(names),
        identifier_attributes=dict(data.get("identifier_attributes") or {}),
        name_attributes=dict(data.get("name_attributes") or {}),
        lexicon=cue_words_from(data.get("lexicon"), f"{source} lexicon"),
    )


def stored_domains(store: Any) -> list[Domain]:
    """The user domains an earlier ingest stored in the graph (``:Domain``), so that this
    process extracts and links their identifiers and names as that one did."""
    return [domain_from_json(row["spec"], f"graph domain {row['name']}")
            for row in store.read("read_domains")]


