"""A deterministic synthetic benchmark for Controlling Authority Retrieval (CAR).

Why synthetic: real CAR corpora (GHSA, SCOTUS, FDA) give one chain shape each and no control over
the hard cases. This generator mixes three authority-governed domains in one corpus and plants,
on purpose, every case the paper's theorems talk about:

* **security** — made-up packages (``quillmark``, ``vextor``) in five ecosystems. An *advisory*
  (the anchor: flaw, component, attacker, trigger, impact) is superseded by the *release* whose
  version is in its ``fixed_versions`` (rule ``release_fixes_advisory``); later releases of the same
  release line supersede earlier ones (``release_supersedes_release_in_line``). Some packages carry
  two flaws fixed on two lines (two independent chains in one scope, κ > 1) or old releases of the
  line (same-scope distractors); some advisories are fixed on two lines at once (a fork, two
  controlling releases); some are fixed only by vendor *hotfix* bundles linked by explicit
  ``supersedes`` edges (no rule covers ``hotfix``).
* **pharma** — made-up drugs. A *label* (indication, population, formulation, lots) is withdrawn by
  an enforcement *recall* naming its lots (``recall_withdraws_label``; a recall of some lots is
  partial, so label and recall both control), and a *reapproval* of the formulation lifts a full
  recall (``reapproval_lifts_recall``). Two formulations of one drug give κ > 1.
* **legal** — made-up cases. An *opinion* states a holding; an en banc *opinion* overrules it in
  full or in part, and a *statute* may later codify over the overruling opinion, effective after
  its enactment. Legal chains are explicit-only, as citator data would be. One opinion is vacated
  and then reinstated: the supersession cycle.

The anchor shares vocabulary with the question (a paraphrase, not a copy); the controlling
document speaks administrative language ("Version 3.2.1 released. Changelog: ...") — the low
lexical overlap of the paper's Def. 2. Distractors: the other scopes' same-template chains,
look-alike scopes built on the same flaw / indication / rule with other details, forum posts that
echo a question's words about another package, and active anchors with no successor (T0).

Gold is never hand-written: it is ``front(cl({anchor}))`` as of the query's date, computed with
the reference semantics (:mod:`car_graph.semantics`) over the edges the rules file yields on the
generated records plus the explicit ``supersedes`` edges. The generator also records the edges it *intends*; the tests check that the two agree.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from car_graph.ingest.domains.security.ecosystems import package_key
from car_graph.keys import normalize_key
from car_graph.metrics import Edge, SupersessionGraph, kappa
from car_graph.records import DocumentRecord, SupersedesRef, write_jsonl
from car_graph.rules import Rule, load_rules
from car_graph.semantics import authority_graph

RULES_PATH = Path(__file__).resolve().parent / "rules" / "synthetic.yaml"

# A phrase and the ways a question may paraphrase it.
Slot = tuple[str, tuple[str, ...]]


def _slots(*items: tuple[str, str, str]) -> tuple[Slot, ...]:
    return tuple((a, (b, c)) for a, b, c in items)


# --- vocabulary ---------------------------------------------------------------------------------

COMPONENTS = _slots(
    ("font parser", "font parsing code", "typeface loader"),
    ("session cookie handler", "cookie handling for sessions", "session cookie code"),
    ("YAML loader", "YAML parsing routine", "YAML deserializer"),
    ("image decoder", "image decoding module", "picture decoder"),
    ("URL router", "request routing layer", "URL routing code"),
    ("template engine", "templating layer", "template renderer"),
    ("archive extractor", "archive unpacking code", "zip extraction routine"),
    ("query builder", "SQL builder", "query construction helper"),
    ("XML importer", "XML import feature", "XML ingestion path"),
    ("authentication middleware", "login middleware", "auth layer"),
    ("websocket handshake", "websocket upgrade handling", "websocket connection setup"),
    ("markdown renderer", "markdown to HTML conversion", "markdown formatter"),
    ("path normalizer", "path sanitizing helper", "filename normalization"),
    ("JWT verifier", "token signature check", "JSON web token validation"),
    ("CSV exporter", "spreadsheet export", "CSV export feature"),
    ("file upload handler", "upload endpoint", "multipart upload code"),
    ("redirect helper", "redirect logic", "return URL handling"),
    ("response cache", "HTTP caching layer", "cached response store"),
    ("log formatter", "logging output formatter", "log line renderer"),
    ("plugin loader", "extension loading mechanism", "plugin import code"),
    ("PDF renderer", "PDF generation module", "PDF output code"),
    ("GraphQL resolver", "GraphQL query execution", "GraphQL field resolution"),
    ("SSH key parser", "SSH key loading", "public key parsing"),
    ("HTTP header parser", "header parsing code", "request header handling"),
    ("config merger", "configuration merge routine", "settings merger"),
)
FLAWS = _slots(
    ("heap buffer overflow", "heap overflow", "heap memory overrun"),
    ("path traversal", "directory traversal", "dot-dot-slash traversal"),
    ("SQL injection", "SQL injection bug", "injection of SQL statements"),
    ("stored cross-site scripting", "persistent XSS", "stored script injection"),
    ("uncontrolled recursion", "unbounded recursion", "stack exhaustion through recursion"),
    ("server-side request forgery", "SSRF", "forged server-side requests"),
    ("prototype pollution", "object prototype pollution", "polluted prototypes"),
    ("use-after-free", "dangling pointer use", "use after free bug"),
    ("integer overflow", "integer wraparound", "arithmetic overflow"),
    ("signature verification bypass", "signature check bypass", "skipped signature validation"),
    ("open redirect", "unvalidated redirect", "open redirection"),
    ("XML external entity expansion", "XXE", "external entity injection"),
    ("regular expression denial of service", "ReDoS", "catastrophic regex backtracking"),
    ("unsafe deserialization", "insecure deserialization", "unsafe object unmarshalling"),
    ("timing side channel", "timing leak", "timing attack weakness"),
    ("race condition", "time-of-check time-of-use race", "concurrency race"),
    ("out-of-bounds read", "buffer over-read", "out of bounds memory read"),
    ("command injection", "shell command injection", "OS command injection"),
    ("null pointer dereference", "null dereference", "NULL pointer crash"),
    (
        "improper certificate validation",
        "broken TLS certificate checks",
        "certificate validation flaw",
    ),
)
ATTACKERS = _slots(
    ("a remote unauthenticated attacker", "remote attackers", "an unauthenticated remote user"),
    ("a local user", "local users", "someone with a local account"),
    ("a malicious website", "hostile web pages", "a rogue site"),
    (
        "an authenticated low-privilege user",
        "logged-in users with few privileges",
        "a low-privileged account",
    ),
    ("a man-in-the-middle attacker", "an on-path attacker", "network interceptors"),
)
TRIGGERS = _slots(
    ("a crafted font file", "malformed font files", "a booby-trapped font"),
    ("an oversized JSON payload", "huge JSON bodies", "very large JSON input"),
    ("specially crafted HTTP headers", "malicious request headers", "forged headers"),
    ("a malicious archive", "a hostile zip file", "poisoned archives"),
    ("a manipulated query string", "tampered query parameters", "crafted URL parameters"),
    ("a deeply nested document", "heavily nested input", "deeply nested structures"),
    ("a forged token", "counterfeit tokens", "a spoofed token"),
    (
        "an untrusted configuration file",
        "attacker-supplied config files",
        "a hostile settings file",
    ),
    ("a specially crafted image", "malformed images", "a rigged image file"),
    ("repeated concurrent requests", "parallel request floods", "many simultaneous requests"),
)
IMPACTS = _slots(
    ("execute arbitrary code", "run arbitrary code", "achieve remote code execution"),
    (
        "read files outside the intended directory",
        "read arbitrary files",
        "access files beyond the intended folder",
    ),
    ("hijack user sessions", "take over sessions", "steal sessions"),
    ("crash the process", "bring the service down", "cause a crash"),
    ("bypass authentication", "skip login checks", "get around authentication"),
    ("exfiltrate internal data", "leak internal data", "extract private data"),
    ("escalate privileges", "gain elevated privileges", "obtain admin rights"),
    (
        "inject scripts into rendered pages",
        "inject JavaScript into pages",
        "plant scripts in pages",
    ),
    ("exhaust server memory", "use up all memory", "cause memory exhaustion"),
    ("forge authenticated requests", "spoof authenticated calls", "impersonate other users"),
)
ECOSYSTEMS = ("pypi", "npm", "crates", "rubygems", "go")
REGISTRY = {
    "pypi": "PyPI",
    "npm": "npm",
    "crates": "crates.io",
    "rubygems": "RubyGems",
    "go": "the Go module proxy",
}
CHANGES = (
    "maintenance updates",
    "build improvements",
    "dependency bumps",
    "refreshed lockfile",
    "CI matrix updated",
    "documentation typos corrected",
    "packaging metadata cleanup",
    "minimum toolchain raised",
    "reproducible build flags",
    "internal refactoring",
    "test suite stabilised",
    "release automation tweaks",
    "changelog formatting",
    "deprecated aliases removed",
    "type hints added",
    "benchmarks updated",
    "translations refreshed",
    "license headers updated",
    "wheel tags corrected",
    "startup time reduced",
)
SEVERITIES = ("low", "moderate", "high", "critical")

CONDITIONS = _slots(
    ("moderate to severe plaque psoriasis", "chronic plaque psoriasis", "severe psoriasis"),
    ("type 2 diabetes mellitus", "adult-onset diabetes", "type 2 diabetes"),
    ("essential hypertension", "high blood pressure", "primary hypertension"),
    ("major depressive disorder", "clinical depression", "major depression"),
    ("rheumatoid arthritis", "rheumatoid joint inflammation", "inflammatory arthritis"),
    ("chronic migraine", "recurring migraines", "migraine headaches"),
    (
        "community-acquired bacterial pneumonia",
        "pneumonia caught outside hospital",
        "bacterial pneumonia",
    ),
    ("generalized anxiety disorder", "chronic anxiety", "persistent anxiety disorder"),
    (
        "heart failure with reduced ejection fraction",
        "systolic heart failure",
        "weak-pump heart failure",
    ),
    ("postmenopausal osteoporosis", "bone loss after menopause", "osteoporosis in older women"),
    ("chronic hepatitis C infection", "hepatitis C", "long-term HCV infection"),
    ("gastroesophageal reflux disease", "acid reflux", "GERD"),
    ("partial-onset seizures", "focal seizures", "focal epilepsy"),
    ("primary hyperlipidemia", "high cholesterol", "elevated blood lipids"),
    ("overactive bladder", "urinary urgency", "bladder overactivity"),
    (
        "stroke risk in nonvalvular atrial fibrillation",
        "stroke prevention in atrial fibrillation",
        "AFib-related stroke risk",
    ),
    ("acute lymphoblastic leukemia", "lymphoblastic leukemia", "ALL blood cancer"),
    ("sleep-onset insomnia", "trouble falling asleep", "difficulty getting to sleep"),
    ("opioid use disorder", "opioid addiction", "opioid dependence"),
    ("attention deficit hyperactivity disorder", "ADHD", "attention deficit disorder"),
)
POPULATIONS = _slots(
    ("adults", "adult patients", "grown-ups"),
    ("pediatric patients 6 years and older", "children over six", "kids aged six and up"),
    ("adults and adolescents", "adults and teenagers", "teens and adults"),
    ("patients 65 years and older", "elderly patients", "seniors"),
    (
        "adults with moderate hepatic impairment",
        "adults whose liver function is impaired",
        "patients with liver impairment",
    ),
    ("children 2 to 11 years of age", "young children", "kids between two and eleven"),
)
FORMS = (
    "tablets",
    "extended-release capsules",
    "injection",
    "oral solution",
    "transdermal patch",
    "inhalation powder",
)
TARGETS = (
    "phosphodiesterase 4",
    "the SGLT2 transporter",
    "angiotensin II receptors",
    "serotonin reuptake",
    "Janus kinase",
    "CGRP receptors",
    "bacterial protein synthesis",
    "GABA-A receptors",
    "HMG-CoA reductase",
    "the NS5A protein",
    "muscarinic receptors",
    "factor Xa",
    "the proton pump",
    "sodium channels",
    "mu-opioid receptors",
)
RECALL_REASONS = (
    "failed dissolution specifications",
    "cGMP deviations",
    "subpotent assay results",
    "presence of foreign particulates",
    "labeling mix-up",
    "microbial contamination",
    "nitrosamine impurity above the acceptable intake",
    "defective container closure",
    "failed impurity specifications",
    "temperature excursion during storage",
)
FIRMS = (
    "Larkspur Pharma",
    "Northgate Labs",
    "Corvane Health",
    "Meridian Generics",
    "Bellwood Therapeutics",
    "Oakfield Pharmaceuticals",
    "Stellan Biologics",
)

ACTORS = _slots(
    ("a landlord", "landlords", "a property owner renting units"),
    ("an employer", "employers", "a company employing workers"),
    ("a state agency", "government agencies", "a public agency"),
    ("a municipal police department", "city police", "local police officers"),
    ("a trustee", "trustees", "a trust fiduciary"),
    ("a franchisor", "franchisors", "a franchise owner"),
    ("an insurer", "insurance companies", "an insurance carrier"),
    ("a school district", "public schools", "a district school board"),
    ("a debt collector", "collection agencies", "debt collection firms"),
    ("a hospital", "hospitals", "a medical center"),
    ("a public university", "state universities", "a public college"),
    ("a homeowners association", "HOAs", "a residents association"),
)
ACTIONS = _slots(
    ("terminate a residential lease", "end a rental lease", "cancel a residential tenancy"),
    (
        "enforce a non-compete covenant",
        "enforce a noncompete clause",
        "hold employees to non-compete agreements",
    ),
    ("withhold public records", "refuse to release public records", "keep public records secret"),
    (
        "search a seized mobile phone",
        "search a confiscated cellphone",
        "go through a seized smartphone",
    ),
    ("deny a coverage claim", "refuse an insurance claim", "reject a coverage claim"),
    (
        "discipline a student for off-campus speech",
        "punish students for speech off campus",
        "sanction off-campus student speech",
    ),
    ("recover attorney fees", "collect lawyer fees", "obtain attorney's fees"),
    (
        "impose a lien on common property",
        "place a lien on shared property",
        "attach a lien to common areas",
    ),
    (
        "collect a time-barred debt",
        "collect a debt past the limitations period",
        "pursue stale debts",
    ),
    (
        "compel arbitration of an employment claim",
        "force arbitration of workplace claims",
        "require arbitration of job disputes",
    ),
    (
        "dismiss a tenured professor",
        "fire a tenured faculty member",
        "remove a professor with tenure",
    ),
    (
        "seize a vehicle for civil forfeiture",
        "take a car through civil forfeiture",
        "forfeit a vehicle civilly",
    ),
)
LEGAL_CONDITIONS = _slots(
    ("without written notice", "without giving notice in writing", "absent written notice"),
    ("without a warrant", "warrantlessly", "with no warrant"),
    (
        "after the limitations period has run",
        "once the statute of limitations has expired",
        "after the limitations deadline",
    ),
    ("absent a showing of bad faith", "without proof of bad faith", "unless bad faith is shown"),
    ("without a prior hearing", "with no hearing first", "before any hearing"),
    (
        "based on an unsigned agreement",
        "on an unsigned contract",
        "relying on an agreement nobody signed",
    ),
    (
        "during a declared emergency",
        "in a declared state of emergency",
        "while an emergency declaration is in force",
    ),
    ("for conduct outside working hours", "for off-duty conduct", "over behaviour after hours"),
)
STATES = (
    "Vermont",
    "Oregon",
    "Nebraska",
    "Delaware",
    "Montana",
    "Maine",
    "Idaho",
    "Kansas",
    "Nevada",
    "Iowa",
    "Utah",
    "Wyoming",
)
CIRCUITS = (
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
)
REASONING = (
    "The statute's text and structure compel that reading.",
    "Any other rule would leave the protection without practical effect.",
    "The weight of persuasive authority points the same way.",
    "The legislative history confirms the point.",
)

_ONSETS = (
    "b",
    "br",
    "c",
    "d",
    "dr",
    "f",
    "fl",
    "g",
    "gr",
    "h",
    "j",
    "k",
    "l",
    "m",
    "n",
    "p",
    "pl",
    "qu",
    "r",
    "s",
    "sk",
    "st",
    "t",
    "tr",
    "v",
    "w",
    "z",
)
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ou")
_CODAS = ("", "", "", "n", "r", "l", "x", "m", "k", "s", "nd")
_PACKAGE_SUFFIXES = ("", "", "", "", "ly", "io", "kit", "mark", "js", "db", "er", "ify")
_DRUG_SUFFIXES = (
    "afen",
    "olol",
    "oprazole",
    "mab",
    "pril",
    "statin",
    "vir",
    "tinib",
    "zepam",
    "cillin",
    "dronate",
    "triptan",
    "gliptin",
    "sartan",
)
_SURNAME_SUFFIXES = ("", "son", "ley", "ford", "wick", "ton", "er", "field")

START = date(2016, 1, 1)
LAST = date(2025, 12, 31)


# --- data model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SyntheticBenchmark:
    """A generated corpus, its queries (eval format), the rules file and the intended relation."""

    documents: list[DocumentRecord]
    queries: list[dict[str, Any]]
    rules_path: Path
    edges: list[Edge] = field(default_factory=list)  # what the generator meant to link


@dataclass
class _Chain:
    """One authority chain the generator planted: an anchor and what a question needs."""

    domain: str
    anchor: str
    entity: str  # the scope entity as a question names it
    slots: dict[str, Slot]  # the anchor's vocabulary, paraphrasable
    features: set[str] = field(default_factory=set)
    followers: list[str] = field(default_factory=list)  # superseding documents, in order


# --- rule semantics (reference implementation) --------------------------------------------------


def supersession_graph(
    records: Sequence[DocumentRecord], rules: Sequence[Rule] | None = None
) -> SupersessionGraph:
    """The corpus relation: explicit edges plus rule edges (default rules: this benchmark's)."""
    rules = load_rules(RULES_PATH) if rules is None else rules
    return authority_graph(records, rules)


# --- lexical overlap (how the benchmark's vocabulary gap is measured) ---------------------------

STOPWORDS = frozenset(
    ["a", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could", "does", "for", "from", "has", "have", "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "still", "that", "the", "their", "them", "there", "this", "through", "to", "was", "were", "what", "when", "where", "whether", "which", "who", "will", "with", "without", "would", "all", "has", "its", "than", "then", "these", "those", "been", "being", "do", "did", "not", "no", "nor", "only", "other", "such", "about", "after", "before", "over", "under", "via", "may", "might", "must", "should", "lets", "let", "is", "as", "of", "some", "most", "more"]
)


def content_words(text: str) -> set[str]:
    """Lower-cased word tokens of 3+ characters that are not stop words."""
    return {
        t
        for t in re.findall(r"[a-z0-9]+(?:[.\-'][a-z0-9]+)*", text.lower())
        if len(t) >= 3 and t not in STOPWORDS
    }


def lexical_overlap(a: str, b: str) -> float:
    """Jaccard similarity of the content words of two texts."""
    wa, wb = content_words(a), content_words(b)
    return len(wa & wb) / len(wa | wb) if wa | wb else 0.0


# --- the generator -------------------------------------------------------------------------------


def _long_date(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


class _Generator:
    """Holds the random stream and everything generated so far; one instance per call."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.docs: list[DocumentRecord] = []
        # intended edges keyed by (newer, older), in the order they were (re)stated
        self.intended: dict[tuple[str, str], Edge] = {}
        # indexes that keep generation linear in the corpus size (no scans of self.docs)
        self.position: dict[str, int] = {}  # document id -> index in self.docs
        self.line_releases: dict[str, list[DocumentRecord]] = {}  # release line -> its releases
        self.line_edges: dict[str, list[tuple[str, str]]] = {}  # release line -> edges stated
        self.chains: list[_Chain] = []
        self.names: set[str] = set()
        self.counters: dict[str, int] = {}
        self.combos: set[tuple[str, ...]] = set()

    # -- small helpers

    def new_id(self, prefix: str) -> str:
        self.counters[prefix] = self.counters.get(prefix, 0) + 1
        return f"{prefix}-{self.counters[prefix]:05d}"

    def day(self, lo: date = START, hi: date = date(2023, 6, 30)) -> date:
        return lo + timedelta(days=self.rng.randrange((hi - lo).days + 1))

    def after(self, d: date, lo: int, hi: int) -> date:
        return min(LAST, d + timedelta(days=self.rng.randint(lo, hi)))

    def word(self, syllables: int) -> str:
        return "".join(
            self.rng.choice(_ONSETS) + self.rng.choice(_VOWELS) + self.rng.choice(_CODAS)
            for _ in range(syllables)
        )

    def unique(self, make: Callable[[], str]) -> str:
        while True:
            name = make()
            if len(name) >= 4 and name not in self.names:
                self.names.add(name)
                return name

    def package_name(self) -> str:
        return self.unique(lambda: self.word(2) + self.rng.choice(_PACKAGE_SUFFIXES))

    def drug_name(self) -> str:
        rng = self.rng
        return self.unique(
            lambda: (
                rng.choice(_ONSETS)
                + rng.choice("aeiou")
                + rng.choice("lrnvxtm")
                + rng.choice("aeio")
                + rng.choice(_DRUG_SUFFIXES)
            )
        ).capitalize()

    def surname(self) -> str:
        return self.unique(lambda: self.word(2) + self.rng.choice(_SURNAME_SUFFIXES)).capitalize()

    def fresh_combo(
        self, *pools: Sequence[Slot], fixed: dict[int, Slot] | None = None
    ) -> tuple[list[Slot], bool]:
        """Slots drawn from ``pools`` whose canonical combination no other anchor has used.

        Unique combinations keep questions that do not name the entity answerable. When the pools
        run out (very large corpora) a used combination is returned with ``False``, and the
        chain's questions must then name the entity.
        """
        fixed = fixed or {}
        # per position: the fixed slot, or None and the pool to draw from (same draws, in the
        # same order, as drawing position by position; this loop runs 200 times per anchor once
        # the pools are used up, so it is kept lean)
        plan = [(fixed.get(i), pool) for i, pool in enumerate(pools)]
        choice = self.rng.choice
        combo: list[Slot] = []
        for _ in range(200):
            combo = [slot or choice(pool) for slot, pool in plan]
            key = tuple([c[0] for c in combo])
            if key not in self.combos:
                self.combos.add(key)
                return combo, True
        return combo, False

    def add(self, record: DocumentRecord) -> str:
        self.position[record.id] = len(self.docs)
        self.docs.append(record)
        for line in record.scope.get("release_line", ()):
            self.line_releases.setdefault(line, []).append(record)
        return record.id

    def replace(self, record: DocumentRecord) -> None:
        """Put ``record`` in place of the document with its id (same position in the corpus)."""
        old = self.docs[self.position[record.id]]
        assert not old.scope.get("release_line") and not record.scope.get("release_line")
        self.docs[self.position[record.id]] = record

    def intend(self, newer: str, older: str, effective: date, partial: bool = False) -> None:
        # a restated pair moves to the end, as removing it and appending it again would
        self.intended.pop((newer, older), None)
        self.intended[(newer, older)] = Edge(newer, older, effective, partial)

    # -- security

    def security_package(
        self, queried_hint: bool = True, like: _Chain | None = None, chains: int | None = None
    ) -> list[_Chain]:
        """One package: 1–2 flaws, each an advisory and its fix chain on its own release line."""
        rng = self.rng
        name = self.package_name()
        eco = rng.choice(ECOSYSTEMS)
        key = package_key(eco, name)
        n_chains = chains or (2 if rng.random() < 0.2 else 1)
        lines = rng.sample([(ma, mi) for ma in range(6) for mi in range(12)], n_chains + 1)
        made: list[_Chain] = []
        for index in range(n_chains):
            fixed = None
            if like is not None and index == 0:
                # a look-alike: same flaw in the same component, other attacker, trigger, impact
                fixed = {0: like.slots["component"], 1: like.slots["flaw"]}
            made.append(self._security_chain(name, eco, key, lines[index], lines[-1], fixed, made))
        if n_chains == 2:
            for chain in made:
                chain.features.add("kappa_two_chains")
        return made

    def _release(
        self, name: str, eco: str, key: str, line: tuple[int, int], patch: int, published: date
    ) -> str:
        rng = self.rng
        version = f"{line[0]}.{line[1]}.{patch}"
        changes = rng.sample(CHANGES, 3)
        text = rng.choice(
            (
                f"{name} {version} released. Changelog: {changes[0]}; {changes[1]}; {changes[2]}. "
                "Thanks to all contributors.",
                f"Release {version} of {name} is now available on {REGISTRY[eco]}. This is a patch "
                f"release in the {line[0]}.{line[1]} series. Changes: {changes[0]}, {changes[1]}. "
                "Upgrading is recommended.",
                f"Tagged v{version}. Build artifacts and checksums published. Notes: {changes[0]}; "
                f"{changes[1]}; {changes[2]}.",
            )
        )
        return self.add(
            DocumentRecord(
                id=self.new_id("sec-rel"),
                text=text,
                title=f"{name} {version}",
                domain="security",
                kind="release",
                published=published,
                scope={"package": (key,), "release_line": (f"{key}@{line[0]}.{line[1]}",)},
                attributes={"ecosystem": eco, "version": version},
            )
        )

    def _security_chain(
        self,
        name: str,
        eco: str,
        key: str,
        line: tuple[int, int],
        spare_line: tuple[int, int],
        fixed: dict[int, Slot] | None,
        siblings: list[_Chain],
    ) -> _Chain:
        rng = self.rng
        (component, flaw, attacker, trigger, impact), fresh = self.fresh_combo(
            COMPONENTS, FLAWS, ATTACKERS, TRIGGERS, IMPACTS, fixed=fixed
        )
        t0 = self.day()
        length = rng.choices((1, 2, 3, 4), weights=(20, 40, 25, 15))[0]
        style = "rules"
        if length >= 2 and rng.random() < 0.15:
            style, length = "hotfix", min(length, 3)
        elif length >= 2 and not siblings and rng.random() < 0.1:
            style = "fork"
        features = {f"length_{length}"}
        # same-scope distractors: older releases of the line, before the advisory
        patch = 0
        if style != "hotfix" and rng.random() < 0.35:
            earlier = sorted(rng.sample(range(20, 400), rng.randint(1, 2)), reverse=True)
            for days_before in earlier:
                self._release(name, eco, key, line, patch, t0 - timedelta(days=days_before))
                patch += 1
            features.add("older_releases")
            self._intend_line(key, line)
        patch += rng.randint(0, 3)
        versions = [f"{line[0]}.{line[1]}.{patch}"]
        if style == "fork":
            versions.append(f"{spare_line[0]}.{spare_line[1]}.{rng.randint(1, 9)}")
        fixed_versions = versions if length >= 2 and style != "hotfix" else []
        advisory_id = f"SYN-{t0.year}-{rng.randint(1000, 9999)}"
        severity = rng.choice(SEVERITIES)
        affected = (
            f"{line[0]}.{line[1]}.x and {spare_line[0]}.{spare_line[1]}.x"
            if style == "fork"
            else f"{line[0]}.{line[1]}.x"
        )
        text = rng.choice(
            (
                f"{name} advisory {advisory_id} ({severity}). A {flaw[0]} in the {component[0]} of "
                f"{name} allows {attacker[0]} to {impact[0]} via {trigger[0]}. Affected versions: "
                f"{affected}. Until a fix is available, restrict exposure of the "
                f"{component[0]}.",
                f"{advisory_id}: {flaw[0]} in the {name} {component[0]}. "
                f"{attacker[0].capitalize()} can {impact[0]} by supplying {trigger[0]}. "
                f"Severity {severity}, CVSS {rng.uniform(3, 10):.1f}. Affected: {name} {affected}.",
            )
        )
        anchor = self.add(
            DocumentRecord(
                id=self.new_id("sec-adv"),
                text=text,
                title=f"{advisory_id}: {flaw[0]} in {name}",
                domain="security",
                kind="advisory",
                published=t0,
                scope={"package": (key,)},
                attributes={
                    "ecosystem": eco,
                    "fixed_versions": fixed_versions,
                    "advisory_id": advisory_id,
                    "severity": severity,
                },
            )
        )
        chain = _Chain(
            "security",
            anchor,
            name,
            {
                "component": component,
                "flaw": flaw,
                "attacker": attacker,
                "trigger": trigger,
                "impact": impact,
            },
            features | {style} | ({"shared_vocabulary"} if not fresh else set()),
        )
        if length == 1:
            return chain
        if style == "hotfix":
            self._hotfix_chain(chain, name, key, line, t0, length)
            return chain
        when = self.after(t0, 3, 60)
        fix = self._release(name, eco, key, line, patch, when)
        self.intend(fix, anchor, when)
        chain.followers.append(fix)
        if style == "fork":
            other_line = (spare_line[0], spare_line[1])
            other = self._release(
                name,
                eco,
                key,
                other_line,
                int(versions[1].rsplit(".", 1)[1]),
                self.after(t0, 3, 60),
            )
            self.intend(other, anchor, self._published(other))
            chain.followers.append(other)
        for step in range(length - 2):
            when = self.after(when, 20, 200)
            chain.followers.append(self._release(name, eco, key, line, patch + step + 1, when))
        self._intend_line(key, line)
        return chain

    def _hotfix_chain(
        self, chain: _Chain, name: str, key: str, line: tuple[int, int], t0: date, length: int
    ) -> None:
        """Vendor hotfix bundles: no rule covers them, only explicit ``supersedes`` edges."""
        rng = self.rng
        older, when = chain.anchor, t0
        for step in range(length - 1):
            when = self.after(when, 5, 90)
            effective = self.after(when, 0, 10)  # announced a few days after the bundle ships
            bundle = f"HF-{rng.randint(1000, 9999)}"
            text = (
                f"Hotfix bundle {bundle} for {name} {line[0]}.{line[1]}: apply "
                f"{name}-{bundle.lower()}.patch, rebuild, and restart workers. SHA-256 "
                f"{rng.getrandbits(48):012x}."
                if step == 0
                else f"Cumulative hotfix {bundle} for {name} rolls up the previous bundle and adds "
                f"installer corrections. Apply {name}-{bundle.lower()}.patch."
            )
            doc = self.add(
                DocumentRecord(
                    id=self.new_id("sec-hf"),
                    text=text,
                    title=f"{name} hotfix {bundle}",
                    domain="security",
                    kind="hotfix",
                    published=when,
                    scope={"package": (key,)},
                    supersedes=(SupersedesRef(older, effective, "vendor bulletin"),),
                )
            )
            self.intend(doc, older, effective)
            chain.followers.append(doc)
            older = doc

    def _published(self, doc_id: str) -> date:
        published = self.docs[self.position[doc_id]].published
        assert published is not None
        return published

    def _intend_line(self, key: str, line: tuple[int, int]) -> None:
        """Within a line every later release supersedes every earlier one (rule semantics).

        The line's edges are restated from scratch, so those stated by an earlier call for the
        same line are dropped first. Only this method links two releases, so the edges between
        the line's releases are exactly the ones it stated before (kept in ``line_edges``); the
        line's releases come from ``line_releases``. Both keep the cost per call to the size of
        the line instead of the size of the corpus.
        """
        scope = f"{key}@{line[0]}.{line[1]}"
        releases = self.line_releases.get(scope, [])
        for pair in self.line_edges.pop(scope, []):
            self.intended.pop(pair, None)
        stated: list[tuple[str, str]] = []
        for newer in releases:
            for older in releases:
                assert newer.published and older.published
                if newer.published > older.published:
                    self.intend(newer.id, older.id, newer.published)
                    stated.append((newer.id, older.id))
        self.line_edges[scope] = stated

    # -- pharma

    def pharma_drug(self, like: _Chain | None = None) -> list[_Chain]:
        """One drug, 1–2 formulations, each a label with its own lots and its own chain."""
        rng = self.rng
        drug = self.drug_name()
        key = normalize_key(drug)
        forms = rng.sample(FORMS, 2 if rng.random() < 0.25 else 1)
        made: list[_Chain] = []
        for form in forms:
            fixed = {0: like.slots["condition"]} if like is not None and not made else None
            (condition, population, _), fresh = self.fresh_combo(
                CONDITIONS, POPULATIONS, ((form, ()),), fixed=fixed
            )
            t0 = self.day()
            lots = [
                f"{drug[:2].upper()}{rng.randint(1000, 9999)}{chr(65 + i)}"
                for i in range(rng.randint(2, 4))
            ]
            text = (
                f"{drug} ({form}) is indicated for the treatment of {condition[0]} in "
                f"{population[0]}. {drug} is a selective inhibitor of {rng.choice(TARGETS)}. "
                f"Recommended dosage: {rng.choice((5, 10, 20, 25, 50, 100))} mg "
                f"{rng.choice(('once daily', 'twice daily', 'weekly'))}. Application "
                f"NDA-{rng.randint(200000, 219999)}."
            )
            label = self.add(
                DocumentRecord(
                    id=self.new_id("rx-label"),
                    text=text,
                    title=f"{drug} {form} prescribing label",
                    domain="pharma",
                    kind="label",
                    published=t0,
                    scope={"drug": (key,)},
                    attributes={"lots": lots, "formulation": form},
                )
            )
            shape = rng.choices(
                ("active", "recall", "partial", "reapproved"), weights=(25, 35, 20, 20)
            )[0]
            chain = _Chain(
                "pharma",
                label,
                drug,
                {"condition": condition, "population": population, "form": (form, (form, form))},
                {shape}
                | ({"kappa_two_chains"} if len(forms) == 2 else set())
                | ({"shared_vocabulary"} if not fresh else set()),
            )
            made.append(chain)
            if shape == "active":
                continue
            when = self.after(t0, 60, 700)
            recalled = lots[:1] if shape == "partial" else lots
            recall_no = f"D-{rng.randint(100, 1999):04d}-{when.year}"
            text = (
                f"Enforcement report {recall_no}. Product: {drug} {form}, lots "
                f"{', '.join(recalled)}. Classification: Class {rng.choice(('I', 'II', 'III'))}. "
                f"Reason for recall: {rng.choice(RECALL_REASONS)}. Recalling firm: "
                f"{rng.choice(FIRMS)}. Distribution: {rng.choice(('nationwide', 'regional'))}."
                + (
                    f" Recall limited to lot {recalled[0]}; other lots are not affected."
                    if shape == "partial"
                    else ""
                )
            )
            recall = self.add(
                DocumentRecord(
                    id=self.new_id("rx-recall"),
                    text=text,
                    title=f"Recall {recall_no}",
                    domain="pharma",
                    kind="recall",
                    published=when,
                    scope={"drug": (key,)},
                    attributes={
                        "lots": recalled,
                        "formulation": form,
                        "partial": shape == "partial",
                    },
                )
            )
            self.intend(recall, label, when, partial=shape == "partial")
            chain.followers.append(recall)
            if shape == "reapproved":
                when = self.after(when, 90, 500)
                supplement = f"S-{rng.randint(1, 60):03d}"
                text = (
                    f"Supplement {supplement} approved for {drug} {form}: manufacturing site "
                    "transfer, tightened release specifications, new lot numbering "
                    f"{drug[:2].upper()}-R series. Distribution may resume."
                )
                reapproval = self.add(
                    DocumentRecord(
                        id=self.new_id("rx-supp"),
                        text=text,
                        title=f"{drug} supplement {supplement}",
                        domain="pharma",
                        kind="reapproval",
                        published=when,
                        scope={"drug": (key,)},
                        attributes={"formulation": form},
                    )
                )
                self.intend(reapproval, recall, when)
                chain.followers.append(reapproval)
        return made

    # -- legal

    def court(self) -> str:
        if self.rng.random() < 0.5:
            return f"Supreme Court of {self.rng.choice(STATES)}"
        return f"Court of Appeals for the {self.rng.choice(CIRCUITS)} Circuit"

    def _case(self) -> tuple[str, str]:
        name = f"{self.surname()} v. {self.surname()}" + self.rng.choice(("", "", " Holdings"))
        return name, normalize_key(name)

    def legal_case(self, like: _Chain | None = None, cycle: bool = False) -> list[_Chain]:
        """An opinion and, by explicit ``supersedes`` edges, what overrules or codifies over it."""
        rng = self.rng
        name, slug = self._case()
        fixed = {1: like.slots["action"], 2: like.slots["condition"]} if like else None
        (actor, action, condition), fresh = self.fresh_combo(
            ACTORS, ACTIONS, LEGAL_CONDITIONS, fixed=fixed
        )
        permitted = rng.random() < 0.35
        modal = "may" if permitted else "may not"
        t0 = self.day(hi=date(2022, 6, 30))
        court = self.court()
        cite = f"{rng.randint(100, 999)} F.{rng.choice(('3d', '4th'))} {rng.randint(1, 1500)}"
        text = (
            f"{name}, {cite} ({court}, {t0.year}). The court held that {actor[0]} {modal} "
            f"{action[0]} {condition[0]}. {rng.choice(REASONING)}"
        )
        anchor = self.add(
            DocumentRecord(
                id=self.new_id("law-op"),
                text=text,
                title=f"{name}, {cite}",
                domain="legal",
                kind="opinion",
                published=t0,
                scope={"case": (slug,)},
                attributes={"court": court, "citation": cite},
            )
        )
        shape = (
            "cycle"
            if cycle
            else rng.choices(
                ("good_law", "overruled", "overruled_in_part", "codified"), weights=(30, 35, 15, 20)
            )[0]
        )
        chain = _Chain(
            "legal",
            anchor,
            name,
            {
                "actor": actor,
                "action": action,
                "condition": condition,
                "modal": (modal, ("can", "can") if permitted else ("cannot", "cannot")),
            },
            {shape} | ({"shared_vocabulary"} if not fresh else set()),
        )
        if shape == "good_law":
            return [chain]
        later_name, later_slug = self._case()
        when = self.after(t0, 120, 1500)
        partial = shape == "overruled_in_part"
        later_cite = f"{rng.randint(100, 999)} F.4th {rng.randint(1, 1500)}"
        disposition = (
            "The prior decision relied on below is overruled to the extent it conflicts with "
            "this order; its remaining holdings are undisturbed."
            if partial
            else "Our earlier decision relied on below is expressly overruled and abrogated; the "
            "contrary line of authority is disapproved."
        )
        text = (
            f"{later_name}, {later_cite} ({court}, {when.year}). Per curiam. On rehearing en "
            f"banc, the panel judgment is vacated. {disposition} Remanded for proceedings "
            f"consistent with this order. Judges {self.surname()}, {self.surname()} and "
            f"{self.surname()} concur."
        )
        overruling = self.add(
            DocumentRecord(
                id=self.new_id("law-op"),
                text=text,
                title=f"{later_name}, {later_cite}",
                domain="legal",
                kind="opinion",
                published=when,
                scope={"case": (later_slug, slug)},
                supersedes=(SupersedesRef(anchor, when, "expressly overruled", partial),),
                attributes={"court": court, "citation": later_cite},
            )
        )
        self.intend(overruling, anchor, when, partial)
        chain.followers.append(overruling)
        if shape == "cycle":
            # the first opinion is reinstated on rehearing: its record now supersedes the order
            # that vacated it, and the citator keeps both edges
            reinstated = self.after(when, 30, 200)
            old = self.docs[self.position[anchor]]
            self.replace(
                DocumentRecord(
                    id=old.id,
                    text=old.text + " On rehearing, this opinion was reinstated.",
                    title=old.title,
                    domain=old.domain,
                    kind=old.kind,
                    published=old.published,
                    scope={"case": (slug, later_slug)},
                    attributes=old.attributes,
                    supersedes=(SupersedesRef(overruling, reinstated, "reinstated on rehearing"),),
                )
            )
            self.intend(anchor, overruling, reinstated)
        elif shape == "codified":
            enacted = self.after(when, 60, 600)
            effective = self.after(enacted, 30, 180)
            act = f"Public Act {enacted.year % 100:02d}-{rng.randint(10, 400)}"
            text = (
                f"{act}, section {rng.randint(2, 40)}. Subsection (c) is struck and replaced; the "
                f"amendment takes effect {_long_date(effective)}. Codification note: supersedes "
                "the "
                f"decisional rule announced in {later_name}."
            )
            statute = self.add(
                DocumentRecord(
                    id=self.new_id("law-act"),
                    text=text,
                    title=act,
                    domain="legal",
                    kind="statute",
                    published=enacted,
                    scope={"case": (later_slug, slug)},
                    supersedes=(SupersedesRef(overruling, effective, "superseded by statute"),),
                )
            )
            self.intend(statute, overruling, effective)
            chain.followers.append(statute)
        return [chain]

    def discussion(self, like: _Chain) -> None:
        """A forum post about another package echoing a security question's words."""
        name = self.package_name()
        key = package_key(self.rng.choice(ECOSYSTEMS), name)
        s = like.slots
        text = (
            f"Forum thread: users of {name} ask whether the {self.rng.choice(s['flaw'][1])} in "
            f"its {self.rng.choice(s['component'][1])} could let {s['attacker'][1][0]} "
            f"{s['impact'][1][0]}. Maintainers reply that {name} does not ship that code path."
        )
        self.add(
            DocumentRecord(
                id=self.new_id("sec-post"),
                text=text,
                title=f"Is {name} affected?",
                domain="security",
                kind="discussion",
                published=self.day(),
                scope={"package": (key,)},
            )
        )

    def scope_of(self, domain: str) -> Any:
        return {
            "security": self.security_package,
            "pharma": self.pharma_drug,
            "legal": self.legal_case,
        }[domain]


# --- questions -----------------------------------------------------------------------------------


def _pick(rng: random.Random, slot: Slot) -> str:
    """A paraphrase two times in three, the anchor's own phrase otherwise."""
    return slot[0] if rng.random() < 1 / 3 else rng.choice(slot[1])


def _question(rng: random.Random, chain: _Chain, named: bool) -> str:
    s = {k: _pick(rng, v) for k, v in chain.slots.items()}
    e = chain.entity
    if chain.domain == "security":
        templates: tuple[str, ...] = (
            (
                f"Is {e} still vulnerable to the {s['flaw']} in its {s['component']} that lets "
                f"{s['attacker']} {s['impact']}?",
                f"Can {s['attacker']} still {s['impact']} in {e} by sending {s['trigger']} to the "
                f"{s['component']}?",
                f"Has the {s['flaw']} in the {e} {s['component']} been addressed, or can "
                f"{s['trigger']} still be used to {s['impact']}?",
            )
            if named
            else (
                f"Is the {s['flaw']} in the {s['component']} that lets {s['attacker']} "
                f"{s['impact']} "
                f"via {s['trigger']} still unpatched?",
                f"What resolves the {s['component']} {s['flaw']} where {s['trigger']} lets "
                f"{s['attacker']} {s['impact']}?",
            )
        )
    elif chain.domain == "pharma":
        templates = (
            (
                f"Is {e} {s['form']} still approved for {s['condition']} in {s['population']}?",
                f"Can {s['population']} with {s['condition']} still be prescribed {e} {s['form']}?",
            )
            if named
            else (
                f"Is the drug sold as {s['form']} for {s['condition']} in {s['population']} still "
                "approved, or has a regulatory action changed its status?",
            )
        )
    else:
        templates = (
            (
                f"Is {e} still good law on whether {s['actor']} can {s['action']} "
                f"{s['condition']}?",
                f"Does the rule of {e} that {s['actor']} {s['modal']} {s['action']} "
                f"{s['condition']} "
                "still control?",
            )
            if named
            else (
                f"Is it still the controlling rule that {s['actor']} {s['modal']} {s['action']} "
                f"{s['condition']}?",
            )
        )
    return rng.choice(templates)


# --- assembly ------------------------------------------------------------------------------------


DOMAIN_WEIGHTS = (("security", 55), ("pharma", 25), ("legal", 20))


def generate(
    n_docs: int = 2400, seed: int = 7, n_queries: int | None = None, named_share: float = 0.8
) -> SyntheticBenchmark:
    """Build a benchmark of exactly ``n_docs`` documents (n_docs >= 200) and about ``n_queries``
    queries (default n_docs / 6), the same for the same arguments on any machine."""
    if n_docs < 200:
        raise ValueError("n_docs must be at least 200")
    n_queries = n_queries or n_docs // 6
    g = _Generator(seed)
    rng = g.rng
    domains = [d for d, _ in DOMAIN_WEIGHTS]
    weights = [w for _, w in DOMAIN_WEIGHTS]

    g.chains += g.legal_case(cycle=True)
    while len(g.docs) < 0.8 * n_docs:
        g.chains += g.scope_of(rng.choices(domains, weights)[0])()

    # queries: the cycle, then a random share of every other chain
    as_of_target = max(1, n_queries // 12)
    base_target = min(len(g.chains), n_queries - as_of_target)
    others = g.chains[1:]
    rng.shuffle(others)
    queried = [g.chains[0], *others[: base_target - 1]]

    # distractors: look-alike scopes of queried anchors, then forum posts, to exactly n_docs
    for chain in rng.sample(queried, len(queried)):
        if n_docs - len(g.docs) < 12:
            break
        if chain.domain == "security":
            g.discussion(chain) if rng.random() < 0.5 else g.security_package(like=chain, chains=1)
        elif chain.domain == "pharma":
            g.pharma_drug(like=chain)
        elif "cycle" not in chain.features:
            g.legal_case(like=chain)
    security = [c for c in queried if c.domain == "security"]
    while len(g.docs) < n_docs:
        g.discussion(rng.choice(security))

    rules = load_rules(RULES_PATH)
    graph = supersession_graph(g.docs, rules)
    by_id = {d.id: d for d in g.docs}
    scope_index: dict[tuple[str, str], set[str]] = {}
    for d in g.docs:
        for etype, keys in d.scope.items():
            for k in keys:
                scope_index.setdefault((etype, k), set()).add(d.id)

    def controlling(chain: _Chain, as_of: date | None) -> list[str]:
        return sorted(graph.controlling({chain.anchor}, as_of))

    def query(chain: _Chain, as_of: date | None) -> dict[str, Any]:
        named = "shared_vocabulary" in chain.features or rng.random() < named_share
        question = _question(rng, chain, named)
        if as_of is not None:
            question = f"As of {_long_date(as_of)}: {question[0].lower()}{question[1:]}"
        closure = graph.closure({chain.anchor}, as_of)
        anchor = by_id[chain.anchor]
        in_scope = set().union(*(scope_index[(t, k)] for t, ks in anchor.scope.items() for k in ks))
        gold = sorted(graph.frontier(closure, as_of))
        row: dict[str, Any] = {"id": "", "question": question}
        if as_of is not None:
            row["as_of"] = as_of.isoformat()
        row["gold"] = gold
        row["anchors"] = [chain.anchor]
        row["info"] = {
            "domain": chain.domain,
            "entity": chain.entity,
            "named": named,
            "features": sorted(chain.features | ({"as_of"} if as_of else set())),
            "closure_size": len(closure),
            "hops": len(closure) - 1,
            "kappa": round(kappa(len(in_scope), len(closure)), 4),
            "gold_is_anchor": gold == [chain.anchor],
        }
        return row

    rows = [query(chain, None) for chain in queried]
    # as-of queries: a date before the first superseder takes effect (gold falls back) or between
    # two steps of a longer chain
    candidates = [c for c in queried if c.followers]
    rng.shuffle(candidates)
    # when each document's own edges take effect, gathered once (not one scan of all edges per
    # follower: that made generation quadratic)
    effective_dates: dict[str, list[date]] = {}
    for e in graph.edges:
        if e.effective:
            effective_dates.setdefault(e.newer, []).append(e.effective)
    as_of_rows = sum("as_of" in r for r in rows)
    for chain in candidates:
        if as_of_rows >= as_of_target:
            break
        steps = [
            by_id[chain.anchor].published,
            *(min(effective_dates.get(f, ()), default=None) for f in chain.followers),
        ]
        points = [
            (a, b) for a, b in itertools.pairwise(steps) if a and b and (b - a).days > 2
        ]
        if not points:
            continue
        lo, hi = rng.choice(points)
        as_of = lo + timedelta(days=rng.randint(1, (hi - lo).days - 1))
        if controlling(chain, as_of) != controlling(chain, None):
            rows.append(query(chain, as_of))
            as_of_rows += 1
    rng.shuffle(rows)
    for number, row in enumerate(rows, start=1):
        row["id"] = f"syn-q{number:04d}"

    documents = list(g.docs)
    rng.shuffle(documents)
    return SyntheticBenchmark(
        documents, rows, RULES_PATH, sorted(g.intended.values(), key=lambda e: (e.newer, e.older))
    )


def write(benchmark: SyntheticBenchmark, out_dir: Path) -> dict[str, Path]:
    """Write ``documents.jsonl`` (generic format), ``queries.jsonl`` (eval format) and a copy of
    the rules as ``rules.yaml``, so the directory is a self-contained benchmark."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {name: out_dir / name for name in ("documents.jsonl", "queries.jsonl", "rules.yaml")}
    write_jsonl(benchmark.documents, paths["documents.jsonl"])
    with open(paths["queries.jsonl"], "w", encoding="utf-8") as handle:
        for row in benchmark.queries:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    shutil.copyfile(benchmark.rules_path, paths["rules.yaml"])
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m car_graph_benchmarks.synthetic OUT_DIR [N_DOCS] [SEED]``"""
    args = list(sys.argv[1:] if argv is None else argv)
    if not 1 <= len(args) <= 3:
        print(main.__doc__, file=sys.stderr)
        return 2
    n_docs = int(args[1]) if len(args) > 1 else 2400
    seed = int(args[2]) if len(args) > 2 else 7
    benchmark = generate(n_docs, seed)
    paths = write(benchmark, Path(args[0]))
    print(
        f"{len(benchmark.documents)} documents, {len(benchmark.queries)} queries -> "
        f"{paths['documents.jsonl'].parent}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
