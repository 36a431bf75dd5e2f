"""The generic document record, and the JSON Lines format anyone can bring a corpus in.

One JSON object per line::

    {"id": str, "text": str, "title"?: str, "domain"?: str, "kind"?: str,
     "published"?: "YYYY-MM-DD" | "YYYY-MM-DDTHH:MM[:SS][+HH:MM]", "scope"?: {entity_type: key | [keys]},
     "supersedes"?: [id | {"id": str, "effective"?: date, "evidence"?: str, "partial"?: bool}],
     "attributes"?: {...}}

``published`` may carry a time of day: the record keeps its date as ``published`` (as-of filtering
is by date) and the full instant as ``published_at`` (rules with ``order: later`` compare instants,
so two events of one day are ordered). An instant with an offset is converted to UTC; one without
is taken as written (all naive instants of a corpus are assumed to share one clock).

Unknown top-level fields are kept as attributes. A malformed line is reported with its file and
line number and skipped; every valid line is still loaded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from car_graph.errors import IngestError, InputProblem

KNOWN_FIELDS = frozenset(
    {"id", "text", "title", "domain", "kind", "published", "scope", "supersedes", "attributes"}
)
# Attribute and entity-type names become property names / values matched in Cypher; keep them plain.
NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class SupersedesRef:
    """An explicit edge given in the input: this document supersedes ``id``."""

    id: str
    effective: date | None = None
    evidence: str | None = None
    partial: bool = False


@dataclass(frozen=True)
class DocumentRecord:
    id: str
    text: str
    title: str = ""
    domain: str | None = None
    kind: str | None = None
    published: date | None = None
    # the publication instant, when ``published`` was given with a time of day
    published_at: datetime | None = None
    # entity type -> keys; supersession is keyed on these (a package, a case, a drug)
    scope: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    supersedes: tuple[SupersedesRef, ...] = ()
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record in the generic JSON Lines format (round-trips through parse_record)."""
        out: dict[str, Any] = {"id": self.id, "text": self.text}
        if self.title:
            out["title"] = self.title
        for name in ("domain", "kind"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.published_at:
            out["published"] = self.published_at.isoformat()
        elif self.published:
            out["published"] = self.published.isoformat()
        if self.scope:
            out["scope"] = {t: list(keys) for t, keys in self.scope.items()}
        if self.supersedes:
            out["supersedes"] = [
                {
                    k: v
                    for k, v in {
                        "id": s.id,
                        "effective": s.effective.isoformat() if s.effective else None,
                        "evidence": s.evidence,
                        "partial": s.partial or None,
                    }.items()
                    if v is not None
                }
                for s in self.supersedes
            ]
        if self.attributes:
            out["attributes"] = dict(self.attributes)
        return out


def report_problem(
    problems: list[InputProblem] | None, source: str, line: int, reason: str
) -> None:
    """Record a rejected input (file, line, reason); with no list to collect into, raise."""
    if problems is None:
        raise IngestError(source, line, reason)
    problems.append(InputProblem(source, line, reason))


def parse_date(value: Any, what: str) -> date | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a 'YYYY-MM-DD' string, got {type(value).__name__}")
    try:
        return date.fromisoformat(value[:10])
    except ValueError as e:
        raise ValueError(f"{what} is not a date (YYYY-MM-DD): {value!r}") from e


def parse_published(value: Any) -> tuple[date | None, datetime | None]:
    """``published`` -> (date, instant or None): a date, or an ISO date-time whose date is kept
    as written and whose instant is made naive UTC when it carries an offset."""
    if not isinstance(value, str) or len(value) <= 10:
        return parse_date(value, "published"), None
    try:
        instant = datetime.fromisoformat(value)
    except ValueError as e:
        raise ValueError(
            f"published is neither a date nor an ISO date-time "
            f"(YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS): {value!r}"
        ) from e
    day = instant.date()
    if instant.tzinfo is not None:
        instant = instant.astimezone(UTC).replace(tzinfo=None)
    return day, instant


def _string(obj: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise ValueError(f"missing required field {key!r}")
        return None
    if not isinstance(value, str):
        raise ValueError(f"field {key!r} must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise ValueError(f"field {key!r} must not be empty")
    return value


def _scope(value: Any) -> dict[str, tuple[str, ...]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("field 'scope' must be an object {entity_type: key | [keys]}")
    scope: dict[str, tuple[str, ...]] = {}
    for etype, keys in value.items():
        if not NAME_PATTERN.match(etype):
            raise ValueError(f"scope entity type {etype!r} must match {NAME_PATTERN.pattern}")
        keys = [keys] if isinstance(keys, str) else keys
        if not isinstance(keys, list) or not all(isinstance(k, str) and k.strip() for k in keys):
            raise ValueError(f"scope {etype!r} must be a non-empty string or a list of them")
        scope[etype] = tuple(dict.fromkeys(k.strip() for k in keys))
    return scope


def _supersedes(value: Any) -> tuple[SupersedesRef, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("field 'supersedes' must be a list of ids or {id, effective?, evidence?}")
    refs = []
    for item in value:
        if isinstance(item, str) and item:
            refs.append(SupersedesRef(item))
        elif isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"]:
            partial = item.get("partial", False)
            if not isinstance(partial, bool):
                raise ValueError("'supersedes[].partial' must be true or false")
            evidence = item.get("evidence")
            if evidence is not None and not isinstance(evidence, str):
                raise ValueError("'supersedes[].evidence' must be a string")
            refs.append(
                SupersedesRef(
                    item["id"],
                    parse_date(item.get("effective"), "supersedes[].effective"),
                    evidence,
                    partial,
                )
            )
        else:
            raise ValueError(f"bad 'supersedes' entry {item!r}: need an id or {{'id': ...}}")
    return tuple(refs)


def parse_record(obj: Any) -> DocumentRecord:
    """One JSON object -> DocumentRecord; raises ValueError with the reason."""
    if not isinstance(obj, dict):
        raise ValueError(f"a line must hold a JSON object, got {type(obj).__name__}")
    attributes = obj.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise ValueError("field 'attributes' must be an object")
    extra = {k: v for k, v in obj.items() if k not in KNOWN_FIELDS}
    attributes = {**extra, **attributes}
    for name in attributes:
        if not NAME_PATTERN.match(name):
            raise ValueError(f"attribute name {name!r} must match {NAME_PATTERN.pattern}")
    doc_id = _string(obj, "id", required=True)
    text = _string(obj, "text", required=True)
    assert doc_id is not None and text is not None
    published, published_at = parse_published(obj.get("published"))
    return DocumentRecord(
        id=doc_id.strip(),
        text=text,
        title=_string(obj, "title") or "",
        domain=_string(obj, "domain"),
        kind=_string(obj, "kind"),
        published=published,
        published_at=published_at,
        scope=_scope(obj.get("scope")),
        supersedes=_supersedes(obj.get("supersedes")),
        attributes=attributes,
    )


def read_jsonl(
    path: Path, problems: list[InputProblem] | None = None
) -> Iterator[DocumentRecord]:
    """Yield every valid record of a JSON Lines file.

    A bad line is appended to ``problems`` (file, line, reason) and skipped; with ``problems``
    None the first bad line raises IngestError instead.
    """
    with open(path, encoding="utf-8") as handle:
        yield from parse_lines(handle, str(path), problems)


def parse_lines(
    lines: Iterable[str], source: str, problems: list[InputProblem] | None = None
) -> Iterator[DocumentRecord]:
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_record(json.loads(line))
            if record.id in seen:
                raise ValueError(f"duplicate id {record.id!r} in this file")
            seen.add(record.id)
        except (json.JSONDecodeError, ValueError) as e:
            reason = f"invalid JSON: {e.msg}" if isinstance(e, json.JSONDecodeError) else str(e)
            if problems is None:
                raise IngestError(source, number, reason) from e
            problems.append(InputProblem(source, number, reason))
            continue
        yield record


def write_jsonl(records: Iterable[DocumentRecord], path: Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    return count
