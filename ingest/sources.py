"""Input formats accepted by ``car-graph ingest --format``; each yields DocumentRecords."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from car_graph.errors import ConfigError, InputProblem
from car_graph.ingest.records import DocumentRecord, read_jsonl

FORMATS = ("jsonl", "osv", "openfda-enforcement")


def read_source(
    path: Path, format: str, problems: list[InputProblem]
) -> Iterator[DocumentRecord]:
    """Every valid record of ``path``; bad records go to ``problems`` with file, line and reason."""
    if not path.exists():
        raise ConfigError(f"{path}: no such file or directory")
    if format == "jsonl":
        return read_jsonl(path, problems)
    if format == "osv":
        from car_graph.ingest.security import read_osv

        return iter(read_osv(path, problems))
    if format == "openfda-enforcement":
        from car_graph.ingest.drug import read_openfda_enforcement

        return iter(read_openfda_enforcement(path, problems))
    raise ConfigError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
