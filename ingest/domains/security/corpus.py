"""Security corpus: advisories (OSV, RustSec, Node security-wg) and the releases that fix them.

Documents (domain ``security``)
-------------------------------
======================  ===========  ==========================================================
source file             kind         id
======================  ===========  ==========================================================
pypa_advisories         advisory     the OSV id (``PYSEC-2021-335``)
govulndb_osv            advisory     the OSV id (``GO-2022-0617``)
rustsec_advisories      advisory     the RustSec id (``RUSTSEC-2020-0105``)
nodejs_security_wg      advisory     ``NSWG-ECO-<n>`` (vuln/npm/<n>.json), ``NSWG-CORE-<n>``
                                     (vuln/core/<n>.json)
django_release_notes    release      ``django-release:<version as written>`` (``...:4.2.7``)
go_release_history      release      ``go-release:<version as written>`` (``go-release:go1.21.3``)
debian_changelogs       release      ``debian-changelog:<source>:<version>``
======================  ===========  ==========================================================

Scope: ``package`` keys are :func:`.ecosystems.package_key` (``pypi:django``, ``go:stdlib``,
``go:toolchain``, ``crates.io:abi_stable``, ``npm:bassmaster``, ``nodejs:node`` for Node.js
core, ``rust:std`` for the RustSec advisories against the Rust toolchain,
``debian:python-django``); PyPI names are PEP 503-normalised first. ``cve`` keys are the CVE ids
named by the document (advisory aliases; CVEs a release says it fixes).

Versions are written canonical (:mod:`car_graph.versions`), so the rules compare strings:

* advisories: ``fixed_versions`` (canonical, all affected packages) and
  ``fixed_package_versions`` (``"<package key>@<canonical version>"``);
* releases: ``version`` (canonical), ``version_label`` (as written) and ``package_versions``
  (``"<package key>@<version>"`` for each package the release ships: a Go release ships both
  ``go:stdlib`` and ``go:toolchain``, the two package names the Go vulnerability database uses).

Rules (``rules.yaml`` beside this module) key on ``fixed_package_versions`` rather than the bare
``fixed_versions``, so an advisory covering two packages can never be "fixed" by a release of
one of them that happens to carry the other's fixed version number. See that file for the
``cve`` rule and why it also requires a shared package (``fixes_packages``).

Dates: OSV ``published``; the Go database writes the placeholder ``0001-01-01`` for most entries,
so a Go advisory falls back to ``_report_published`` (set for 252 reports) and then to
``_report_first_committed`` -- the commit that added the report, a proxy that can lag the real
publication by years (bulk imports). The attribute ``published_source`` says which was used.
RustSec: ``date``; Node npm: ``publish_date`` (else ``created_at``); Node core entries have none.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.security.advisories import nodejs_record, rustsec_record
from car_graph.ingest.domains.security.common import Collector, json_lines
from car_graph.ingest.domains.security.osv import osv_to_record
from car_graph.ingest.domains.security.releases import debian_record, django_record, go_record
from car_graph.records import DocumentRecord, report_problem
from car_graph.rules import Rule
from car_graph.semantics import rule_edges

FILES = {
    "pypa": "pypa_advisories.jsonl",
    "govulndb": "govulndb_osv.jsonl",
    "rustsec": "rustsec_advisories.jsonl",
    "nodejs": "nodejs_security_wg_vulns.jsonl",
    "django": "django_release_notes.jsonl",
    "go_releases": "go_release_history.jsonl",
    "debian": "debian_changelogs.jsonl",
}


# --- loading -------------------------------------------------------------------------------------


def _read(
    path: Path,
    convert: Any,
    problems: list[InputProblem] | None,
    collector: Collector,
    seen: set[str],
) -> list[DocumentRecord]:
    records = []
    for number, obj in json_lines(path, problems):
        try:
            record = convert(obj, path.name, number, collector)
        except ValueError as e:
            report_problem(problems, str(path), number, str(e))
            continue
        if record.id in seen:
            report_problem(problems, str(path), number, f"duplicate document id {record.id!r}")
            continue
        seen.add(record.id)
        records.append(record)
    return records


def _osv_convert(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
    return osv_to_record(obj, source, line, collector)


CONVERTERS = {
    "pypa": _osv_convert,
    "govulndb": _osv_convert,
    "rustsec": rustsec_record,
    "nodejs": nodejs_record,
    "django": django_record,
    "go_releases": go_record,
    "debian": debian_record,
}

#: version strings that could not be canonicalised in the last load (doc id, value, reason)
LAST_VERSION_WARNINGS: list[tuple[str, str, str]] = []


def load_security(
    raw_dir: Path, problems: list[InputProblem], sources: Iterable[str] | None = None
) -> list[DocumentRecord]:
    """Every security document under ``raw_dir`` (the files of FILES that exist).

    Malformed lines go to ``problems`` and are skipped. Fixed versions that no library can parse
    are left out of ``fixed_versions`` and listed in :data:`LAST_VERSION_WARNINGS`.
    """
    raw_dir = Path(raw_dir)
    collector = Collector()
    seen: set[str] = set()
    records: list[DocumentRecord] = []
    for name in sources or FILES:
        path = raw_dir / FILES[name]
        if path.exists():
            records.extend(_read(path, CONVERTERS[name], problems, collector, seen))
    LAST_VERSION_WARNINGS[:] = collector.version_warnings
    return records


# --- rules mirror and statistics -----------------------------------------------------------------


def security_stats(records: list[DocumentRecord], rules: list[Rule]) -> dict[str, Any]:
    """Counts per source and kind, and how many advisories a release controls (per rule)."""
    started = time.perf_counter()
    by_source = Counter((r.attributes.get("source"), r.kind) for r in records)
    edges = [(e.newer, e.older, e.rule) for e in rule_edges(rules, records)]
    controlled: dict[str, set[str]] = defaultdict(set)
    for _, older, rule in edges:
        controlled[rule].add(older)
    any_controlled = set().union(*controlled.values()) if controlled else set()
    advisories = [r for r in records if r.kind == "advisory"]
    per_source: dict[str, dict[str, int]] = {}
    for r in advisories:
        row = per_source.setdefault(
            r.attributes.get("source", ""), {"advisories": 0, "controlled": 0}
        )
        row["advisories"] += 1
        row["controlled"] += r.id in any_controlled
    return {
        "documents": len(records),
        "by_source_kind": {f"{s}/{k}": n for (s, k), n in sorted(by_source.items())},
        "edges_per_rule": dict(Counter(rule for _, _, rule in edges)),
        "advisories_controlled_per_rule": {k: len(v) for k, v in controlled.items()},
        "advisories": len(advisories),
        "advisories_with_controlling_release": len(any_controlled),
        "per_source": per_source,
        "withdrawn_advisories": sum(1 for r in advisories if r.attributes.get("withdrawn")),
        "advisories_without_date": sum(1 for r in advisories if r.published is None),
        "published_source": dict(Counter(r.attributes.get("published_source") for r in advisories)),
        "unparsable_versions": len(LAST_VERSION_WARNINGS),
        "stats_seconds": round(time.perf_counter() - started, 2),
    }


__all__ = ["CONVERTERS", "FILES", "LAST_VERSION_WARNINGS", "load_security", "security_stats"]
