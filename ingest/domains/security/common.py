"""What the security adapters share: the domain's name on records, text limits, dates, CVE ids,
scope and the collector of versions no library could parse."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.records import report_problem
from car_graph.versions import InvalidVersionError, UnknownSchemeError, canonical

NAME = "security"  # the ``domain`` of every record the adapters write
ADVISORY_TEXT_LIMIT = 2000
RELEASE_TEXT_LIMIT = 3000
CVE_PATTERN = re.compile(r"\bCVE-\d{4}-\d{4,}\b", re.IGNORECASE)
OSV_PLACEHOLDER_DATE = "0001-01-01"


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


def day(value: Any) -> date | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.startswith(OSV_PLACEHOLDER_DATE):
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def scope_of(packages: Iterable[str], cves: Iterable[str]) -> dict[str, tuple[str, ...]]:
    scope: dict[str, tuple[str, ...]] = {}
    packages, cves = tuple(dict.fromkeys(packages)), tuple(dict.fromkeys(cves))
    if packages:
        scope["package"] = packages
    if cves:
        scope["cve"] = cves
    return scope


class Collector:
    """Per-source counters shared by the readers (stats, version warnings)."""

    def __init__(self) -> None:
        self.version_warnings: list[tuple[str, str, str]] = []  # (doc id, value, reason)

    def canonical(self, doc_id: str, scheme: str, value: str) -> str | None:
        try:
            return canonical(scheme, value)
        except (InvalidVersionError, UnknownSchemeError) as e:
            self.version_warnings.append((doc_id, value, str(e)))
            return None


def json_lines(path: Path, problems: list[InputProblem] | None) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for each non-blank line; bad JSON goes to problems."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as e:
                report_problem(problems, str(path), number, f"invalid JSON: {e.msg}")
