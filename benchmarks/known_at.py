"""Known-at benchmark: the security corpus ingested in the order its sources recorded it, and the
existing security questions asked "as known at" the dates between ingest steps (issue 20, item 4).

What the raw files say about their own history
----------------------------------------------
Each advisory database in ``shared/data/raw/security`` is one snapshot: every record appears
once, as last written (no id repeats in pypa_advisories.jsonl nor govulndb_osv.jsonl), so no
earlier text of a record survives. What the records do carry is *when* their source wrote them:

* PYSEC (OSV): ``modified`` -- the version we hold was written then (2,531 of 2,652 dated
  records were modified after publication; only that last version is in the snapshot);
* GO (OSV): ``modified`` is the placeholder ``0001-01-01`` for all 4,291 entries, so the time is
  ``_report_first_committed``, the commit that added the report to golang/vulndb (its own
  transaction time; bulk imports put hundreds of reports on one day);
* RustSec: ``advisory.date`` (no modification field); Node security-wg npm entries:
  ``updated_at`` (else ``publish_date``, ``created_at``); Node core entries have no date;
* releases: their release date (Django notes ``release_date``, Go ``date``, Debian changelog
  ``date``): a release note is written when the release ships.

Records without any date (undated Django notes of old releases, Node core entries) are recorded
in the first step. The one real revision the snapshot lets us rebuild is **withdrawal** (10 PYSEC,
17 GO and 13 RustSec records carry ``withdrawn``): such a record existed, unwithdrawn, before it
was withdrawn. It gets two versions: the record without its ``withdrawn`` field, recorded at
its publication (GO: its first commit; RustSec: its date), and the record as held, recorded at
the later of ``withdrawn`` and ``modified``. The second is an update of the same document id, so
car-graph closes the first version (a withdrawal, as the security domain models it: the
``withdrawn`` attribute). When both fall into one step only the later is ingested.

Steps and questions
-------------------
The corpus is the existing security benchmark's (``questions.build_benchmark``: the same
documents, the same questions, the same dev/test split by anchor). Its documents are split into
ingest steps at :data:`KNOWN_AT_DATES`: step k holds the versions recorded after date k-1 and on
or before date k (UTC); the last step holds the rest (up to 2026-08). Each step is a JSON Lines
file of the security adapter's records (``car-graph ingest step-k.jsonl`` loads it).

For every existing security question and every date k but the last at which its anchor was
already recorded, one question "as known at date k" with gold computed here, from the raw files
alone: the sources' own supersession links (:func:`car_graph_benchmarks.links.security_links`:
OSV fixed versions and CVE aliases, never the rules) between documents recorded by then, and
the frontier of the anchor's closure over them (:func:`controlling_known_then`, a dozen lines
of its own, not car-graph's semantics). A question whose anchor was not yet recorded is not
asked at that date (counted as ``anchor_not_yet_recorded``). Each question line names the run
that recorded its date's step, ``"known_at": "run:k"`` (the corpus date is
``known_at_date``): transaction time belongs to the graph, not to the corpus, so a date would
read an empty graph. On the graph the runner leaves (a wiped database, then step k = run k),
``car-graph eval benchmarks/security/known_at.test.jsonl`` asks each line as that step left it.

The runner (``car-graph known-at-bench``) wipes the local database, ingests the steps in order
(each a run with its own recorded time; it checks that step k is run k), and asks each date's
questions of ``car`` and ``hybrid`` twice: with the line's ``known_at`` (``run:k``, pinned to
that run's last commit, as ``eval`` pins it) and without (today's graph). Both are scored with
strict TCA@k (``car_graph.metrics.strict_tca``, as ``car-graph eval`` scores) against the
as-known-then gold and relation. It also counts *anachronisms*:
questions whose top k holds a document car-graph had not recorded at that date.

``python -m car_graph_benchmarks.known_at OUT_DIR --raw RAW`` writes the steps, the question
sets (``known_at.{dev,test}.jsonl``) and ``known_at.stats.json`` without a database; the last
three are committed in ``benchmarks/security/``.
"""

from __future__ import annotations

import argparse
import email.utils
import json
import sys
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from car_graph.ingest.domains.security.common import Collector
from car_graph.ingest.domains.security.corpus import CONVERTERS, FILES
from car_graph.metrics import Edge, SupersessionGraph, anchor_recall, strict_tca, wilson_interval
from car_graph.records import DocumentRecord, parse_record, write_jsonl
from car_graph.types import RunRef
from car_graph_benchmarks.corpora import ENV_VAR, CorporaError, require_corpora_dir
from car_graph_benchmarks.links import security_links

if TYPE_CHECKING:
    from car_graph.client import CarClient

__all__ = [
    "KNOWN_AT_DATES",
    "HistoryBenchmark",
    "SourceVersion",
    "build_history",
    "controlling_known_then",
    "main",
    "recorded_versions",
    "run_history",
    "step_of",
]

#: the dates between ingest steps: step k holds what was recorded on or before date k (UTC), after
#: date k-1; the last step the rest. Chosen so each earlier step leaves questions whose answer
#: changed later (Debian and Django fixes recorded after the advisory): 2021 is the PyPA
#: database's bulk rewrite, mid-2025 the last date before Go's 2025-2026 bulk imports.
KNOWN_AT_DATES: tuple[date, ...] = (date(2021, 12, 31), date(2023, 12, 31), date(2025, 6, 30))
SPLITS = ("dev", "test")
SYSTEMS = ("car", "hybrid")

_PLACEHOLDER = "0001-01-01"


# --- when the sources recorded each record -------------------------------------------------------


def _instant(value: Any, pattern: str | None = None) -> datetime | None:
    """A source's timestamp as a UTC instant: ISO 8601 (a date alone is its first instant),
    ``pattern`` for strptime, or RFC 2822 with ``pattern='rfc2822'``; None when absent or the
    OSV placeholder."""
    if not isinstance(value, str) or not value.strip() or value.startswith(_PLACEHOLDER):
        return None
    text = value.strip()
    try:
        if pattern == "rfc2822":
            parsed = email.utils.parsedate_to_datetime(text)
        elif pattern is not None:
            parsed = datetime.strptime(text, pattern)
        else:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _first(*values: tuple[Any, str, str | None]) -> tuple[datetime | None, str]:
    """The first present timestamp of (value, field name, pattern) triples, with its field."""
    for value, name, pattern in values:
        when = _instant(value, pattern)
        if when is not None:
            return when, name
    return None, "undated"


@dataclass(frozen=True)
class SourceVersion:
    """One version of a record as its source wrote it: when (None: undated, recorded from the
    start), the field that says so, and whether this version is the withdrawn one."""

    recorded: datetime | None
    basis: str
    withdrawn: bool = False


def recorded_versions(source: str, obj: Mapping[str, Any]) -> list[SourceVersion]:
    """The versions of one raw record of ``source`` (a key of ``corpus.FILES``), oldest first:
    one, or two for a withdrawn record (see the module docstring)."""
    withdrawn: datetime | None = None
    if source in ("pypa", "govulndb"):
        if source == "pypa":
            held = _first((obj.get("modified"), "modified", None),
                          (obj.get("published"), "published", None))
            before = _first((obj.get("published"), "published", None))
        else:  # the Go database's modified/published are placeholders for most entries
            held = _first((obj.get("modified"), "modified", None),
                          (obj.get("_report_first_committed"), "_report_first_committed", None))
            before = _first((obj.get("_report_first_committed"), "_report_first_committed", None))
        withdrawn = _instant(obj.get("withdrawn"))
    elif source == "rustsec":
        adv = obj.get("advisory") or {}
        held = before = _first((adv.get("date"), "date", None))
        withdrawn = _instant(adv.get("withdrawn"))
    elif source == "nodejs":
        held = before = _first((obj.get("updated_at"), "updated_at", None),
                               (obj.get("publish_date"), "publish_date", None),
                               (obj.get("created_at"), "created_at", None))
    elif source == "django":
        held = before = _first((obj.get("release_date"), "release_date", "%B %d, %Y"))
    elif source == "go_releases":
        held = before = _first((obj.get("date"), "date", None))
    elif source == "debian":
        held = before = _first((obj.get("date"), "date", "rfc2822"))
    else:
        raise ValueError(f"unknown security source {source!r}; expected one of {sorted(FILES)}")
    if withdrawn is None:
        return [SourceVersion(*held)]
    last = max(t for t in (withdrawn, held[0]) if t is not None)
    first = before[0]
    if first is not None and first < last:
        return [SourceVersion(first, before[1]),
                SourceVersion(last, "withdrawn" if last == withdrawn else held[1], True)]
    return [SourceVersion(last, "withdrawn" if last == withdrawn else held[1], True)]


def step_of(recorded: datetime | None, dates: Sequence[date] = KNOWN_AT_DATES) -> int:
    """The ingest step (1-based) of a version: the first date on or after its recorded day
    (UTC); undated versions in step 1; after the last date, step len(dates) + 1."""
    if recorded is None:
        return 1
    day = recorded.astimezone(UTC).date()
    for number, cut in enumerate(dates, start=1):
        if day <= cut:
            return number
    return len(dates) + 1


# --- gold as known then (independent of car-graph's semantics) ----------------------------------


def controlling_known_then(
    anchor: str, links: Iterable[tuple[str, str, bool]], known: Container[str]
) -> frozenset[str] | None:
    """The documents that control ``anchor`` among the ``known`` ones: the anchor's closure
    along links (newer, older, partial) whose two ends are known, without the documents a
    known full link supersedes. None when the anchor itself is not known. The sources' links
    are acyclic (releases supersede advisories); a cycle is a ValueError, not a guess."""
    if anchor not in known:
        return None
    into: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for newer, older, partial in links:
        if newer in known and older in known and newer != older:
            into[older].append((newer, partial))
    closure, queue = {anchor}, deque([anchor])
    while queue:
        for newer, _ in into.get(queue.popleft(), ()):
            if newer not in closure:
                closure.add(newer)
                queue.append(newer)
    # every link into a closure member comes from the closure, so "a full link into it" is
    # "superseded"; with no cycle that is the whole frontier rule
    voided = {d for d in closure if any(not partial for _, partial in into.get(d, ()))}
    if voided == closure:
        raise ValueError(f"the links around {anchor!r} form a cycle: nothing controls it")
    _check_acyclic(closure, into)
    return frozenset(closure - voided)


def _check_acyclic(nodes: set[str], into: Mapping[str, list[tuple[str, bool]]]) -> None:
    state: dict[str, int] = {}

    def visit(doc: str) -> None:  # depth-first, 1 = on the stack, 2 = done
        state[doc] = 1
        for newer, _ in into.get(doc, ()):
            if state.get(newer) == 1:
                raise ValueError(f"the links form a cycle through {doc!r} and {newer!r}")
            if newer in nodes and newer not in state:
                visit(newer)
        state[doc] = 2

    for doc in sorted(nodes):
        if doc not in state:
            visit(doc)


# --- the benchmark ---------------------------------------------------------------------------------


@dataclass
class HistoryBenchmark:
    """Ingest steps (records per step, in recorded order), questions per known-at date, stats."""

    dates: tuple[date, ...]
    steps: list[list[DocumentRecord]]
    questions: list[dict[str, Any]]
    stats: dict[str, Any]
    # per document: the step it first appears in (the known set of date k = first_step <= k)
    first_step: dict[str, int] = field(default_factory=dict)
    links: tuple[tuple[str, str, bool], ...] = ()
    today: list[dict[str, Any]] = field(default_factory=list)  # the base questions, gold today

    def known(self, step: int) -> set[str]:
        return {d for d, s in self.first_step.items() if s <= step}

    def split(self, rows: Sequence[Mapping[str, Any]], name: str) -> list[dict[str, Any]]:
        return [dict(r) for r in rows if name == "all" or r.get("split") == name]

    def to_json(self) -> dict[str, Any]:
        """The whole benchmark as plain JSON (records as their JSONL objects)."""
        data = {"dates": [d.isoformat() for d in self.dates],
                "steps": [[r.to_json() for r in step] for step in self.steps],
                "questions": self.questions, "first_step": self.first_step,
                "links": [list(link) for link in self.links], "today": self.today, "stats": self.stats}
        result: dict[str, Any] = json.loads(json.dumps(data, default=str))
        return result

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HistoryBenchmark:
        return cls(dates=tuple(date.fromisoformat(d) for d in data["dates"]),
                   steps=[[parse_record(r) for r in step] for step in data["steps"]],
                   questions=list(data["questions"]), stats=dict(data["stats"]),
                   first_step=dict(data["first_step"]),
                   links=tuple((n, o, bool(p)) for n, o, p in data["links"]), today=list(data["today"]))


def _raw_records(raw_dir: Path, wanted: Container[str]) -> Iterator[tuple[str, dict[str, Any],
                                                                          DocumentRecord, int]]:
    """(source key, raw object, adapter record, line) for each raw record whose adapter id is in
    ``wanted``; the first of duplicate ids, as ``load_security``."""
    seen: set[str] = set()
    collector = Collector()
    for source, name in FILES.items():
        path = raw_dir / name
        if not path.exists():
            continue
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    record = CONVERTERS[source](obj, name, number, collector)
                except ValueError:
                    continue  # the loader reports these; they are not in the corpus either
                if record.id in seen or record.id not in wanted:
                    continue
                seen.add(record.id)
                yield source, obj, record, number


def _without_withdrawal(source: str, obj: Mapping[str, Any], name: str, line: int) -> DocumentRecord:
    """The adapter's record of the version before withdrawal: the raw record without its
    ``withdrawn`` field."""
    copy = json.loads(json.dumps(obj))
    (copy.get("advisory") if source == "rustsec" else copy).pop("withdrawn", None)
    return CONVERTERS[source](copy, name, line, Collector())


def plan_steps(
    raw_dir: Path, documents: Sequence[DocumentRecord], dates: Sequence[date] = KNOWN_AT_DATES,
) -> tuple[list[list[DocumentRecord]], dict[str, int], dict[str, Any]]:
    """The corpus ``documents`` as ingest steps: (records per step, first step per id, counts)."""
    wanted = {d.id for d in documents}
    held = {d.id: d for d in documents}
    steps: list[dict[str, tuple[datetime | None, DocumentRecord]]] = [
        {} for _ in range(len(dates) + 1)]
    first_step: dict[str, int] = {}
    counts: Counter[str] = Counter()
    basis: Counter[str] = Counter()
    for source, obj, record, line in _raw_records(raw_dir, wanted):
        versions = recorded_versions(source, obj)
        for version in versions:
            basis[f"{source}: {version.basis}"] += 1
        if len(versions) == 2:
            counts["withdrawn_with_earlier_version"] += 1
        elif versions[0].withdrawn:
            counts["withdrawn_single_version"] += 1
        for version in versions:
            step = step_of(version.recorded, dates)
            if version.withdrawn or len(versions) == 1:
                rec = held[record.id]  # the corpus's own record, exactly as the benchmark holds it
            else:
                rec = _without_withdrawal(source, obj, FILES[source], line)
            # one version per id and step: the later one (one ingest is one state of the source)
            steps[step - 1][record.id] = (version.recorded, rec)
            first_step[record.id] = min(first_step.get(record.id, step), step)
        if len({step_of(v.recorded, dates) for v in versions}) == 2:
            counts["updates_across_steps"] += 1
    missing = wanted - set(first_step)
    if missing:
        raise ValueError(f"{len(missing)} corpus documents not found in {raw_dir}: "
                         f"{sorted(missing)[:5]}")
    early = datetime.min.replace(tzinfo=UTC)
    ordered = [[rec for _, (_, rec) in sorted(step.items(), key=lambda kv: (kv[1][0] or early,
                                                                             kv[0]))]
               for step in steps]
    stats = {**dict(sorted(counts.items())), "recorded_basis": dict(sorted(basis.items()))}
    return ordered, first_step, stats


def build_history(
    raw_dir: Path, *, dates: Sequence[date] = KNOWN_AT_DATES, n_distractors: int = 2000,
    seed: int = 13, max_queries: int | None = None, include: Iterable[str] = (),
) -> HistoryBenchmark:
    """The known-at benchmark on the security benchmark's corpus and questions (the same
    arguments as ``questions.build_benchmark``; ``include``: anchors always asked)."""
    from car_graph_benchmarks.questions import _build  # the builder, with its include option

    raw_dir = Path(raw_dir)
    security = raw_dir / "security" if (raw_dir / "security").is_dir() else raw_dir
    bench = _build("security", security, n_distractors=n_distractors, seed=seed,
                   max_queries=max_queries, include=include, robustness_queries=0)
    dates = tuple(dates)
    steps, first_step, plan = plan_steps(security, bench.documents, dates)
    links = tuple(sorted({(x.newer, x.older, x.partial) for x in security_links(security).links
                          if x.newer in first_step and x.older in first_step}))
    last = len(dates) + 1
    today_known = set(first_step)
    questions: list[dict[str, Any]] = []
    by_date: dict[str, Counter[str]] = {}
    today_rows = []
    withdrawn_step = {rec.id: n for n, records in enumerate(steps, start=1) for rec in records
                      if rec.attributes.get("withdrawn")}
    for q in bench.queries:
        anchor = q["anchors"][0]
        final = controlling_known_then(anchor, links, today_known)
        if final is None or sorted(final) != sorted(q["gold"]):
            # the benchmark's gold (questions.py) and this computation must agree today
            raise ValueError(f"{q['id']}: gold today {sorted(final or ())} differs from the "
                             f"security benchmark's {q['gold']}")
        today_rows.append(q)
        previous: frozenset[str] | None = None
        for step, when in enumerate(dates, start=1):
            tally = by_date.setdefault(when.isoformat(), Counter())
            known = {d for d, s in first_step.items() if s <= step}
            gold = controlling_known_then(anchor, links, known)
            if gold is None:
                tally["anchor_not_yet_recorded"] += 1
                continue
            changed_later = gold != final
            tally["questions"] += 1
            tally[f"questions_{q['split']}"] += 1
            tally["gold_changed_later"] += changed_later
            tally[f"gold_changed_later_{q['split']}"] += changed_later
            tally["gold_is_the_anchor"] += gold == {anchor}
            if previous is not None and gold != previous:
                tally["gold_changed_since_previous_date"] += 1
            previous = gold
            questions.append({
                "id": f"{q['id']}@{when.isoformat()}",
                "question": q["question"],
                "anchors": [anchor],
                "gold": sorted(gold),
                "split": q["split"],
                # transaction time is the graph's, not the corpus's: the line names the run that
                # ingested its step (run k = step k on the graph `known-at-bench` builds), so
                # `car-graph eval` with this file reads the graph as that step left it
                "known_at": f"run:{step}",
                "known_at_date": when.isoformat(),
                "step": step,
                "info": {"base": q["id"], "gold_today": q["gold"], "gold_changed_later":
                         changed_later, "anchor_step": first_step[anchor],
                         "later_gold": sorted(final - gold),
                         "anchor_withdrawn_later": withdrawn_step.get(anchor, 0) > step},
            })
    changed_bases = {r["info"]["base"] for r in questions if r["info"]["gold_changed_later"]}
    stats = {
        "dates": [d.isoformat() for d in dates],
        "documents": len(first_step),
        "documents_per_step": [len(s) for s in steps],
        "new_documents_per_step": [sum(1 for v in first_step.values() if v == n)
                                   for n in range(1, last + 1)],
        "links": len(links),
        "base_questions": len(bench.queries),
        "questions": len(questions),
        "questions_by_split": dict(sorted(Counter(r["split"] for r in questions).items())),
        "per_date": {k: dict(sorted(v.items())) for k, v in by_date.items()},
        "base_questions_whose_gold_changed_between_steps": len(changed_bases),
        "raw_snapshot": _snapshot_counts(security),
        **plan,
        "gold_rule": "front(cl({anchor})) over the sources' own links (links.security_links) "
                     "between documents recorded by the date, computed by "
                     "known_at.controlling_known_then; today's equals the security benchmark's",
    }
    return HistoryBenchmark(dates, steps, questions, stats, first_step, links, today_rows)


def _snapshot_counts(security: Path) -> dict[str, Any]:
    """How much revision history the raw advisory files hold (the docstring's numbers)."""
    out: dict[str, Any] = {}
    for name in ("pypa_advisories.jsonl", "govulndb_osv.jsonl"):
        path = security / name
        if not path.exists():
            continue
        ids: Counter[str] = Counter()
        modified_after = withdrawn = placeholder = 0
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                obj = json.loads(line)
                ids[str(obj.get("id"))] += 1
                mod, pub = _instant(obj.get("modified")), _instant(obj.get("published"))
                placeholder += mod is None
                modified_after += bool(mod and pub and mod.date() > pub.date())
                withdrawn += bool(obj.get("withdrawn"))
        out[name] = {"records": sum(ids.values()),
                     "ids_with_several_versions": sum(1 for n in ids.values() if n > 1),
                     "modified_placeholder": placeholder,
                     "modified_on_a_later_day_than_published": modified_after,
                     "withdrawn": withdrawn}
    return out


def write_history(bench: HistoryBenchmark, out_dir: Path) -> dict[str, Path]:
    """``step-<k>.jsonl`` per step, ``known_at.{dev,test}.jsonl`` and ``known_at.stats.json``
    (the last three are committed beside the security questions, benchmarks/security/)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for number, records in enumerate(bench.steps, start=1):
        path = out_dir / f"step-{number}.jsonl"
        write_jsonl(records, path)
        paths[path.name] = path
    for split in SPLITS:
        path = out_dir / f"known_at.{split}.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for row in bench.split(bench.questions, split):
                handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        paths[path.name] = path
    path = out_dir / "known_at.stats.json"
    path.write_text(json.dumps(bench.stats, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    paths[path.name] = path
    return paths


# --- the run ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """One system on one date's questions, asked with known_at and without."""

    date: str
    system: str
    n: int
    changed: int                 # questions whose gold changed after this date
    tca_known_at: float
    tca_now: float
    tca_known_at_changed: float | None
    tca_now_changed: float | None
    anchor_recall_known_at: float | None
    anachronisms_known_at: int   # questions whose top k holds a document not recorded then
    anachronisms_now: int
    # strict TCA and no anachronism: the answer car-graph could have given then
    tca_then_known_at: float
    tca_then_now: float
    ci_known_at: tuple[float, float]
    ci_now: tuple[float, float]


@dataclass
class HistoryRun:
    steps: list[dict[str, Any]]
    scores: list[Scored]
    today: dict[str, float]
    k: int
    split: str
    seconds: float
    load: list[float]
    # one row per question, system and mode: what was retrieved and how it scored
    rows: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"k": self.k, "split": self.split, "steps": self.steps, "today": self.today,
                "scores": [s.__dict__ for s in self.scores], "seconds": round(self.seconds, 1),
                "load_average": self.load, "rows": self.rows}

    def table(self) -> str:
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.3f}"

        lines = [f"strict TCA@{self.k}, {self.split} split, gold as known at each date",
                 "| known at | system | n | gold changed later | TCA --known-at | TCA now | "
                 "changed: --known-at | changed: now | anachronisms --known-at / now | "
                 "TCA and no anachronism --known-at / now |",
                 "|---|---|---|---|---|---|---|---|---|---|"]
        for s in self.scores:
            lines.append(f"| {s.date} | {s.system} | {s.n} | {s.changed} | {pct(s.tca_known_at)} "
                         f"| {pct(s.tca_now)} | {pct(s.tca_known_at_changed)} | "
                         f"{pct(s.tca_now_changed)} | {s.anachronisms_known_at} / "
                         f"{s.anachronisms_now} | {pct(s.tca_then_known_at)} / "
                         f"{pct(s.tca_then_now)} |")
        lines.append("today (no --known-at, gold today): " + ", ".join(
            f"{name} {value:.3f}" for name, value in self.today.items()))
        for step in self.steps:
            lines.append(f"step {step['step']}: {step['documents']} records "
                         f"({step['updated']} updated) in {step['seconds']:.1f} s, "
                         f"recorded at {step['recorded_at']}")
        return "\n".join(lines)


def _load() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return -1.0


def run_history(
    client: CarClient, reset: Callable[[], None], bench: HistoryBenchmark, work_dir: Path, *,
    k: int = 5, split: str = "test", systems: Sequence[str] = SYSTEMS,
    say: Callable[[str], None] = lambda _: None,
) -> HistoryRun:
    """Wipe (``reset``), ingest the steps in order through ``client`` (a CarClient), then score
    each date's questions with their line's known_at (``run:k``: the state step k left) and
    without. ValueError if step k did not become run k (the question lines would then name
    other states)."""
    started = time.perf_counter()
    load = [_load()]
    paths = write_history(bench, work_dir)
    reset()
    instants: list[datetime] = []
    steps = []
    for number in range(1, len(bench.steps) + 1):
        summary = client.ingest_file(paths[f"step-{number}.jsonl"])
        if summary.run != number:
            raise ValueError(f"step {number} was recorded as run {summary.run}, not run {number}: "
                             "the question lines' run:k would name other states (was the "
                             "database wiped first?)")
        # the instant run k's last commit closed: what `--known-at run:k` reads
        pin = client.pin_known_at(RunRef(number))
        assert pin is not None  # a run reference always pins
        instants.append(pin.instant)
        steps.append({"step": number, "documents": summary.documents, "updated": summary.updated,
                      "unchanged": summary.unchanged, "skipped": len(summary.skipped),
                      "seconds": round(summary.seconds, 1),
                      "recorded_at": instants[-1].isoformat()})
        say(f"step {number}: {summary.documents} records ({summary.updated} updated) in "
            f"{summary.seconds:.1f} s")
        load.append(_load())
    retriever = client.retriever
    scores: list[Scored] = []
    detail: list[dict[str, Any]] = []
    for number, when in enumerate(bench.dates, start=1):
        rows = [r for r in bench.split(bench.questions, split) if r["step"] == number]
        if not rows:
            continue
        known = bench.known(number)
        graph = SupersessionGraph(Edge(n, o, None, p) for n, o, p in bench.links
                                  if n in known and o in known)
        retriever.prepare(r["question"] for r in rows)
        for system in systems:
            tally: dict[str, list[bool]] = defaultdict(list)
            recall: list[float] = []
            anachronisms = Counter[str]()
            for row in rows:
                gold = set(row["gold"])
                changed = bool(row["info"]["gold_changed_later"])
                pinned = client.pin_known_at(row["known_at"])  # run:k, as eval reads the line
                for mode, known_at in (("known_at", pinned.instant if pinned else None),
                                       ("now", None)):
                    ids, anchor_ids = retriever.search(system, row["question"], k, None,
                                                       "security", known_at)
                    ok = strict_tca(ids, k, gold, graph)
                    tally[mode].append(ok)
                    if changed:
                        tally[f"{mode}_changed"].append(ok)
                    anachronistic = any(d not in known for d in ids[:k])
                    anachronisms[mode] += anachronistic
                    tally[f"{mode}_then"].append(ok and not anachronistic)
                    detail.append({"id": row["id"], "system": system, "mode": mode,
                                   "tca": ok, "anachronistic": anachronistic,
                                   "gold": row["gold"], "retrieved": ids[:k]})
                    if mode == "known_at":
                        value = anchor_recall(anchor_ids, k, set(row["anchors"]))
                        if value is not None:
                            recall.append(value)

            def mean(values: list[bool]) -> float | None:
                return sum(values) / len(values) if values else None

            scores.append(Scored(
                when.isoformat(), system, len(rows), len(tally["known_at_changed"]),
                mean(tally["known_at"]) or 0.0, mean(tally["now"]) or 0.0,
                mean(tally["known_at_changed"]), mean(tally["now_changed"]),
                sum(recall) / len(recall) if recall else None,
                anachronisms["known_at"], anachronisms["now"],
                mean(tally["known_at_then"]) or 0.0, mean(tally["now_then"]) or 0.0,
                wilson_interval(sum(tally["known_at"]), len(rows)),
                wilson_interval(sum(tally["now"]), len(rows)),
            ))
            say(f"{when}: {system} strict TCA@{k} known-at {scores[-1].tca_known_at:.3f}, "
                f"now {scores[-1].tca_now:.3f} (n = {len(rows)})")
        load.append(_load())
    # control: the base questions today, as the security benchmark asks them
    base = bench.split(bench.today, split)
    today: dict[str, float] = {}
    if base:
        graph = SupersessionGraph(Edge(n, o, None, p) for n, o, p in bench.links)
        retriever.prepare(r["question"] for r in base)
        for system in systems:
            hits = [strict_tca(retriever.search(system, r["question"], k, None, "security")[0], k,
                               set(r["gold"]), graph) for r in base]
            today[system] = sum(hits) / len(hits)
    load.append(_load())
    return HistoryRun(steps, scores, today, k, split, time.perf_counter() - started, load, detail)


# --- command line --------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m car_graph_benchmarks.known_at",
        description="Write the known-at benchmark (ingest steps, questions, stats) from the "
                    "security corpus's own revision history.")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--raw", type=Path, default=None,
                        help=f"raw corpora folder (default: ${ENV_VAR}, else ../shared/data/raw)")
    parser.add_argument("--distractors", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    try:
        raw = require_corpora_dir(args.raw)
    except CorporaError as exc:
        parser.error(str(exc))
    bench = build_history(raw, n_distractors=args.distractors, seed=args.seed)
    paths = write_history(bench, args.out_dir)
    s = bench.stats
    print(f"{s['documents']} documents in steps {s['documents_per_step']}, {s['questions']} "
          f"questions {s['questions_by_split']}; gold changed between steps for "
          f"{s['base_questions_whose_gold_changed_between_steps']} of {s['base_questions']} "
          f"base questions -> {args.out_dir} ({len(paths)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
