"""Input formats accepted by ``car-graph ingest --format``; each yields DocumentRecords.

``jsonl`` is the generic format (car_graph.records); every other format is a reader an
installed domain declares (``Domain.formats``), so the choices grow with the domains installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from car_graph.domains import DomainRegistry
from car_graph.errors import ConfigError, InputProblem
from car_graph.records import DocumentRecord, read_jsonl

GENERIC_FORMAT = "jsonl"


def format_names() -> tuple[str, ...]:
    """``jsonl`` and the installed domains' formats (their names, sorted)."""
    return (GENERIC_FORMAT, *sorted(DomainRegistry.installed().formats()))


def format_help() -> str:
    """One line per format: its name and the first line of its reader's docstring."""
    readers = DomainRegistry.installed().formats()
    lines = [f"{GENERIC_FORMAT}: the generic JSON Lines format"]
    for name in sorted(readers):
        summary = (readers[name].__doc__ or "").strip().split("\n", 1)[0].rstrip(".").replace("``", "")
        lines.append(f"{name}: {summary}" if summary else name)
    return "; ".join(lines) + "."


def read_source(
    path: Path, format: str, problems: list[InputProblem]
) -> Iterator[DocumentRecord]:
    """Every valid record of ``path``; bad records go to ``problems`` with file, line and reason."""
    if not path.exists():
        raise ConfigError(f"{path}: no such file or directory")
    if format == GENERIC_FORMAT:
        return read_jsonl(path, problems)
    reader = DomainRegistry.installed().formats().get(format)
    if reader is None:
        raise ConfigError(f"unknown format {format!r}; choose from {', '.join(format_names())}")
    return iter(reader(path, problems))
