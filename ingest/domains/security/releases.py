"""Releases that fix advisories: Django release notes, the Go release history, Debian changelogs."""

from __future__ import annotations

import email.utils
import re
from datetime import datetime
from typing import Any

from packaging.utils import canonicalize_name

from car_graph.ingest.domains.security.common import (
    NAME,
    RELEASE_TEXT_LIMIT,
    Collector,
    cve_ids,
    day,
    scope_of,
    trim,
)
from car_graph.ingest.domains.security.ecosystems import package_key
from car_graph.records import DocumentRecord
from car_graph.versions import InvalidVersionError, canonical

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


def django_record(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
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
        domain=NAME,
        kind="release",
        published=published,
        scope=scope_of([key], cves),
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


def go_record(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
    if not isinstance(obj, dict) or not isinstance(obj.get("version"), str):
        raise ValueError("a Go release entry needs 'version'")
    label = obj["version"]
    try:
        version = canonical("go", label)
    except InvalidVersionError as e:
        raise ValueError(str(e)) from e
    released = day(obj.get("date"))
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
        domain=NAME,
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


def debian_record(obj: Any, source: str, line: int, collector: Collector) -> DocumentRecord:
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
        domain=NAME,
        kind="release",
        published=published,
        scope=scope_of([key], cves),
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
