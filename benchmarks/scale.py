"""A streaming, linear-time generator of large CAR corpora (10k to 1M documents) in generic JSONL.

Why a second generator: benchmarks/synthetic.py plants every hard case the paper discusses but
builds its corpus in memory and grows super-linearly; scale benchmarks need millions of records
written at constant memory with the shapes real feeds have:

* **scopes** (entity type ``package``) with Zipf-like sizes: most packages hold a handful of
  documents, a few *hub* packages hold ``hub_size`` (>= 10k at 1M documents, n/80);
* **advisory chains** inside each scope: most advisories are never revised (length 1), a long
  tail is revised again and again (Pareto lengths capped at ``MAX_CHAIN`` = 40 hops); each
  revision names its predecessor in ``supersedes`` (explicit edges only: the corpus needs no
  rules file, so gold never depends on car-graph's rule engine);
* **release lines** (scope ``release_line``) of ``RELEASE_LINE`` = 250 versions, each release
  superseding its predecessor only -- the frontier of a 250-hop chain is its last release;
* texts built from a few hundred content words, pseudo-word package and function names, and
  CVE-style identifiers shared by every revision of an advisory.

Records are written scope by scope: memory holds one scope's current chain, never the corpus.
Questions are drawn by reservoir sampling (memory: the question count), one per sampled chain,
and their gold is ``front(cl(chain))`` computed with :class:`car_graph.semantics.AuthorityGraph`
over the chain's *intended* edges -- never with retrieval or car-graph's rules.

    python -m car_graph_benchmarks.scale --docs 100000 --out /tmp/scale-100k
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import IO, Any

from car_graph.semantics import AuthorityGraph, DocFacts, Edge

DOMAIN = "scale"
MAX_CHAIN = 40
RELEASE_LINE = 250
HUB_SCOPES = 3
MAX_SCOPE = 2000          # the Zipf tail outside the hubs
SINGLE_SHARE = 0.85       # advisories never revised
EPOCH = date(2010, 1, 1)

SYLLABLES = ["ba", "be", "bi", "bo", "bu", "da", "de", "di", "do", "du", "fa", "fe", "fi", "fo", "ka", "ke", "ki", "ko", "ku", "la", "le", "li", "lo", "lu", "ma", "me", "mi", "mo", "mu", "na", "ne", "ni", "no", "nu", "pa", "pe", "pi", "po", "pu", "ra", "re", "ri", "ro", "ru", "sa", "se", "si", "so", "su", "ta", "te", "ti", "to", "tu", "va", "ve", "vi", "vo", "vu", "xa", "xe", "xi", "za", "ze", "zi", "zo", "qua", "quo", "tri", "tra", "gor", "gal", "mir", "mon", "ver", "vel", "dex", "dor"]
FLAWS = (
    "prototype pollution", "path traversal", "heap overflow", "stack exhaustion",
    "integer overflow", "use after free", "double free", "race condition", "SQL injection",
    "command injection", "cross-site scripting", "open redirect", "XML external entity expansion",
    "server-side request forgery", "deserialization of untrusted data", "regular expression denial of service",
    "improper certificate validation", "timing side channel", "null pointer dereference",
    "uncontrolled recursion", "header injection", "cache poisoning", "signature bypass",
    "privilege escalation", "session fixation", "zip slip", "memory leak", "out-of-bounds read",
    "out-of-bounds write", "format string bug", "symlink following", "weak random seed",
    "authentication bypass", "log injection", "template injection", "request smuggling",
)
UNITS = (
    "parser", "handler", "decoder", "encoder", "loader", "serializer", "router", "scheduler",
    "resolver", "validator", "tokenizer", "compressor", "renderer", "connector", "allocator",
    "dispatcher", "middleware", "importer", "exporter", "sandbox",
)
ACTORS = (
    "a remote attacker", "an unauthenticated user", "a local user", "a malicious document",
    "a crafted archive", "a hostile peer", "a tenant of a shared host", "a crafted request",
)
IMPACTS = (
    "execute arbitrary code", "read files outside the root", "crash the service",
    "exhaust memory", "bypass access checks", "forge tokens", "leak credentials",
    "corrupt stored data", "hang worker threads", "inject scripts into pages",
    "escalate privileges", "poison shared caches",
)
REMEDIES = (
    "Upgrade to the fixed version.", "Disable the affected option until a fix is installed.",
    "Apply the vendor patch and restart.", "Restrict input size at the proxy.",
    "Rotate keys after upgrading.", "No workaround is known.",
)
REVISIONS = (
    "The earlier fix was incomplete", "A regression in the previous patch was found",
    "The affected range was widened", "Severity was re-scored after new exploit reports",
    "A second attack vector was identified", "The fixed version list was corrected",
)
FEATURES = (
    "faster startup", "lower memory use", "new configuration keys", "deprecations removed",
    "documentation fixes", "dependency updates", "improved error messages", "bug fixes",
    "a new plugin interface", "better logging", "platform support extended",
)
QUESTION_TEMPLATES = (
    "What is the current guidance on the {flaw} in the {function} {unit} of {package} ({cve})?",
    "Is {cve} in {package} still open, or has a later advisory replaced it?",
    "{package} {function} {unit}: how do I fix the {flaw} that lets {actor} {impact}?",
    "Which advisory controls the {flaw} in {package}'s {function} {unit} now?",
)
RELEASE_TEMPLATES = (
    "What is the latest release of {package} on the {line} line?",
    "Which {package} {line} release should I run today?",
)


@dataclass(frozen=True)
class ScaleQuestion:
    id: str
    question: str
    gold: tuple[str, ...]
    anchors: tuple[str, ...]   # the chain the question is about (every member matches it)
    shape: str                 # single | chain | release_line
    hops: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "gold": list(self.gold),
                "anchors": list(self.anchors), "shape": self.shape, "hops": self.hops}


@dataclass
class ScaleStats:
    documents: int = 0
    edges: int = 0
    scopes: int = 0
    chain_lengths: Counter[int] = field(default_factory=Counter)
    scope_sizes: Counter[int] = field(default_factory=Counter)
    hub_sizes: list[int] = field(default_factory=list)
    release_lines: int = 0
    release_line_length: int = 0
    questions: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        sizes = sorted(self.scope_sizes.elements())
        return {
            "documents": self.documents, "edges": self.edges, "scopes": self.scopes,
            "superseded_share": round(self.edges / max(1, self.documents), 3),
            "chain_lengths": dict(sorted(self.chain_lengths.items())),
            "scope_size_median": sizes[len(sizes) // 2] if sizes else 0,
            "scope_size_max": sizes[-1] if sizes else 0,
            "scopes_of_one_to_ten": sum(c for s, c in self.scope_sizes.items() if s <= 10),
            "hub_sizes": self.hub_sizes, "release_lines": self.release_lines,
            "release_line_length": self.release_line_length,
            "questions": dict(self.questions), "seconds": round(self.seconds, 2),
        }


def pseudo_word(index: int, prefix: str = "") -> str:
    """A pronounceable name unique per index (base-len(SYLLABLES) digits as syllables)."""
    base = len(SYLLABLES)
    parts = []
    n = index
    while True:
        parts.append(SYLLABLES[n % base])
        n //= base
        if n == 0:
            break
    if len(parts) < 2:
        parts.append(SYLLABLES[(index * 7 + 3) % base])
    return prefix + "".join(parts)


class _Reservoir:
    """Algorithm R: a uniform sample of ``size`` items from a stream of unknown length."""

    def __init__(self, size: int, rng: random.Random) -> None:
        self.size, self.rng, self.items, self.seen = size, rng, [], 0

    def offer(self, make: Any) -> None:
        """``make`` builds the item only when it is kept (building gold costs a little)."""
        self.seen += 1
        if len(self.items) < self.size:
            self.items.append(make())
            return
        slot = self.rng.randrange(self.seen)
        if slot < self.size:
            self.items[slot] = make()


@dataclass(frozen=True)
class Plan:
    """Scope sizes: hubs, release lines and the Zipf tail, fixed by (n, seed) alone."""

    hub_size: int
    release_lines: int
    release_line_length: int


def plan(n_docs: int) -> Plan:
    line = min(RELEASE_LINE, max(10, n_docs // 8))
    return Plan(hub_size=max(50, n_docs // 80), release_lines=max(1, n_docs // 4000),
                release_line_length=line)


class Generator:
    def __init__(self, n_docs: int, n_questions: int, seed: int) -> None:
        if n_docs < 500:
            raise ValueError("a scale corpus needs at least 500 documents")
        self.n_docs = n_docs
        self.rng = random.Random(seed)
        self.plan = plan(n_docs)
        self.stats = ScaleStats(release_line_length=self.plan.release_line_length)
        # Questions use their own generator: which chains are sampled never changes the documents.
        self.qrng = qrng = random.Random(seed + 1)
        self.n_questions = n_questions
        lines = min(self.plan.release_lines, n_questions // 5)
        self.line_questions = _Reservoir(lines, qrng)
        chains = (n_questions - lines) * 2 // 3
        self.chain_questions = _Reservoir(chains, qrng)
        # as many singles as could be needed: a small corpus has too few revised chains
        self.single_questions = _Reservoir(n_questions, qrng)
        self.written = 0
        self.chain_counter = 0

    # -- documents ---------------------------------------------------------------------------
    def run(self, out: IO[str]) -> list[ScaleQuestion]:
        started = time.perf_counter()
        scope_index = 0
        for _ in range(HUB_SCOPES):
            self._advisory_scope(out, scope_index, self.plan.hub_size, hub=True)
            scope_index += 1
        for line in range(self.plan.release_lines):
            self._release_line(out, scope_index, line)
            scope_index += 1
        while self.written < self.n_docs:
            size = min(int(self.rng.paretovariate(1.1)), MAX_SCOPE, self.n_docs - self.written)
            self._advisory_scope(out, scope_index, max(1, size), hub=False)
            scope_index += 1
        self.stats.scopes = scope_index
        self.stats.seconds = time.perf_counter() - started
        picked = [*self.line_questions.items, *self.chain_questions.items]
        questions = picked + self.single_questions.items[: self.n_questions - len(picked)]
        for q in questions:
            self.stats.questions[q.shape] += 1
        return questions

    def _emit(self, out: IO[str], record: dict[str, Any]) -> None:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.written += 1
        self.stats.documents += 1
        self.stats.edges += len(record.get("supersedes", ()))

    def _chain_length(self, room: int) -> int:
        if self.rng.random() < SINGLE_SHARE:
            return 1
        return max(1, min(1 + int(self.rng.paretovariate(1.3)), MAX_CHAIN, room))

    def _advisory_scope(self, out: IO[str], index: int, size: int, hub: bool) -> None:
        package = pseudo_word(index, "pk")
        size = min(size, self.n_docs - self.written) if not hub else size
        self.stats.scope_sizes[size] += 1
        if hub:
            self.stats.hub_sizes.append(size)
        left = size
        while left > 0:
            length = self._chain_length(left)
            left -= length
            self._advisory_chain(out, package, length)

    def _advisory_chain(self, out: IO[str], package: str, length: int) -> None:
        rng = self.rng
        self.chain_counter += 1
        serial = self.chain_counter
        year = 2010 + serial % 15
        cve = f"CVE-{year}-{100000 + serial}"
        slots = {
            "package": package, "cve": cve, "flaw": rng.choice(FLAWS), "unit": rng.choice(UNITS),
            "function": pseudo_word(rng.randrange(10**6), ""), "actor": rng.choice(ACTORS),
            "impact": rng.choice(IMPACTS),
        }
        day = EPOCH + timedelta(days=rng.randrange(15 * 365))
        ids: list[str] = []
        published: list[date] = []
        for position in range(length):
            doc_id = f"adv-{serial:07d}-{position + 1:02d}"
            fixed = f"{rng.randrange(1, 9)}.{rng.randrange(30)}.{rng.randrange(50)}"
            lead = (f"{cve}: {slots['flaw']} in the {slots['function']} {slots['unit']} of "
                    f"{package}.")
            body = (f" {slots['actor'].capitalize()} can {slots['impact']} through the "
                    f"{slots['function']} {slots['unit']}. Fixed in {package} {fixed}. "
                    f"{rng.choice(REMEDIES)}")
            if position:
                body = (f" Revision {position + 1}. {rng.choice(REVISIONS)}; this advisory "
                        f"replaces {ids[-1]}.") + body
            record: dict[str, Any] = {
                "id": doc_id, "title": f"{package} {slots['flaw']} ({cve})", "text": lead + body,
                "domain": DOMAIN, "kind": "advisory", "published": day.isoformat(),
                "scope": {"package": package}, "attributes": {"series": cve},
            }
            if position:
                record["supersedes"] = [ids[-1]]
            self._emit(out, record)
            ids.append(doc_id)
            published.append(day)
            day += timedelta(days=rng.randrange(1, 120))
        self.stats.chain_lengths[length] += 1
        shape = "single" if length == 1 else "chain"
        reservoir = self.single_questions if length == 1 else self.chain_questions

        def make() -> ScaleQuestion:
            template = self.qrng.choice(QUESTION_TEMPLATES)
            return _question(f"q-{cve}", template.format(**slots), ids, published, shape)

        reservoir.offer(make)

    def _release_line(self, out: IO[str], index: int, line_number: int) -> None:
        rng = self.rng
        package = pseudo_word(index, "pk")
        major = 1 + line_number % 9
        line = f"{major}.x"
        key = f"{package}@{major}"
        length = min(self.plan.release_line_length, self.n_docs - self.written)
        self.stats.scope_sizes[length] += 1
        self.stats.release_lines += 1
        day = EPOCH + timedelta(days=rng.randrange(365))
        ids: list[str] = []
        published: list[date] = []
        for minor in range(length):
            doc_id = f"rel-{package}-{major}.{minor}"
            features = ", ".join(rng.sample(FEATURES, 3))
            record: dict[str, Any] = {
                "id": doc_id, "title": f"{package} {major}.{minor} released",
                "text": f"Version {major}.{minor} of {package} ({line} line) is out: {features}.",
                "domain": DOMAIN, "kind": "release", "published": day.isoformat(),
                "scope": {"package": package, "release_line": key},
                "attributes": {"series": key, "version": f"{major}.{minor}"},
            }
            if minor:
                record["supersedes"] = [ids[-1]]
            self._emit(out, record)
            ids.append(doc_id)
            published.append(day)
            day += timedelta(days=rng.randrange(1, 15))
        self.stats.chain_lengths[length] += 1

        def make() -> ScaleQuestion:
            template = self.qrng.choice(RELEASE_TEMPLATES)
            question = template.format(package=package, line=line)
            return _question(f"q-{key}", question, ids, published, "release_line")

        self.line_questions.offer(make)


def _question(qid: str, text: str, ids: list[str], published: list[date], shape: str) -> ScaleQuestion:
    """Gold = front(cl(chain)) over the chain's intended edges (each member supersedes its
    predecessor, in force from its own publication)."""
    edges = [Edge(ids[i], ids[i - 1], published[i]) for i in range(1, len(ids))]
    graph = AuthorityGraph(edges, {d: DocFacts(published=p) for d, p in zip(ids, published, strict=True)})
    gold = tuple(sorted(graph.controlling(ids)))
    return ScaleQuestion(qid, text, gold, tuple(ids), shape, len(ids) - 1)


def generate(out_dir: Path, n_docs: int, n_questions: int = 500, seed: int = 7) -> dict[str, Any]:
    """Write documents.jsonl, questions.jsonl and stats.json under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    generator = Generator(n_docs, n_questions, seed)
    with open(out_dir / "documents.jsonl", "w", encoding="utf-8") as out:
        questions = generator.run(out)
    with open(out_dir / "questions.jsonl", "w", encoding="utf-8") as out:
        for q in questions:
            out.write(json.dumps(q.to_json()) + "\n")
    stats = generator.stats.to_json()
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    return stats


ADDITION_REVISIONS = 0.15     # share of an addition that revises an existing advisory chain
ADDITION_IN_EXISTING = 0.35   # share of new advisory chains filed under existing packages
ADDITION_RELEASES = 20        # at most this many new releases on existing release lines


def _tail_serial(doc_id: str) -> int:
    return int(doc_id.split("-")[1])


def generate_additions(corpus_dir: Path, n_docs: int = 1000, seed: int = 11) -> dict[str, Any]:
    """Write ``additions.jsonl``: ``n_docs`` new documents (ids absent from documents.jsonl) for a
    corpus that is already in the graph -- the daily feed of the issue's "adding 1,000 documents".

    Made by the same generator, and touching what exists: about 15 % revise the last advisory of
    an existing chain (``supersedes`` it: the chain grows), up to 20 releases continue existing
    release lines, 35 % of the new advisory chains are filed under existing packages (the hubs
    among them), the rest open new packages. One streaming pass over documents.jsonl finds the
    chains' last documents (a reservoir sample: memory independent of the corpus)."""
    stats = json.loads((corpus_dir / "stats.json").read_text())
    rng = random.Random(seed)
    n_revisions = int(n_docs * ADDITION_REVISIONS)
    n_releases = min(ADDITION_RELEASES, stats["release_lines"], n_docs // 20)
    advisory_tails = _Reservoir(n_revisions, rng)
    release_tails = _Reservoir(n_releases, rng)
    max_serial = 0
    previous: dict[str, Any] | None = None

    def close(record: dict[str, Any] | None) -> None:
        if record is None:
            return
        (advisory_tails if record["kind"] == "advisory" else release_tails).offer(lambda: record)

    with open(corpus_dir / "documents.jsonl", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            # a chain's documents are written one after the other: a new series closes the last
            if previous is not None and record["attributes"]["series"] != previous["attributes"]["series"]:
                close(previous)
            if record["kind"] == "advisory":
                max_serial = max(max_serial, _tail_serial(record["id"]))
            previous = record
    close(previous)

    generator = Generator(max(n_docs, 500), 1, seed)
    generator.n_docs = n_docs
    generator.chain_counter = max_serial
    added = Counter[str]()
    with open(corpus_dir / "additions.jsonl", "w", encoding="utf-8") as out:
        for tail in advisory_tails.items:
            generator._emit(out, _revision_of(tail, rng))
            added["revisions"] += 1
        for tail in release_tails.items:
            generator._emit(out, _next_release(tail, rng))
            added["releases"] += 1
        in_existing = int((n_docs - generator.written) * ADDITION_IN_EXISTING)
        target = generator.written + in_existing
        while generator.written < target:
            # half into the hubs (scopes 0..HUB_SCOPES-1), half anywhere among existing scopes
            index = rng.randrange(HUB_SCOPES) if rng.random() < 0.5 else rng.randrange(stats["scopes"])
            generator._advisory_chain(out, pseudo_word(index, "pk"), generator._chain_length(target - generator.written))
            added["in_existing_scopes"] += 1
        index = stats["scopes"]
        while generator.written < n_docs:
            size = min(int(rng.paretovariate(1.1)), MAX_SCOPE, n_docs - generator.written)
            generator._advisory_scope(out, index, max(1, size), hub=False)
            added["new_scopes"] += 1
            index += 1
    return {"documents": generator.stats.documents, "edges": generator.stats.edges,
            "revisions_of_existing_chains": added["revisions"],
            "releases_on_existing_lines": added["releases"],
            "new_chains_in_existing_scopes": added["in_existing_scopes"],
            "new_scopes": added["new_scopes"]}


def _revision_of(tail: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The next revision of an advisory chain whose last document is ``tail``."""
    _prefix, serial, position = tail["id"].split("-")
    package = tail["scope"]["package"]
    cut = tail["text"].index(f" of {package}.") + len(f" of {package}.")
    day = date.fromisoformat(tail["published"]) + timedelta(days=rng.randrange(1, 120))
    return {**tail, "id": f"adv-{serial}-{int(position) + 1:02d}",
            "text": (tail["text"][:cut] + f" Revision {int(position) + 1}. {rng.choice(REVISIONS)}; "
                     f"this advisory replaces {tail['id']}. Fixed in {package} "
                     f"{rng.randrange(1, 9)}.{rng.randrange(30)}.{rng.randrange(50)}. {rng.choice(REMEDIES)}"),
            "published": day.isoformat(), "supersedes": [tail["id"]]}


def _next_release(tail: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The release after ``tail`` on its line."""
    package = tail["scope"]["package"]
    major, minor = tail["attributes"]["version"].split(".")
    version = f"{major}.{int(minor) + 1}"
    day = date.fromisoformat(tail["published"]) + timedelta(days=rng.randrange(1, 15))
    return {**tail, "id": f"rel-{package}-{version}", "title": f"{package} {version} released",
            "text": f"Version {version} of {package} ({major}.x line) is out: "
                    f"{', '.join(rng.sample(FEATURES, 3))}.",
            "published": day.isoformat(), "attributes": {**tail["attributes"], "version": version},
            "supersedes": [tail["id"]]}


# ------------------------------------------------------------------------- partial components

STANDARD_SIZE = 40        # documents per standard (editions, amendments, corrigenda)
TOPICS = ("conformity assessment", "test methods", "marking", "definitions", "tolerances",
          "safety requirements", "sampling", "packaging", "electrical clearance", "labelling",
          "calibration", "storage conditions", "documentation", "traceability", "noise limits")


class _DisjointSets:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)

    def sizes(self) -> Counter[str]:
        return Counter(self.find(x) for x in list(self.parent))


def generate_partial(out_dir: Path, n_docs: int, component_size: int, seed: int = 7) -> dict[str, Any]:
    """An amendment-heavy corpus, as standards and statutes are: components of
    ``component_size`` documents joined by *partial* supersession, and its twin without them.

    Each component is a family of standards of ``STANDARD_SIZE`` documents. A standard's
    editions supersede each other in full (a short full chain); its amendments supersede the
    current edition in part, and half of them also amend a random earlier document of the family
    in part; each standard's first edition amends an earlier standard of the family in part, so
    partial edges join the whole family into one component. One amendment in 10 is replaced in
    full by a corrigendum, and each family holds one full two-document cycle (an amendment and
    its consolidated text naming each other, the amendment by a forward reference), so the
    cycle pass has real work. Only explicit references: no rules file.

    Writes ``partial/documents.jsonl`` and ``baseline/documents.jsonl`` -- the same records,
    the baseline without the partial references (its full edges, texts and scopes identical) --
    and ``stats.json``: the side-by-side ingest measures only what the partial edges cost."""
    if component_size < STANDARD_SIZE:
        raise ValueError(f"a partial component needs at least {STANDARD_SIZE} documents")
    rng = random.Random(seed)
    started = time.perf_counter()
    sets, full_sets = _DisjointSets(), _DisjointSets()
    counts = Counter[str]()
    (out_dir / "partial").mkdir(parents=True, exist_ok=True)
    (out_dir / "baseline").mkdir(parents=True, exist_ok=True)
    with open(out_dir / "partial" / "documents.jsonl", "w", encoding="utf-8") as with_partial, \
            open(out_dir / "baseline" / "documents.jsonl", "w", encoding="utf-8") as without:

        def emit(record: dict[str, Any]) -> None:
            with_partial.write(json.dumps(record, separators=(",", ":")) + "\n")
            full = [r for r in record.get("supersedes", ()) if not r["partial"]]
            without.write(json.dumps({**record, "supersedes": full}, separators=(",", ":")) + "\n")
            counts["documents"] += 1
            sets.find(record["id"])
            full_sets.find(record["id"])
            for ref in record.get("supersedes", ()):
                counts["partial_edges" if ref["partial"] else "full_edges"] += 1
                sets.union(record["id"], ref["id"])
                if not ref["partial"]:
                    full_sets.union(record["id"], ref["id"])

        family = 0
        while counts["documents"] < n_docs:
            size = min(component_size, n_docs - counts["documents"])
            _standards_family(emit, rng, family, size, counts)
            family += 1
    sizes = sorted(sets.sizes().values(), reverse=True)
    full_sizes = sorted(full_sets.sizes().values(), reverse=True)
    stats = {"documents": counts["documents"], "component_size": component_size,
             "full_edges": counts["full_edges"], "partial_edges": counts["partial_edges"],
             "cycles": counts["cycles"], "components": len(sizes), "largest_component": sizes[0],
             "largest_full_component": full_sizes[0], "families": family,
             "seconds": round(time.perf_counter() - started, 2)}
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    return stats


def _standards_family(emit: Any, rng: random.Random, family: int, size: int, counts: Counter[str]) -> None:
    """``size`` documents of one family (see :func:`generate_partial`), in date order."""
    day = EPOCH + timedelta(days=rng.randrange(365))
    written: list[str] = []
    cycle_made = False
    standard = 0
    while len(written) < size:
        key = f"STD-{family:04d}-{standard:03d}"
        current = ""
        own = min(STANDARD_SIZE, size - len(written))
        position = 0
        while position < own:
            topic = rng.choice(TOPICS)
            refs: list[dict[str, Any]] = []
            if not current or (position and rng.random() < 0.05):
                doc_id = f"{key}-ed{position}"
                kind, title = "standard", f"{key} edition {position}: {topic}"
                if current:
                    refs.append({"id": current, "partial": False})
                elif written:  # the first edition amends an earlier standard of the family
                    refs.append({"id": rng.choice(written), "partial": True})
                current = doc_id
            else:
                doc_id = f"{key}-am{position}"
                kind, title = "amendment", f"{key} amendment {position}: {topic}"
                refs.append({"id": current, "partial": True})
                if written and rng.random() < 0.5:
                    other = rng.choice(written)
                    if other != current:
                        refs.append({"id": other, "partial": True})
            record: dict[str, Any] = {
                "id": doc_id, "title": title, "domain": DOMAIN, "kind": kind,
                "text": f"{title}. Clause {rng.randrange(1, 40)} on {topic} is revised; "
                        f"{rng.choice(FEATURES)}.",
                "published": day.isoformat(), "scope": {"standard": key},
                "attributes": {"series": key}, "supersedes": refs}
            consolidated = None
            if kind == "amendment" and not cycle_made and position + 1 < own:
                # a data error real corpora have: amendment and consolidated text name each other
                consolidated = f"{key}-cons{position}"
                record["supersedes"] = [*refs, {"id": consolidated, "partial": False}]
            emit(record)
            written.append(doc_id)
            position += 1
            day += timedelta(days=rng.randrange(1, 20))
            if consolidated is not None:
                emit({**record, "id": consolidated, "kind": "consolidated",
                      "title": f"{key} consolidated text", "published": day.isoformat(),
                      "supersedes": [{"id": doc_id, "partial": False}]})
                written.append(consolidated)
                position += 1
                cycle_made = True
                counts["cycles"] += 1
            elif kind == "amendment" and position < own and rng.random() < 0.1:
                corrigendum = f"{key}-cor{position}"
                emit({**record, "id": corrigendum, "kind": "corrigendum",
                      "title": f"{key} corrigendum to amendment {position - 1}",
                      "published": day.isoformat(), "supersedes": [{"id": doc_id, "partial": False}]})
                written.append(corrigendum)
                position += 1
        standard += 1


def read_questions(path: Path) -> list[ScaleQuestion]:
    with open(path, encoding="utf-8") as handle:
        return [ScaleQuestion(d["id"], d["question"], tuple(d["gold"]), tuple(d["anchors"]),
                              d["shape"], int(d["hops"]))
                for d in map(json.loads, handle) if d]


def iter_edges(path: Path) -> Iterator[tuple[Edge, str, date | None]]:
    """(edge, newer id, newer published) for every explicit edge of a generated corpus."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            published = date.fromisoformat(record["published"]) if record.get("published") else None
            for older in record.get("supersedes", ()):
                yield Edge(record["id"], older, published), record["id"], published


def reference_graph(path: Path) -> AuthorityGraph:
    """The corpus's intended supersession relation (for strict TCA of retrieved lists)."""
    edges, facts = [], {}
    for edge, newer, published in iter_edges(path):
        edges.append(edge)
        facts[newer] = DocFacts(published=published)
    return AuthorityGraph(edges, facts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, required=True)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    stats = generate(args.out, args.docs, args.questions, args.seed)
    json.dump(stats, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
