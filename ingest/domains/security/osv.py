"""OSV advisories (the PyPA and Go vulnerability databases, and ``car-graph ingest --format osv``):
one OSV entry -> one ``advisory`` record."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.security.common import (
    ADVISORY_TEXT_LIMIT,
    NAME,
    OSV_PLACEHOLDER_DATE,
    Collector,
    cve_ids,
    day,
    first_sentence,
    scope_of,
    trim,
)
from car_graph.ingest.domains.security.ecosystems import pkg_key
from car_graph.records import DocumentRecord, report_problem
from car_graph.versions import UnknownSchemeError, scheme_for


def _osv_range_summary(package: str, events: list[Mapping[str, str]]) -> str:
    parts, lower = [], None
    for event in events:
        if "introduced" in event:
            lower = event["introduced"]
        elif "fixed" in event or "last_affected" in event:
            upper = f"<{event['fixed']}" if "fixed" in event else f"<={event['last_affected']}"
            parts.append(f">={lower} {upper}" if lower not in (None, "0") else upper)
            lower = None
        elif "limit" in event:
            continue
    if lower is not None:
        parts.append(f">={lower}" if lower != "0" else "all versions")
    return f"{package} " + " || ".join(parts) if parts else package


def osv_to_record(
    obj: Any, source: str, line: int = 0, collector: Collector | None = None
) -> DocumentRecord:
    """One OSV entry -> an ``advisory`` record; ValueError says why an entry is unusable."""
    collector = collector or Collector()
    if not isinstance(obj, dict):
        raise ValueError(f"an OSV entry is a JSON object, got {type(obj).__name__}")
    osv_id = obj.get("id")
    if not isinstance(osv_id, str) or not osv_id.strip():
        raise ValueError("OSV entry without an 'id'")
    osv_id = osv_id.strip()
    affected = obj.get("affected") or []
    if not isinstance(affected, list):
        raise ValueError("'affected' must be a list")
    aliases = [a for a in obj.get("aliases") or [] if isinstance(a, str)]
    packages: list[str] = []
    ecosystems: list[str] = []
    fixed: list[str] = []
    fixed_pv: list[str] = []
    ranges: list[str] = []
    for entry in affected:
        package = (entry or {}).get("package") or {}
        name, ecosystem = package.get("name"), package.get("ecosystem")
        if not isinstance(name, str) or not isinstance(ecosystem, str) or not name or not ecosystem:
            raise ValueError("affected[].package needs 'name' and 'ecosystem'")
        key = pkg_key(ecosystem, name)
        packages.append(key)
        ecosystems.append(ecosystem)
        try:
            scheme: str | None = scheme_for(ecosystem)
        except UnknownSchemeError:
            scheme = None
        for rng in entry.get("ranges") or []:
            if rng.get("type") not in ("ECOSYSTEM", "SEMVER"):
                continue  # GIT ranges name commits, not versions
            events = rng.get("events") or []
            ranges.append(_osv_range_summary(key, events))
            for event in events:
                value = event.get("fixed")
                if not value:
                    continue
                if scheme is None:
                    collector.version_warnings.append(
                        (osv_id, value, f"no versioning scheme for ecosystem {ecosystem!r}")
                    )
                    continue
                version = collector.canonical(osv_id, scheme, value)
                if version:
                    fixed.append(version)
                    fixed_pv.append(f"{key}@{version}")
    cves = cve_ids([osv_id, *aliases])
    summary = (obj.get("summary") or "").strip()
    details = (obj.get("details") or "").strip()
    if not summary and not details:
        raise ValueError("OSV entry with neither 'summary' nor 'details'")
    published, published_source = day(obj.get("published")), "published"
    if published is None:
        for field in ("_report_published", "_report_first_committed"):
            published = day(obj.get(field))
            if published:
                published_source = field
                break
    if published is None:
        published_source = "none"
    attributes: dict[str, Any] = {
        "ecosystem": ecosystems[0] if ecosystems else "",
        "packages": list(dict.fromkeys(packages)),
        "aliases": aliases,
        "cve_ids": cves,
        "fixed_versions": list(dict.fromkeys(fixed)),
        "fixed_package_versions": list(dict.fromkeys(fixed_pv)),
        "affected_ranges": ranges,
        "published_source": published_source,
        "source": source,
    }
    if len(set(ecosystems)) > 1:
        attributes["ecosystems"] = list(dict.fromkeys(ecosystems))
    if line:
        attributes["source_line"] = line
    if obj.get("_source_path"):
        attributes["source_path"] = obj["_source_path"]
    if obj.get("modified") and not str(obj["modified"]).startswith(OSV_PLACEHOLDER_DATE):
        attributes["modified"] = str(obj["modified"])[:10]
    withdrawn = day(obj.get("withdrawn"))
    if withdrawn:
        attributes["withdrawn"] = withdrawn.isoformat()
    body = "\n\n".join(p for p in (summary, details) if p)
    return DocumentRecord(
        id=osv_id,
        text=trim(body, ADVISORY_TEXT_LIMIT),
        title=f"{osv_id}: {summary or first_sentence(details)}",
        domain=NAME,
        kind="advisory",
        published=published,
        scope=scope_of(packages, cves),
        attributes=attributes,
    )


def _osv_objects(path: Path) -> Iterator[tuple[str, int, Any]]:
    """(source, line, object) from an OSV .json file, a directory of them, or JSON Lines."""
    if path.is_dir():
        for child in sorted(path.rglob("*.json")):
            yield from _osv_objects(child)
        for child in sorted(path.rglob("*.jsonl")):
            yield from _osv_objects(child)
        return
    text = path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    whole: Any = None
    if stripped.startswith(("{", "[")):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None  # not one document: try JSON Lines below
    if whole is not None:
        if isinstance(whole, list):
            items = whole
        elif isinstance(whole, dict) and isinstance(whole.get("vulns"), list):
            items = whole["vulns"]  # an OSV API query response
        else:
            items = [whole]
        for item in items:
            yield str(path), 0, item
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                yield str(path), number, json.loads(line)
            except json.JSONDecodeError as e:
                yield str(path), number, e


def read_osv(path: Path, problems: list[InputProblem] | None = None) -> list[DocumentRecord]:
    """Advisory records from standard OSV JSON: one file, a directory of files, or JSON Lines.

    A malformed entry is appended to ``problems`` and skipped (with ``problems`` None the first
    one raises IngestError). Duplicate ids keep the first entry.
    """
    path = Path(path)
    collector = Collector()
    records: list[DocumentRecord] = []
    seen: set[str] = set()
    for source, line, obj in _osv_objects(path):
        if isinstance(obj, json.JSONDecodeError):
            report_problem(problems, source, line, f"invalid JSON: {obj.msg}")
            continue
        try:
            record = osv_to_record(obj, Path(source).name, line, collector)
        except ValueError as e:
            report_problem(problems, source, line, str(e))
            continue
        if record.id in seen:
            report_problem(problems, source, line, f"duplicate advisory id {record.id!r}")
            continue
        seen.add(record.id)
        records.append(record)
    return records
