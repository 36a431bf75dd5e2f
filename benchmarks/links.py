"""The sources' own supersession links, read from the raw files without the rules.

Gold for the real-corpus benchmarks must not come from the code under test. The graph is built
by the rules of ``ingest/domains/*/rules.yaml`` over attributes the adapters derive; this module reads the
raw files' own fields instead (``shared/data/raw/*/SOURCE.md`` documents the join keys) and says
which document supersedes which according to the sources themselves:

security (``osv_fixed``, ``osv_alias``)
    An OSV advisory's ``affected[].ranges[].events[].fixed`` version of a package names the release
    that fixes it: Django release notes by version (PEP 440 equality, so "4.2" is "4.2.0"), Go
    releases as ``"go" + fixed`` for the ``stdlib`` / ``toolchain`` packages (before Go 1.21 a
    major release is named ``go1.N``, not ``go1.N.0``), and a Debian changelog entry of that
    source package and version when an advisory's ecosystem is Debian. A CVE in an advisory's
    ``aliases`` (or its id) names the release whose own CVE list (Django release notes
    ``cve_ids``, Debian changelog ``cve_ids``) contains it, but only for the same upstream
    package: the Debian sources are mapped to their PyPI projects by :data:`DEBIAN_UPSTREAM`, the
    table of SOURCE.md. A fixed version that names no release in the files is counted, not linked.
law (``conan``)
    Each pair of the CONAN table (``conan_overruled_pairs.jsonl``): overruling -> overruled, partial
    when the table says "in part". Citations are parsed here from the ``*_raw`` fields.
drug (``withdrawal_unii``, ``withdrawal_name``, ``recall_application``)
    A withdrawn-table row supersedes the NME approval with the same UNII or the same generic name
    (case and white space folded), unless the sources' own years say the withdrawal came before
    the US approval (a drug withdrawn in 1990 cannot void an approval of 1995; counted, not
    linked); rows of 21 CFR 216.24 are undated US withdrawals and always link. An openFDA recall
    supersedes the approval whose NDA/BLA number is in its ``openfda.application_number``; it is
    partial unless it recalls every lot (``ingest.drug.recall_is_partial`` on the raw record: the
    one adapter function used here, because the sources carry no lot flag of their own).

Document ids are the adapters' ids, built from the same raw fields (OSV id,
``django-release:<version>``, ``go-release:<version>``, ``debian-changelog:<source>:<version>``,
``scotus:<vol>-us-<page>``, ``recall:<number>``); approvals and withdrawals are named through the
adapter records' ``(source, source_line)``, since their ids carry de-duplication suffixes.

:func:`rule_precision_recall` compares the edges each rule produced (read back from Neo4j, see
:func:`graph_rule_edges`) with these links.
"""

from __future__ import annotations

import argparse
import csv
import email.utils
import io
import json
import re
import sys
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from car_graph.ingest.domains.drug.openfda import yyyymmdd
from car_graph.metrics import Edge
from car_graph_benchmarks.corpora import CorporaError, require_corpora_dir

if TYPE_CHECKING:
    from car_graph.client import CarClient
    from car_graph.records import DocumentRecord
    from car_graph.rules import Rule
    from car_graph.store import GraphStore

__all__ = [
    "DEBIAN_UPSTREAM",
    "LinkSet",
    "RuleEdge",
    "RulePrecisionRecall",
    "SourceLink",
    "drug_links",
    "gold_edges",
    "graph_rule_edges",
    "law_links",
    "link_pairs",
    "rule_precision_recall",
    "security_links",
    "source_links",
]

EXAMPLES = 5
EXPLICIT = "explicit"

# Debian source package -> the PyPI project it packages (SOURCE.md's list of Debian 12 packages).
DEBIAN_UPSTREAM: Mapping[str, str] = {
    "python-django": "django",
    "pillow": "pillow",
    "python-urllib3": "urllib3",
    "jinja2": "jinja2",
    "python-werkzeug": "werkzeug",
    "python-cryptography": "cryptography",
    "lxml": "lxml",
    "pyyaml": "pyyaml",
    "requests": "requests",
}

_CVE = re.compile(r"^CVE-\d{4}-\d{4,}$", re.IGNORECASE)


@dataclass(frozen=True)
class SourceLink:
    """``newer`` supersedes ``older`` according to a source (not a rule)."""

    newer: str
    older: str
    source: str  # osv_fixed | osv_alias | conan | withdrawal_unii | withdrawal_name | recall_...
    evidence: str
    partial: bool = False
    effective: date | None = None


@dataclass(frozen=True)
class LinkSet:
    """A domain's source links and what the join left out (reason -> count, with examples)."""

    domain: str
    links: tuple[SourceLink, ...]
    unlinked: Mapping[str, int] = field(default_factory=dict)
    unlinked_examples: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def pairs(self) -> set[tuple[str, str]]:
        return link_pairs(self.links)


class _Unlinked:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)

    def add(self, reason: str, example: str) -> None:
        self.counts[reason] += 1
        if len(self.examples[reason]) < EXAMPLES:
            self.examples[reason].append(example)

    def link_set(self, domain: str, links: Iterable[SourceLink]) -> LinkSet:
        unique = sorted(set(links), key=lambda x: (x.newer, x.older, x.source, x.evidence))
        return LinkSet(domain, tuple(unique), dict(sorted(self.counts.items())),
                       {k: tuple(v) for k, v in sorted(self.examples.items())})


def link_pairs(links: Iterable[SourceLink]) -> set[tuple[str, str]]:
    return {(x.newer, x.older) for x in links}


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, object) for each JSON object line; other lines are the adapters' problem."""
    if not path.exists():
        return
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict):
                yield number, obj


# --- security ------------------------------------------------------------------------------------


def _pep440(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _go_release_names(fixed: str) -> list[str]:
    """Go's own names for a fixed version: go1.21.3; go1.20 for 1.20.0 (majors before 1.21)."""
    names = [f"go{fixed}"]
    match = re.fullmatch(r"1\.(\d+)\.0", fixed)
    if match and int(match.group(1)) < 21:
        names.append(f"go1.{match.group(1)}")
    return names


def _cves(values: Iterable[Any]) -> set[str]:
    return {v.strip().upper() for v in values if isinstance(v, str) and _CVE.match(v.strip())}


def _date_prefix(value: Any) -> date | None:
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value) and \
            not value.startswith("0001-01-01"):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def _release_date(value: Any, pattern: str | None) -> date | None:
    """A release's date: ``pattern`` for strptime, None for RFC 2822 (Debian changelogs)."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        if pattern is None:
            return email.utils.parsedate_to_datetime(value).date()
        return datetime.strptime(value.strip(), pattern).date()
    except (TypeError, ValueError):
        return None


def security_links(raw_dir: Path) -> LinkSet:
    """``osv_fixed`` and ``osv_alias`` links from the raw security files (see module doc)."""
    raw_dir = Path(raw_dir)
    unlinked = _Unlinked()

    django: dict[Version, list[str]] = defaultdict(list)  # version -> release ids
    django_cves: dict[str, list[str]] = defaultdict(list)  # CVE -> release ids
    released: dict[str, date | None] = {}
    for _, obj in _jsonl(raw_dir / "django_release_notes.jsonl"):
        label = obj.get("version")
        version = _pep440(label) if isinstance(label, str) else None
        if version is None:
            continue  # security.txt, porting guides: not the notes of one release
        doc = f"django-release:{label}"
        django[version].append(doc)
        released[doc] = _release_date(obj.get("release_date"), "%B %d, %Y")
        for cve in _cves(obj.get("cve_ids") or []):
            django_cves[cve].append(doc)
    go: set[str] = set()
    for _, obj in _jsonl(raw_dir / "go_release_history.jsonl"):
        if isinstance(obj.get("version"), str):
            go.add(obj["version"])
            released[f"go-release:{obj['version']}"] = _date_prefix(obj.get("date"))
    debian: set[tuple[str, str]] = set()
    debian_cves: dict[str, list[tuple[str, str]]] = defaultdict(list)  # CVE -> (doc, upstream)
    for _, obj in _jsonl(raw_dir / "debian_changelogs.jsonl"):
        src, version = obj.get("source"), obj.get("version")
        if not isinstance(src, str) or not isinstance(version, str):
            continue
        doc = f"debian-changelog:{src}:{version}"
        debian.add((src, version))
        released[doc] = _release_date(obj.get("date"), None)
        upstream = DEBIAN_UPSTREAM.get(src)
        for cve in _cves(obj.get("cve_ids") or []):
            if upstream is None:
                unlinked.add("osv_alias: Debian source without a known upstream", f"{doc} {cve}")
            else:
                debian_cves[cve].append((doc, upstream))

    links: list[SourceLink] = []
    for name in ("pypa_advisories.jsonl", "govulndb_osv.jsonl"):
        for line, obj in _jsonl(raw_dir / name):
            osv_id = obj.get("id")
            if not isinstance(osv_id, str) or not osv_id.strip():
                continue
            osv_id = osv_id.strip()
            where = f"{name}:{line}"
            pypi: set[str] = set()
            for entry in obj.get("affected") or []:
                package = (entry or {}).get("package") or {}
                eco, pkg = package.get("ecosystem"), package.get("name")
                if not isinstance(eco, str) or not isinstance(pkg, str):
                    continue
                if eco == "PyPI":
                    pypi.add(canonicalize_name(pkg))
                for rng in entry.get("ranges") or []:
                    if rng.get("type") not in ("ECOSYSTEM", "SEMVER"):
                        continue  # GIT ranges name commits
                    for event in rng.get("events") or []:
                        fixed = event.get("fixed")
                        if not isinstance(fixed, str) or not fixed:
                            continue
                        evidence = (f"{where} {osv_id} affected {eco}/{pkg} fixed {fixed}")
                        targets: list[str] | None = None
                        if eco == "PyPI" and canonicalize_name(pkg) == "django":
                            version = _pep440(fixed)
                            targets = django.get(version, []) if version else []
                        elif eco == "Go" and pkg in ("stdlib", "toolchain"):
                            targets = [f"go-release:{n}" for n in _go_release_names(fixed)
                                       if n in go]
                        elif eco.startswith("Debian"):
                            targets = ([f"debian-changelog:{pkg}:{fixed}"]
                                       if (pkg, fixed) in debian else [])
                        if targets is None:
                            continue  # no release documents of this package in the sources
                        if not targets:
                            unlinked.add("osv_fixed: no release of that version",
                                         f"{osv_id} {eco}/{pkg} {fixed}")
                        for doc in targets:
                            links.append(SourceLink(doc, osv_id, "osv_fixed", evidence,
                                                    effective=released.get(doc)))
            cves = _cves([osv_id, *(obj.get("aliases") or [])])
            for cve in sorted(cves):
                evidence = f"{where} {osv_id} alias {cve}"
                if "django" in pypi:
                    for doc in django_cves.get(cve, []):
                        links.append(SourceLink(doc, osv_id, "osv_alias",
                                                f"{evidence}; {doc} cve_ids names {cve}",
                                                effective=released.get(doc)))
                for doc, upstream in debian_cves.get(cve, []):
                    if upstream in pypi:
                        links.append(SourceLink(doc, osv_id, "osv_alias",
                                                f"{evidence}; {doc} cve_ids names {cve}",
                                                effective=released.get(doc)))
                    else:
                        unlinked.add("osv_alias: same CVE, different package",
                                     f"{doc} / {osv_id} ({cve})")
    return unlinked.link_set("security", links)


# --- law -----------------------------------------------------------------------------------------

_US_CITE = re.compile(
    r"(?P<vol>\d+)\s+U\.\s?S\.\s+(?:\(\d+\s+[A-Za-z.]+\)\s+)?(?P<page>\d+)"
)
_DOCKET_CITE = re.compile(r"No\.\s+(?P<docket>\d+-\d+)\s+\(U\.S\.")


def _scotus_id(raw: str) -> str | None:
    us = _US_CITE.search(raw)
    if us:
        return f"scotus:{us.group('vol')}-us-{us.group('page')}"
    docket = _DOCKET_CITE.search(raw)
    return f"scotus:no-{docket.group('docket')}" if docket else None


def law_links(raw_dir: Path) -> LinkSet:
    """``conan`` links: one per (overruling, overruled) pair of the CONAN table."""
    unlinked = _Unlinked()
    links: list[SourceLink] = []
    path = Path(raw_dir) / "conan_overruled_pairs.jsonl"
    for line, pair in _jsonl(path):
        newer_raw, older_raw = pair.get("overruling_raw"), pair.get("overruled_raw")
        if not isinstance(newer_raw, str) or not isinstance(older_raw, str):
            unlinked.add("conan: row without raw citations", f"line {line}")
            continue
        newer, older = _scotus_id(newer_raw), _scotus_id(older_raw)
        if newer is None or older is None or newer == older:
            unlinked.add("conan: no citation (or self-overruling)", f"line {line}")
            continue
        note = " ".join(str(pair.get(k) or "") for k in ("overruled_note",))
        partial = bool(re.search(r"\bin part\b", f"{note} {older_raw}", re.IGNORECASE))
        year = pair.get("overruling_year")
        effective = date(year, 1, 1) if isinstance(year, int) else None
        links.append(SourceLink(
            newer, older, "conan",
            f"{path.name}:{line} row {pair.get('order')}: {newer_raw.strip()} overruled "
            f"{older_raw.strip()}", partial, effective))
    return unlinked.link_set("law", links)


# --- drug ----------------------------------------------------------------------------------------

NME_FILE = "fda_nmes_1827-2016_ncats.tsv"
WITHDRAWN_FILE = "withdrawn_drugs_ncats.tsv"
ENFORCEMENT_FILES = ("openfda_drug_enforcement_2023-08-05.json.zip",
                     "openfda_drug_enforcement_sample.json")


def _fold(text: Any) -> str:
    return " ".join(str(text or "").replace("\xa0", " ").split()).casefold()


def _tsv(path: Path, encoding: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(row number as the adapters count it: header = 1, then data rows, dict)."""
    rows = list(csv.reader(io.StringIO(path.read_bytes().decode(encoding), newline=""),
                           delimiter="\t"))
    if not rows:
        return
    header = rows[0]
    for number, row in enumerate(rows[1:], start=2):
        if len(row) == len(header):
            yield number, dict(zip(header, row, strict=True))


def _application(app_type: str, number: str) -> str | None:
    """('NDA', '22-250') / 'NDA022250' -> ('NDA', 22250) spelt 'NDA22250'; None if unusable."""
    text = " ".join(str(number).split()).upper()
    match = re.fullmatch(r"(NDA|ANDA|BLA)\s*0*(\d{1,6})", text.replace("-", ""))
    if match:
        return f"{match.group(1)}{int(match.group(2))}"
    digits = re.sub(r"\D", "", text)
    kind = " ".join(str(app_type).split()).upper()
    if not digits or len(digits) > 6 or kind not in ("NDA", "BLA"):
        return None
    return f"{kind}{int(digits)}"


def _enforcement(raw_dir: Path) -> list[Any]:
    for name in ENFORCEMENT_FILES:
        path = raw_dir / name
        if not path.exists():
            continue
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                inner = next(n for n in archive.namelist() if n.endswith(".json"))
                with archive.open(inner) as handle:
                    data = json.load(handle)
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
        results = data.get("results") if isinstance(data, dict) else data
        return list(results or [])
    return []


def drug_links(raw_dir: Path, records: Iterable[DocumentRecord]) -> LinkSet:
    """Withdrawal and recall links; ``records`` (the adapter's) only name approvals and
    withdrawals by their ``(source, source_line)``."""
    from car_graph.ingest.domains.drug.openfda import recall_is_partial

    raw_dir = Path(raw_dir)
    names = {(r.attributes.get("source"), r.attributes.get("source_line")): r.id
             for r in records if r.kind in ("approval", "withdrawal")}
    unlinked = _Unlinked()
    by_unii: dict[str, list[tuple[str, int]]] = defaultdict(list)
    by_name: dict[str, list[tuple[str, int]]] = defaultdict(list)
    by_application: dict[str, list[str]] = defaultdict(list)
    if (raw_dir / NME_FILE).exists():
        for number, row in _tsv(raw_dir / NME_FILE, "mac_roman"):
            doc = names.get((NME_FILE, number))
            year = re.sub(r"\D", "", row.get("Year", ""))
            if doc is None or not year:
                continue
            unii = _fold(row.get("UNII")).upper()
            generic = _fold(row.get("Generic Name")) or _fold(row.get("Trademark"))
            if unii:
                by_unii[unii].append((doc, int(year)))
            if generic:
                by_name[generic].append((doc, int(year)))
            application = _application(row.get("App Type", ""), row.get("NDA/BLA No.", ""))
            if application:
                by_application[application].append(doc)

    links: list[SourceLink] = []
    if (raw_dir / WITHDRAWN_FILE).exists():
        for number, row in _tsv(raw_dir / WITHDRAWN_FILE, "utf-8"):
            doc = names.get((WITHDRAWN_FILE, number))
            if doc is None:
                continue
            cfr = "216.24" in (row.get("source") or "")
            year_text = (row.get("year_withdrawn") or "").strip()
            year = int(year_text) if re.fullmatch(r"\d{4}", year_text) else None
            markets = (row.get("country_withdrawn") or "").replace("|", ", ") or "?"
            evidence = (f"{WITHDRAWN_FILE} row {number}: {row.get('generic_name')} withdrawn "
                        f"({markets}{', ' + year_text if year_text else ''}"
                        f"{', 21 CFR 216.24' if cfr else ''})")
            unii = _fold(row.get("unii")).upper()
            matches = [("withdrawal_unii", a) for a in by_unii.get(unii, [])] if unii else []
            matches += [("withdrawal_name", a)
                        for a in by_name.get(_fold(row.get("generic_name")), [])]
            for source, (approval, approved) in matches:
                if year is not None and year < approved and not cfr:
                    unlinked.add(f"{source}: withdrawn before the US approval",
                                 f"{doc} ({year}) / {approval} ({approved})")
                    continue
                links.append(SourceLink(
                    doc, approval, source, f"{evidence}; approval {approval} ({approved})",
                    effective=date(year, 1, 1) if year else None))
            if not matches:
                unlinked.add("withdrawal: no NME approval with that UNII or name", doc)
    for result in _enforcement(raw_dir):
        if not isinstance(result, dict) or not result.get("recall_number"):
            continue
        recall = f"recall:{' '.join(str(result['recall_number']).split())}"
        openfda = result.get("openfda") if isinstance(result.get("openfda"), dict) else {}
        for number in openfda.get("application_number") or []:
            application = _application("", number)
            approvals = by_application.get(application or "", [])
            if not approvals:
                unlinked.add("recall_application: not an NME NDA/BLA", f"{recall} {number}")
            for approval in approvals:
                links.append(SourceLink(
                    recall, approval, "recall_application",
                    f"openFDA {recall} openfda.application_number {number} = {approval}",
                    partial=recall_is_partial(result),
                    effective=yyyymmdd(result.get("report_date"))))
    return unlinked.link_set("drug", links)


def source_links(
    domain: str, raw_dir: Path, records: Iterable[DocumentRecord] | None = None
) -> LinkSet:
    """The domain's source links; ``raw_dir`` holds ``<domain>/`` or is the domain folder."""
    raw_dir = Path(raw_dir)
    if (raw_dir / domain).is_dir():
        raw_dir = raw_dir / domain
    if domain == "security":
        return security_links(raw_dir)
    if domain == "law":
        return law_links(raw_dir)
    if domain == "drug":
        if records is None:
            from car_graph.ingest.domains.drug.corpus import load_drug

            records = load_drug(raw_dir, [])
        return drug_links(raw_dir, records)
    raise ValueError(f"unknown domain {domain!r}; expected security, law or drug")


def gold_edges(
    links: Iterable[SourceLink], records: Iterable[DocumentRecord]
) -> list[Edge]:
    """The gold relation: source links between loaded documents plus the records' explicit
    ``supersedes`` edges. One edge per pair, full if any link or reference says full."""
    records = list(records)
    ids = {r.id for r in records}
    found: dict[tuple[str, str], Edge] = {}

    def add(edge: Edge) -> None:
        old = found.get((edge.newer, edge.older))
        if old is None or (old.partial and not edge.partial):
            found[(edge.newer, edge.older)] = edge

    for link in links:
        if link.newer in ids and link.older in ids:
            add(Edge(link.newer, link.older, link.effective, link.partial))
    for r in records:
        for ref in r.supersedes:
            add(Edge(r.id, ref.id, ref.effective or r.published, ref.partial))
    return [found[k] for k in sorted(found)]


# --- rule precision and recall -------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEdge:
    """A SUPERSEDES edge as the system built it, with the rule that made it."""

    newer: str
    older: str
    rule: str
    partial: bool = False


@dataclass(frozen=True)
class RulePrecisionRecall:
    """One rule's edges against the source links it is meant to reproduce.

    ``relevant`` is the set of source links of the same (newer kind, older kind) as the rule's
    edges -- the links this rule could produce; ``true_positives`` the rule's edges that are links.
    """

    domain: str
    rule: str
    edges: int
    relevant: int
    true_positives: int
    false_positives: tuple[tuple[str, str], ...]
    false_negatives: tuple[tuple[str, str], ...]
    partial_disagreements: int = 0
    # (link source, links of that source this rule produced, links of that source)
    recall_by_source: tuple[tuple[str, int, int], ...] = ()

    @property
    def precision(self) -> float | None:
        return self.true_positives / self.edges if self.edges else None

    @property
    def recall(self) -> float | None:
        return self.true_positives / self.relevant if self.relevant else None


def _kind(doc_id: str) -> str:
    """The document kind an id names (the adapters' id prefixes)."""
    head = doc_id.split(":", 1)[0]
    return {"django-release": "release", "go-release": "release",
            "debian-changelog": "release", "fda-approval": "approval"}.get(
        head, head if ":" in doc_id else "advisory")


def rule_precision_recall(
    domain: str,
    rule_edges: Iterable[RuleEdge],
    links: Iterable[SourceLink],
    documents: Iterable[str] | None = None,
    rules: Sequence[str] = (),
    kind_of: Callable[[str], str] | None = None,
) -> list[RulePrecisionRecall]:
    """Per rule (and for all rules together, ``"all rules"``): precision and recall of its edges
    against the source links.

    ``rule_edges`` are each rule's own edges (:func:`rule_edges_by_rule`). A rule's recall
    is the share of the links of its (newer kind, older kind) that it alone produces (so the
    withdrawal rules are not charged with missing recalls, but each withdrawal rule is with the
    links only its sibling rules make); "all rules" is over every link, from the union.
    ``documents`` limits links to those between these ids (a benchmark corpus); ``rules`` lists
    rule names to report even when they made no edge; ``kind_of`` maps a document id to its kind
    (default: the real adapters' id prefixes). Explicit ``supersedes`` edges (rule
    ``explicit``: the law adapter writes the CONAN rows as such) get their own row and are not
    part of "all rules"; a rule edge counts once per pair even when it matched several keys.
    """
    rule_edges = list(rule_edges)
    kind = kind_of or _kind
    wanted = set(documents) if documents is not None else None
    link_map: dict[tuple[str, str], list[SourceLink]] = defaultdict(list)
    for x in links:
        if wanted is None or (x.newer in wanted and x.older in wanted):
            link_map[(x.newer, x.older)].append(x)
    by_rule: dict[str, dict[tuple[str, str], bool]] = defaultdict(dict)
    for e in rule_edges:
        by_rule[e.rule][(e.newer, e.older)] = e.partial
    for name in rules:
        by_rule.setdefault(name, {})

    def measure(name: str, edges: Mapping[tuple[str, str], bool],
                relevant: set[tuple[str, str]]) -> RulePrecisionRecall:
        by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for pair in relevant:
            for source in {x.source for x in link_map[pair]}:
                by_source[source][0] += pair in edges
                by_source[source][1] += 1
        tp = [p for p in edges if p in link_map]
        partial = sum(1 for p in tp if edges[p] != all(x.partial for x in link_map[p]))
        return RulePrecisionRecall(
            domain, name, len(edges), len(relevant), len(tp),
            tuple(sorted(p for p in edges if p not in link_map)),
            tuple(sorted(relevant - set(edges))), partial,
            tuple(sorted((s, c, n) for s, (c, n) in by_source.items())))

    out = []
    all_edges: dict[tuple[str, str], bool] = {}
    for name in sorted(by_rule):
        edges = by_rule[name]
        kinds = {(kind(n), kind(o)) for n, o in edges} or _rule_kinds(domain, name)
        relevant = {p for p in link_map if (kind(p[0]), kind(p[1])) in kinds}
        out.append(measure(name, edges, relevant))
        if name == EXPLICIT:
            continue
        for p, partial in edges.items():
            all_edges[p] = all_edges.get(p, True) and partial
    if set(by_rule) - {EXPLICIT}:  # a domain without rules (law) has no "all rules" row
        out.append(measure("all rules", all_edges, set(link_map)))
    return out


def _rule_kinds(domain: str, name: str) -> set[tuple[str, str]]:
    """(newer kind, older kind) pairs of a bundled rule, for a rule that made no edge; none for a
    domain without bundled rules (a user's rules file: its edge-less rules get no links)."""
    from car_graph.errors import RulesError
    from car_graph.rules import bundled_rules

    try:
        bundled = bundled_rules(domain)
    except RulesError:
        return set()
    for rule in bundled:
        if rule.name == name:
            return {(n, o) for n in rule.newer_kinds for o in rule.older_kinds}
    return set()


def graph_rule_edges(store: GraphStore, domain: str | None = None) -> list[RuleEdge]:
    """Every SUPERSEDES edge in the graph with the rule that made it (queries/rule_edges.cypher)."""
    return [RuleEdge(r["newer"], r["older"], r["rule"] or EXPLICIT, bool(r["partial"]))
            for r in store.read("rule_edges", domain=domain)]


def rule_edges_by_rule(
    store: GraphStore, rules: Sequence[Rule], domain: str | None = None
) -> list[RuleEdge]:
    """Each rule's own edges in the ingested graph, plus the explicit edges. The graph holds one
    SUPERSEDES edge per (newer, older, rule), so every rule's reach is read off directly."""
    names = {EXPLICIT, *(r.name for r in rules)}
    return [e for e in graph_rule_edges(store, domain) if e.rule in names]


def measure_rules(
    client: CarClient, domain: str, raw_dir: Path, records: Sequence[DocumentRecord],
    *, ingest: bool = True,
) -> list[RulePrecisionRecall]:
    """Ingest ``records`` with the domain's bundled rules into ``client``'s (empty) database
    (unless ``ingest`` is False: they are in it already), read each rule's edges back and
    compare them with the source links between these records."""
    from car_graph.rules import bundled_rules

    rules = list(bundled_rules(domain))
    if ingest:
        client.ingest(records, rules)
    links = source_links(domain, raw_dir, records)
    return rule_precision_recall(domain, rule_edges_by_rule(client.store, rules, domain),
                                 links.links, {r.id for r in records}, [r.name for r in rules])


def render_precision_recall(rows: Sequence[RulePrecisionRecall], examples: int = 3) -> list[str]:
    """Markdown lines: one table row per rule, then its false positives and negatives."""
    def num(x: float | None) -> str:
        return "–" if x is None else f"{x:.3f}"

    out = ["| domain | rule | edges | source links | true positives | precision | recall | "
           "partial flag differs |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r.domain} | {r.rule} | {r.edges} | {r.relevant} | {r.true_positives} | "
                   f"{num(r.precision)} | {num(r.recall)} | {r.partial_disagreements} |")
    out.append("")
    for r in rows:
        if r.rule == "all rules" and r.recall_by_source:
            out.append(f"* {r.domain}: links produced by some rule, by source: " + ", ".join(
                f"{s} {c}/{n}" for s, c, n in r.recall_by_source))
    for r in rows:
        for label, pairs, total in (("false positives", r.false_positives, r.edges),
                                    ("false negatives", r.false_negatives, r.relevant)):
            if pairs:
                shown = "; ".join(f"`{n}` ⇝ `{o}`" for n, o in pairs[:examples])
                out.append(f"* {r.domain} / {r.rule}: {len(pairs)} {label} of {total}, "
                           f"e.g. {shown}")
    return out


# --- command line --------------------------------------------------------------------------------


class _UnitEmbedder:
    """A constant unit vector: rules do not read embeddings, so measuring them needs none."""

    model_name = "constant unit vector (rules only)"

    def __init__(self, dimensions: int = 384) -> None:
        self._dimensions = dimensions

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * (self._dimensions - 1) for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Ingest each domain in full into a loopback Neo4j (wiped first), measure its rules."""
    parser = argparse.ArgumentParser(
        prog="python -m car_graph_benchmarks.links",
        description="Rule precision and recall against the sources' own links (wipes the DB).",
    )
    parser.add_argument("--raw", type=Path, default=None,
                        help="raw corpora folder (default: $CAR_GRAPH_CORPORA, else "
                             "../shared/data/raw beside the checkout)")
    parser.add_argument("--domains", default="security,law,drug")
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    parser.add_argument("--real-embeddings", action="store_true",
                        help="embed with the configured model (slow; rules do not use vectors)")
    args = parser.parse_args(argv)
    try:
        args.raw = require_corpora_dir(args.raw)
    except CorporaError as exc:
        parser.error(str(exc))

    from car_graph import connection, schema
    from car_graph.client import CarClient
    from car_graph.settings import Settings
    from car_graph.target import resolve_target
    from car_graph_benchmarks.questions import load_domain

    settings = Settings.from_env()
    target = resolve_target(settings)
    connection.ensure_local_target(target.uri, action="measure rules (it wipes the database) on")
    embedder = None if args.real_embeddings else _UnitEmbedder()
    rows: list[RulePrecisionRecall] = []
    with connection.open_driver(target) as driver, CarClient(
        driver, settings.database, embedder=embedder, embedding_model=settings.embedding_model
    ) as client:
        for domain in [d for d in args.domains.split(",") if d]:
            schema.reset(driver, settings.database, target.uri)
            records = load_domain(domain, args.raw, [])
            found = measure_rules(client, domain, args.raw, records)
            rows.extend(found)
            print(f"{domain}: {len(records)} documents; "
                  + ", ".join(f"{r.rule} P={r.precision} R={r.recall}" for r in found),
                  file=sys.stderr)
    text = "\n".join(render_precision_recall(rows)) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
