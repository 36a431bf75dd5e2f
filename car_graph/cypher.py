"""The query catalogue: every Cypher statement is a ``.cypher`` file loaded by name.

Statements are never built from strings; callers pass parameters. The files live in the
repository's ``queries/`` and ``graph_schema/`` folders, installed as ``car_graph.queries`` and
``car_graph.graph_schema``. Each file opens with a comment header naming its parameters and
returned columns, which analysts can read and run as-is in Neo4j Browser or cypher-shell.

Names may have one folder part: ``analyst/chain`` is ``queries/analyst/chain.cypher``, the
analyst query library (read-only statements whose header also carries ``:param`` lines to paste
into Browser). ``declared_parameters`` reads a header's ``params:`` list, so a caller such as
``car-graph query`` can tell a missing required parameter from an optional (``|null``) one.

A statement may include others: a line ``//@include NAME $p=v ...`` stands for statement NAME
with its parameter ``$p`` bound to the including statement's variable ``v``. queries/car.cypher
hands anchors.cypher's rows to closure.cypher that way -- one round trip instead of two
statements in a transaction -- while both parts stay files of their own (``hybrid`` runs
anchors alone, ``explain`` closure alone), so nothing is written twice.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from typing import LiteralString, cast

from neo4j import Query

from car_graph.errors import BadIncludeError, UnknownQueryError

QUERY_PACKAGE = "car_graph.queries"
SCHEMA_PACKAGE = "car_graph.graph_schema"
ANALYST_FOLDER = "analyst"
_NAME_PART = re.compile(r"[a-z0-9_]+")
_DECLARED = re.compile(r"\$(\w+)\s+([^,$]*)")
_INCLUDE = re.compile(r"^[ \t]*//@include[ \t]+([a-z0-9_]+)((?:[ \t]+\$\w+=\w+)*)[ \t]*$", re.MULTILINE)
_BINDING = re.compile(r"\$(\w+)=(\w+)")


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
    """The text of one statement, header comments included, ``//@include`` lines expanded."""
    return _expand(raw_text(name, package), package, (name,))


def raw_text(name: str, package: str = QUERY_PACKAGE) -> str:
    """The file as written (``//@include`` lines not expanded)."""
    resource = _resource(name, package)
    if not resource.is_file():
        raise UnknownQueryError(name)
    return resource.read_text(encoding="utf-8")


def includes(name: str, package: str = QUERY_PACKAGE) -> list[tuple[str, dict[str, str]]]:
    """The statements a file includes, each with its bindings (parameter -> variable)."""
    return [(match.group(1), dict(_BINDING.findall(match.group(2))))
            for match in _INCLUDE.finditer(raw_text(name, package))]


def _expand(body: str, package: str, seen: tuple[str, ...]) -> str:
    def include(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in seen:
            raise BadIncludeError(f"{' -> '.join((*seen, name))}: an include cycle")
        included = _expand(raw_text(name, package), package, (*seen, name)).rstrip("\n")
        for parameter, variable in _BINDING.findall(match.group(2)):
            if not re.search(rf"\${parameter}\b", included):
                raise BadIncludeError(f"{seen[-1]}: {name} has no parameter ${parameter} to bind")
            included = re.sub(rf"\${parameter}\b", variable, included)
        return included

    return _INCLUDE.sub(include, body)


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
    """The ``params:`` entries of a statement's header (which may wrap over several lines),
    and those of the statements it includes but for the parameters bound to its variables."""
    declared: dict[str, DeclaredParameter] = {}
    for included, bindings in includes(name, package):
        for parameter, entry in declared_parameters(included, package).items():
            if parameter not in bindings:
                declared.setdefault(parameter, entry)
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
