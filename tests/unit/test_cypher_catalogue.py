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
QUERIES = ROOT / "queries"
PYTHON_SOURCES = sorted([*ROOT.joinpath("car_graph").rglob("*.py"), *ROOT.joinpath("ingest").rglob("*.py")])
CYPHER_WORDS = re.compile(
    r"\b(?:MATCH|MERGE|CREATE)\s*\(|\bDETACH\s+DELETE\b|\bUNWIND\s+\$|\bCALL\s+(?:db|dbms)\."
    r"|\bRETURN\s+\w+\.\w+|\b(?:CREATE|DROP)\s+(?:INDEX|CONSTRAINT|VECTOR|FULLTEXT)\b"
)
DRIVER_CALLS = {"run", "execute_query", "Query"}


@pytest.mark.catalogue
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


@pytest.mark.catalogue
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
    assert "WITH ranked, rank WHERE rank < $anchors OR rank IN holders" in body
    assert cypher.declared_parameters("car")["anchors"].type == "int"
    assert {"k", "embedding", "entities", "fulltext", "as_of"} <= set(cypher.declared_parameters("car"))
    assert cypher.includes("car") == [("graph_version", {}), ("anchors", {}), ("closure", {"anchors": "anchors"})]


@pytest.fixture
def statements(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., str]]:
    """A throwaway query package: name -> text files (``fragments={name: text}`` for
    fragments), importable as ``fake_queries``."""
    package = tmp_path / "fake_queries"
    (package / cypher.FRAGMENT_FOLDER).mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_queries", raising=False)  # another test's package
    cypher.clear_caches()

    def write(fragments: dict[str, str] | None = None, **files: str) -> str:
        for name, body in files.items():
            (package / f"{name}.cypher").write_text(body)
        for name, body in (fragments or {}).items():
            (package / cypher.FRAGMENT_FOLDER / f"{name}.cypher").write_text(body)
        return "fake_queries"

    yield write
    cypher.clear_caches()


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


# --------------------------------------------------------------------------- fragments

def fragment_file(slots: str, body: str, locals_: str = "(none)", params: str = "(none)") -> str:
    return (f"// Fragment: a test fragment\n// slots: {slots}\n// locals: {locals_}\n"
            f"// params: {params}\n// returns: boolean\n{body}\n")


def code(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def test_a_fragment_binds_each_slot_as_a_whole_word_only(statements: Callable[..., str]) -> None:
    package = statements(
        fragments={"seen": fragment_file(
            "doc node, as_of date|null",
            "as_of IS NULL OR doc.published <= as_of OR doc.doc = $doc OR doc.x = 'doc as_of'")},
        outer="// params: $as_of date|null, $doc string\n// returns: n\n"
              "MATCH (d:Document)\nWHERE NOT @seen(doc: d, as_of: $as_of) OR d.y = '@seen(x)'\nRETURN d AS n\n",
    )
    body = code(cypher.text("outer", package))
    # the property .doc, the parameter $doc and the string keep their text; slots are replaced
    assert ("WHERE NOT ($as_of IS NULL OR d.published <= $as_of OR d.doc = $doc "
            "OR d.x = 'doc as_of') OR d.y = '@seen(x)'") in body
    assert cypher.fragments_used("outer", package) == ["seen"]


def test_a_slot_may_take_a_call_and_an_atomic_fragment_is_not_parenthesised(
        statements: Callable[..., str]) -> None:
    package = statements(
        fragments={"flag": fragment_file("edge relationship", "coalesce(edge.partial, false)"),
                   "dated": fragment_file("newer node, as_of date|null",
                                          "as_of IS NULL OR newer.published <= as_of")},
        outer="// params: (none)\n// returns: n\nMATCH p = ()-[r]->()\n"
              "WHERE @flag(edge: r) AND all(h IN relationships(p) WHERE @dated(newer: startNode(h), as_of: date()))\n"
              "RETURN p AS n\n",
    )
    body = code(cypher.text("outer", package))
    assert ("WHERE coalesce(r.partial, false) AND all(h IN relationships(p) WHERE "
            "(date() IS NULL OR startNode(h).published <= date()))") in body


def test_fragments_nest_and_bind_through(statements: Callable[..., str]) -> None:
    package = statements(
        fragments={
            "inner": fragment_file("x node, when date|null", "when IS NULL OR x.published <= when"),
            "outer": fragment_file(
                "doc node, as_of date|null",
                "EXISTS {\n  MATCH (doc)<-[later_edge]-(later)\n  WHERE @inner(x: later, when: as_of)\n}",
                locals_="later_edge, later"),
        },
        query="// params: $as_of date|null\n// returns: d\nMATCH (d)\n"
              "WHERE NOT @outer(doc: d, as_of: $as_of)\nRETURN d\n",
    )
    assert code(cypher.text("query", package)).splitlines() == [
        "MATCH (d)",
        "WHERE NOT EXISTS {",
        "  MATCH (d)<-[later_edge]-(later)",
        "  WHERE ($as_of IS NULL OR later.published <= $as_of)",
        "}",
        "RETURN d",
    ]
    assert cypher.fragments_used("query", package) == ["inner", "outer"]


@pytest.mark.parametrize(("use", "error"), [
    ("@seen(doc: d)", r"query.cypher:3: @seen leaves slot as_of unbound"),
    ("@seen(doc: d, as_of: $as_of, at: x)", r"query.cypher:3: @seen has no slot at"),
    ("@seen(doc: d, doc: d, as_of: $as_of)", r"binds slot doc twice"),
    ("@unseen(doc: d)", r"query.cypher:3: no fragment @unseen \(fragments/unseen.cypher; fragments: "),
    ("@seen(doc: d, as_of: $as_of", r"is not closed on its line"),
    ("@seen(doc: d + 1, as_of: $as_of)", r"'doc: d \+ 1' is not 'slot: value'"),
    ("@walk(doc: head(xs), as_of: null)", r"matches a pattern on slot doc; bind it to a variable"),
    ("@walk(doc: d, as_of: null) AND hop IS NULL", r"@walk binds hop in its own subqueries"),
    ("@walk(doc: hop, as_of: null)", r"@walk binds hop in its own subqueries"),
])
def test_bad_fragment_uses_are_errors_at_load(statements: Callable[..., str], use: str, error: str) -> None:
    package = statements(
        fragments={"seen": fragment_file("doc node, as_of date|null", "doc.published <= as_of"),
                   "walk": fragment_file("doc node, as_of date|null",
                                         "EXISTS { MATCH (doc)<-[hop]-(:Document) }", locals_="hop")},
        query=f"// params: $as_of date|null\nMATCH (d), (hop)\nWHERE {use}\nRETURN d\n",
    )
    with pytest.raises(BadIncludeError, match=error):
        cypher.text("query", package)


@pytest.mark.parametrize(("fragment", "error"), [
    ("// slots: doc node\n// params: (none)\n// returns: boolean\ndoc.x\n", r"lacks locals:"),
    (fragment_file("doc node", "doc.x // trailing"), r"a\.cypher:6: a comment after code"),
    (fragment_file("doc node", "EXISTS { MATCH (doc)<-[r]-(n) }"), r"pattern variable\(s\) n, r"),
    (fragment_file("doc node", "doc.x;"), r"one expression, no ';'"),
    (fragment_file("doc node", "doc.x\n// a last comment"), r"must end with code"),
])
def test_a_malformed_fragment_is_an_error_at_load(statements: Callable[..., str], fragment: str,
                                                   error: str) -> None:
    package = statements(fragments={"a": fragment},
                         query="// params: (none)\nMATCH (d) WHERE @a(doc: d) RETURN d\n")
    with pytest.raises(BadIncludeError, match=error):
        cypher.text("query", package)


def test_a_fragment_cycle_is_an_error(statements: Callable[..., str]) -> None:
    package = statements(
        fragments={"a": fragment_file("x node", "@b(y: x)"), "b": fragment_file("y node", "NOT @a(x: y)")},
        query="// params: (none)\nMATCH (d) WHERE @a(x: d) RETURN d\n",
    )
    with pytest.raises(BadIncludeError, match="a -> b -> a: a fragment cycle"):
        cypher.text("query", package)


def test_fragment_parameters_are_the_statements_and_fragments_are_not_statements(
        statements: Callable[..., str]) -> None:
    package = statements(
        fragments={"capped": fragment_file("doc node", "doc.size <= $cap", params="$cap int")},
        query="// params: $as_of date|null\nMATCH (d) WHERE @capped(doc: d) RETURN d\n",
    )
    assert [(p.name, p.type) for p in cypher.declared_parameters("query", package).values()] == [
        ("cap", "int"), ("as_of", "date|null")]
    with pytest.raises(UnknownQueryError):
        cypher.load("fragments/voided")


# --------------------------------------------------------------------------- one semantics
#
# Each semantic predicate lives in one fragment. A pattern below is what restating it by hand
# looks like; it may occur in its own fragment and nowhere else under queries/ (projections of
# the stored flags, `partial: coalesce(r.partial, false)`, are values, not predicates).

RESTATEMENTS = {
    "visible": [r"\.published\s*<="],
    "in_force": [r"\.effective\s*(?:<=|<|>=|>)"],
    "partial": [r"(?<!partial: )coalesce\(\s*\w+\.partial\s*,\s*false\s*\)(?!\s+AS\s+partial\b)"],
    "cycle_marked": [r"(?<!maybe_cycle: )coalesce\(\s*\w+\.maybe_cycle\s*,\s*false\s*\)(?!\s+AS\s+maybe_cycle\b)"],
    # the cycle test: something ahead that does not lead back
    "voided": [r"MATCH\s+ANY\s+SHORTEST\s+\(ahead\)"],
    # the transaction-time interval of an edge
    "recorded": [r"coalesce\(\s*\w+\.recorded_until\s*>"],
    "undecided": [r"unresolved_from\s*<="],
    "frontier_status": [r"\.withdrawn\s*<=", r"THEN\s+'withdrawn'", r"THEN\s+'unresolved'",
                        r"THEN\s+'partially_superseded'", r"ELSE\s+'active'"],
    "status": [r"THEN\s+'superseded'"],
}
# statements allowed to carry a pattern, and why
ALLOWED = {
    ("voided", "cycle_marked_edges.cypher"): "reads the marks themselves, by the supersedes_maybe_cycle index",
}


def cypher_files() -> list[Path]:
    return sorted(QUERIES.rglob("*.cypher"))


def restatements(name: str, text: str) -> list[str]:
    """The fragments whose predicate ``text`` restates (``name``: its path under queries/)."""
    found = []
    for owner, patterns in RESTATEMENTS.items():
        if name == f"fragments/{owner}.cypher" or (owner, name) in ALLOWED:
            continue
        if any(re.search(pattern, text) for pattern in patterns):
            found.append(owner)
    return found


def test_every_semantic_predicate_is_written_in_its_fragment() -> None:
    # the patterns are live: each matches its own fragment's raw text
    for owner, patterns in RESTATEMENTS.items():
        raw = (QUERIES / "fragments" / f"{owner}.cypher").read_text()
        for pattern in patterns:
            assert re.search(pattern, raw), (owner, pattern)
    assert set(RESTATEMENTS) <= set(cypher.fragment_names())


@pytest.mark.catalogue
@pytest.mark.parametrize("path", cypher_files(), ids=lambda p: str(p.relative_to(QUERIES)))
def test_no_cypher_file_restates_a_fragment(path: Path) -> None:
    name = str(path.relative_to(QUERIES))
    assert restatements(name, path.read_text()) == [], (
        f"queries/{name} restates a semantic predicate; use the fragment (queries/fragments/)")


def test_the_restatement_check_catches_a_hand_copy() -> None:
    assert restatements("analyst/chain.cypher",
                        "WHERE (as_of IS NULL OR s.effective IS NULL OR s.effective <= as_of)") == ["in_force"]
    assert restatements("label_status.cypher", "WHERE NOT EXISTS { MATCH ANY SHORTEST (ahead)(()<-[:SUPERSEDES]-())+(d) } "
                        "THEN 'unresolved'") == ["voided", "frontier_status"]
    assert restatements("x.cypher", "WHERE coalesce(s.recorded_until > $known_at, true)") == ["recorded"]
    assert restatements("x.cypher", "WHERE NOT coalesce(s.partial, false)") == ["partial"]
    assert restatements("x.cypher", "RETURN coalesce(s.partial, false) AS partial") == []


@pytest.mark.parametrize(("pattern", "owner"), [
    (r"THEN 'partially_superseded'", "fragments/frontier_status.cypher"),   # the status CASE
    (r"\.effective <=", "fragments/in_force.cypher"),                        # "in force"
    (r"\.published <=", "fragments/visible.cypher"),                         # "visible"
    (r"\.withdrawn <=", "fragments/frontier_status.cypher"),                 # "withdrawn"
])
def test_grep_finds_each_predicate_in_exactly_one_file(pattern: str, owner: str) -> None:
    found = [str(p.relative_to(QUERIES)) for p in cypher_files() if re.search(pattern, p.read_text())]
    assert found == [owner]


@pytest.mark.catalogue
@pytest.mark.parametrize("name", cypher.fragment_names())
def test_every_fragment_declares_its_contract_and_is_used(name: str) -> None:
    used = cypher.fragment(name)
    header = (QUERIES / "fragments" / f"{name}.cypher").read_text().split("\n")
    assert any(line.startswith("// Fragment:") for line in header)
    assert any(line.startswith("// returns:") for line in header)
    users = [q for q in cypher.query_names() if name in cypher.fragments_used(q)]
    assert users, f"fragment {name} is used by no statement"
    # every slot appears in the body: a declared slot that is never used is a mistake
    for slot in used.slots:
        assert re.search(rf"(?<![\w.$:]){slot}\b", used.body), (name, slot)


@pytest.mark.catalogue
@pytest.mark.parametrize("name", cypher.query_names())
def test_every_statement_expands_to_one_statement_without_fragment_uses(name: str) -> None:
    assert not re.search(r"@[a-z_]+\(", code(cypher.text(name))), name


def test_the_semantic_statements_use_the_fragments() -> None:
    uses = {name: set(cypher.fragments_used(name)) for name in cypher.query_names()}
    assert {"visible", "in_force", "voided", "frontier_status"} <= uses["closure"]
    assert {"status", "voided", "frontier_status"} <= uses["label_status"]
    assert {"visible", "in_force"} <= uses["explain"]
    for name in ("chain", "controlling_for_entity", "stale_crowding", "withdrawn_unresolved"):
        assert "frontier_status" in uses[f"analyst/{name}"], name
    assert "voided" in uses["analyst/controlling_on_date"]
    assert "cycle_marked" in uses["stats_chain_edges"]
    # label_status is today's status: its date slot is date()
    assert "<= date()" in cypher.text("label_status")


def test_query_show_prints_a_statement_with_its_fragments_expanded() -> None:
    from click.testing import CliRunner

    from car_graph.cli import main

    run = CliRunner().invoke(main, ["query", "closure", "--show"])
    assert run.exit_code == 0 and run.output == cypher.text("closure")
    assert "@" not in code(run.output) and "maybe_cycle" in run.output
    assert "@voided(" in cypher.raw_text("closure")


# --------------------------------------------------------------------------- two forms


def test_specialise_keeps_the_if_lines_for_history_and_the_else_lines_for_current() -> None:
    source = "MATCH (d)\n//@if known_at\nWHERE recorded(d)\n//@else\nWHERE d:Current\n//@end\nRETURN d"
    assert cypher.specialise(source, True, "q") == "MATCH (d)\nWHERE recorded(d)\nRETURN d"
    assert cypher.specialise(source, False, "q") == "MATCH (d)\nWHERE d:Current\nRETURN d"
    without_else = "A\n//@if known_at\nB\n//@end\nC"
    assert cypher.specialise(without_else, False, "q") == "A\nC"
    assert cypher.specialise(without_else, True, "q") == "A\nB\nC"


@pytest.mark.parametrize(("source", "error"), [
    ("A\n//@if known_at\nB", r"q: //@if known_at is not closed by //@end"),
    ("//@if known_at\n//@if known_at\n//@end", r"q:2: //@if known_at out of place"),
    ("A\n//@else\nB", r"q:2: //@else out of place"),
    ("A\n//@end", r"q:2: //@end out of place"),
    ("//@if known_at\n//@else\n//@else\n//@end", r"q:3: //@else out of place"),
    ("//@if as_of\nA\n//@end", r"q:1: unknown directive"),
    ("//@if known_at then\nA\n//@end", r"q:1: nothing may follow //@if known_at"),
])
def test_a_malformed_block_is_an_error_at_load(source: str, error: str) -> None:
    with pytest.raises(BadIncludeError, match=error):
        cypher.specialise(source, True, "q")


def test_a_statement_and_its_fragments_come_in_both_forms(statements: Callable[..., str]) -> None:
    package = statements(
        fragments={"facts": fragment_file(
            "doc node, known_at datetime|null",
            "//@if known_at\nCASE WHEN known_at IS NULL THEN doc ELSE doc.version END\n//@else\ndoc\n//@end")},
        query="// params: $known_at datetime|null\n// returns: d\n//@if known_at\nMATCH (d:Any)\n"
              "//@else\nMATCH (d:Current)\n//@end\nRETURN @facts(doc: d, known_at: $known_at) AS d\n",
    )
    assert code(cypher.text("query", package)).splitlines() == [
        "MATCH (d:Any)", "RETURN CASE WHEN $known_at IS NULL THEN d ELSE d.version END AS d"]
    assert code(cypher.text("query", package, False)).splitlines() == ["MATCH (d:Current)", "RETURN d AS d"]
    assert cypher.has_current_form("query", package)
    assert cypher.reads_history("query", {"known_at": None}, package) is False
    assert cypher.reads_history("query", {}, package) is False
    assert cypher.reads_history("query", {"known_at": "2020-01-01"}, package) is True


def test_a_statement_binding_known_at_to_another_instant_has_no_current_form(
        statements: Callable[..., str]) -> None:
    # the current form drops what reads of recorded history need: it is right only when the
    # fragments' known_at is the statement's own $known_at, null then
    package = statements(
        fragments={"facts": fragment_file(
            "doc node, known_at datetime|null",
            "//@if known_at\nCASE WHEN known_at IS NULL THEN doc ELSE doc.version END\n//@else\ndoc\n//@end")},
        query="// params: $known_from datetime\n// returns: d\nMATCH (d)\n"
              "RETURN @facts(doc: d, known_at: $known_from) AS d\n",
        derived="// params: $known_at datetime|null\n// returns: d\n"
                "WITH CASE WHEN $known_at IS NULL THEN null ELSE datetime($known_at) END AS known_at\n"
                "MATCH (d)\nRETURN @facts(doc: d, known_at: known_at) AS d\n",
    )
    assert not cypher.has_current_form("query", package)
    assert cypher.reads_history("query", {}, package) is True
    with pytest.raises(BadIncludeError, match="no current form"):
        cypher.statement("query", package, history=False)
    # a variable known_at counts only when the statement derives it from $known_at by @known_instant
    assert not cypher.has_current_form("derived", package)


def test_the_current_forms_of_the_read_path_never_touch_recorded_history() -> None:
    history_only = ("RetiredDocument", "DocumentVersion", "WAS_LINKED", "VERSION_OF", "$known_at",
                    "recorded_from", "recorded_until")
    for name in ("car", "anchors", "closure", "explain", "label_status"):
        current = code(cypher.statement(name, history=False))
        assert not [word for word in history_only if word in current], name
        assert not re.search(r"@[a-z_]+\(", current), name
        # and the full form still reads history
        assert "$known_at" in code(cypher.statement(name)) or name == "label_status"
    assert cypher.has_current_form("analyst/chain")
    assert not cypher.has_current_form("analyst/changed_between")
