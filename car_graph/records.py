"""The generic document record, and the JSON Lines format anyone can bring a corpus in.

One JSON object per line::

    {"id": str, "text": str, "title"?: str, "domain"?: str, "kind"?: str,
     "published"?: "YYYY-MM-DD" | "YYYY-MM-DDTHH:MM[:SS][+HH:MM]" | "YYYY-MM" | "YYYY",
     "scope"?: {entity_type: key | [keys]},
     "supersedes"?: [id | {"id": str, "effective"?: date, "evidence"?: str, "partial"?: bool}],
     "attributes"?: {...}}

``published`` may carry a time of day: the record keeps its date as ``published`` (as-of filtering
is by date) and the full instant as ``published_at`` (rules with ``order: later`` compare instants,
so two events of one day are ordered). An instant with an offset is converted to UTC; one without
is taken as written (all naive instants of a corpus are assumed to share one clock). A source that
knows only the year ("1982") or the month ("1982-06") says so: the record keeps the first day of
that period as ``published`` and the precision as ``date_precision``, and ``order: later``
compares two documents at the coarser of their precisions, where the same year is not earlier (a
document of 1982 may supersede another of 1982; the edge's evidence says the order rests on the year).

Unknown top-level fields are kept as attributes. A malformed line is reported with its file and
line number and skipped; every valid line is still loaded. Lines are read as bytes and decoded one
by one, so invalid UTF-8 costs only its own line. A record is rejected here, before anything is
written, whenever Neo4j could not store it (ids too long for an index key, integers beyond 64
bits, unpaired surrogates, NUL characters): a batch is one transaction, and one unstorable record
must not abort the valid records of its batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from car_graph.errors import IngestError, InputProblem
from car_graph.keys import NAME_PATTERN

KNOWN_FIELDS = frozenset(
    {"id", "text", "title", "domain", "kind", "published", "scope", "supersedes", "attributes"}
)
# Attribute and entity-type names become property names / values matched in Cypher; keep them
# plain: NAME_PATTERN (car_graph.keys, shared with the domain declarations).
# Limits on what one record may hold. Ids and scope keys are index keys (Neo4j's range index
# refuses keys over ~8 KB); a line over MAX_LINE_BYTES is almost certainly a broken export.
MAX_LINE_BYTES = 4 * 2**20
MAX_KEY_CHARS = 1024
MAX_NESTING = 32
INT64 = (-(2**63), 2**63 - 1)


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
    # how much of ``published`` the source knows: "day", or "month" / "year" (``published`` is
    # then the period's first day)
    date_precision: str = "day"
    # entity type -> keys; supersession is keyed on these (a package, a case, a drug)
    scope: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    supersedes: tuple[SupersedesRef, ...] = ()
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.date_precision not in PRECISION_CHARS:
            raise ValueError(f"date_precision {self.date_precision!r} is not one of {sorted(PRECISION_CHARS)}")

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
            out["published"] = self.published.isoformat()[:PRECISION_CHARS[self.date_precision]]
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
    """None or '' -> None; 'YYYY-MM-DD...' -> date; anything else raises ValueError."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a 'YYYY-MM-DD' string, got {type(value).__name__}")
    try:
        return date.fromisoformat(value[:10])
    except ValueError as e:
        raise ValueError(f"{what} is not a date (YYYY-MM-DD): {value[:40]!r}") from e


def _check_storable(value: Any, where: str, depth: int = 0) -> None:
    """Raise ValueError for what Neo4j or its driver cannot take (see the module docstring)."""
    if depth > MAX_NESTING:
        raise ValueError(f"{where} is nested deeper than {MAX_NESTING} levels")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError(f"{where} contains a NUL character")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ValueError(f"{where} contains an unpaired surrogate ({e.reason})") from e
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError(f"{where} is an integer beyond 64 bits")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{where} is not a finite number")
    elif isinstance(value, list):
        for item in value:
            _check_storable(item, where, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_storable(key, f"{where} key", depth + 1)
            _check_storable(item, f"{where}.{key}"[:80], depth + 1)


def _key(value: str, what: str) -> str:
    if len(value) > MAX_KEY_CHARS:
        raise ValueError(f"{what} is {len(value)} characters long (at most {MAX_KEY_CHARS})")
    return value


def _indexed(value: str | None, what: str) -> str | None:
    """domain and kind are range-indexed, so they obey the key length limit."""
    return None if value is None else _key(value, what)


# how many characters of an ISO date each precision writes
PRECISION_CHARS = {"year": 4, "month": 7, "day": 10}


def parse_published(value: Any) -> tuple[date | None, datetime | None, str]:
    """``published`` -> (date, instant or None, precision): a date, a year ("1982") or a month
    ("1982-06") -- the period's first day, with its precision --, or an ISO date-time whose date
    is kept as written and whose instant is made naive UTC when it carries an offset.

    >>> parse_published("1982")
    (datetime.date(1982, 1, 1), None, 'year')
    """
    if isinstance(value, str) and len(value) in (4, 7) and value[:4].isdigit():
        precision = "year" if len(value) == 4 else "month"
        try:
            return date.fromisoformat(f"{value}-01-01"[:10]), None, precision
        except ValueError as e:
            raise ValueError(f"published is not a year or a month (YYYY or YYYY-MM): {value!r}") from e
    if not isinstance(value, str) or len(value) <= 10 or value[10] not in "Tt ":
        return parse_date(value, "published"), None, "day"
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
    return day, instant, "day"


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
        scope[etype] = tuple(dict.fromkeys(_key(k.strip(), f"scope {etype!r} key") for k in keys))
    return scope


def _supersedes(value: Any) -> tuple[SupersedesRef, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError("field 'supersedes' must be a list of ids or {id, effective?, evidence?}")
    refs = []
    for item in value:
        if isinstance(item, str) and item:
            refs.append(SupersedesRef(_key(item, "supersedes id")))
        elif isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"]:
            partial = item.get("partial", False)
            if not isinstance(partial, bool):
                raise ValueError("'supersedes[].partial' must be true or false")
            evidence = item.get("evidence")
            if evidence is not None and not isinstance(evidence, str):
                raise ValueError("'supersedes[].evidence' must be a string")
            refs.append(
                SupersedesRef(
                    _key(item["id"], "supersedes id"),
                    parse_date(item.get("effective"), "supersedes[].effective"),
                    evidence,
                    partial,
                )
            )
        else:
            raise ValueError(f"bad 'supersedes' entry {item!r}: need an id or {{'id': ...}}")
    return tuple(refs)


def parse_record(obj: Any) -> DocumentRecord:
    """One JSON object -> DocumentRecord; raises ValueError with the reason, nothing else."""
    if not isinstance(obj, dict):
        raise ValueError(f"a line must hold a JSON object, got {type(obj).__name__}")
    _check_storable(obj, "record")
    attributes = obj.get("attributes")
    if attributes is None:
        attributes = {}
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
    withdrawn = attributes.get("withdrawn")
    if isinstance(withdrawn, str):
        parse_date(withdrawn, "attributes.withdrawn")  # the pipeline stores it as a date
    published, published_at, precision = parse_published(obj.get("published"))
    return DocumentRecord(
        id=_key(doc_id.strip(), "field 'id'"),
        text=text,
        title=_string(obj, "title") or "",
        domain=_indexed(_string(obj, "domain"), "field 'domain'"),
        kind=_indexed(_string(obj, "kind"), "field 'kind'"),
        published=published,
        published_at=published_at,
        date_precision=precision,
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
    with open(path, "rb") as handle:
        yield from parse_lines(_bounded_lines(handle), str(path), problems)


@dataclass(frozen=True)
class OversizedLine:
    """Stands for a line longer than MAX_LINE_BYTES; holds only its length, not its bytes."""

    size: int


def _bounded_lines(handle: Any) -> Iterator[bytes | OversizedLine]:
    """The file's lines as bytes, never holding more than MAX_LINE_BYTES of one line in memory."""
    while True:
        line = handle.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            size = len(line)
            while line and not line.endswith(b"\n"):  # skip the rest of the oversized line
                line = handle.readline(MAX_LINE_BYTES)
                size += len(line)
            yield OversizedLine(size)
            continue
        yield line


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON: {name} is not a JSON number")


def decode_line(line: str | bytes | OversizedLine) -> Any:
    """One line -> its JSON value; ValueError (with the reason) for anything that is not."""
    if isinstance(line, OversizedLine):
        raise ValueError(f"line is {line.size:,} bytes long (at most {MAX_LINE_BYTES:,})")
    if isinstance(line, bytes):
        if len(line) > MAX_LINE_BYTES:
            raise ValueError(f"line is {len(line):,} bytes long (at most {MAX_LINE_BYTES:,})")
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"invalid UTF-8 at byte {e.start}: {e.reason}") from e
    try:
        return json.loads(line, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON: {e.msg} (column {e.colno})") from e
    except RecursionError as e:
        raise ValueError(f"invalid JSON: nested too deeply (at most {MAX_NESTING} levels)") from e


def parse_lines(
    lines: Iterable[str | bytes | OversizedLine], source: str,
    problems: list[InputProblem] | None = None,
) -> Iterator[DocumentRecord]:
    """Records of JSON Lines given as str or bytes (bytes are decoded per line)."""
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, OversizedLine) and not line.strip():
            continue
        try:
            record = parse_record(decode_line(line))
            if record.id in seen:
                raise ValueError(
                    f"duplicate id {record.id!r} in this file (line {seen[record.id]} was kept)"
                )
            seen[record.id] = number
        except ValueError as e:
            if problems is None:
                raise IngestError(source, number, str(e)) from e
            problems.append(InputProblem(source, number, str(e)))
            continue
        yield record


def write_jsonl(records: Iterable[DocumentRecord], path: Path) -> int:
    count = 0
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    return count


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and value is not None


def _property_value(value: Any) -> Any | None:
    """Neo4j stores scalars and homogeneous lists of scalars; anything else stays in JSON only."""
    if _scalar(value):
        return value
    if isinstance(value, list) and value and all(_scalar(v) for v in value) and len({type(v) for v in value}) == 1:
        return value
    return None


def stored_attributes(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """Attribute name -> the value Neo4j stores as ``attr_<name>`` (what rules compare)."""
    out = {}
    for name, value in attributes.items():
        stored = _property_value(value)
        if stored is not None:
            out[name] = stored
    return out
