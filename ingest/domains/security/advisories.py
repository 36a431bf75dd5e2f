"""Advisories outside OSV: the RustSec database and the Node.js security working group."""

from __future__ import annotations

import re
from typing import Any

from car_graph.ingest.domains.security.common import (
    ADVISORY_TEXT_LIMIT,
    NAME,
    Collector,
    cve_ids,
    day,
    first_sentence,
    scope_of,
    trim,
)
from car_graph.ingest.domains.security.ecosystems import package_key
from car_graph.records import DocumentRecord
from car_graph.versions import InvalidVersionError, range_lower_bounds

# --- RustSec -------------------------------------------------------------------------------------


def rustsec_record(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
    if not isinstance(obj, dict) or not isinstance(obj.get("advisory"), dict):
        raise ValueError("a RustSec entry needs an 'advisory' table")
    adv = obj["advisory"]
    rid, crate = adv.get("id"), adv.get("package")
    if not isinstance(rid, str) or not rid or not isinstance(crate, str) or not crate:
        raise ValueError("RustSec advisory without 'id' or 'package'")
    path = obj.get("_source_path") or ""
    ecosystem = "rust" if path.startswith("rust/") else "crates.io"
    key = package_key(ecosystem, crate)
    versions = obj.get("versions") or {}
    fixed: list[str] = []
    for spec in versions.get("patched") or []:
        try:
            fixed.extend(range_lower_bounds("cargo", spec))
        except InvalidVersionError as e:
            collector.version_warnings.append((rid, spec, str(e)))
    aliases = [a for a in adv.get("aliases") or [] if isinstance(a, str)]
    cves = cve_ids(aliases)
    title = (obj.get("title") or "").strip()
    description = (obj.get("description") or "").strip()
    if not title and not description:
        raise ValueError("RustSec advisory with neither title nor description")
    fixed = list(dict.fromkeys(fixed))
    attributes: dict[str, Any] = {
        "ecosystem": ecosystem,
        "packages": [key],
        "aliases": aliases,
        "cve_ids": cves,
        "fixed_versions": fixed,
        "fixed_package_versions": [f"{key}@{v}" for v in fixed],
        "affected_ranges": [
            f"{key} patched: {' || '.join(versions.get('patched') or []) or 'none'}"
        ],
        "unaffected": list(versions.get("unaffected") or []),
        "categories": list(adv.get("categories") or []),
        "published_source": "date",
        "source": source,
        "source_line": line,
        "source_path": path,
    }
    if adv.get("informational"):
        attributes["informational"] = str(adv["informational"])
    withdrawn = day(adv.get("withdrawn"))
    if withdrawn:
        attributes["withdrawn"] = withdrawn.isoformat()
    return DocumentRecord(
        id=rid,
        text=trim("\n\n".join(p for p in (title, description) if p), ADVISORY_TEXT_LIMIT),
        title=f"{rid}: {title or first_sentence(description)}",
        domain=NAME,
        kind="advisory",
        published=day(adv.get("date")),
        scope=scope_of([key], cves),
        attributes=attributes,
    )


# --- Node.js security working group --------------------------------------------------------------


def nodejs_record(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
    if not isinstance(obj, dict):
        raise ValueError("a security-wg entry is a JSON object")
    path = obj.get("_source_path") or ""
    match = re.match(r"^vuln/(npm|core)/(\d+)\.json$", path)
    if not match:
        if path.endswith("index.json"):
            raise ValueError(
                f"{path} is the repository's aggregate index (every entry again); skipped"
            )
        raise ValueError(f"unexpected security-wg path {path!r}")
    area, number = match.groups()
    if area == "npm":
        doc_id = f"NSWG-ECO-{number}"
        module = obj.get("module_name")
        if not isinstance(module, str) or not module:
            raise ValueError("npm entry without 'module_name'")
        key, ecosystem = package_key("npm", module), "npm"
        patched, vulnerable = obj.get("patched_versions"), obj.get("vulnerable_versions")
        cves = cve_ids(obj.get("cves") or [])
        title = (obj.get("title") or "").strip()
        body = "\n\n".join(
            p for p in ((obj.get("overview") or "").strip(),
                        (obj.get("recommendation") or "").strip()) if p
        )
        published = day(obj.get("publish_date")) or day(obj.get("created_at"))
        published_source = (
            "publish_date" if day(obj.get("publish_date"))
            else "created_at" if published else "none"
        )
    else:
        doc_id = f"NSWG-CORE-{number}"
        key, ecosystem, module = package_key("nodejs", "node"), "nodejs", "node"
        patched, vulnerable = obj.get("patched"), obj.get("vulnerable")
        cves = cve_ids(obj.get("cve") or [])
        title = (obj.get("description") or "").strip()
        body = (obj.get("overview") or "").strip()
        published, published_source = None, "none"  # core entries carry no dates
    if not title and not body:
        raise ValueError("security-wg entry with no title, description or overview")
    fixed: list[str] = []
    if isinstance(patched, str) and patched.strip():
        try:
            fixed = range_lower_bounds("npm", patched)
        except InvalidVersionError as e:
            collector.version_warnings.append((doc_id, patched, str(e)))
    attributes: dict[str, Any] = {
        "ecosystem": ecosystem,
        "packages": [key],
        "aliases": cves,
        "cve_ids": cves,
        "fixed_versions": fixed,
        "fixed_package_versions": [f"{key}@{v}" for v in fixed],
        "affected_ranges": [f"{key} {vulnerable}"] if vulnerable else [],
        "patched_range": patched or "",
        "published_source": published_source,
        "source": source,
        "source_line": line,
        "source_path": path,
    }
    if obj.get("severity"):
        attributes["severity"] = str(obj["severity"])
    text = "\n\n".join(p for p in (title, body) if p)
    return DocumentRecord(
        id=doc_id,
        text=trim(text, ADVISORY_TEXT_LIMIT),
        title=f"{doc_id}: {module}: {title or first_sentence(body)}",
        domain=NAME,
        kind="advisory",
        published=published,
        scope=scope_of([key], cves),
        attributes=attributes,
    )
