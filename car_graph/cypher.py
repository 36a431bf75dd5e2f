"""The query catalogue: every Cypher statement is a ``.cypher`` file loaded by name.

Statements are never built from strings; callers pass parameters. The files live in the
repository's ``queries/`` and ``graph_schema/`` folders, installed as ``car_graph.queries`` and
``car_graph.graph_schema``. Each file opens with a comment header naming its parameters and
returned columns, which analysts can read and run as-is in Neo4j Browser or cypher-shell.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import LiteralString, cast

from neo4j import Query

from car_graph.errors import UnknownQueryError

QUERY_PACKAGE = "car_graph.queries"
SCHEMA_PACKAGE = "car_graph.graph_schema"


def _names(package: str) -> list[str]:
    root = resources.files(package)
    return sorted(p.name[: -len(".cypher")] for p in root.iterdir() if p.name.endswith(".cypher"))


def query_names() -> list[str]:
    """Names of every statement in ``queries/``."""
    return _names(QUERY_PACKAGE)


def schema_names() -> list[str]:
    """Names of every DDL statement in ``graph_schema/``, in the order they must be applied."""
    return _names(SCHEMA_PACKAGE)


@functools.cache
def text(name: str, package: str = QUERY_PACKAGE) -> str:
    """The raw text of one statement, header comments included."""
    resource = resources.files(package) / f"{name}.cypher"
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
