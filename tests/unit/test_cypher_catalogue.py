"""Every Cypher statement is a catalogue file with a header; none is built from strings."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from car_graph import cypher
from car_graph.errors import BadIncludeError, UnknownQueryError

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


def test_car_is_anchors_handed_to_closure_in_one_statement() -> None:
    car = cypher.text("car")
    assert not [line for line in car.splitlines() if line.lstrip().startswith("//@include")]
    body = [line for line in car.splitlines() if not line.lstrip().startswith("//")]
    anchors = [line for line in cypher.text("anchors").splitlines() if not line.lstrip().startswith("//")]
    closure = [line for line in cypher.text("closure").splitlines() if not line.lstrip().startswith("//")]
    assert anchors[0] in body and anchors[-1] in body
    # closure's list parameter is bound to the collected anchors; anchors' count stays a parameter
    assert closure[0] == "UNWIND $anchors AS a" and "UNWIND anchors AS a" in body
    assert "LIMIT $anchors" in body
    assert cypher.declared_parameters("car")["anchors"].type == "int"
    assert {"k", "embedding", "entities", "fulltext", "as_of"} <= set(cypher.declared_parameters("car"))
    assert cypher.includes("car") == [("anchors", {}), ("closure", {"anchors": "anchors"})]


@pytest.fixture
def statements(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., str]]:
    """A throwaway query package: name -> text files, importable as ``fake_queries``."""
    package = tmp_path / "fake_queries"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_queries", raising=False)  # another test's package
    cypher.text.cache_clear()

    def write(**files: str) -> str:
        for name, body in files.items():
            (package / f"{name}.cypher").write_text(body)
        return "fake_queries"

    yield write
    cypher.text.cache_clear()


def test_an_include_binds_the_included_parameter_to_a_variable(statements: Callable[..., str]) -> None:
    package = statements(
        inner="// params: $items list<int>, $limit int\nUNWIND $items AS i\nRETURN i LIMIT $limit\n",
        outer="// params: $n int\nWITH range(1, $n) AS xs\nCALL (xs) {\n  //@include inner $items=xs\n}\nRETURN i\n",
    )
    expanded = cypher.text("outer", package)
    assert "UNWIND xs AS i" in expanded and "LIMIT $limit" in expanded and "$items" not in expanded
    assert set(cypher.declared_parameters("outer", package)) == {"n", "limit"}


def test_an_include_cycle_or_an_unknown_binding_is_a_typed_error(statements: Callable[..., str]) -> None:
    package = statements(
        a="RETURN 1 AS x\n//@include b\n",
        b="//@include a\n",
        c="//@include d $missing=x\n",
        d="UNWIND $items AS i RETURN i\n",
    )
    with pytest.raises(BadIncludeError, match="a -> b -> a: an include cycle"):
        cypher.text("a", package)
    with pytest.raises(BadIncludeError, match=r"\$missing"):
        cypher.text("c", package)


def test_query_show_prints_the_expanded_statement_without_a_server() -> None:
    from click.testing import CliRunner

    from car_graph.cli import main

    run = CliRunner().invoke(main, ["query", "car", "--show"], env={"NEO4J_URI": "bolt://127.0.0.1:1"})
    assert run.exit_code == 0, run.output
    assert run.output == cypher.text("car")
    run = CliRunner().invoke(main, ["query", "chain", "--show"])
    assert run.exit_code == 0 and run.output == cypher.text("analyst/chain")
