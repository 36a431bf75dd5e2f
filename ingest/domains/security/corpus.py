"""Security adapter: advisories (OSV, RustSec, Node security-wg) and the releases that fix them.

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

Scope: ``package`` keys are :func:`~car_graph.ingest.keys.package_key` (``pypi:django``,
``go:stdlib``, ``go:toolchain``, ``crates.io:abi_stable``, ``npm:bassmaster``, ``nodejs:node``
for Node.js core, ``rust:std`` for the RustSec advisories against the Rust toolchain,
``debian:python-django``); PyPI names are PEP 503-normalised first. ``cve`` keys are the CVE ids
named by the document (advisory aliases; CVEs a release says it fixes).

Versions are written canonical (:mod:`car_graph.ingest.versions`), so the rules compare strings:

* advisories: ``fixed_versions`` (canonical, all affected packages) and
  ``fixed_package_versions`` (``"<package key>@<canonical version>"``);
* releases: ``version`` (canonical), ``version_label`` (as written) and ``package_versions``
  (``"<package key>@<version>"`` for each package the release ships: a Go release ships both
  ``go:stdlib`` and ``go:toolchain``, the two package names the Go vulnerability database uses).

Rules (``rules/security.yaml``) key on ``fixed_package_versions`` rather than the bare
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

import email.utils
import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from car_graph.errors import InputProblem
from car_graph.ingest.keys import normalize_key, package_key
from car_graph.ingest.records import DocumentRecord, report_problem
from car_graph.ingest.rules import Rule
from car_graph.ingest.versions import (
    InvalidVersionError,
    UnknownSchemeError,
    canonical,
    range_lower_bounds,
    scheme_for,
)

DOMAIN = "security"
ADVISORY_TEXT_LIMIT = 2000
RELEASE_TEXT_LIMIT = 3000
CVE_PATTERN = re.compile(r"\bCVE-\d{4}-\d{4,}\b", re.IGNORECASE)
OSV_PLACEHOLDER_DATE = "0001-01-01"

FILES = {
    "pypa": "pypa_advisories.jsonl",
    "govulndb": "govulndb_osv.jsonl",
    "rustsec": "rustsec_advisories.jsonl",
    "nodejs": "nodejs_security_wg_vulns.jsonl",
    "django": "django_release_notes.jsonl",
    "go_releases": "go_release_history.jsonl",
    "debian": "debian_changelogs.jsonl",
}


# --- small helpers -------------------------------------------------------------------------------


def trim(text: str, limit: int) -> str:
    """Cut ``text`` to about ``limit`` characters at a paragraph or sentence end."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind("\n\n")
    if cut < limit * 0.6:
        cut = max(head.rfind(". "), head.rfind(".\n"))
        cut = cut + 1 if cut >= limit * 0.6 else -1
    if cut < limit * 0.6:
        cut = head.rfind(" ")
    return head[: cut if cut > 0 else limit].rstrip() + " [...]"


def first_sentence(text: str, limit: int = 140) -> str:
    flat = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", flat)
    sentence = match.group(1) if match else flat
    return sentence if len(sentence) <= limit else sentence[: limit - 3].rstrip() + "..."


def cve_ids(values: Iterable[str]) -> list[str]:
    out: dict[str, None] = {}
    for value in values:
        for match in CVE_PATTERN.finditer(value or ""):
            out[match.group(0).upper()] = None
    return list(out)


def pkg_key(ecosystem: str, name: str) -> str:
    """package_key with the ecosystem's own name normalisation (PEP 503 for PyPI)."""
    if ecosystem.casefold() == "pypi":
        name = canonicalize_name(name)
    return package_key(ecosystem, name)


def _date(value: Any) -> date | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.startswith(OSV_PLACEHOLDER_DATE):
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def _scope(packages: Iterable[str], cves: Iterable[str]) -> dict[str, tuple[str, ...]]:
    scope: dict[str, tuple[str, ...]] = {}
    packages, cves = tuple(dict.fromkeys(packages)), tuple(dict.fromkeys(cves))
    if packages:
        scope["package"] = packages
    if cves:
        scope["cve"] = cves
    return scope


class _Collector:
    """Per-source counters shared by the readers (stats, version warnings)."""

    def __init__(self) -> None:
        self.version_warnings: list[tuple[str, str, str]] = []  # (doc id, value, reason)

    def canonical(self, doc_id: str, scheme: str, value: str) -> str | None:
        try:
            return canonical(scheme, value)
        except (InvalidVersionError, UnknownSchemeError) as e:
            self.version_warnings.append((doc_id, value, str(e)))
            return None


def _lines(path: Path, problems: list[InputProblem] | None) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for each non-blank line; bad JSON goes to problems."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as e:
                report_problem(problems, str(path), number, f"invalid JSON: {e.msg}")


# --- OSV -----------------------------------------------------------------------------------------


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
    obj: Any, source: str, line: int = 0, collector: _Collector | None = None
) -> DocumentRecord:
    """One OSV entry -> an ``advisory`` record; ValueError says why an entry is unusable."""
    collector = collector or _Collector()
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
    published, published_source = _date(obj.get("published")), "published"
    if published is None:
        for field in ("_report_published", "_report_first_committed"):
            published = _date(obj.get(field))
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
    withdrawn = _date(obj.get("withdrawn"))
    if withdrawn:
        attributes["withdrawn"] = withdrawn.isoformat()
    body = "\n\n".join(p for p in (summary, details) if p)
    return DocumentRecord(
        id=osv_id,
        text=trim(body, ADVISORY_TEXT_LIMIT),
        title=f"{osv_id}: {summary or first_sentence(details)}",
        domain=DOMAIN,
        kind="advisory",
        published=published,
        scope=_scope(packages, cves),
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
    if stripped.startswith("{") or stripped.startswith("["):
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
    collector = _Collector()
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


# --- RustSec -------------------------------------------------------------------------------------


def _rustsec_record(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
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
    withdrawn = _date(adv.get("withdrawn"))
    if withdrawn:
        attributes["withdrawn"] = withdrawn.isoformat()
    return DocumentRecord(
        id=rid,
        text=trim("\n\n".join(p for p in (title, description) if p), ADVISORY_TEXT_LIMIT),
        title=f"{rid}: {title or first_sentence(description)}",
        domain=DOMAIN,
        kind="advisory",
        published=_date(adv.get("date")),
        scope=_scope([key], cves),
        attributes=attributes,
    )


# --- Node.js security working group --------------------------------------------------------------


def _nodejs_record(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
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
        published = _date(obj.get("publish_date")) or _date(obj.get("created_at"))
        published_source = (
            "publish_date" if _date(obj.get("publish_date"))
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
        domain=DOMAIN,
        kind="advisory",
        published=published,
        scope=_scope([key], cves),
        attributes=attributes,
    )


# --- Django release notes ------------------------------------------------------------------------

_RST_UNDERLINE = re.compile(r"^([=\-~^*+#\"'`])\1{2,}\s*$")
_SECURITY_HEADING = re.compile(r"CVE-|security|vulnerab", re.IGNORECASE)


def _rst_clean(text: str) -> str:
    text = re.sub(r":cve:`(\d{4}-\d+)`", r"CVE-\1", text)
    text = re.sub(r":ticket:`(\d+)`", r"ticket #\1", text)
    text = re.sub(r":[\w:.-]+:`([^`<]*?)\s*<[^`>]*>`", r"\1", text)  # :role:`text <target>`
    text = re.sub(r":[\w:.-]+:`~?([^`]*)`", r"\1", text)
    text = re.sub(r"``([^`]*)``", r"\1", text)
    return text


def _rst_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(preamble, [(heading, body)]) split on over/underlined headings."""
    lines = text.splitlines()
    headings: list[tuple[int, int]] = []  # (heading line, first body line)
    i = 0
    while i < len(lines) - 1:
        if lines[i].strip() and not _RST_UNDERLINE.match(lines[i]) and _RST_UNDERLINE.match(
            lines[i + 1]
        ) and len(lines[i + 1].strip()) >= len(lines[i].strip()) * 0.8:
            headings.append((i, i + 2))
            i += 2
            continue
        i += 1
    if not headings:
        return text, []
    preamble = "\n".join(lines[: headings[0][0]])
    sections = []
    for n, (h, start) in enumerate(headings):
        end = headings[n + 1][0] if n + 1 < len(headings) else len(lines)
        sections.append((lines[h].strip(), "\n".join(lines[start:end]).strip()))
    return preamble, sections


def django_excerpt(raw: str, limit: int = RELEASE_TEXT_LIMIT) -> str:
    """A release note's useful part, security first: intro, CVE/security sections, the rest."""
    text = _rst_clean(raw)
    preamble, sections = _rst_sections(text)
    # the document title is over- and underlined: drop it and the date line
    if sections and re.search(r"release notes$", sections[0][0], re.IGNORECASE):
        sections = sections[1:] if not sections[0][1] else [("", sections[0][1])] + sections[1:]
    intro_parts = []
    for part in [preamble] + [b for h, b in sections[:1] if h == ""]:
        for para in re.split(r"\n\s*\n", part):
            para = para.strip()
            if para and not _RST_UNDERLINE.match(para.splitlines()[0]) and not re.fullmatch(
                r"\*[^*]+\*", para
            ) and "release notes" not in para.lower()[:60]:
                intro_parts.append(para)
    body_sections = [s for s in sections if s[0]]
    security = [s for s in body_sections if _SECURITY_HEADING.search(s[0])]
    intro = " ".join(" ".join(p.split()) for p in intro_parts)
    if not security and re.search(r"security", intro, re.IGNORECASE):
        # old security releases title their sections by the issue ("Host header poisoning")
        security = [s for s in body_sections if not re.match(
            r"(bugfixes|bug fixes|backwards incompatible|deprecat|what's new|minor features|"
            r"features removed|python compatibility)", s[0], re.IGNORECASE)]
    rest = [s for s in body_sections if s not in security]
    out = [intro] if intro else []
    for heading, body in security + rest:
        out.append(f"{heading}\n{body}")
    return trim("\n\n".join(out), limit)


def _django_record(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
    if not isinstance(obj, dict):
        raise ValueError("a release-note entry is a JSON object")
    label = obj.get("version")
    if not isinstance(label, str) or not label:
        raise ValueError("release note without 'version'")
    try:
        version = canonical("pypi", label)
    except InvalidVersionError as e:
        raise ValueError(
            f"{obj.get('file') or label} is not a release note of one version ({e}); skipped"
        ) from e
    raw_text = obj.get("text")
    if not isinstance(raw_text, str) or not raw_text.strip():
        raise ValueError("release note without text")
    published = None
    if obj.get("release_date"):
        try:
            published = datetime.strptime(obj["release_date"].strip(), "%B %d, %Y").date()
        except ValueError:
            collector.version_warnings.append((label, obj["release_date"], "bad release_date"))
    key = package_key("PyPI", "django")
    cves = cve_ids(obj.get("cve_ids") or [])
    return DocumentRecord(
        id=f"django-release:{label}",
        text=django_excerpt(raw_text),
        title=obj.get("title") or f"Django {label} release notes",
        domain=DOMAIN,
        kind="release",
        published=published,
        scope=_scope([key], cves),
        attributes={
            "ecosystem": "PyPI",
            "version": version,
            "version_label": label,
            "package_versions": [f"{key}@{version}"],
            "fixes_packages": [key],
            "cve_ids": cves,
            "source": source,
            "source_line": line,
            "source_path": obj.get("file") or "",
        },
    )


# --- Go release history --------------------------------------------------------------------------

GO_PACKAGES = (package_key("Go", "stdlib"), package_key("Go", "toolchain"))


def _english_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _go_fixes(block: Any) -> str:
    if not isinstance(block, dict):
        return ""
    packages = [p for p in block.get("packages") or [] if isinstance(p, str)]
    components = [c for c in block.get("components") or [] if isinstance(c, str)]
    parts = []
    if packages:
        parts.append(f"the {_english_list(packages)} package{'s' if len(packages) > 1 else ''}")
    parts.extend(components)
    return _english_list(parts)


def _go_record(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
    if not isinstance(obj, dict) or not isinstance(obj.get("version"), str):
        raise ValueError("a Go release entry needs 'version'")
    label = obj["version"]
    try:
        version = canonical("go", label)
    except InvalidVersionError as e:
        raise ValueError(str(e)) from e
    released = _date(obj.get("date"))
    name = f"Go {label[2:] if label.startswith('go') else label}"
    sentences = []
    security, bug = _go_fixes(obj.get("security")), _go_fixes(obj.get("bug"))
    if obj.get("custom_summary"):  # a predicate in the source: "fixes an issue where ..."
        sentences.append(f"{name} {str(obj['custom_summary']).strip()}")
    if security and bug:
        sentences.append(f"{name} includes security fixes to {security}, as well as bug fixes "
                         f"to {bug}.")
    elif security:
        sentences.append(f"{name} includes security fixes to {security}.")
    elif bug:
        sentences.append(f"{name} includes fixes to {bug}.")
    if obj.get("more"):
        sentences.append(str(obj["more"]).strip())
    major = version.endswith(".0") and "-" not in version
    if not sentences:
        sentences.append(
            f"{name} is a major release of Go." if major else
            f"{name} is a minor point release; the release history lists no details for it."
        )
    when = f" (released {released.isoformat()})" if released else ""
    text = f"{name}{when}. " + " ".join(sentences)
    security_packages = (obj.get("security") or {}).get("packages") or []
    return DocumentRecord(
        id=f"go-release:{label}",
        text=text,
        title=f"{name} release",
        domain=DOMAIN,
        kind="release",
        published=released,
        scope={"package": GO_PACKAGES},
        attributes={
            "ecosystem": "Go",
            "version": version,
            "version_label": label,
            "package_versions": [f"{k}@{version}" for k in GO_PACKAGES],
            "fixes_packages": list(GO_PACKAGES),
            "security_packages": list(security_packages),
            "security_release": bool(obj.get("security")),
            "details_missing": not (obj.get("security") or obj.get("bug")
                                    or obj.get("custom_summary") or major),
            "source": source,
            "source_line": line,
        },
    )


# --- Debian changelogs ---------------------------------------------------------------------------


def debian_upstream(source: str, binary: str) -> str | None:
    """The PyPI project a Debian Python source package packages (heuristic, documented).

    Debian names Python sources ``python-<pypi name>`` or the bare PyPI name (pillow, lxml,
    jinja2, pyyaml, requests); only packages shipping a ``python3-*`` binary are mapped.
    """
    if not binary.startswith("python3-"):
        return None
    name = source[len("python-"):] if source.startswith("python-") else source
    return package_key("PyPI", canonicalize_name(name))


def _debian_record(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
    if not isinstance(obj, dict):
        raise ValueError("a changelog entry is a JSON object")
    src, label = obj.get("source"), obj.get("version")
    if not isinstance(src, str) or not src or not isinstance(label, str) or not label:
        raise ValueError("changelog entry without 'source' or 'version'")
    try:
        version = canonical("debian", label)
    except InvalidVersionError as e:
        raise ValueError(str(e)) from e
    published = None
    if obj.get("date"):
        try:
            published = email.utils.parsedate_to_datetime(obj["date"]).date()
        except (TypeError, ValueError):
            collector.version_warnings.append((f"{src} {label}", str(obj["date"]), "bad date"))
    key = package_key("Debian", src)
    upstream = debian_upstream(src, obj.get("binary_package") or "")
    cves = cve_ids(list(obj.get("cve_ids") or []) + [obj.get("text") or ""])
    header = f"{src} ({label}) {obj.get('distribution', '')}; {obj.get('meta', '')}".strip()
    body = (obj.get("text") or "").rstrip()
    trailer = f" -- {obj.get('maintainer', '')}  {obj.get('date', '')}".rstrip()
    return DocumentRecord(
        id=f"debian-changelog:{src}:{label}",
        text=trim(f"{header}\n\n{body}\n\n{trailer}", RELEASE_TEXT_LIMIT),
        title=f"Debian {src} {label} ({obj.get('distribution', '')})",
        domain=DOMAIN,
        kind="release",
        published=published,
        scope=_scope([key], cves),
        attributes={
            "ecosystem": "Debian",
            "version": version,
            "version_label": label,
            "package_versions": [f"{key}@{version}"],
            "fixes_packages": [key] + ([upstream] if upstream else []),
            "upstream_package": upstream or "",
            "cve_ids": cves,
            "distribution": obj.get("distribution") or "",
            "binary_package": obj.get("binary_package") or "",
            "source": source,
            "source_line": line,
        },
    )


# --- loading -------------------------------------------------------------------------------------


def _read(
    path: Path,
    convert: Any,
    problems: list[InputProblem] | None,
    collector: _Collector,
    seen: set[str],
) -> list[DocumentRecord]:
    records = []
    for number, obj in _lines(path, problems):
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


def _osv_convert(obj: Any, source: str, line: int, collector: _Collector) -> DocumentRecord:
    return osv_to_record(obj, source, line, collector)


CONVERTERS = {
    "pypa": _osv_convert,
    "govulndb": _osv_convert,
    "rustsec": _rustsec_record,
    "nodejs": _nodejs_record,
    "django": _django_record,
    "go_releases": _go_record,
    "debian": _debian_record,
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
    collector = _Collector()
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
    from car_graph.semantics import rule_edges

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


__all__ = [
    "DOMAIN",
    "FILES",
    "django_excerpt",
    "load_security",
    "osv_to_record",
    "read_osv",
    "security_stats",
]
