"""The analyst query library (``queries/analyst/*.cypher``) run from Python or ``car-graph query``.

Each statement runs as written, in a READ transaction, with parameters bound from its header:
a parameter declared ``|null`` may be left out (it is bound to null, which every analyst query
treats as "no filter"); a missing required one is an error that quotes the header's ``:param``
lines. Values come back as plain JSON-able data: nodes as their properties (without the
embedding), relationships and paths by document id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import neo4j
from neo4j.graph import Node, Path, Relationship
from rapidfuzz import process

from car_graph import cypher
from car_graph.errors import QueryParameterError, UnknownQueryError
from car_graph.types import known_at_instant

# Properties too large or too internal for a result table.
HIDDEN_PROPERTIES = frozenset({"embedding", "text", "attributes"})
# Parameters naming a transaction-time instant (read as --known-at reads its value).
KNOWN_AT_PARAMETERS = frozenset({"known_at", "known_from", "known_to"})


@dataclass(frozen=True)
class QueryResult:
    name: str
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.name, "columns": list(self.columns), "rows": list(self.rows)}


def resolve_name(name: str) -> str:
    """``chain`` or ``analyst/chain`` -> ``analyst/chain``; an unknown name lists the nearest."""
    full = name if name.startswith(f"{cypher.ANALYST_FOLDER}/") else f"{cypher.ANALYST_FOLDER}/{name}"
    names = cypher.analyst_names()
    if full in names:
        return full
    short = [n.split("/", 1)[1] for n in names]
    nearest = [match for match, _score, _ in process.extract(name, short, limit=3)]
    raise UnknownQueryError(name, suggestions=tuple(nearest))


def parse_param(assignment: str) -> tuple[str, Any]:
    """``k=v``: v as JSON when it parses (numbers, null, lists, quoted strings), else the text."""
    key, sep, raw = assignment.partition("=")
    key = key.strip().lstrip("$")
    if not sep or not key:
        raise QueryParameterError(f"--param {assignment!r}: expected NAME=VALUE")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def bind(name: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The statement's parameters: given ones, null for omitted optional ones; unknown or
    missing required parameters are a QueryParameterError naming what to pass."""
    declared = cypher.declared_parameters(name)
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise QueryParameterError(
            f"{name} has no parameter {', '.join(unknown)}; it takes {', '.join(declared) or 'none'}"
        )
    missing = [p for p in declared.values() if p.name not in given and not p.optional]
    if missing:
        examples = " ".join(cypher.browser_params(name))
        raise QueryParameterError(
            f"{name} needs {', '.join('$' + p.name + ' (' + p.type + ')' for p in missing)}; "
            f"e.g. {examples}"
        )
    bound = {p: given.get(p) for p in declared}
    for clock in KNOWN_AT_PARAMETERS & set(bound):
        if bound[clock] is not None and not isinstance(bound[clock], datetime):
            # --param known_at=2019-06-01 means what --known-at 2019-06-01 means (the end of
            # the day, UTC); the statements' @known_instant reads a pasted Browser text alike.
            # A basic date (20261207) arrives as a JSON number: the same parser reads its text,
            # and anything else is a clear error here, never the server's
            value = bound[clock]
            try:
                bound[clock] = known_at_instant(value if isinstance(value, (str, date))
                                                else str(value))
            except ValueError as exc:
                raise QueryParameterError(f"{name}: {clock}: {exc}") from None
    return bound


def run_query(driver: neo4j.Driver, database: str | None, name: str, params: Mapping[str, Any]) -> QueryResult:
    """Run one analyst statement in a READ transaction and return plain rows."""
    full = resolve_name(name)
    columns, records = run_read(driver, database, full, bind(full, params))
    rows = tuple({key: plain(record[key]) for key in columns} for record in records)
    return QueryResult(full, tuple(columns), rows)


def run_read(
    driver: neo4j.Driver, database: str | None, name: str, params: Mapping[str, Any]
) -> tuple[list[str], list[neo4j.Record]]:
    """One catalogue statement in a READ transaction: the server itself refuses a write in it,
    whatever the statement says (tests/integration/test_mcp_server.py shows this)."""

    def work(tx: neo4j.ManagedTransaction) -> tuple[list[str], list[neo4j.Record]]:
        result = tx.run(cypher.statement(name, history=cypher.reads_history(name, params)),
                        dict(params))
        return list(result.keys()), list(result)

    with driver.session(database=database) as session:
        return session.execute_read(work)


def plain(value: Any) -> Any:
    """A JSON-able rendering of a Cypher value."""
    if isinstance(value, Node):
        props = {k: plain(v) for k, v in value.items() if k not in HIDDEN_PROPERTIES}
        return {"labels": sorted(value.labels), **props}
    if isinstance(value, Relationship):
        return _relationship(value)
    if isinstance(value, Path):
        return {"nodes": [_node_id(n) for n in value.nodes],
                "relationships": [_relationship(r) for r in value.relationships]}
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "iso_format"):  # neo4j.time Date / DateTime / Time / Duration
        return value.iso_format()
    return value


def _node_id(node: Node | None) -> str | None:
    if node is None:
        return None
    return node.get("id") or node.get("key") or node.element_id


def _relationship(rel: Relationship) -> dict[str, Any]:
    props = {k: plain(v) for k, v in rel.items()}
    return {"type": rel.type, "from": _node_id(rel.start_node), "to": _node_id(rel.end_node), **props}


def cell(value: Any) -> str:
    """One value as a table or CSV cell: scalars as text, paths as id chains, the rest as JSON."""
    if value is None:
        return ""
    if isinstance(value, Mapping) and set(value) == {"nodes", "relationships"}:
        hops = [f"{r['to']} <-[{r.get('rule', r['type'])}]- {r['from']}" for r in value["relationships"]]
        return "; ".join(hops) if hops else str(value["nodes"][0])
    if isinstance(value, (Mapping, Sequence)) and not isinstance(value, str):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)
