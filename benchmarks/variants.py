"""Failure-class question sets on an outside user's export of our real corpora, split dev/test.

An outside team scores car-graph through the public interface only: generic JSONL, explicit
``supersedes`` edges, no rules file, ``car-graph eval``. Their corpora are shaped by their own
pipelines, not by our adapters. This module re-exports one domain of
:func:`car_graph_benchmarks.questions.build_benchmark` that way and writes question sets of the
failure classes of issue 7, each with the benchmark's own gold for its anchor.

The export (``documents.jsonl``):

* ``domain`` without a bundled rules file (``advisories``, ``drug-labels``); every edge of the
  benchmark's supersession relation is written as an explicit ``supersedes`` reference (with its
  effective date and partial flag), so no rules are needed and gold is unchanged;
* ``scope`` holds plain names: ``{"product": "django"}`` (no ecosystem prefix; Go stdlib and
  toolchain are both ``go``), ``{"drug": "letrozole"}``;
* identifiers (CVE, GHSA, PYSEC, GO, RUSTSEC, NSWG, SNYK ids; FDA application numbers, UNII, NDC,
  recall numbers) are removed from every id, title, text and scope -- including the CVE lines of
  the controlling release notes -- and kept only in ``attributes`` (``{"cve": ..., "aliases":
  [...], "source_id": ...}``). Document ids become opaque (``advisory-<hash>``).

Question sets (one question per anchor per set; ``<set>.dev.jsonl`` / ``<set>.test.jsonl``):

* ``structured``: product + full identifier ("Is Django still affected by CVE-2021-35042?");
* ``typo`` / ``typo_long``: one natural one-character typo (swap, delete, replace by a keyboard
  neighbour, insert) anywhere in a product/drug name of 4-6 / 7+ letters; a typo that spells
  another name of the corpus is discarded;
* ``partial_id``: the identifier's trailing digit run (>= 4 digits) in varied phrasings, only
  when those digits end exactly one identifier of the product (security) or of the corpus (drug,
  where the question names no drug) -- otherwise the question has no single answer;
* ``paraphrase``: free-form questions naming the product or drug and no identifier;
* ``short_name``: security questions whose product name has <= 3 characters ("Go");
* ``masked_indication`` (drug): the approval's indication / class / mechanism with the drug's
  names replaced by "this drug", only when the facts the phrasing uses are unique among the
  corpus's approvals.

Split: an anchor is dev or test by a stable hash of its benchmark id (~40 % dev), the same in
every set; each set's phrasing families (templates, typo operations) are split too, and a dev
anchor is only ever asked with dev families, a test anchor with test families.

``python -m car_graph_benchmarks.variants OUT_DIR --raw RAW [--domains security,drug]`` writes
``OUT_DIR/<domain>/{documents.jsonl, <set>.{dev,test}.jsonl, stats.json}``.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz.distance import OSA

from car_graph.metrics import SupersessionGraph
from car_graph.records import DocumentRecord, SupersedesRef, write_jsonl
from car_graph_benchmarks.corpora import ENV_VAR, CorporaError, require_corpora_dir
from car_graph_benchmarks.links import gold_edges
from car_graph_benchmarks.questions import (
    _DANGLING,
    DomainBenchmark,
    build_benchmark,
    flaw_phrase,
    supersession_edges,
)

VARIANT_DOMAINS = ("security", "drug")
EXPORT_DOMAIN = {"security": "advisories", "drug": "drug-labels"}
DEV_SHARE = 0.4
SPLITS = ("dev", "test")
# The sets written for issue 17's verdicts: questions several documents fit by construction
# (shared flaw wording, a shared indication, a lexical lure) or naming two subjects. Their strict
# TCA@5 is reported, but not held to the robustness target: their yardstick is the verdict
# (car-graph eval --verdicts).
VERDICT_SETS = frozenset({"flaw_shared", "flaw_shared_open", "lure", "lure_open", "masked_shared",
                          "two_named", "two_named_open"})

__all__ = [
    "EXPORT_DOMAIN",
    "IDENTIFIER_PATTERNS",
    "VARIANT_DOMAINS",
    "VERDICT_SETS",
    "Export",
    "VariantSuite",
    "anchor_split",
    "build_variants",
    "family_split",
    "main",
    "make_typo",
    "write_variants",
]

# --- identifiers ---------------------------------------------------------------------------------

IDENTIFIER_PATTERNS: dict[str, re.Pattern[str]] = {
    "security": re.compile(
        r"\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[0-9a-z]{4}){3}|PYSEC-\d{4}-\d+|GO-\d{4}-\d+|"
        r"RUSTSEC-\d{4}-\d+|NSWG-(?:ECO|CORE)-\d+|SNYK-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+)\b",
        re.I,
    ),
    "drug": re.compile(
        r"\b(?:(?:NDA|ANDA|BLA)\s?\d{6}|[DFV]-\d{3,4}-\d{4}|\d{4,5}-\d{3,4}(?:-\d{1,2})?)\b", re.I
    ),
}
# attributes of the adapters' records whose values are identifiers (kept only in attributes)
_IDENTIFIER_FIELDS = ("aliases", "cve_ids", "application_number", "application_numbers", "unii",
                      "ndcs", "recall_number")


def _identifier_values(record: DocumentRecord) -> set[str]:
    values: set[str] = set()
    for name in _IDENTIFIER_FIELDS:
        value = record.attributes.get(name)
        for v in [value] if isinstance(value, str) else (value or ()):
            if isinstance(v, str) and v.strip():
                values.add(v.strip())
    if IDENTIFIER_PATTERNS["security"].fullmatch(record.id) or re.fullmatch(
            r"(?:RUSTSEC|NSWG-ECO|NSWG-CORE)-[\w-]+", record.id):
        values.add(record.id)
    for scope_type in ("cve", "unii", "fda_application", "ndc"):
        values.update(record.scope.get(scope_type, ()))
    return values


def _tidy(text: str) -> str:
    """Remove the punctuation an identifier leaves behind ("(, )", ": Potential", "under ,")."""
    text = re.sub(r"\b(?:under|NDC|number|numbers)\s*(?=[,.;:)]|$)", "", text, flags=re.M)
    text = re.sub(r"\(\s*(?:[,;/]|and|or|\s)*\)", "", text)
    text = re.sub(r"(?:[ \t]*,[ \t]*(?:and|or)?)+[ \t]*,", ",", text)
    text = re.sub(r"(?m)^[ \t]*[:,;/-]+[ \t]*", "", text)
    text = re.sub(r"(?m)(\*|-)[ \t]+[:,;]+[ \t]*", r"\1 ", text)
    text = re.sub(r"[ \t]+([,.;:)])", r"\1", text)
    text = re.sub(r"[,;]+\.(?=\s|$)", ".", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"(?m)[ \t]+$", "", text)
    return text.strip()


_TOKEN = re.compile(r"[\w-]+")


def strip_identifiers(text: str, domain: str, literals: Iterable[str] = ()) -> str:
    """``text`` without any token equal to one of ``literals`` (case-insensitive) and without
    the domain's identifier pattern."""
    known = {v.upper() for v in literals}
    if known:
        text = _TOKEN.sub(lambda m: " " if m.group(0).upper() in known else m.group(0), text)
    text = IDENTIFIER_PATTERNS[domain].sub(" ", text)
    return _tidy(text)


# --- the export ----------------------------------------------------------------------------------

_SECURITY_DISPLAY = {"django": "Django", "pillow": "Pillow", "jinja2": "Jinja2",
                     "werkzeug": "Werkzeug", "pyyaml": "PyYAML", "requests": "Requests", "go": "Go"}


def plain_product(package: str, record: DocumentRecord | None = None) -> str:
    """``pypi:django`` -> ``django``; Go stdlib/toolchain -> ``go``; a Debian source package
    -> the upstream project it packages."""
    ecosystem, _, name = package.partition(":")
    if ecosystem == "go" and name in {"stdlib", "toolchain"}:
        return "go"
    if ecosystem == "debian" and record is not None:
        upstream = record.attributes.get("upstream_package")
        if isinstance(upstream, str) and ":" in upstream:
            return plain_product(upstream)
    return (name or ecosystem).lower()


def opaque_id(kind: str | None, source_id: str) -> str:
    """The exported document id of a source record: stable, and naming nothing the question
    could match."""
    return f"{kind or 'doc'}-{hashlib.sha1(source_id.encode()).hexdigest()[:12]}"


_KEEP = {
    ("security", "advisory"): ("ecosystem", "fixed_versions", "source"),
    ("security", "release"): ("ecosystem", "version", "version_label", "distribution", "source"),
    ("drug", "approval"): ("trademark", "generic_name", "application_number", "application_type",
                           "unii", "sponsor", "year", "source"),
    ("drug", "withdrawal"): ("generic_name", "unii", "markets", "year_withdrawn",
                             "reason_withdrawn", "source"),
    ("drug", "recall"): ("recall_number", "classification", "status", "recalling_firm",
                         "application_numbers", "ndcs", "partial", "source"),
}


def _export_attributes(domain: str, record: DocumentRecord) -> dict[str, Any]:
    a = record.attributes
    out: dict[str, Any] = {k: a[k] for k in _KEEP.get((domain, record.kind or ""), ())
                           if a.get(k) not in (None, "", [])}
    if domain == "security":
        cves = sorted({c.upper() for c in a.get("cve_ids") or () if c.upper().startswith("CVE-")})
        if record.kind == "advisory":
            if cves:
                out["cve"] = cves[0]
            aliases = sorted(set(a.get("aliases") or ()) | set(cves))
            if aliases:
                out["aliases"] = aliases
        elif cves:
            out["cve_ids"] = cves
        if record.kind == "release" and a.get("binary_package"):
            out["package"] = a["binary_package"]
    # identifiers the adapter kept only in scope move to attributes too
    for scope_type, name in (("unii", "unii"), ("fda_application", "application_numbers"),
                             ("ndc", "ndcs")):
        keys = sorted(record.scope.get(scope_type, ()))
        if keys and name not in out:
            out[name] = keys[0] if name == "unii" and len(keys) == 1 else keys
    out["source_id"] = record.id
    return out


def _export_scope(domain: str, record: DocumentRecord) -> dict[str, tuple[str, ...]]:
    if domain == "security":
        names = sorted({plain_product(p, record) for p in record.scope.get("package", ())})
        return {"product": tuple(names)} if names else {}
    names = sorted({n.lower() for n in record.scope.get("drug", ())})
    return {"drug": tuple(names)} if names else {}


@dataclass
class Export:
    """The re-exported corpus and how benchmark ids map onto it."""

    documents: list[DocumentRecord]
    new_id: dict[str, str]
    identifiers: set[str]
    edges: int

    @functools.cached_property
    def graph(self) -> SupersessionGraph:
        """The supersession relation of the exported explicit edges alone (the gold's)."""
        return SupersessionGraph(supersession_edges(self.documents, rules=[]))


def export_corpus(domain: str, bench: DomainBenchmark) -> Export:
    """The benchmark's corpus as an outside user's generic JSONL (see the module docstring)."""
    records = bench.documents
    new_id = {r.id: opaque_id(r.kind, r.id) for r in records}
    if len(set(new_id.values())) != len(new_id):
        raise ValueError("opaque id collision; change the hash length")
    identifiers: set[str] = set()
    for r in records:
        identifiers |= _identifier_values(r)
    literals = {v.upper() for v in identifiers}
    refs: dict[str, list[SupersedesRef]] = {}
    # the relation gold is computed on (the sources' own links plus explicit references)
    assert bench.links is not None
    edges = gold_edges(bench.links.links, records)
    for e in edges:
        refs.setdefault(e.newer, []).append(
            SupersedesRef(new_id[e.older], e.effective, None, e.partial))
    out = []
    for r in records:
        out.append(DocumentRecord(
            id=new_id[r.id],
            text=strip_identifiers(r.text, domain, literals),
            title=strip_identifiers(r.title, domain, literals),
            domain=EXPORT_DOMAIN[domain],
            kind=r.kind,
            published=r.published,
            scope=_export_scope(domain, r),
            supersedes=tuple(sorted(refs.get(r.id, ()), key=lambda s: s.id)),
            attributes=_export_attributes(domain, r),
        ))
    out.sort(key=lambda d: d.id)
    return Export(out, new_id, identifiers, len(edges))


# --- splits --------------------------------------------------------------------------------------


def _hash01(*parts: str) -> float:
    return int(hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:12], 16) / 16**12


def anchor_split(anchor_id: str) -> str:
    """dev (~40 %) or test, by a stable hash of the anchor's benchmark id."""
    return "dev" if _hash01("variants-split", anchor_id) < DEV_SHARE else "test"


def family_split(group: str, families: Sequence[str]) -> dict[str, str]:
    """Families -> dev/test: ordered by a stable hash, the first ~40 % (at least one, never all)
    are dev."""
    order = sorted(families, key=lambda f: _hash01("variants-family", group, f))
    n_dev = min(max(1, round(DEV_SHARE * len(order))), len(order) - 1)
    return {f: ("dev" if i < n_dev else "test") for i, f in enumerate(order)}


def _rng(*parts: str) -> random.Random:
    return random.Random(hashlib.sha1("\x1f".join(("variants", *parts)).encode()).hexdigest())


# --- typos ---------------------------------------------------------------------------------------

# QWERTY neighbours of each letter (same row and the rows above and below)
_KEYBOARD = {
    "q": "wa", "w": "qeas", "e": "wrsd", "r": "etdf", "t": "ryfg", "y": "tugh", "u": "yihj",
    "i": "uojk", "o": "ipkl", "p": "ol", "a": "qwsz", "s": "awedxz", "d": "serfcx",
    "f": "drtgvc", "g": "ftyhbv", "h": "gyujnb", "j": "huikmn", "k": "jiolm", "l": "kop",
    "z": "asx", "x": "zsdc", "c": "xdfv", "v": "cfgb", "b": "vghn", "n": "bhjm", "m": "njk",
}
TYPO_OPS = ("swap", "delete", "replace", "insert")


def _same_case(template: str, c: str) -> str:
    """Upper-case ``c`` only when ``template`` (a letter or a whole word) is all capitals."""
    return c.upper() if template.isupper() else c


def _typo_spots(word: str, op: str) -> list[tuple[Any, ...]]:
    """Where ``op`` can change ``word``: (position,) or (position, letter), sorted."""
    n = len(word)
    if op == "swap":
        spots: list[tuple[Any, ...]] = [(i,) for i in range(n - 1) if word[i].lower() != word[i + 1].lower()]
    elif op == "delete":
        spots = [(i,) for i in range(n)] if n > 1 else []
    elif op == "replace":
        spots = [(i, c) for i in range(n) if word[i].lower() in _KEYBOARD
                 for c in _KEYBOARD[word[i].lower()]]
    elif op == "insert":
        spots = [(i, c) for i in range(1, n + 1) if word[i - 1].lower() in _KEYBOARD
                 for c in {word[i - 1].lower(), *_KEYBOARD[word[i - 1].lower()]}]
    else:
        raise ValueError(f"unknown typo operation {op!r}; expected one of {TYPO_OPS}")
    spots.sort()
    return spots


def _typo_at(word: str, op: str, spot: tuple[Any, ...]) -> str:
    i = spot[0]
    if op == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op == "delete":
        return word[:i] + word[i + 1:]
    if op == "replace":
        return word[:i] + _same_case(word[i], spot[1]) + word[i + 1:]
    return word[:i] + _same_case(word, spot[1]) + word[i:]


def make_typo(word: str, op: str, rng: random.Random, forbidden: Iterable[str] = ()) -> str | None:
    """One natural typo of ``word`` at any position: swap two adjacent different characters,
    delete one, replace a letter by a keyboard neighbour, or insert a neighbour of (or a
    double of) the letter before. None when every try spells ``word`` or a ``forbidden`` name
    (compared case-insensitively)."""
    taken = {f.lower() for f in forbidden} | {word.lower()}
    spots = _typo_spots(word, op)
    rng.shuffle(spots)
    for spot in spots:
        new = _typo_at(word, op, spot)
        if new.lower() not in taken and OSA.distance(word, new) == 1:
            return new
    return None


def all_typos(word: str, op: str, forbidden: Iterable[str] = ()) -> list[str]:
    """Every typo ``make_typo`` could draw for ``word`` with ``op``, each spelling once."""
    taken = {f.lower() for f in forbidden} | {word.lower()}
    out = []
    for spot in _typo_spots(word, op):
        new = _typo_at(word, op, spot)
        if new.lower() not in taken and OSA.distance(word, new) == 1:
            taken.add(new.lower())
            out.append(new)
    return out


# --- question families ---------------------------------------------------------------------------

SECURITY_FAMILIES: dict[str, dict[str, str]] = {
    "structured": {
        "still-affected": "Is {p} still affected by {id}?",
        "been-fixed": "Has {id} been fixed in {p}?",
        "which-release": "Which {p} release fixes {id}?",
        "patched-latest": "{p}: is {id} patched in the latest version?",
        "need-upgrade": "Do I need to upgrade {p} because of {id}?",
        "current-fix": "What is the current fix for {id} in {p}?",
        "version-addresses": "Is there a {p} version that addresses {id}?",
        "still-open": "{id} in {p} -- still open?",
    },
    "partial_id": {
        "bare": "Is {p} still affected by {n}?",
        "numbered": "Is {p} still affected by the one numbered {n}?",
        "hash": "Has {p} fixed advisory #{n}?",
        "ending-in": "Which {p} release fixes the ID ending in {l4}?",
        "vulnerability-n": "Is vulnerability {n} in {p} patched yet?",
        "cve-ends-with": "{p} and the CVE that ends with {n}: is it resolved?",
        "issue-n": "Do we still need to worry about {p} issue {n}?",
        "bug-number": "{p} security bug, number {n} -- fixed in the newest release?",
    },
    "paraphrase": {
        "pinned": "We pinned {p} to {v}; do we need to act on the \"{f}\" issue?",
        "dealt-with": "Has the {p} flaw \"{f}\" been dealt with?",
        "runs-version": "Our service runs {p} {v}. Are we exposed to {f}?",
        "read-about": "I read about {f} in {p} -- what should I upgrade to?",
        "worry": "Should I still worry about {f} if I use {p}?",
        "closed-out": "What closed out the problem with {f} in {p}?",
        "audit-note": "Audit note: {p}, {f}. Where was this resolved?",
        "upgrade-enough": "Is upgrading {p} enough to get rid of {f}?",
    },
    "short_name": {
        "fixed-yet": "{p}: {f} -- fixed yet?",
        "still-problem": "Is {f} still a problem in {p}?",
        "resolved-by": "Which {p} release resolved {f}?",
        "users-worry": "Do {p} users still need to worry about {f}?",
        "still-exposed": "Still exposed to {f} on {p}?",
        "whats-the-fix": "{f} ({p}): what's the fix?",
    },
}
# issue 17: the security verdict sets (flaw wording only; a lexical lure; two named products)
SECURITY_FAMILIES.update({
    "flaw_shared": {
        "fixed": "Has the flaw \"{f}\" been fixed?",
        "worry": "Do we still need to worry about {f}?",
        "which-release": "Which release resolved {f}?",
        "open": "Is {f} still an open issue?",
        "exposed": "Are we still exposed to {f}?",
        "patched": "Was {f} ever patched?",
    },
    "lure": {
        "fixed": "Has \"{f}\" been fixed?",
        "still-worry": "Should we still worry about {f}?",
        "resolved": "Where was {f} resolved?",
        "upgrade": "What should I upgrade to because of {f}?",
        "affected": "Are we still affected by {f}?",
        "closed": "Is the problem with {f} closed?",
    },
    "two_named": {
        "both-fixed": "Are the {a} issue \"{fa}\" and the {b} issue \"{fb}\" both fixed?",
        "status": "What is the status of {fa} in {a} and of {fb} in {b}?",
        "audit": "Audit: {a} ({fa}) and {b} ({fb}) -- still open?",
        "upgrade": "Which releases of {a} and {b} fix {fa} and {fb}?",
    },
})
# flaw_shared: another product's advisory scores at least this share of the anchor's own lexical
# score (an independent BM25 over title and text, not car-graph's), both in the top FIT_TOP, and
# no more than FIT_TOP documents score that much: several fit, few enough for a verdict's listing
# of k = 5 to hold them all (masked_shared's MAX_SHARED). Wording that hundreds of advisories fit
# as well ("this affects the package", "in Python before") names nothing a reader could find.
FIT_SHARE = 0.7
FIT_TOP = 5
GENERIC_WORDS = 6
DRUG_FAMILIES: dict[str, dict[str, str]] = {
    "structured": {
        "still-approved": "Is {t} ({id}) still approved?",
        "application-active": "Is application {id} for {t} still active?",
        "still-marketed": "{id} ({g}): is it still marketed in the US?",
        "approved-under": "Can {g}, approved under {id}, still be prescribed?",
        "on-market": "Is {t}, {id}, still on the market?",
        "status-today": "What is the status of {id} ({t}) today?",
    },
    "typo_carrier": {
        "still-approved": "Is {n} still approved?",
        "buy": "Can I still buy {n} in the US?",
        "on-market": "Is {n} still on the market?",
        "prescribe": "Can doctors still prescribe {n}?",
        "available": "Is {n} still available?",
    },
    "partial_id": {
        "application": "Is the drug from application {n} still approved?",
        "application-number": "Is application number {n} still on the market?",
        "hash": "What is the status of approval #{n}?",
        "ending-in": "Is the product approved under the number ending in {l4} still sold?",
        "bare": "Is {n} still approved?",
        "file-number": "Can the drug with file number {n} still be prescribed?",
    },
    "paraphrase": {
        "parent": "My father took {t} for years -- can he still get it?",
        "pharmacy": "Would a US pharmacy still fill a prescription for {g}?",
        "formulary": "Our formulary still lists {t}; is that current?",
        "stayed": "Did {t} stay on the US market?",
        "doctor": "My doctor mentioned {g}. Is it still available?",
        "legal": "Is {t} still a legal prescription drug in the US?",
        "shelves": "Can {g} still be found on pharmacy shelves?",
        "status": "What is the current regulatory status of {t}?",
    },
    "masked_shared": {
        "indicated-for": "Is the drug indicated for {ind} still approved?",
        "prescribed-for": "Can this drug, prescribed for {ind}, still be sold in the US?",
        "still-market": "The drug we use for {ind}: is it still on the market?",
        "current": "Is the medicine approved for {ind} still current?",
        "pharmacy": "Would a pharmacy still fill the drug for {ind}?",
    },
    "two_named": {
        "either": "Is {a} or {b} still approved?",
        "both": "Are {a} and {b} both still on the US market?",
        "status": "What is the current status of {a} and of {b}?",
        "pair": "We stock {a} and {b}; are they still approved?",
        "list": "Can pharmacies still sell {a} and {b}?",
    },
    "masked_indication": {
        "indicated-for": "Is the drug indicated for {ind} still approved?",
        "class-for": "Is this drug, a {cls} indicated for {ind}, still approved?",
        "moa-for": "Is this drug ({moa}) for {ind} still on the market?",
        "full-profile": "This drug is a {cls} used for {ind} that acts by {moa}. Is it still "
                        "approved?",
        "prescribed-for": "Can this drug, prescribed for {ind}, still be sold in the US?",
    },
}
MAX_SHARED = 5  # masked_shared: at most this many approvals share the indication (k = 5)
# facts each masked-indication family uses (the question is asked only if they are unique)
MASKED_FACTS = {"indicated-for": ("ind",), "class-for": ("cls", "ind"), "moa-for": ("moa", "ind"),
                 "full-profile": ("cls", "ind", "moa"), "prescribed-for": ("ind",)}


@dataclass
class Anchor:
    """One benchmark query's anchor with the facts the question sets draw on."""

    source_id: str
    anchor: str
    gold: list[str]
    split: str
    product: str = ""       # display name (security)
    plain: str = ""         # scope name (security)
    flaw: str = ""
    version: str = ""       # major.minor of a fixing release (security)
    identifier: str = ""    # CVE (security) / application number (drug)
    trademark: str = ""
    generic: str = ""
    facts: dict[str, str] = field(default_factory=dict)


@dataclass
class VariantSuite:
    domain: str
    export: Export
    sets: dict[str, list[dict[str, Any]]]
    stats: dict[str, Any]


def _series(version: str) -> str:
    version = version.split(":", 1)[-1]
    m = re.search(r"(\d+)\.(\d+)", version)
    return f"{m.group(1)}.{m.group(2)}" if m else ""


def _security_anchor(q: Mapping[str, Any], by_id: Mapping[str, DocumentRecord],
                     new_id: Mapping[str, str]) -> Anchor:
    advisory = by_id[q["anchors"][0]]
    golds = [by_id[g] for g in q["gold"]]
    shipped = {p for g in golds for p in g.attributes.get("fixes_packages", ())}
    packages = list(advisory.attributes.get("packages") or advisory.scope.get("package", ()))
    package = next((p for p in packages if p in shipped), packages[0] if packages else "")
    plain = plain_product(package) if package else ""
    product = _SECURITY_DISPLAY.get(plain, plain)
    words = [product, plain, *(p.split(":", 1)[-1] for p in packages), "python-" + plain,
             "PIL (aka Python Imaging Library)", "PIL", "Python Imaging Library", "Go"]
    cves = sorted(c.upper() for c in advisory.attributes.get("cve_ids") or ()
                  if c.upper().startswith("CVE-"))
    versions = sorted(_series(str(g.attributes.get("version", ""))) for g in golds)
    return Anchor(
        source_id=advisory.id, anchor=new_id[advisory.id], gold=sorted(new_id[g] for g in q["gold"]),
        split=anchor_split(advisory.id), product=product, plain=plain,
        flaw=flaw_phrase(advisory, words), version=next((v for v in versions if v), ""),
        identifier=cves[0] if cves else "",
    )


def _drug_facts(text: str) -> dict[str, str]:
    facts = {}
    for label, key in (("Class", "cls"), ("Mechanism of action", "moa"), ("Indication", "ind")):
        m = re.search(rf"{label}: (.*?)\.(?:\s|$)", text)
        if m and m.group(1).strip():
            facts[key] = m.group(1).strip()
    return facts


def _drug_anchor(q: Mapping[str, Any], by_id: Mapping[str, DocumentRecord],
                 new_id: Mapping[str, str]) -> Anchor:
    approval = by_id[q["anchors"][0]]
    a = approval.attributes
    generic = str(a.get("generic_name") or approval.title)
    return Anchor(
        source_id=approval.id, anchor=new_id[approval.id], gold=sorted(new_id[g] for g in q["gold"]),
        split=anchor_split(approval.id), identifier=str(a.get("application_number") or ""),
        trademark=str(a.get("trademark") or generic), generic=generic,
        facts=_drug_facts(approval.text),
    )


def _mask(text: str, names: Iterable[str]) -> str:
    for name in sorted({n for n in names if n and len(n) > 2}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "this drug", text, flags=re.I)
    return text


# a generated question and what to record about how it was made
Made = tuple[str, dict[str, Any]]


class _SetBuilder:
    """Collects one set's rows; a question for an anchor uses only its split's families."""

    def __init__(self, domain: str, name: str, families: Mapping[str, str], group: str = ""):
        self.domain, self.name, self.families = domain, name, dict(families)
        self.split_of = family_split(f"{domain}:{group or name}", list(families))
        self.rows: list[dict[str, Any]] = []
        self.skipped: Counter[str] = Counter()

    def families_for(self, split: str) -> list[str]:
        return sorted(f for f, s in self.split_of.items() if s == split)

    def add(self, anchor: Anchor, family: str, question: str, **info: Any) -> None:
        if self.split_of.get(family, anchor.split) != anchor.split:
            raise AssertionError(f"{family} is not a {anchor.split} family of {self.name}")
        self.rows.append({
            "id": f"{self.domain}-{self.name}-{len(self.rows) + 1:04d}",
            "question": question,
            "gold": anchor.gold,
            "anchors": [anchor.anchor],
            "split": anchor.split,
            "family": family,
            "set": self.name,
            "info": {"source_anchor": anchor.source_id, **info},
        })

    def try_families(self, anchor: Anchor, make: Callable[[str, str], Made | str | None],
                     **info: Any) -> bool:
        """Ask ``anchor`` with the first family of its split (in a per-anchor random order)
        for which ``make(family, template)`` gives a question (or a question and extra info)."""
        order = self.families_for(anchor.split)
        _rng(self.domain, self.name, anchor.source_id).shuffle(order)
        for family in order:
            made = make(family, self.families[family])
            if isinstance(made, str):
                made = (made, {})
            if made:
                self.add(anchor, family, made[0], **info, **made[1])
                return True
        return False


def _suffix_owners(digits: str, identifiers: Iterable[str]) -> set[str]:
    return {i for i in identifiers if re.sub(r"\D", "", i).endswith(digits)}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _open_advisories(bench: DomainBenchmark, export: Export,
                     by_id: Mapping[str, DocumentRecord], anchors: Sequence[Anchor],
                     ) -> list[Anchor]:
    """The advisories no benchmark query anchors and nothing supersedes in the export (each its
    own gold: in force), as anchors of the generic-wording verdict sets, in corpus order."""
    anchored = {a.source_id for a in anchors}
    graph = export.graph
    found = []
    for r in bench.documents:
        if r.kind != "advisory" or r.id in anchored:
            continue
        if graph.controlling([export.new_id[r.id]]) != {export.new_id[r.id]}:
            continue
        found.append(_security_anchor({"anchors": [r.id], "gold": [r.id]}, by_id, export.new_id))
    return found


def _security_sets(anchors: Sequence[Anchor], export: Export, names: set[str],
                   open_advisories: Sequence[Anchor] = ()) -> dict[str, _SetBuilder]:
    fam = SECURITY_FAMILIES
    sets = {
        "structured": _SetBuilder("security", "structured", fam["structured"]),
        "typo": _SetBuilder("security", "typo", dict.fromkeys(TYPO_OPS, "")),
        "typo_long": _SetBuilder("security", "typo_long", dict.fromkeys(TYPO_OPS, ""),
                                 group="typo"),
        "partial_id": _SetBuilder("security", "partial_id", fam["partial_id"]),
        "paraphrase": _SetBuilder("security", "paraphrase", fam["paraphrase"]),
        "short_name": _SetBuilder("security", "short_name", fam["short_name"]),
    }
    carriers = sets["structured"]
    # identifiers per product, for the partial-id uniqueness test
    ids_by_product: dict[str, set[str]] = {}
    for d in export.documents:
        values = {d.attributes.get("cve"), *(d.attributes.get("aliases") or ()),
                  *(d.attributes.get("cve_ids") or ())} - {None}
        for p in d.scope.get("product", ()):
            ids_by_product.setdefault(p, set()).update(values)
    for a in anchors:
        p = a.product
        if a.identifier:
            sets["structured"].try_families(
                a, lambda f, t: _cap(t.format(p=p, id=a.identifier)), identifier=a.identifier,
                product=p)
        else:
            sets["structured"].skipped["no CVE"] += 1
        # typos: the structured question of the anchor's split with the product misspelt
        length = len(p)
        target = sets["typo"] if 4 <= length <= 6 else sets["typo_long"] if length >= 7 else None
        if target is None:
            for s in ("typo", "typo_long"):
                sets[s].skipped["product shorter than 4"] += 1
        elif not a.identifier:
            target.skipped["no CVE"] += 1
        else:
            carrier = _rng("security", "carrier", a.source_id).choice(
                carriers.families_for(a.split))

            def typo_question(op: str, _t: str, a: Anchor = a, carrier: str = carrier
                              ) -> Made | None:
                new = make_typo(a.product, op, _rng("security", "typo", op, a.source_id), names)
                if new is None:
                    return None
                return (_cap(carriers.families[carrier].format(p=new, id=a.identifier)),
                        {"typo": new})

            if not target.try_families(a, typo_question, carrier_template=carrier, product=p):
                target.skipped["no typo that is not another name"] += 1
        # partial identifiers
        if a.identifier:
            number = a.identifier.rsplit("-", 1)[-1]
            pool = ids_by_product.get(a.plain, set())

            def partial(family: str, template: str, a: Anchor = a, number: str = number,
                        pool: set[str] = pool) -> Made | None:
                digits = number[-4:] if "{l4}" in template else number
                if len(digits) < 4 or _suffix_owners(digits, pool) != {a.identifier}:
                    return None
                return _cap(template.format(p=a.product, n=digits, l4=digits)), {"digits": digits}

            if not sets["partial_id"].try_families(a, partial, identifier=a.identifier,
                                                   product=p):
                sets["partial_id"].skipped["digits end another identifier of the product"] += 1
        # paraphrases (no identifier)
        if a.flaw:
            sets["paraphrase"].try_families(
                a, lambda f, t: None if "{v}" in t and not a.version
                else _cap(t.format(p=p, f=a.flaw, v=a.version)), product=p, flaw=a.flaw)
            if len(p) <= 3:
                sets["short_name"].try_families(
                    a, lambda f, t: _cap(t.format(p=p, f=a.flaw)), product=p, flaw=a.flaw)
        else:
            sets["paraphrase"].skipped["no flaw phrase"] += 1
    sets.update(_security_verdict_sets(anchors, export, open_advisories))
    return sets


class _Bm25:
    """A plain BM25 (k1 1.2, b 0.75) over documents' title and text: the builders' own lexical
    judge of which documents a question's words fit, independent of car-graph's indexes."""

    def __init__(self, documents: Sequence[DocumentRecord]):
        self.ids = [d.id for d in documents]
        self.terms = [Counter(_words(f"{d.title} {d.text}")) for d in documents]
        self.lengths = [sum(t.values()) for t in self.terms]
        self.average = sum(self.lengths) / max(len(self.lengths), 1)
        df: Counter[str] = Counter()
        for t in self.terms:
            df.update(t.keys())
        n = len(documents)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, t in enumerate(self.terms):
            for w in t:
                self.postings.setdefault(w, []).append(i)

    def top(self, question: str, n: int) -> list[tuple[str, float]]:
        scores: Counter[int] = Counter()
        for w in set(_words(question)):
            for i in self.postings.get(w, ()):
                tf = self.terms[i][w]
                norm = tf + 1.2 * (1 - 0.75 + 0.75 * self.lengths[i] / self.average)
                scores[i] += self.idf[w] * tf * 2.2 / norm
        return [(self.ids[i], s) for i, s in scores.most_common(n)]


_STOP = frozenset(["a", "an", "and", "are", "be", "been", "by", "do", "does", "for", "has", "have", "i", "if", "in", "is", "it", "of", "on", "or", "our", "should", "still", "that", "the", "this", "to", "use", "was", "we", "what", "where", "which", "with"])


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP]


def _security_verdict_sets(anchors: Sequence[Anchor], export: Export,
                           open_advisories: Sequence[Anchor] = ()) -> dict[str, _SetBuilder]:
    """Issue 17's security verdict sets, gold from the exported explicit edges:

    * ``flaw_shared``: the flaw's generic wording alone (its first clause, at most GENERIC_WORDS
      words), no product, asked only when an advisory of
      another product fits that wording about as well (BM25 within FIT_SHARE of the anchor's,
      both in the top FIT_TOP): several documents fit, a verdict should list the gold;
    * ``lure``: the flaw's generic wording alone, asked only when the best BM25 match of the question is
      an advisory of another product that nothing supersedes (an unrelated document in force:
      the verdict must not call it in force);
    * ``two_named``: two products each with its flaw; one verdict per named subject;
    * ``two_named_open``: two_named's pairs drawn from ``open_advisories`` (each its own gold),
      the dev data two_named's 34 dev questions are too few for;
    * ``flaw_shared_open`` / ``lure_open``: the same two classes asked of ``open_advisories``,
      the corpus's advisories that no benchmark query anchors (nothing supersedes them: the
      gold is the advisory itself, in force). Five times as many documents as the anchors, so
      the generic-wording classes get dev data of a useful size; the families and their split
      are ``flaw_shared``'s and ``lure``'s.
    """
    fam = SECURITY_FAMILIES
    sets = {name: _SetBuilder("security", name, fam[name])
            for name in ("flaw_shared", "lure", "two_named")}
    open_sets = {name: _SetBuilder("security", f"{name}_open", fam[name], group=name)
                 for name in ("flaw_shared", "lure")}
    docs = {d.id: d for d in export.documents}
    bm25 = _Bm25(export.documents)
    graph = export.graph

    def products(doc_id: str) -> set[str]:
        return set(docs[doc_id].scope.get("product", ()))

    def in_force(doc_id: str) -> bool:
        return graph.controlling([doc_id]) == {doc_id}

    for a, generic_sets in [*((a, sets) for a in anchors),
                            *((a, open_sets) for a in open_advisories)]:
        if not a.flaw:
            for name in generic_sets:
                generic_sets[name].skipped["no flaw phrase"] += 1
            continue
        own = products(a.anchor)
        # the flaw's generic head: its first clause, at most GENERIC_WORDS words -- the wording a
        # user recalls ("cross-site scripting via the admin") without what singles it out
        head = re.split(r"[,;(]", a.flaw)[0].split()[:GENERIC_WORDS]
        while head and head[-1].lower() in _DANGLING | {"due", "improper"}:  # reads as a cut
            head.pop()
        generic = " ".join(head) if len(head) >= 2 else ""
        if {w.lower() for w in re.findall(r"[\w.-]+", generic)} & {p.lower() for p in own}:
            generic = ""  # the wording names the anchor's own product: not a generic question
        if IDENTIFIER_PATTERNS["security"].search(generic):
            generic = ""  # quotes an identifier ("please see RUSTSEC-2018-0020"): not generic

        def shared(family: str, template: str, a: Anchor = a, own: set[str] = own,
                   generic: str = generic) -> Made | None:
            if not generic:
                return None
            question = _cap(template.format(f=generic))
            ranked = bm25.top(question, FIT_TOP + 1)
            mine = dict(ranked[:FIT_TOP]).get(a.anchor)
            if mine is None:
                return None
            if len(ranked) > FIT_TOP and ranked[FIT_TOP][1] >= FIT_SHARE * mine:
                return None  # more documents fit than a verdict could list
            ranked = ranked[:FIT_TOP]
            fitting = [d for d, score in ranked if d != a.anchor and docs[d].kind == "advisory"
                       and not products(d) & own and score >= FIT_SHARE * mine]
            return (question, {"also_fits": fitting}) if fitting else None

        if not generic_sets["flaw_shared"].try_families(a, shared, flaw=generic):
            generic_sets["flaw_shared"].skipped[
                "no other product's advisory fits the wording, or more than FIT_TOP do"] += 1

        def lure(family: str, template: str, a: Anchor = a, own: set[str] = own,
                 generic: str = generic) -> Made | None:
            if not generic:
                return None
            question = _cap(template.format(f=generic))
            ranked = bm25.top(question, 1)
            if not ranked:
                return None
            best = ranked[0][0]
            if (best == a.anchor or docs[best].kind != "advisory" or products(best) & own
                    or not in_force(best)):
                return None
            return question, {"lure": best}

        if not generic_sets["lure"].try_families(a, lure, flaw=generic):
            generic_sets["lure"].skipped[
                "best lexical match is not another product's open advisory"] += 1
    # two named products: each anchor with the next one of its split (a stable order)
    open_sets["two_named"] = _SetBuilder("security", "two_named_open", fam["two_named"],
                                         group="two_named")
    for pair, pool_of in ((sets["two_named"], anchors), (open_sets["two_named"], open_advisories)):
        by_split: dict[str, list[Anchor]] = {}
        for a in pool_of:
            if a.flaw and a.product:
                by_split.setdefault(a.split, []).append(a)
        unnumbered = 0  # pairs skipped for an identifier keep their number: later ids stay put
        for split, pool in sorted(by_split.items()):
            pool = sorted(pool, key=lambda a: _hash01("security", "pair", a.source_id))
            for first, second in zip(pool[::2], pool[1::2], strict=False):
                if (first.plain.lower() == second.plain.lower()
                        or set(first.gold) & set(second.gold)
                        or products(first.anchor) & products(second.anchor)):
                    pair.skipped["same product or shared gold"] += 1
                    continue
                if any(IDENTIFIER_PATTERNS["security"].search(a.flaw) for a in (first, second)):
                    # a flaw quoting an identifier ("please see RUSTSEC-2018-0020") names the
                    # identified advisory: only the identifier sets carry identifiers
                    pair.skipped["a flaw quotes an identifier"] += 1
                    unnumbered += 1
                    continue
                order = pair.families_for(split)
                _rng("security", "two_named", first.source_id).shuffle(order)
                family = order[0]
                pair.rows.append({
                    "id": f"security-{pair.name}-{len(pair.rows) + unnumbered + 1:04d}",
                    "question": pair.families[family].format(a=first.product, b=second.product,
                                                             fa=first.flaw, fb=second.flaw),
                    "gold": sorted(set(first.gold) | set(second.gold)),
                    "anchors": sorted({first.anchor, second.anchor}),
                    "split": split, "family": family, "set": pair.name,
                    "info": {"source_anchor": first.source_id,
                             "source_anchors": [first.source_id, second.source_id],
                             # each anchor's product and flaw, for probes asking the pair
                             # in phrasings of their own (car_graph_benchmarks.phrasings)
                             "products": [first.product, second.product],
                             "flaws": [first.flaw, second.flaw]},
                })
    return {**sets, **{b.name: b for b in open_sets.values()}}


def _drug_sets(anchors: Sequence[Anchor], export: Export, names: set[str],
               ) -> dict[str, _SetBuilder]:
    fam = DRUG_FAMILIES
    sets = {
        "structured": _SetBuilder("drug", "structured", fam["structured"]),
        "typo": _SetBuilder("drug", "typo", dict.fromkeys(TYPO_OPS, "")),
        "typo_long": _SetBuilder("drug", "typo_long", dict.fromkeys(TYPO_OPS, ""), group="typo"),
        "partial_id": _SetBuilder("drug", "partial_id", fam["partial_id"]),
        "paraphrase": _SetBuilder("drug", "paraphrase", fam["paraphrase"]),
        "masked_indication": _SetBuilder("drug", "masked_indication", fam["masked_indication"]),
        # issue 17: the description fits several approvals (2-5 share the indication), so the
        # question has no single subject: a verdict should be ambiguous and list the gold
        "masked_shared": _SetBuilder("drug", "masked_shared", fam["masked_shared"]),
        # issue 17: two drugs named in one question; one verdict per named subject
        "two_named": _SetBuilder("drug", "two_named", fam["two_named"]),
    }
    carriers = family_split("drug:typo_carrier", list(fam["typo_carrier"]))
    approvals = [d for d in export.documents if d.kind == "approval"]
    fact_counts: Counter[tuple[tuple[str, str], ...]] = Counter()
    for d in approvals:
        facts = {k: v.lower() for k, v in _drug_facts(d.text).items()}
        for keys in set(MASKED_FACTS.values()):
            if all(k in facts for k in keys):
                fact_counts[tuple((k, facts[k]) for k in keys)] += 1
    for a in anchors:
        t, g = a.trademark, a.generic
        same = t.lower() == g.lower()
        if a.identifier:
            def structured(f: str, tpl: str, a: Anchor = a) -> str:
                q = tpl.format(t=t if not same else g, g=g, id=a.identifier)
                return _cap(q)
            sets["structured"].try_families(a, structured, identifier=a.identifier)
        else:
            sets["structured"].skipped["no application number"] += 1
        # typos in a one-word trademark (else generic) name
        candidates = [n for n in dict.fromkeys((t, g)) if re.fullmatch(r"[A-Za-z]+", n)]
        short = [n for n in candidates if 4 <= len(n) <= 6]
        long_ = [n for n in candidates if len(n) >= 7]
        for set_name, pool in (("typo", short), ("typo_long", long_)):
            if not pool:
                sets[set_name].skipped["no one-word name of this length"] += 1
                continue
            name = pool[0]
            carrier_fams = sorted(f for f, s in carriers.items() if s == a.split)
            carrier = _rng("drug", "carrier", a.source_id).choice(carrier_fams)

            def typo_question(op: str, _t: str, a: Anchor = a, name: str = name,
                              carrier: str = carrier) -> Made | None:
                new = make_typo(name, op, _rng("drug", "typo", op, a.source_id), names)
                if new is None:
                    return None
                return fam["typo_carrier"][carrier].format(n=new), {"typo": new}

            if not sets[set_name].try_families(a, typo_question, carrier_template=carrier,
                                               name=name):
                sets[set_name].skipped["no typo that is not another name"] += 1
        # partial application number, no drug name
        if a.identifier:
            number = re.sub(r"\D", "", a.identifier)

            def partial(family: str, template: str, a: Anchor = a, number: str = number
                        ) -> Made | None:
                digits = number[-4:] if "{l4}" in template else number.lstrip("0")
                if len(digits) < 4 or _suffix_owners(digits, export.identifiers) != {a.identifier}:
                    return None
                return template.format(n=digits, l4=digits), {"digits": digits}

            if not sets["partial_id"].try_families(a, partial, identifier=a.identifier):
                sets["partial_id"].skipped["digits end another identifier"] += 1
        sets["paraphrase"].try_families(
            a, lambda f, tpl: tpl.format(t=t, g=g))
        # masked indication
        facts = {k: _mask(v, (t, g)) for k, v in a.facts.items()}
        if "ind" not in facts:
            sets["masked_indication"].skipped["no indication on the approval"] += 1
            continue
        lowered = {k: v.lower() for k, v in a.facts.items()}

        def masked(family: str, template: str) -> str | None:
            keys = MASKED_FACTS[family]
            if not all(k in facts for k in keys):
                return None
            if fact_counts[tuple((k, lowered[k]) for k in keys)] != 1:
                return None
            return template.format(**{k: _phrase(facts[k]) for k in keys})

        if not sets["masked_indication"].try_families(a, masked, **a.facts):
            sets["masked_indication"].skipped["facts shared with another approval"] += 1

        def shared(family: str, template: str) -> str | None:
            sharing = fact_counts[(("ind", lowered["ind"]),)]
            if not 2 <= sharing <= MAX_SHARED:
                return None
            return template.format(ind=_phrase(facts["ind"]))

        if not sets["masked_shared"].try_families(a, shared, **a.facts):
            sets["masked_shared"].skipped[f"indication not shared by 2-{MAX_SHARED} approvals"] += 1
    # two named drugs: each anchor with the next one of its split (a stable order), distinct names
    by_split: dict[str, list[Anchor]] = {}
    for a in anchors:
        if a.trademark or a.generic:
            by_split.setdefault(a.split, []).append(a)
    for split, pool in by_split.items():
        pool = sorted(pool, key=lambda a: _hash01("drug", "pair", a.source_id))
        for first, second in zip(pool[::2], pool[1::2], strict=False):
            n1, n2 = first.trademark or first.generic, second.trademark or second.generic
            if n1.lower() == n2.lower() or set(first.gold) & set(second.gold):
                sets["two_named"].skipped["same name or shared gold"] += 1
                continue
            pair = sets["two_named"]
            order = pair.families_for(split)
            _rng("drug", "two_named", first.source_id).shuffle(order)
            family = order[0]
            pair.rows.append({
                "id": f"drug-two_named-{len(pair.rows) + 1:04d}",
                "question": pair.families[family].format(a=n1, b=n2),
                "gold": sorted(set(first.gold) | set(second.gold)),
                "anchors": sorted({first.anchor, second.anchor}),
                "split": split, "family": family, "set": "two_named",
                "info": {"source_anchor": first.source_id,  # both anchors share the split
                         "source_anchors": [first.source_id, second.source_id],
                         # the names asked, for probes in phrasings of their own
                         "names": [n1, n2]},
            })
    return sets


def _phrase(fact: str) -> str:
    """A table cell as running text: "Sedation; Muscle relaxation" -> "sedation and muscle
    relaxation"; acronyms ("GI spasms", "CNS stimulation") keep their capitals."""
    parts = []
    for part in (p.strip() for p in fact.split(";")):
        first = part.split(" ", 1)[0]
        parts.append(part[:1].lower() + part[1:] if first[1:].islower() or len(first) == 1
                     else part)
    return " and ".join(p for p in parts if p)


def _names(domain: str, bench: DomainBenchmark, export: Export) -> set[str]:
    """Every product / drug name of the corpus (a typo must not spell one of them)."""
    names: set[str] = set()
    for d in export.documents:
        for keys in d.scope.values():
            names.update(keys)
    if domain == "security":
        names.update(_SECURITY_DISPLAY.values())
        for r in bench.documents:
            for p in r.scope.get("package", ()):
                names.add(p.split(":", 1)[-1])
                names.update(re.split(r"[/._-]", p.split(":", 1)[-1]))
    else:
        for r in bench.documents:
            for k in ("trademark", "generic_name"):
                v = r.attributes.get(k)
                if isinstance(v, str) and v:
                    names.add(v)
                    names.update(re.findall(r"[A-Za-z]+", v))
    return {n.lower() for n in names if n}


def build_variants(domain: str, raw_dir: Path, *, seed: int = 13,
                   n_distractors: int = 2000) -> VariantSuite:
    if domain not in VARIANT_DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; expected one of {VARIANT_DOMAINS}")
    bench = build_benchmark(domain, raw_dir, n_distractors=n_distractors, seed=seed)
    if not bench.queries:
        raise ValueError(f"no {domain} records with a controlling document under {raw_dir}")
    export = export_corpus(domain, bench)
    by_id = {r.id: r for r in bench.documents}
    make = _security_anchor if domain == "security" else _drug_anchor
    anchors = [make(q, by_id, export.new_id) for q in bench.queries]
    names = _names(domain, bench, export)
    if domain == "security":
        builders = _security_sets(anchors, export, names,
                                  _open_advisories(bench, export, by_id, anchors))
    else:
        builders = _drug_sets(anchors, export, names)
    sets = {name: b.rows for name, b in builders.items()}
    _check(export, sets)
    stats = {
        "domain": domain,
        "export_domain": EXPORT_DOMAIN[domain],
        "seed": seed,
        "n_distractors": n_distractors,
        "documents": len(export.documents),
        "documents_by_kind": dict(sorted(Counter(d.kind or "" for d in export.documents).items())),
        "explicit_edges": export.edges,
        "identifiers_moved_to_attributes": len(export.identifiers),
        "anchors": {s: sum(a.split == s for a in anchors) for s in SPLITS},
        "dev_share": DEV_SHARE,
        "gold": "the benchmark's gold for the anchor (questions.build_benchmark), mapped to the "
                "exported ids; re-derived here from the exported explicit edges alone",
        "sets": {
            name: {
                "questions": {s: sum(r["split"] == s for r in b.rows) for s in SPLITS},
                "families": {s: b.families_for(s) for s in SPLITS},
                "skipped": dict(sorted(b.skipped.items())),
            }
            for name, b in builders.items()
        },
    }
    if domain == "drug":
        short = sorted({n for a in anchors for n in (a.trademark, a.generic) if len(n) <= 3})
        stats["sets"]["short_name"] = {
            "questions": {"dev": 0, "test": 0},
            "note": f"not built: {len(short)} anchor(s) have a drug name of 1-3 characters "
                    f"({', '.join(short) or 'none'}); the compliance benchmark covers tickers",
        }
    return VariantSuite(domain, export, sets, stats)


def _check(export: Export, sets: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Raise AssertionError unless every query's anchors and gold are in the corpus and the
    gold equals the controlling set on the exported explicit edges alone."""
    ids = {d.id for d in export.documents}
    graph = export.graph
    for rows in sets.values():
        for q in rows:
            missing = (set(q["anchors"]) | set(q["gold"])) - ids
            assert not missing, f"{q['id']}: not in the corpus: {sorted(missing)}"
            assert sorted(graph.controlling(q["anchors"])) == q["gold"], q["id"]


def write_variants(suite: VariantSuite, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    write_jsonl(suite.export.documents, out_dir / "documents.jsonl")
    for name, rows in suite.sets.items():
        for split in SPLITS:
            with open(out_dir / f"{name}.{split}.jsonl", "w", encoding="utf-8") as handle:
                for row in rows:
                    if row["split"] == split:
                        handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    (out_dir / "stats.json").write_text(
        json.dumps(suite.stats, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m car_graph_benchmarks.variants",
        description="Failure-class question sets (dev/test) on an outside-style export of the "
                    "real corpora.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--raw", type=Path, default=None,
                        help=f"raw corpora folder (default: ${ENV_VAR}, else ../shared/data/raw "
                             "beside the checkout)")
    parser.add_argument("--domains", default=",".join(VARIANT_DOMAINS))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--distractors", type=int, default=2000)
    args = parser.parse_args(argv)
    try:
        args.raw = require_corpora_dir(args.raw)
    except CorporaError as exc:
        parser.error(str(exc))
    domains = [d.strip() for d in args.domains.split(",") if d.strip()]
    unknown = sorted(set(domains) - set(VARIANT_DOMAINS))
    if unknown:
        parser.error(f"unknown domains {unknown}; choose from {VARIANT_DOMAINS}")
    for domain in domains:
        suite = build_variants(domain, args.raw, seed=args.seed, n_distractors=args.distractors)
        write_variants(suite, args.out_dir / domain)
        counts = ", ".join(f"{n} {v['questions']['dev']}/{v['questions']['test']}"
                           for n, v in suite.stats["sets"].items())
        print(f"{domain}: {len(suite.export.documents)} documents; dev/test {counts} "
              f"-> {args.out_dir / domain}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
