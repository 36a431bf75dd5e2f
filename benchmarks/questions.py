"""Real-corpus CAR benchmarks: questions, gold and distractor corpora from the real adapters.

``build_benchmark(domain, raw_dir)`` loads one domain with its adapter (security, law, drug),
reads the sources' own supersession links from the raw files (:mod:`car_graph_benchmarks.links`:
OSV fixed versions and CVE aliases, the CONAN table's pairs, the withdrawal list and openFDA
application numbers -- never the rules), and writes one question per query anchor:

* security: every advisory that a release controls (Django PYSEC, Go stdlib/toolchain, and the
  PYSEC advisories linked to Debian changelogs by CVE); the question names the package and
  paraphrases the advisory's own summary with versions, CVE/GHSA ids and "before x.y.z" clauses
  stripped, so it never quotes the release's version or CVE;
* law: every decision the CONAN table says was overruled ("Is Lochner v. New York still good
  law?");
* drug: every NME approval a withdrawal voids, plus a seeded sample of approvals that only a
  recall links; the question names the trademark/generic (or class, indication and year) and
  never uses withdrawal or recall words.

Gold is never written by hand nor computed by the rules under test:
``SupersessionGraph(source links + explicit edges).controlling({anchor})`` (front(cl)), with the
metrics' semantics (a partial edge -- overruled in part, a recall of some lots -- keeps
the older document in gold). Queries carry no ``as_of``: gold is the controlling set today. The
relation the rules build (:func:`supersession_edges`, the adapters' Python mirror of the Cypher
rules) is used only to keep the corpus consistent and to count the queries whose gold it would
have changed (``info.rule_gold``, ``stats.gold_differs_from_rule_gold``).

Dev/test split: each anchor is dev or test by a stable hash of its id (:func:`split_of`, about
40 % dev). The question templates, the typo edits and the partial-id phrasings are split into
disjoint dev and test families, and a question (and its robustness copies) uses the dev families
iff its anchor is dev. Dev is for tuning; reports cite test.

Corpus: every document of every query's closure, then hard negatives that share a scope key
with an anchor or a gold document (other django advisories and releases, other recalls of the
same drug), round-robin over keys, then seeded random documents of the anchors' and golds'
kinds, to ``n_distractors`` documents outside the closures. The selection is then closed
*upwards* (every superseder of a selected document is added, transitively, in the link relation
and in the rule relation) and, for explicit
edges, downwards (a selected document's ``supersedes`` targets are added, so no record points
outside the corpus). An upward-closed subset has the same closure and frontier as the full
corpus for every anchor in it, so gold is computed on the full relation and :func:`check`
verifies it equals gold computed on the subset's own edges.

Robustness set: for about 100 queries per domain a copy with a one-character typo (swap,
delete or replace one interior character of a word of 5+ characters of the product, case or
drug name), and for security advisories with a CVE alias a copy that asks about a partial
identifier ("the CVE ending in 35042", "CVE-2021-…042") instead of the flaw. Same gold.

``python -m car_graph_benchmarks.questions OUT_DIR --domain security|law|drug|all --raw RAW``
writes ``OUT_DIR/<domain>/documents.jsonl``, ``queries.{dev,test}.jsonl``,
``robustness.{dev,test}.jsonl`` (the ``car-graph eval`` format plus a ``split`` field) and
``stats.json``.
:func:`write_sample` writes the small demo corpus of ``car_graph/resources/sample``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.drug.corpus import load_drug
from car_graph.ingest.domains.law.conan import load_law
from car_graph.ingest.domains.security.corpus import load_security
from car_graph.keys import normalize_key
from car_graph.metrics import Edge, SupersessionGraph, kappa
from car_graph.records import DocumentRecord, write_jsonl
from car_graph.rules import Rule, bundled_rules
from car_graph.semantics import explicit_edges, rule_edges
from car_graph_benchmarks.corpora import ENV_VAR, CorporaError, require_corpora_dir
from car_graph_benchmarks.links import LinkSet, SourceLink, gold_edges, source_links
from car_graph_benchmarks.synthetic import lexical_overlap

DOMAINS = ("security", "law", "drug")
SPLITS = ("dev", "test")
# share of anchors in the dev split (tuning); the rest is the test split that reports cite
DEV_SHARE = 0.4
ROBUSTNESS_QUERIES = 100
DRUG_RECALL_QUERIES = 60
# share of the distractor budget spent on scope neighbours (hard negatives) before random ones
NEIGHBOUR_SHARE = 0.5

__all__ = [
    "DOMAINS",
    "DomainBenchmark",
    "build_benchmark",
    "check",
    "load_domain",
    "main",
    "one_edit",
    "split_of",
    "supersession_edges",
    "typo",
    "write_benchmark",
    "write_sample",
]


@dataclass
class DomainBenchmark:
    documents: list[DocumentRecord]
    queries: list[dict[str, Any]]
    robustness: list[dict[str, Any]]
    stats: dict[str, Any]
    links: LinkSet | None = None

    def split(self, rows: Sequence[Mapping[str, Any]], name: str) -> list[dict[str, Any]]:
        """The rows of one split ('dev' or 'test')."""
        return [dict(r) for r in rows if r.get("split") == name]


def split_of(anchor_id: str) -> str:
    """'dev' or 'test' for an anchor: a stable hash of its id (no seed, no corpus, no order),
    so an anchor never changes split when the corpus, the seed or the question set grows."""
    bucket = int(hashlib.sha1(f"car-graph split\x1f{anchor_id}".encode()).hexdigest(), 16) % 1000
    return "dev" if bucket < DEV_SHARE * 1000 else "test"


@dataclass(frozen=True)
class Relations:
    """A domain's two supersession relations: gold (source links + explicit edges) and the
    rules' (what the graph will hold). Corpus selection closes over both."""

    links: LinkSet
    gold: SupersessionGraph
    rules: SupersessionGraph

    @property
    def union(self) -> SupersessionGraph:
        return SupersessionGraph([*self.gold.edges, *self.rules.edges])


def relations(domain: str, raw_dir: Path, records: Sequence[DocumentRecord]) -> Relations:
    links = source_links(domain, raw_dir, records)
    return Relations(links, SupersessionGraph(gold_edges(links.links, records)),
                     SupersessionGraph(supersession_edges(records)))


# --- loading and the supersession relation -------------------------------------------------------


def load_domain(domain: str, raw_dir: Path, problems: list[InputProblem]) -> list[DocumentRecord]:
    """Every record of one domain from ``raw_dir/<domain>`` (or ``raw_dir`` itself)."""
    raw_dir = Path(raw_dir)
    if (raw_dir / domain).is_dir():
        raw_dir = raw_dir / domain
    if domain == "security":
        return load_security(raw_dir, problems)
    if domain == "law":
        return load_law(raw_dir, problems)
    if domain == "drug":
        return load_drug(raw_dir, problems)
    raise ValueError(f"unknown domain {domain!r}; expected one of {DOMAINS}")


def supersession_edges(
    records: Sequence[DocumentRecord], rules: Sequence[Rule] | None = None
) -> list[Edge]:
    """The relation the graph will hold: the reference semantics' rule edges (one per rule) plus
    the explicit edges (car_graph.semantics). Not gold (gold comes from
    :mod:`car_graph_benchmarks.links`): used to keep the selected corpus upward-closed and to
    count how gold differs."""
    domain = records[0].domain if records else None
    rules = list(bundled_rules(domain)) if rules is None and domain else list(rules or [])
    return [*rule_edges(rules, records), *explicit_edges(records)]


# --- text helpers --------------------------------------------------------------------------------


def _stable(seed: int, *parts: str) -> str:
    return hashlib.sha1("\x1f".join((str(seed), *parts)).encode()).hexdigest()


def _rng(seed: int, *parts: str) -> random.Random:
    return random.Random(_stable(seed, *parts))


_IDS = re.compile(
    r"\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[0-9a-z]{4}){3}|PYSEC-\d{4}-\d+|GO-\d{4}-\d+)\b", re.I
)
_VERSION = r"v?\d+(?:\.(?:\d+|x|\*))+(?:[-.+]?[a-z]+\d*)*\+?(?:\s+(?:beta|rc|alpha)\s*\d*)?"
_VERSION_CLAUSE = re.compile(
    rf"(?:\b(?:versions?|releases?)\s+)?(?:\b(?:before|prior\s+to|through|up\s+to|until|from|"
    rf"after|since)\s+|[<>]=?\s*)?{_VERSION}(?:\s+(?:and|or)\s+(?:earlier|later|prior|below|"
    rf"above|newer|older))?",
    re.I,
)
_PRERELEASE = re.compile(
    r"\b(?:before|prior\s+to)\s+(?:release\s+candidate|beta|alpha|rc)\s*\d*", re.I
)
_MAJOR_X = re.compile(r"\b\d+\.x\b", re.I)
_DISCOVERED = re.compile(
    r"^(?:an?\s+)?(?:security\s+)?(?:issue|vulnerability|problem)\s+(?:was|has\s+been)\s+"
    r"(?:discovered|found|identified)\b",
    re.I,
)
_SELF_DESCRIPTION = re.compile(
    r"\b(?:is|are)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,4}(?:package|library|module|toolkit|framework|"
    r"implementation|client|server|tool)\b",
    re.I,
)
_VERB_START = re.compile(
    r"^(?:allows?|has|have|does|do|is|are|may|might|can|could|permits?|mishandles?|uses?|lacks?|"
    r"omits?|fails?|contains?|leads?|enables?|exposes?|accepts?|trusts?|incorrectly|improperly|"
    r"did|was|were)\b",
    re.I,
)
_DANGLING = {"a", "an", "the", "of", "in", "to", "via", "for", "with", "and", "or", "by", "on",
             "as", "at", "from", "that", "which", "when", "if", "is", "are", "be", "its"}


def _sentences(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(`\"'])", flat) if s]


def _strip_versions(text: str) -> str:
    text = _IDS.sub(" ", text)
    text = _PRERELEASE.sub(" ", text)
    text = _VERSION_CLAUSE.sub(" ", text)
    text = _MAJOR_X.sub(" ", text)
    text = re.sub(r"\(\s*(?:with\s+\w+\s*)?\)", " ", text)
    text = re.sub(r"\s+", " ", text)
    # leftovers of "Django 2.2 before 2.2.18, 3.0 before 3.0.12, and 3.1 before 3.1.6,"
    text = re.sub(r"(?:\s*,\s*(?:and|or)?)+\s*,", ",", text)
    text = re.sub(r"\s+(?:and|or)\s*(?=[,.;]|$)", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([,.;:)])", r"\1", text)


def _drop_product(text: str, names: Iterable[str]) -> str:
    for name in sorted({n for n in names if n and len(n) > 2}, key=len, reverse=True):
        text = re.sub(
            rf"(?:\b(?:in|of|for)\s+(?:the\s+)?)?(?<![\w.]){re.escape(name)}(?![\w.])"
            rf"(?:\s+(?:package|library|module|project))?(?:\s+for\s+Python)?"
            rf"(?:\s*(?:,|\band\b|\bor\b))*",
            " ", text, flags=re.I,
        )
    text = re.sub(r"\b(?:in|of|for)\s*(?=,)", "", text)
    text = re.sub(r"^(?:the|a)\s+(?=(?:omits|allows|has|does|is|mishandles|uses|lacks)\b)", "",
                  text.strip(), flags=re.I)
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([,.;:)])", r"\1", text)


def flaw_phrase(
    advisory: DocumentRecord, product_words: Iterable[str] = (), max_words: int = 26
) -> str:
    """The advisory's summary as a phrase a user could type: no ids, versions or version
    ranges; for OSV/PYSEC texts also without the product's own name (the question names it)."""
    go = advisory.attributes.get("source") == "govulndb_osv.jsonl"
    candidates = [advisory.text.split("\n", 1)[0]] if go else _sentences(advisory.text)[:4]
    phrase, fallback = "", ""
    for sentence in candidates:
        cleaned = _strip_versions(sentence).rstrip(".")
        if not go:
            cleaned = _drop_product(cleaned, product_words)
        cleaned = re.sub(r"^(?:In|For)\s*,\s*", "", cleaned).strip(" ,;:")
        fallback = fallback or cleaned
        if _DISCOVERED.match(cleaned) and len(cleaned.split()) <= 8:
            continue
        if _SELF_DESCRIPTION.search(cleaned.split(",")[0]) and len(candidates) > 1:
            continue
        if len(cleaned.split()) >= 4:
            phrase = cleaned
            break
    phrase = phrase or fallback
    if _VERB_START.match(phrase):
        phrase = "a flaw that " + phrase
    words = phrase.split()
    if len(words) > max_words:
        head = " ".join(words[:max_words])
        cut = max(head.rfind(", "), head.rfind("; "), head.rfind(" which "), head.rfind(" when "),
                  head.rfind(" because "), head.rfind(" via "))
        phrase = head[:cut] if cut > len(head) * 0.5 else head
        words = phrase.split()
        while words and words[-1].lower().strip(",;:") in _DANGLING:
            words.pop()
        phrase = " ".join(words)
    phrase = phrase.strip(" ,;:")
    first = phrase.split(" ", 1)[0] if phrase else ""
    if first[:1].isupper() and first[1:].islower() and first.isalpha():
        phrase = first.lower() + phrase[len(first):]
    return phrase


# --- one-edit typos ------------------------------------------------------------------------------

_NEIGHBOURS = {
    "a": "sq", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "f": "dg", "g": "fh", "h": "gj",
    "i": "uo", "j": "hk", "k": "jl", "l": "k", "m": "n", "n": "bm", "o": "ip", "p": "o",
    "q": "w", "r": "et", "s": "ad", "t": "ry", "u": "yi", "v": "cb", "w": "qe", "x": "zc",
    "y": "tu", "z": "x",
}


TYPO_OPS = ("swap", "delete", "replace")
# the typo generator's families: dev questions get swaps, test questions deletions and
# replacements, so no kind of edit seen while tuning is scored on test
TYPO_FAMILIES: Mapping[str, tuple[str, ...]] = {"dev": ("swap",), "test": ("delete", "replace")}


def typo(word: str, rng: random.Random, ops: Sequence[str] = TYPO_OPS) -> tuple[str, str]:
    """One interior edit of ``word`` (len >= 5): ('swap'|'delete'|'replace', new word), using
    only the edits in ``ops``; ValueError when none of them applies."""
    if len(word) < 5:
        raise ValueError(f"typo needs a word of 5+ characters, got {word!r}")
    interior = range(1, len(word) - 1)
    allowed = tuple(ops)
    ops = list(allowed)
    rng.shuffle(ops)
    for op in ops:
        if op == "swap":
            spots = [i for i in interior if i + 1 < len(word) - 1 and word[i] != word[i + 1]]
            if spots:
                i = rng.choice(spots)
                return op, word[:i] + word[i + 1] + word[i] + word[i + 2:]
        elif op == "delete":
            i = rng.choice(list(interior))
            return op, word[:i] + word[i + 1:]
        else:
            spots = [i for i in interior if word[i].lower() in _NEIGHBOURS]
            if spots:
                i = rng.choice(spots)
                c = rng.choice(_NEIGHBOURS[word[i].lower()])
                c = c.upper() if word[i].isupper() else c
                return op, word[:i] + c + word[i + 1:]
    if "delete" not in allowed:
        raise ValueError(f"none of {allowed} applies to {word!r}")
    i = 1
    return "delete", word[:i] + word[i + 1:]


def one_edit(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with exactly one insertion, deletion, substitution or adjacent
    transposition (optimal string alignment distance 1)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        if a[i + 1:] == b[i + 1:]:
            return True
        return a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    return a[i + 1:] == b[i:] if len(a) > len(b) else a[i:] == b[i + 1:]


def _typo_variant(
    question: str, entity: str, rng: random.Random, ops: Sequence[str] = TYPO_OPS
) -> tuple[str, dict[str, Any]] | None:
    """The question with one word of ``entity`` (else of the question) misspelt."""
    def words_of(text: str) -> list[str]:
        return [w for w in re.findall(r"[A-Za-z]{5,}", text) if w.lower() not in _STOP]

    pool = words_of(entity) or words_of(question)
    start = question.find(entity) if entity else -1
    for word in rng.sample(pool, len(pool)):
        lo = start if start >= 0 and word in entity else 0
        match = re.search(rf"\b{re.escape(word)}\b", question[lo:])
        if not match:
            continue
        pos = lo + match.start()
        try:
            op, new = typo(word, rng, ops)
        except ValueError:
            continue
        out = question[:pos] + new + question[pos + len(word):]
        return out, {"op": op, "word": word, "typo": new, "position": pos,
                     "in_entity": word in entity}
    return None


_STOP = {"still", "which", "there", "where", "their", "about", "should", "could", "would"}


# --- per-domain question generation --------------------------------------------------------------

_DISPLAY = {
    "pypi:django": "Django", "pypi:pillow": "Pillow", "pypi:jinja2": "Jinja2",
    "pypi:werkzeug": "Werkzeug", "pypi:pyyaml": "PyYAML", "pypi:requests": "Requests",
    "pypi:cryptography": "cryptography", "pypi:urllib3": "urllib3", "pypi:lxml": "lxml",
    "go:stdlib": "Go", "go:toolchain": "the Go toolchain",
}


def _product(advisory: DocumentRecord, golds: Sequence[DocumentRecord]) -> str:
    packages = list(advisory.attributes.get("packages") or advisory.scope.get("package", ()))
    shipped = {p for g in golds for p in g.attributes.get("fixes_packages", ())}
    for p in packages:
        if p in shipped:
            return _DISPLAY.get(p, p.split(":", 1)[1])
    return _DISPLAY.get(packages[0], packages[0].split(":", 1)[1]) if packages else "the package"


_SECURITY_TEMPLATES = (
    "Is {p} still affected by this: {f}?",
    "Has this {p} issue been fixed: {f}?",
    "Is the latest {p} still exposed to this problem: {f}?",
    "Which {p} version should I run to be safe from this: {f}?",
    "{P}: {f}. Is this still unpatched?",
    "Is {p} safe now from this issue: {f}?",
)
# template families by split (indices into the tuple above): dev anchors get dev wordings only
_SECURITY_FAMILIES: Mapping[str, tuple[int, ...]] = {"dev": (1, 4), "test": (0, 2, 3, 5)}


def _security_question(
    advisory: DocumentRecord, golds: Sequence[DocumentRecord], rng: random.Random, split: str
) -> tuple[str, str, dict[str, Any]]:
    product = _product(advisory, golds)
    packages = advisory.attributes.get("packages") or ()
    words = [product, *(p.split(":", 1)[1] for p in packages), "python-" + product.lower(),
             "PIL (aka Python Imaging Library)", "PIL", "Python Imaging Library"]
    flaw = flaw_phrase(advisory, words)
    template = rng.choice(_SECURITY_FAMILIES[split])
    q = _SECURITY_TEMPLATES[template].format(p=product, P=product[:1].upper() + product[1:], f=flaw)
    q = re.sub(r"\b(this|the latest|Which|Is) the (Go toolchain)", r"\1 \2", q)
    return q, product.removeprefix("the "), {"template": template, "flaw": flaw, "product": product}


_LAW_TEMPLATES = (
    "Is {n} still good law?",
    "Can I still rely on {n}?",
    "Does the holding of {n} ({y}) still stand?",
    "Is {n} ({y}) still binding precedent?",
    "Would a court today still follow {n}?",
    "Is {n} still controlling authority?",
)
_LAW_FAMILIES: Mapping[str, tuple[int, ...]] = {"dev": (1, 4), "test": (0, 2, 3, 5)}


def _law_question(
    anchor: DocumentRecord, rng: random.Random, split: str
) -> tuple[str, str, dict[str, Any]]:
    name = anchor.title
    template = rng.choice(_LAW_FAMILIES[split])
    year = anchor.attributes.get("year") or (anchor.published.year if anchor.published else "")
    return _LAW_TEMPLATES[template].format(n=name, y=year), name, {"template": template}


def _drug_facts(approval: DocumentRecord) -> dict[str, str]:
    facts = {}
    for field in ("Class", "Indication"):
        m = re.search(rf"{field}: (.*?)\.(?:\s|$)", approval.text)
        if m:
            facts[field.lower()] = m.group(1).split(";")[0].strip()
    return facts


_DRUG_NAMED = (
    "Is {t} ({g}) still approved?",
    "Can doctors in the US still prescribe {t} ({g})?",
    "Is {t} still on the market in the United States?",
    "Can I still get {g}, sold as {t}?",
)
_DRUG_CLASS = (
    "Is the {c} {t} approved in {y} still on the market?",
    "Is {g}, the {c} approved by the FDA in {y}, still available?",
)
_DRUG_INDICATION = (
    "Is {t}, approved in {y} for {i}, still approved?",
    "Can {g} still be prescribed for {i}?",
)
_DRUG_FAMILIES: Mapping[str, Mapping[str, tuple[int, ...]]] = {
    "dev": {"named": (1,), "class": (0,), "indication": (1,)},
    "test": {"named": (0, 2, 3), "class": (1,), "indication": (0,)},
}


def _drug_question(
    anchor: DocumentRecord, rng: random.Random, split: str
) -> tuple[str, str, dict[str, Any]]:
    a = anchor.attributes
    generic = a.get("generic_name") or anchor.title
    trademark = a.get("trademark") or generic
    facts = _drug_facts(anchor)
    pools: list[tuple[str, tuple[str, ...]]] = [("named", _DRUG_NAMED)]
    if facts.get("class"):
        pools.append(("class", _DRUG_CLASS))
    if facts.get("indication"):
        pools.append(("indication", _DRUG_INDICATION))
    kind, templates = rng.choice(pools)
    template = rng.choice(_DRUG_FAMILIES[split][kind])
    q = templates[template].format(
        t=trademark, g=generic, y=a.get("year", ""),
        c=facts.get("class", "").lower(), i=facts.get("indication", "").lower(),
    )
    if trademark == generic:
        q = q.replace(f"{trademark} ({generic})", trademark).replace(
            f"{generic}, sold as {trademark}", generic)
    entity = trademark if trademark in q else generic
    return q, entity, {"template": f"{kind}:{template}", **facts}


# --- anchors -------------------------------------------------------------------------------------


def _anchors(
    domain: str, records: Sequence[DocumentRecord], graph: SupersessionGraph, seed: int
) -> list[str]:
    by_id = {r.id: r for r in records}
    superseded = {e.older for e in graph.edges}
    if domain == "security":
        return sorted(
            d for d in superseded
            if by_id[d].kind == "advisory"
            and any(by_id[e.newer].kind == "release" for e in graph.superseders(d))
        )
    if domain == "law":
        return sorted(superseded)
    withdrawn, recalled = set(), set()
    for e in graph.edges:
        (withdrawn if by_id[e.newer].kind == "withdrawal" else recalled).add(e.older)
    recall_only = sorted(recalled - withdrawn)
    rng = random.Random(_stable(seed, "drug-recall-sample"))
    sample = rng.sample(recall_only, min(DRUG_RECALL_QUERIES, len(recall_only)))
    return sorted(withdrawn | set(sample))


def _hops(graph: SupersessionGraph, anchor: str, gold: Iterable[str]) -> int:
    """Longest shortest-path distance from the anchor to a gold document (0: gold is anchor)."""
    dist = {anchor: 0}
    queue = deque([anchor])
    while queue:
        d = queue.popleft()
        for e in graph.superseders(d):
            if e.newer not in dist:
                dist[e.newer] = dist[d] + 1
                queue.append(e.newer)
    return max((dist.get(g, 0) for g in gold), default=0)


# --- corpus selection ----------------------------------------------------------------------------


def _scope_index(records: Sequence[DocumentRecord]) -> dict[tuple[str, str], list[str]]:
    index: dict[tuple[str, str], list[str]] = {}
    for r in records:
        for etype, keys in r.scope.items():
            for key in keys:
                index.setdefault((etype, normalize_key(key)), []).append(r.id)
    return index


def _keys(record: DocumentRecord) -> list[tuple[str, str]]:
    return [(t, normalize_key(k)) for t, ks in record.scope.items() for k in ks]


def _close(
    selected: set[str], graph: SupersessionGraph, by_id: Mapping[str, DocumentRecord]
) -> set[str]:
    """Add every superseder (transitively) and every explicit ``supersedes`` target."""
    out = set(selected)
    queue = deque(sorted(out))
    while queue:
        d = queue.popleft()
        nxt = [e.newer for e in graph.superseders(d)]
        nxt += [ref.id for ref in by_id[d].supersedes if ref.id in by_id]
        for n in nxt:
            if n not in out:
                out.add(n)
                queue.append(n)
    return out


def _select_corpus(
    records: Sequence[DocumentRecord],
    graph: SupersessionGraph,
    core: set[str],
    focus: Iterable[str],
    n_distractors: int,
    seed: int,
) -> tuple[set[str], dict[str, int]]:
    by_id = {r.id: r for r in records}
    index = _scope_index(records)
    core = _close(core, graph, by_id)
    focus = sorted(set(focus))
    # hard negatives: documents sharing a scope key with an anchor or gold, round-robin by key
    priority: dict[str, tuple[int, str]] = {}
    keys = sorted({k for d in focus for k in _keys(by_id[d])})
    for key in keys:
        pool = sorted((d for d in index.get(key, ()) if d not in core),
                      key=lambda d: _stable(seed, "nb", d))
        for rank, d in enumerate(pool):
            p = (rank, _stable(seed, "nb", d))
            if d not in priority or p < priority[d]:
                priority[d] = p
    budget_nb = int(n_distractors * NEIGHBOUR_SHARE)
    selected = set(core)
    neighbours = 0
    for d in sorted(priority, key=priority.__getitem__):
        if neighbours >= budget_nb:
            break
        added = _close({d}, graph, by_id) - selected
        selected |= added
        neighbours += len(added)
    # random documents of the anchors' kinds and of the golds' kinds, alternately
    kinds = Counter(by_id[d].kind for d in focus)
    by_kind: dict[str, list[str]] = {}
    for r in records:
        if r.kind in kinds and r.id not in selected:
            by_kind.setdefault(r.kind or "", []).append(r.id)
    pools = {k: sorted(v, key=lambda d: _stable(seed, "rnd", d)) for k, v in by_kind.items()}
    order = sorted(pools)
    random_added = 0
    target = n_distractors - neighbours
    cursor = dict.fromkeys(order, 0)
    while random_added < target and any(cursor[k] < len(pools[k]) for k in order):
        for k in order:
            if random_added >= target:
                break
            while cursor[k] < len(pools[k]) and pools[k][cursor[k]] in selected:
                cursor[k] += 1
            if cursor[k] < len(pools[k]):
                added = _close({pools[k][cursor[k]]}, graph, by_id) - selected
                selected |= added
                random_added += len(added)
                cursor[k] += 1
    return selected, {"closure_documents": len(core), "scope_neighbours": neighbours,
                      "random_distractors": random_added}


# --- checks and statistics -----------------------------------------------------------------------


def check(
    documents: Sequence[DocumentRecord],
    queries: Sequence[Mapping[str, Any]],
    links: Iterable[SourceLink],
    closed_under: Iterable[SupersessionGraph] = (),
) -> None:
    """Raise AssertionError unless every anchor, gold and closure document is in the corpus,
    gold equals ``controlling({anchors})`` on the corpus's own gold relation (the source
    ``links`` between its documents plus its explicit edges), and the corpus is upward-closed
    under each relation of ``closed_under`` (built on the full domain: the source links' and
    the rules', so the graph ingest builds on the corpus agrees with the full one)."""
    ids = {d.id for d in documents}
    graph = SupersessionGraph(gold_edges(links, documents))
    for relation in closed_under:
        for d in ids:
            outside = {e.newer for e in relation.superseders(d)} - ids
            assert not outside, f"{d} is superseded by {sorted(outside)}, not in corpus"
    for q in queries:
        anchors = set(q["anchors"])
        closure = graph.closure(anchors)
        missing = (anchors | set(q["gold"]) | closure) - ids
        assert not missing, f"{q['id']}: missing from corpus {sorted(missing)}"
        assert sorted(graph.controlling(anchors)) == list(q["gold"]), q["id"]
    for d in documents:
        for ref in d.supersedes:
            assert ref.id in ids, f"{d.id} supersedes {ref.id}, not in corpus"


def _dist(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {}
    return {"mean": round(mean(values), 4), "median": round(median(values), 4),
            "min": round(min(values), 4), "max": round(max(values), 4)}


def _overlap_stats(queries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    anchor = [q["info"]["overlap_anchor"] for q in queries]
    gold = [q["info"]["overlap_gold"] for q in queries]
    return {
        "jaccard_question_anchor": _dist(anchor),
        "jaccard_question_gold": _dist(gold),
        "share_anchor_gt_gold": round(sum(a > g for a, g in zip(anchor, gold)) / len(anchor), 4)
        if anchor else None,
        "note": "content-word Jaccard (synthetic.lexical_overlap); gold = mean over gold docs "
                "that are not the anchor",
    }


# --- the builder ---------------------------------------------------------------------------------


def _question_for(
    domain: str, anchor: DocumentRecord, golds: Sequence[DocumentRecord], rng: random.Random,
    split: str,
) -> tuple[str, str, dict[str, Any]]:
    if domain == "security":
        return _security_question(anchor, golds, rng, split)
    if domain == "law":
        return _law_question(anchor, rng, split)
    return _drug_question(anchor, rng, split)


_PARTIAL_ID_TEMPLATES = (
    "Is {p} still affected by {r}?",
    "Has {p} shipped a fix for {r}?",
    "Which {p} release fixes {r}?",
)
# partial-id families by split: (reference forms, template indices)
_PARTIAL_ID_FAMILIES: Mapping[str, tuple[tuple[str, ...], tuple[int, ...]]] = {
    "dev": (("ending",), (0,)),
    "test": (("elided",), (1, 2)),
}


def _partial_id_variant(
    q: Mapping[str, Any], advisory: DocumentRecord, rng: random.Random, split: str
) -> tuple[str, dict[str, Any]] | None:
    cves = sorted(c for c in advisory.attributes.get("cve_ids", ()) if c.upper().startswith("CVE-"))
    if not cves:
        return None
    cve = cves[0].upper()
    _, year, number = cve.split("-")
    product = q["info"]["product"]
    forms, templates = _PARTIAL_ID_FAMILIES[split]
    if rng.choice(forms) == "ending":
        ref = f"the CVE ending in {number[-5:] if len(number) > 4 else number}"
    else:
        ref = f"CVE-{year}-…{number[-3:]}"
    template = _PARTIAL_ID_TEMPLATES[rng.choice(templates)]
    question = re.sub(r"\b(Which|Has|Is) the (Go toolchain)", r"\1 \2",
                      template.format(p=product, r=ref))
    return question, {"cve": cve, "reference": ref}


def _build(
    domain: str,
    raw_dir: Path,
    *,
    n_distractors: int,
    seed: int,
    max_queries: int | None,
    include: Iterable[str] = (),
    robustness_queries: int = ROBUSTNESS_QUERIES,
    records: Sequence[DocumentRecord] | None = None,
) -> DomainBenchmark:
    problems: list[InputProblem] = []
    records = list(records) if records is not None else load_domain(domain, raw_dir, problems)
    by_id = {r.id: r for r in records}
    rel = relations(domain, raw_dir, records)
    graph = rel.gold
    union = rel.union
    anchors = _anchors(domain, records, graph, seed)
    include = [a for a in include if a in by_id]
    if max_queries is not None and len(anchors) > max_queries:
        rng = random.Random(_stable(seed, domain, "max-queries"))
        rest = [a for a in anchors if a not in include]
        anchors = sorted(set(include) | set(rng.sample(rest, max(0, max_queries - len(include)))))
    else:
        anchors = sorted(set(anchors) | set(include))

    queries: list[dict[str, Any]] = []
    core: set[str] = set()
    focus: set[str] = set()
    for number, anchor_id in enumerate(anchors, start=1):
        anchor = by_id[anchor_id]
        closure = graph.closure({anchor_id})
        gold = sorted(graph.controlling({anchor_id}))
        rule_gold = sorted(rel.rules.controlling({anchor_id}))
        golds = [by_id[g] for g in gold]
        rng = _rng(seed, domain, anchor_id)
        split = split_of(anchor_id)
        question, entity, extra = _question_for(domain, anchor, golds, rng, split)
        others = [g for g in golds if g.id != anchor_id]
        q_gold = mean(lexical_overlap(question, g.text) for g in others) if others else 0.0
        queries.append({
            "id": f"{domain}-q{number:04d}",
            "question": question,
            "gold": gold,
            "anchors": [anchor_id],
            "split": split,
            "info": {
                "domain": domain,
                "entity": entity,
                "anchor_kind": anchor.kind,
                "anchor_source": anchor.attributes.get("source"),
                "gold_kinds": sorted({g.kind or "" for g in golds}),
                "closure_size": len(closure),
                "hops": _hops(graph, anchor_id, gold),
                "partial": any(e.partial for d in closure for e in graph.superseders(d)),
                "gold_includes_anchor": anchor_id in gold,
                "rule_gold": rule_gold if rule_gold != gold else None,
                "overlap_anchor": round(lexical_overlap(question, anchor.text), 4),
                "overlap_gold": round(q_gold, 4),
                **extra,
            },
        })
        core |= closure
        focus |= {anchor_id, *gold}

    selected, composition = _select_corpus(records, union, core, focus, n_distractors, seed)
    documents = sorted((by_id[d] for d in selected), key=lambda r: _stable(seed, "order", r.id))
    sub_ids = {d.id for d in documents}
    index = _scope_index(documents)
    for q in queries:
        anchor = by_id[q["anchors"][0]]
        in_scope = set().union(*(set(index.get(k, ())) for k in _keys(anchor)))
        q["info"]["kappa"] = round(kappa(len(in_scope & sub_ids), q["info"]["closure_size"]), 4)
    check(documents, queries, rel.links.links, (rel.gold, rel.rules))

    # robustness
    rng = random.Random(_stable(seed, domain, "robustness"))
    picked = sorted(rng.sample(range(len(queries)), min(robustness_queries, len(queries))))
    robustness: list[dict[str, Any]] = []
    for i in picked:
        q = queries[i]
        qrng = _rng(seed, domain, "typo", q["id"])
        made = _typo_variant(q["question"], q["info"]["entity"], qrng, TYPO_FAMILIES[q["split"]])
        if made:
            text, edit = made
            robustness.append({
                "id": f"{q['id']}-typo", "question": text, "gold": q["gold"],
                "anchors": q["anchors"], "split": q["split"],
                "info": {"variant": "typo", "base": q["id"], "base_question": q["question"],
                         **edit},
            })
        if domain == "security":
            made = _partial_id_variant(q, by_id[q["anchors"][0]], _rng(seed, "pid", q["id"]),
                                       q["split"])
            if made:
                text, extra = made
                robustness.append({
                    "id": f"{q['id']}-partial-id", "question": text, "gold": q["gold"],
                    "anchors": q["anchors"], "split": q["split"],
                    "info": {"variant": "partial_id", "base": q["id"],
                             "base_question": q["question"], **extra},
                })

    stats = {
        "domain": domain,
        "seed": seed,
        "n_distractors": n_distractors,
        "max_queries": max_queries,
        "source_documents": len(records),
        "source_edges": len(graph.edges),
        "rule_edges": len(rel.rules.edges),
        "source_links": dict(sorted(Counter(x.source for x in rel.links.links).items())),
        "source_links_left_out": dict(rel.links.unlinked),
        "load_problems": len(problems),
        "queries": len(queries),
        "queries_by_split": dict(sorted(Counter(q["split"] for q in queries).items())),
        "gold_differs_from_rule_gold": sum(q["info"]["rule_gold"] is not None for q in queries),
        "robustness": dict(Counter(r["info"]["variant"] for r in robustness)),
        "robustness_by_split": {
            split: dict(sorted(Counter(r["info"]["variant"] for r in robustness
                                       if r["split"] == split).items()))
            for split in SPLITS
        },
        "corpus_documents": len(documents),
        "corpus_by_kind": dict(sorted(Counter(d.kind or "" for d in documents).items())),
        "corpus_composition": composition,
        "corpus_edges": len(gold_edges(rel.links.links, documents)),
        "corpus_rule_edges": len(supersession_edges(documents)),
        "gold_rule": "front(cl({anchor})) over the sources' own links (benchmarks/links.py) plus "
                     "explicit edges, never the rules; the corpus is closed under superseders "
                     "in both the link and the rule relation, and check() re-derives the same "
                     "gold on its own edges",
        "split_rule": f"sha1 of the anchor id, {DEV_SHARE:.0%} dev; dev anchors get the dev "
                      "template, typo and partial-id families, test anchors the test ones",
        "hops": dict(sorted(Counter(q["info"]["hops"] for q in queries).items())),
        "closure_size": dict(sorted(Counter(q["info"]["closure_size"] for q in queries).items())),
        "gold_size": dict(sorted(Counter(len(q["gold"]) for q in queries).items())),
        "gold_includes_anchor": sum(q["info"]["gold_includes_anchor"] for q in queries),
        "partial_chains": sum(q["info"]["partial"] for q in queries),
        "anchor_sources": dict(
            sorted(Counter(str(q["info"]["anchor_source"]) for q in queries).items())
        ),
        "kappa": _dist([q["info"]["kappa"] for q in queries]),
        "overlap": _overlap_stats(queries),
        "question_words": _dist([len(q["question"].split()) for q in queries]),
    }
    if domain == "security":
        stats["question_mentions_cve_or_version"] = sum(
            bool(_IDS.search(q["question"]) or re.search(_VERSION, q["question"]))
            for q in queries
        )
    return DomainBenchmark(documents, queries, robustness, stats, rel.links)


def build_benchmark(
    domain: str,
    raw_dir: Path,
    *,
    n_distractors: int = 2000,
    seed: int = 13,
    max_queries: int | None = None,
) -> DomainBenchmark:
    """One domain's real-corpus benchmark, the same for the same arguments on any machine.

    ``raw_dir`` is the folder holding ``<domain>/`` (or the domain folder itself).
    """
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; expected one of {DOMAINS}")
    return _build(domain, Path(raw_dir), n_distractors=n_distractors, seed=seed,
                  max_queries=max_queries)


def _write_rows(rows: Iterable[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def write_benchmark(benchmark: DomainBenchmark, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    write_jsonl(benchmark.documents, out_dir / "documents.jsonl")
    for split in SPLITS:
        _write_rows(benchmark.split(benchmark.queries, split), out_dir / f"queries.{split}.jsonl")
        _write_rows(benchmark.split(benchmark.robustness, split),
                    out_dir / f"robustness.{split}.jsonl")
    (out_dir / "stats.json").write_text(
        json.dumps(benchmark.stats, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )


# --- demo sample ---------------------------------------------------------------------------------

SAMPLE_QUERIES = {"security": 30, "law": 30, "drug": 30}
SAMPLE_DISTRACTORS = {"security": 60, "law": 60, "drug": 80}

# (domain, anchor id, question): hand-written wording, gold always computed from the graph
DEMO_QUESTIONS = (
    ("security", "PYSEC-2021-109",
     "Is Django still vulnerable to the SQL injection in QuerySet.order_by?"),
    ("security", "GO-2023-2102", "Has the net/http HTTP/2 rapid reset issue in Go been fixed?"),
    ("security", "PYSEC-2021-331",
     "Can an attacker still trigger a buffer overflow in Pillow's convert function?"),
    ("law", None, "Is Bowers v. Hardwick still good law?"),
    ("law", "scotus:392-us-183",
     "Does Maryland v. Wirtz (1968) still decide whether Congress can apply federal wage rules "
     "to state employees?"),
    ("law", "scotus:473-us-172",
     "Do I still have to go through state court before bringing a takings claim, as "
     "Williamson County held?"),
    ("drug", "fda-approval:NDA016618:fenfluramine-hcl",
     "Is the appetite suppressant Pondimin (fenfluramine) still on the market?"),
    ("drug", None, "Is Vioxx (rofecoxib) still approved?"),
    ("drug", None, "Is Seldane (terfenadine), the antihistamine, still sold in the US?"),
)
_DEMO_LOOKUP = {
    "Bowers": ("law", "Bowers v. Hardwick"),
    "Vioxx": ("drug", "rofecoxib"),
    "Seldane": ("drug", "terfenadine"),
}

SAMPLE_SOURCE_MD = """\
# Demo sample: real records, attribution and licences

Generated by `car_graph_benchmarks.questions.write_sample(raw_dir, out_dir)` from the raw files of
`shared/data/raw/{security,law,drug}` (seed 13): a few dozen real supersession chains per domain
(the anchor, every document of its closure and every superseder of every included document),
plus documents sharing a package / case / drug key and seeded random documents of the same kinds.
`questions.jsonl` holds hand-worded demo questions whose `gold` is computed by
`SupersessionGraph.controlling({anchor})` over the sources' own links (OSV fixed versions and
aliases, the CONAN pairs, the withdrawal list, openFDA application numbers) and explicit edges. The records
are the adapters' output (`ingest/domains/security/`, `law/`, `drug/`), not the raw files; long
texts are trimmed by the adapters.

## security.jsonl

| source | what | licence |
|---|---|---|
| PyPA advisory database (github.com/pypa/advisory-database, commit 3ccb6125…, 2024-10-10) | PYSEC advisories (OSV) | CC-BY-4.0 |
| Go vulnerability database (github.com/golang/vulndb, commit a752ea54…, 2026-08-21) | GO-* advisories (OSV) | CC-BY-4.0 (database entries) |
| Django release notes (`docs/releases/*.txt` of the PyPI sdist django==5.2.19) | django-release:* | BSD-3-Clause (Django licence) |
| Go release history (github.com/golang/website `internal/history/release.go`, commit b02076ae…) | go-release:* | BSD-3-Clause |
| Debian 12 `changelog.Debian.gz` of python3-django, python3-pil, python3-urllib3, python3-jinja2, python3-werkzeug, python3-cryptography, python3-lxml, python3-yaml, python3-requests | debian-changelog:* | Debian packaging text under each package's DFSG-free copyright (`/usr/share/doc/<pkg>/copyright` in each .deb) |

(The raw folder also holds RustSec advisories, CC0-1.0, and Node.js security-wg entries, MIT;
they appear here only as random distractors if at all.)

## law.jsonl

Congress.gov *Constitution Annotated*, "Table of Supreme Court Decisions Overruled by Subsequent
Decisions" (constitution.congress.gov/resources/decisions-overruled/), as the CSV of
github.com/fboulnois/supreme-court-overturn-analysis (commit 7113ad37…, 2022-05-03), split into
(overruled, overruling) pairs. A work of the US Government (Library of Congress / CRS): public
domain. The table stops at Ramos v. Louisiana (2020) and applies CRS's strict "expressly
overruled" criterion (Plessy appears only as overruled by Bob Jones University, 1983). No
opinion texts are included: a decision's text is its name, citation and what it overrules.

## drug.jsonl

| source | what | licence |
|---|---|---|
| FDA new molecular entities 1827-2016 (github.com/ncats/stitcher `data/FDA-NMEs-2018-08-07.txt`, commit 78e74f51…) | approval documents | Apache-2.0 (repository); the approval facts are public FDA records |
| NCATS withdrawn drugs (github.com/ncats/stitcher `data/combined_withdrawn_shortage_drugs.txt`, commit 92e93447…): only rows from Onakpoya et al. 2016, *BMC Medicine* 14:10, and from 21 CFR 216.24 | withdrawal documents; class / mechanism / indication in approval texts | Apache-2.0 (repository); Onakpoya et al. 2016 is CC-BY-4.0; 21 CFR is public domain |
| openFDA drug enforcement reports (download.open.fda.gov, `meta.last_updated` 2023-08-05) | recall documents | public domain / CC0 (open.fda.gov/license) |

Attribution: "Onakpoya IJ, Heneghan CJ, Aronson JK. Post-marketing withdrawal of 462 medicinal
products because of adverse drug reactions: a systematic review of the world literature.
BMC Medicine 2016;14:10", CC-BY-4.0. PyPA and Go vulnerability database entries: CC-BY-4.0,
© their contributors.
"""


def _find(records: Sequence[DocumentRecord], graph: SupersessionGraph, domain: str,
          needle: str) -> str | None:
    superseded = {e.older for e in graph.edges}
    for r in sorted(records, key=lambda r: r.id):
        if r.id not in superseded:
            continue
        if domain == "law" and r.title == needle:
            return r.id
        if domain == "drug" and r.kind == "approval" and normalize_key(
                r.attributes.get("generic_name", "")) == normalize_key(needle):
            return r.id
    return None


def write_sample(raw_dir: Path, out_dir: Path, seed: int = 13) -> dict[str, int]:
    """Write the demo sample (``<domain>.jsonl``, ``questions.jsonl``, ``SOURCE.md``)."""
    raw_dir, out_dir = Path(raw_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    demo_rows: list[dict[str, Any]] = []
    for domain in DOMAINS:
        records = load_domain(domain, raw_dir, [])
        graph = relations(domain, raw_dir, records).gold
        demos: list[tuple[str, str]] = []
        for dom, anchor, question in DEMO_QUESTIONS:
            if dom != domain:
                continue
            if anchor is None:
                key = next(k for k in _DEMO_LOOKUP if k in question)
                anchor = _find(records, graph, domain, _DEMO_LOOKUP[key][1])
            if anchor and graph.superseders(anchor):
                demos.append((anchor, question))
        bench = _build(domain, raw_dir, n_distractors=SAMPLE_DISTRACTORS[domain], seed=seed,
                       max_queries=SAMPLE_QUERIES[domain], include=[a for a, _ in demos],
                       robustness_queries=0, records=records)
        write_jsonl(bench.documents, out_dir / f"{domain}.jsonl")
        counts[domain] = len(bench.documents)
        for anchor, question in demos:
            demo_rows.append({
                "id": f"demo-{len(demo_rows) + 1:02d}",
                "question": question,
                "gold": sorted(graph.controlling({anchor})),
                "anchors": [anchor],
                "info": {"domain": domain, "corpus": f"{domain}.jsonl"},
            })
    _write_rows(demo_rows, out_dir / "questions.jsonl")
    (out_dir / "SOURCE.md").write_text(SAMPLE_SOURCE_MD, encoding="utf-8")
    counts["questions"] = len(demo_rows)
    return counts


# --- command line --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m car_graph_benchmarks.questions",
        description="Build the real-corpus CAR benchmarks (documents, queries, robustness, stats).",
    )
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--domain", default="all", choices=[*DOMAINS, "all"])
    parser.add_argument("--raw", type=Path, default=None,
                        help=f"raw corpora folder (default: ${ENV_VAR}, else ../shared/data/raw "
                             "beside the checkout)")
    parser.add_argument("--distractors", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--max-queries", type=int, default=None)
    parser.add_argument("--sample", type=Path, default=None,
                        help="also write the demo sample into this folder")
    args = parser.parse_args(argv)
    try:
        args.raw = require_corpora_dir(args.raw)
    except CorporaError as exc:
        parser.error(str(exc))
    domains = DOMAINS if args.domain == "all" else (args.domain,)
    for domain in domains:
        bench = build_benchmark(domain, args.raw, n_distractors=args.distractors, seed=args.seed,
                                max_queries=args.max_queries)
        write_benchmark(bench, args.out_dir / domain)
        s = bench.stats
        print(f"{domain}: {s['queries']} queries {s['queries_by_split']}, "
              f"{sum(s['robustness'].values())} robustness {s['robustness_by_split']}, "
              f"{s['corpus_documents']} documents, gold differs from rule gold for "
              f"{s['gold_differs_from_rule_gold']} -> {args.out_dir / domain}")
    if args.sample:
        print(f"sample: {write_sample(args.raw, args.sample, args.seed)} -> {args.sample}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
