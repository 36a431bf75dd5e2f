"""The query catalogue: every Cypher statement is a ``.cypher`` file loaded by name.

Statements are never built from strings; callers pass parameters. The files live in the
repository's ``queries/`` and ``graph_schema/`` folders, installed as ``car_graph.queries`` and
``car_graph.graph_schema``. Each file opens with a comment header naming its parameters and
returned columns, which analysts can read and run as-is in Neo4j Browser or cypher-shell.

Names may have one folder part: ``analyst/chain`` is ``queries/analyst/chain.cypher``, the
analyst query library (read-only statements whose header also carries ``:param`` lines to paste
into Browser). ``declared_parameters`` reads a header's ``params:`` list, so a caller such as
``car-graph query`` can tell a missing required parameter from an optional (``|null``) one.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from typing import LiteralString, cast

from neo4j import Query

from car_graph.errors import UnknownQueryError

QUERY_PACKAGE = "car_graph.queries"
SCHEMA_PACKAGE = "car_graph.graph_schema"
ANALYST_FOLDER = "analyst"
_NAME_PART = re.compile(r"[a-z0-9_]+")
_DECLARED = re.compile(r"\$(\w+)\s+([^,$]*)")


@dataclass(frozen=True)
class DeclaredParameter:
    """One ``$name type`` entry of a statement's ``params:`` header."""

    name: str
    type: str
    optional: bool   # declared ``|null``: absent means null


def _names(package: str, folder: str | None = None) -> list[str]:
    root = resources.files(package)
    if folder:
        root = root / folder
        if not root.is_dir():
            return []
    prefix = f"{folder}/" if folder else ""
    return sorted(
        prefix + p.name[: -len(".cypher")] for p in root.iterdir() if p.name.endswith(".cypher")
    )


def query_names() -> list[str]:
    """Names of every statement in ``queries/``, the analyst library's as ``analyst/NAME``."""
    return _names(QUERY_PACKAGE) + analyst_names()


def analyst_names() -> list[str]:
    """The analyst query library, ``queries/analyst/*.cypher``, as ``analyst/NAME``."""
    return _names(QUERY_PACKAGE, ANALYST_FOLDER)


def _resource(name: str, package: str) -> Traversable:
    parts = name.split("/")
    # Names are identifiers, never paths: no '..', no absolute names, at most one folder.
    if len(parts) > 2 or not all(_NAME_PART.fullmatch(part) for part in parts):
        raise UnknownQueryError(name)
    return resources.files(package).joinpath(*parts[:-1], f"{parts[-1]}.cypher")


def schema_names() -> list[str]:
    """Names of every DDL statement in ``graph_schema/``, in the order they must be applied."""
    return _names(SCHEMA_PACKAGE)


@functools.cache
def text(name: str, package: str = QUERY_PACKAGE) -> str:
    """The raw text of one statement, header comments included."""
    resource = _resource(name, package)
    if not resource.is_file():
        raise UnknownQueryError(name)
    return resource.read_text(encoding="utf-8")


PROFILE_PREFIX = "PROFILE\n"


def statement(name: str, package: str = QUERY_PACKAGE, *, profile: bool = False) -> LiteralString:
    """The statement as the driver's ``LiteralString`` (for ``Transaction.run``). ``profile``:
    with Cypher's PROFILE keyword in front, so the result summary carries the executed plan
    (benchmarks/bench.py keeps it in docs/benchmarks.md)."""
    # The one place a file's text becomes a LiteralString: it comes from our own package data.
    body = text(name, package)
    return cast(LiteralString, PROFILE_PREFIX + body if profile else body)


def load(name: str, *, timeout: float | None = None, package: str = QUERY_PACKAGE) -> Query:
    """A ``neo4j.Query`` for the named statement, tagged so it shows in the server's query log."""
    return Query(statement(name, package), metadata={"car_query": name}, timeout=timeout)


def load_schema(name: str) -> Query:
    return load(name, package=SCHEMA_PACKAGE)


def header(name: str, package: str = QUERY_PACKAGE) -> list[str]:
    """The leading ``//`` comment lines of a statement, without the slashes."""
    lines = []
    for line in text(name, package).splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    return lines


def declared_parameters(name: str, package: str = QUERY_PACKAGE) -> dict[str, DeclaredParameter]:
    """The ``params:`` entries of a statement's header (which may wrap over several lines)."""
    declared: dict[str, DeclaredParameter] = {}
    inside = False
    for line in header(name, package):
        if line.startswith("params:"):
            inside, line = True, line[len("params:"):]
        elif line.startswith(("returns:", ":param")):
            inside = False
        if not inside:
            continue
        for match in _DECLARED.finditer(line):
            kind = (match.group(2).split() or ["any"])[0]
            declared[match.group(1)] = DeclaredParameter(match.group(1), kind, "|null" in kind)
    return declared


def browser_params(name: str, package: str = QUERY_PACKAGE) -> list[str]:
    """The header's ``:param`` lines, ready to paste into Neo4j Browser."""
    return [line for line in header(name, package) if line.startswith(":param ")]


def purpose(name: str, package: str = QUERY_PACKAGE) -> str:
    """The header's ``Purpose:`` paragraph (it runs until the ``params:`` line)."""
    lines: list[str] = []
    for line in header(name, package):
        if line.startswith("Purpose:"):
            lines.append(line[len("Purpose:"):].strip())
        elif lines and not line.startswith(("params:", "returns:", ":param")):
            lines.append(line)
        elif lines:
            break
    return " ".join(lines)
