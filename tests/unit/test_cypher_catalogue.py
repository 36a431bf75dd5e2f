"""Every Cypher statement is a catalogue file with a header; none is built from strings."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from car_graph import cypher
from car_graph.errors import UnknownQueryError

ROOT = Path(__file__).resolve().parents[2]
PYTHON_SOURCES = sorted([*ROOT.joinpath("car_graph").rglob("*.py"), *ROOT.joinpath("ingest").rglob("*.py")])
CYPHER_WORDS = re.compile(
    r"\b(?:MATCH|MERGE|CREATE)\s*\(|\bDETACH\s+DELETE\b|\bUNWIND\s+\$|\bCALL\s+(?:db|dbms)\."
    r"|\bRETURN\s+\w+\.\w+|\b(?:CREATE|DROP)\s+(?:INDEX|CONSTRAINT|VECTOR|FULLTEXT)\b"
)
DRIVER_CALLS = {"run", "execute_query", "Query"}


@pytest.mark.parametrize("name", cypher.query_names())
def test_every_query_file_has_a_params_and_returns_header(name: str) -> None:
    text = cypher.text(name)
    header = [line for line in text.splitlines() if line.startswith("//")]
    assert any("params:" in line for line in header), name
    assert any("returns:" in line for line in header), name
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    body = re.sub(r"'[^']*'", "''", body)
    assert ";" not in body.rstrip().rstrip(";"), f"{name}: one statement per file"


def test_schema_files_exist_and_load() -> None:
    names = cypher.schema_names()
    assert names == sorted(names) and names
    for name in names:
        assert cypher.load_schema(name).text.strip()


def test_unknown_query_name_is_a_typed_error() -> None:
    with pytest.raises(UnknownQueryError):
        cypher.load("drop_everything")


def _first_argument_is_catalogue_load(call: ast.Call) -> bool:
    if not call.args:
        return True
    arg = call.args[0]
    if isinstance(arg, ast.Call):
        func = arg.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in {"load", "load_schema", "statement"}
    # a variable holding a loaded Query, or the LiteralString cast inside cypher.py itself
    return isinstance(arg, ast.Name)


@pytest.mark.parametrize("path", PYTHON_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_cypher_is_built_from_strings(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            is_subprocess = isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "subprocess"
            if name in DRIVER_CALLS and not is_subprocess:
                assert _first_argument_is_catalogue_load(node), (
                    f"{path}:{node.lineno}: {name}() must take a statement from car_graph.cypher"
                )
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            assert not CYPHER_WORDS.search(node.value), (
                f"{path}:{node.lineno}: Cypher-like string literal; put it in queries/*.cypher"
            )
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            assert not CYPHER_WORDS.search(text), f"{path}:{node.lineno}: Cypher in an f-string"


def test_the_checker_catches_string_built_cypher(tmp_path: Path) -> None:
    bad = "def f(tx, label):\n    tx.run(f'MATCH (n:{label}) DETACH DELETE n')\n"
    tree = ast.parse(bad)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "run"]
    assert calls and not _first_argument_is_catalogue_load(calls[0])
