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

A statement may also use **fragments**: ``@NAME(slot: value, ...)`` anywhere in its code stands
for the expression in ``queries/fragments/NAME.cypher`` with each slot replaced by the value
bound to it -- a variable (``d``), a parameter (``$as_of``), ``null`` or a call such as
``date()`` or ``startNode(h)``. The fragments are the supersession semantics of
car_graph/semantics.py, each written once ("edge in force on a date", "document visible",
"voided", the status CASE, ...), so closure, explain, label_status and the analyst queries
cannot drift apart. A fragment's header declares its ``slots:`` (each with its type),
``locals:`` (the variables it binds itself), ``params:`` and ``returns:``; its body is one
expression and may use other fragments. Expansion is exact: a slot is replaced only as a whole
word (not after ``.``, ``$`` or ``:``, nor inside strings and comments); every slot must be
bound and only declared slots may be; an unknown fragment, a fragment cycle, or a fragment local
that would capture a variable of the including text is a BadIncludeError when the statement is
loaded. The expansion is parenthesised unless it is one group already, so ``NOT @voided(...)``
means what it says. ``car-graph query NAME --show`` prints the expanded statement, one
statement to paste into Neo4j Browser.

**Two forms of one statement.** Reading the graph as car-graph recorded it at an instant
(``$known_at``) needs closed versions, retired documents and closed edges that a read of the
current graph never touches; written as run-time conditions (``$known_at IS NULL OR ...``) they
cost every current read a fifth to a half more time (the planner cannot drop them). So a
statement or fragment may mark lines that only the reads of recorded history need, and the
lines that replace them in the current form::

    //@if known_at
    ...lines for reads with $known_at given...
    //@else
    ...lines for reads of the current graph...
    //@end

(``//@else`` optional; no nesting). ``statement(name, history=False)`` is the current form --
what ``GraphStore.read`` runs whenever ``known_at`` is null -- and ``history=True`` (the
default, correct for any parameters) the form that reads either. Both come from the same
files, so the semantics is still written once; the property test checks both forms against
car_graph/semantics.py.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from typing import Any, LiteralString, cast

from neo4j import Query

from car_graph.errors import BadIncludeError, UnknownQueryError

QUERY_PACKAGE = "car_graph.queries"
SCHEMA_PACKAGE = "car_graph.graph_schema"
ANALYST_FOLDER = "analyst"
FRAGMENT_FOLDER = "fragments"
_NAME_PART = re.compile(r"[a-z0-9_]+")
KNOWN_AT_SLOT = "known_at"
# A statement has a current form when every fragment's known_at slot is bound to its own
# $known_at (null when the current form is chosen), to null, or to a variable known_at it
# derives from $known_at alone (the analyst queries' `@known_instant(value: $known_at) AS
# known_at`); inside a fragment, to null or its own known_at slot, passed through.
_CURRENT_BINDINGS = frozenset({"$known_at", "null"})
_KNOWN_AT_VARIABLE = re.compile(r"@known_instant\(value:\s*\$known_at\)\s+AS\s+known_at\b")
_DIRECTIVE = re.compile(r"^[ \t]*//@(if known_at|else|end)\b(.*)$")
_DECLARED = re.compile(r"\$(\w+)\s+([^,$]*)")
_INCLUDE = re.compile(r"^[ \t]*//@include[ \t]+([a-z0-9_]+)((?:[ \t]+\$\w+=\w+)*)[ \t]*$", re.MULTILINE)
_BINDING = re.compile(r"\$(\w+)=(\w+)")
# Fragments: a use is ``@name(`` up to its balanced ``)`` on the same line.
_FRAGMENT_USE = re.compile(r"@([a-z][a-z0-9_]*)\(")
_IDENTIFIER = r"[A-Za-z_]\w*"
_SLOT_BINDING = re.compile(rf"\s*({_IDENTIFIER})\s*:\s*(.*?)\s*", re.DOTALL)
# what a slot may be bound to: a variable, a parameter, null, or a call with simple arguments
_SLOT_VALUE = re.compile(rf"\$?{_IDENTIFIER}(?:\([^()]*\))?")
_STRING = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
_STRING_OR_COMMENT = rf"{_STRING}|//[^\n]*"
# a word used as a variable: not a property key (.x), parameter ($x), label (:X) or function (x()
_VARIABLE_WORD = re.compile(rf"{_STRING_OR_COMMENT}|(?<![\w.$:])({_IDENTIFIER})(?![\w(])")
# variables a pattern binds or reads: (x), (x:Label), [x:TYPE], (x {...})
_PATTERN_VARIABLE = re.compile(
    rf"(?<!\w)[(\[][ \t]*(?!(?:EXISTS|COUNT|COLLECT|CASE|NOT)\b)({_IDENTIFIER})[ \t]*(?=[:)\]{{])")
_TOP_LEVEL_OPERATOR = re.compile(r"\b(?:AND|OR|XOR|IS|IN|STARTS|ENDS|CONTAINS)\b|[=<>+\-*/%^]")


@dataclass(frozen=True)
class DeclaredParameter:
    """One ``$name type`` entry of a statement's ``params:`` header."""

    name: str
    type: str
    optional: bool   # declared ``|null``: absent means null


@dataclass(frozen=True)
class Fragment:
    """One expression of ``queries/fragments/NAME.cypher``, used as ``@NAME(slot: value, ...)``."""

    name: str
    slots: dict[str, str]              # slot -> its declared type, in header order
    local_variables: tuple[str, ...]   # variables the fragment binds itself (in its subqueries)
    parameters: dict[str, DeclaredParameter]
    body: str                          # the expression, header removed
    first_line: int                    # the body's first line in the file (for messages)

    @property
    def origin(self) -> str:
        return f"{FRAGMENT_FOLDER}/{self.name}.cypher"


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


def fragment_names(package: str = QUERY_PACKAGE) -> list[str]:
    """The fragments, ``queries/fragments/*.cypher``, by their bare names (``voided``)."""
    return [n.split("/", 1)[1] for n in _names(package, FRAGMENT_FOLDER)]


def _resource(name: str, package: str) -> Traversable:
    parts = name.split("/")
    # Names are identifiers, never paths: no '..', no absolute names, at most one folder; a
    # fragment is an expression, not a statement to load.
    if (len(parts) > 2 or not all(_NAME_PART.fullmatch(part) for part in parts)
            or (len(parts) == 2 and parts[0] == FRAGMENT_FOLDER)):
        raise UnknownQueryError(name)
    return resources.files(package).joinpath(*parts[:-1], f"{parts[-1]}.cypher")


def schema_names() -> list[str]:
    """Names of every DDL statement in ``graph_schema/``, in the order they must be applied."""
    return _names(SCHEMA_PACKAGE)


def specialise(code: str, history: bool, origin: str) -> str:
    """``code`` in one of its two forms: the ``//@if known_at`` blocks' lines kept when
    ``history``, their ``//@else`` lines otherwise; the directive lines go (line numbers in
    messages are then those of the form, not the file, after a block)."""
    out: list[str] = []
    state = None  # None outside a block, else "if" or "else"
    for number, line in enumerate(code.split("\n"), start=1):
        directive = _DIRECTIVE.match(line)
        if directive is None and line.lstrip().startswith("//@") and not line.lstrip().startswith("//@include"):
            raise BadIncludeError(f"{origin}:{number}: unknown directive {line.strip()!r} "
                                  f"(//@if known_at, //@else, //@end, //@include)")
        if directive:
            word, rest = directive.group(1), directive.group(2).strip()
            if rest:
                raise BadIncludeError(f"{origin}:{number}: nothing may follow //@{word}")
            if word == "if known_at" and state is None:
                state = "if"
            elif word == "else" and state == "if":
                state = "else"
            elif word == "end" and state is not None:
                state = None
            else:
                raise BadIncludeError(f"{origin}:{number}: //@{word} out of place (blocks do not nest)")
            continue
        if state is None or (state == "if") == history:
            out.append(line)
    if state is not None:
        raise BadIncludeError(f"{origin}: //@if known_at is not closed by //@end")
    return "\n".join(out)


@functools.cache
def text(name: str, package: str = QUERY_PACKAGE, history: bool = True) -> str:
    """The text of one statement, header comments included, ``//@include`` lines and
    ``@fragment(...)`` uses expanded; ``history``: which form (module docstring)."""
    origin = f"{name}.cypher"
    code = specialise(raw_text(name, package), history, origin)
    return _expand(_with_fragments(code, origin, package, history=history), package, (name,), history)


def raw_text(name: str, package: str = QUERY_PACKAGE) -> str:
    """The file as written (``//@include`` lines and fragment uses not expanded)."""
    resource = _resource(name, package)
    if not resource.is_file():
        raise UnknownQueryError(name)
    return resource.read_text(encoding="utf-8")


def includes(name: str, package: str = QUERY_PACKAGE) -> list[tuple[str, dict[str, str]]]:
    """The statements a file includes, each with its bindings (parameter -> variable)."""
    return [(match.group(1), dict(_BINDING.findall(match.group(2))))
            for match in _INCLUDE.finditer(raw_text(name, package))]


def _expand(body: str, package: str, seen: tuple[str, ...], history: bool = True) -> str:
    def include(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in seen:
            raise BadIncludeError(f"{' -> '.join((*seen, name))}: an include cycle")
        origin = f"{name}.cypher"
        source = _with_fragments(specialise(raw_text(name, package), history, origin), origin,
                                 package, history=history)
        included = _expand(source, package, (*seen, name), history).rstrip("\n")
        for parameter, variable in _BINDING.findall(match.group(2)):
            if not re.search(rf"\${parameter}\b", included):
                raise BadIncludeError(f"{seen[-1]}: {name} has no parameter ${parameter} to bind")
            included = re.sub(rf"\${parameter}\b", variable, included)
        return included

    return _INCLUDE.sub(include, body)


# --------------------------------------------------------------------------- fragments


def _header_sections(lines: list[str]) -> dict[str, str]:
    """``key: value`` sections of a comment header (a section runs until the next key)."""
    sections: dict[str, str] = {}
    key = None
    for line in lines:
        found = re.match(r"([A-Za-z]+):(.*)", line)
        if found and found.group(1).lower() in {"fragment", "slots", "locals", "params", "returns"}:
            key = found.group(1).lower()
            sections[key] = found.group(2).strip()
        elif key:
            sections[key] += " " + line
    return sections


@functools.cache
def fragment(name: str, package: str = QUERY_PACKAGE, history: bool = True) -> Fragment:
    """The fragment ``queries/fragments/NAME.cypher``, its header parsed and its body (in the
    form ``history`` names) checked."""
    if not _NAME_PART.fullmatch(name):
        raise UnknownQueryError(f"{FRAGMENT_FOLDER}/{name}")
    resource = resources.files(package).joinpath(FRAGMENT_FOLDER, f"{name}.cypher")
    if not resource.is_file():
        raise UnknownQueryError(f"{FRAGMENT_FOLDER}/{name}")
    origin = f"{FRAGMENT_FOLDER}/{name}.cypher"
    lines = specialise(resource.read_text(encoding="utf-8"), history, origin).split("\n")
    count = next((i for i, line in enumerate(lines) if not line.startswith("//")), len(lines))
    slots, local_variables, parameters = _fragment_header(origin, [x[2:].strip() for x in lines[:count]])
    body, first_line = _fragment_body(origin, lines, count)
    undeclared = sorted(set(_pattern_variables(body, origin, first_line))
                        - set(slots) - set(local_variables))
    if undeclared:
        raise BadIncludeError(f"{origin}: pattern variable(s) {', '.join(undeclared)} are neither "
                              f"slots nor declared in locals:")
    return Fragment(name, slots, local_variables, parameters, body, first_line)


def _fragment_header(origin: str, header: list[str]
                     ) -> tuple[dict[str, str], tuple[str, ...], dict[str, DeclaredParameter]]:
    """(slots with their types, local variables, parameters) of a fragment's header."""
    sections = _header_sections(header)
    missing = [key for key in ("slots", "locals", "params", "returns") if key not in sections]
    if missing:
        raise BadIncludeError(f"{origin}: the header lacks {', '.join(k + ':' for k in missing)}")
    slots = {}
    for entry in (e.strip() for e in sections["slots"].split(",")):
        if entry in ("", "(none)"):
            continue
        slot, _, kind = entry.partition(" ")
        if not re.fullmatch(_IDENTIFIER, slot) or not kind.strip():
            raise BadIncludeError(f"{origin}: slot entry {entry!r} is not 'name type'")
        slots[slot] = kind.strip()
    local_variables = tuple(
        v for v in (e.strip() for e in sections["locals"].split(",")) if v not in ("", "(none)"))
    for variable in local_variables:
        if not re.fullmatch(_IDENTIFIER, variable) or variable in slots:
            raise BadIncludeError(f"{origin}: local {variable!r} is not a name of its own")
    parameters = {
        m.group(1): DeclaredParameter(m.group(1), (m.group(2).split() or ["any"])[0],
                                      "|null" in m.group(2))
        for m in _DECLARED.finditer(sections["params"])
    }
    return slots, local_variables, parameters


def _fragment_body(origin: str, lines: list[str], start: int) -> tuple[str, int]:
    """The expression after the header and its first line number; it is inserted into the
    middle of a line, so no comment may follow code on a line nor end it."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    body_lines = lines[start:]
    while body_lines and not body_lines[-1].strip():
        body_lines.pop()
    if not body_lines:
        raise BadIncludeError(f"{origin}: no expression after the header")
    for number, line in enumerate(body_lines, start=start + 1):
        if line.lstrip().startswith("//"):
            continue
        code = re.sub(_STRING, "''", line)
        if "//" in code:
            raise BadIncludeError(f"{origin}:{number}: a comment after code; put it on a line of its own")
        if ";" in code:
            raise BadIncludeError(f"{origin}:{number}: a fragment is one expression, no ';'")
    if body_lines[-1].lstrip().startswith("//"):
        raise BadIncludeError(f"{origin}: the expression must end with code, not a comment")
    return "\n".join(body_lines), start + 1


def _closing_parenthesis(line: str, opening: int) -> int | None:
    """The index of the ``)`` matching ``line[opening]``, skipping string literals."""
    depth, i = 0, opening
    while i < len(line):
        char = line[i]
        if char in "'\"":
            end = re.match(rf"{char}(?:[^{char}\\]|\\.)*{char}", line[i:])
            i += len(end.group(0)) if end else 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _split_arguments(arguments: str) -> list[str]:
    """``slot: value`` pieces of a use's argument list, split at the top-level commas."""
    parts: list[str] = []
    depth = start = 0
    for i, char in enumerate(arguments):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(arguments[start:i])
            start = i + 1
    parts.append(arguments[start:])
    return [] if len(parts) == 1 and not parts[0].strip() else parts


@dataclass(frozen=True)
class _Use:
    name: str
    start: int           # index of '@'
    end: int             # index after ')'
    bindings: dict[str, str]


def _uses(line: str, where: str) -> list[_Use]:
    """The fragment uses on one line of code, left to right (none inside string literals)."""
    found: list[_Use] = []
    position = 0
    masked = re.sub(_STRING, lambda m: "'" + " " * (len(m.group(0)) - 2) + "'", line)
    while (match := _FRAGMENT_USE.search(masked, position)) is not None:
        closing = _closing_parenthesis(line, match.end() - 1)
        if closing is None:
            raise BadIncludeError(f"{where}: @{match.group(1)}( is not closed on its line")
        bindings: dict[str, str] = {}
        for argument in _split_arguments(line[match.end():closing]):
            pair = _SLOT_BINDING.fullmatch(argument)
            if pair is None or not _SLOT_VALUE.fullmatch(pair.group(2)):
                raise BadIncludeError(
                    f"{where}: @{match.group(1)}: {argument.strip()!r} is not 'slot: value' (a "
                    f"variable, $parameter, null or call)")
            if pair.group(1) in bindings:
                raise BadIncludeError(f"{where}: @{match.group(1)} binds slot {pair.group(1)} twice")
            bindings[pair.group(1)] = pair.group(2)
        found.append(_Use(match.group(1), match.start(), closing + 1, bindings))
        position = closing + 1
    return found


def _without_uses(code: str, origin: str = "", first_line: int = 1) -> str:
    """The code with each fragment use replaced by the values it binds (what it reads of the
    including text)."""
    out: list[str] = []
    for number, line in enumerate(code.split("\n"), start=first_line):
        if line.lstrip().startswith("//") or "@" not in line:
            out.append(line)
            continue
        pieces: list[str] = []
        position = 0
        for use in _uses(line, f"{origin}:{number}"):
            pieces += [line[position:use.start], " ", " ".join(use.bindings.values()), " "]
            position = use.end
        out.append("".join([*pieces, line[position:]]))
    return "\n".join(out)


def _pattern_variables(code: str, origin: str, first_line: int) -> list[str]:
    """The variables the code's patterns bind or read (fragment uses count by their values)."""
    plain = re.sub(_STRING_OR_COMMENT, "''", _without_uses(code, origin, first_line))
    return _PATTERN_VARIABLE.findall(plain)


def _variables(code: str, origin: str, first_line: int) -> set[str]:
    """The words the code uses as variables (fragment uses count by the values they bind)."""
    return {m.group(1) for m in _VARIABLE_WORD.finditer(_without_uses(code, origin, first_line))
            if m.group(1)}


def _fragment_locals(name: str, package: str, seen: tuple[str, ...] = (),
                     history: bool = True) -> set[str]:
    """A fragment's own local variables and those of every fragment it uses, transitively."""
    if name in seen:
        return set()
    used = fragment(name, package, history)
    found = set(used.local_variables)
    for line in used.body.split("\n"):
        if not line.lstrip().startswith("//"):
            for use in _uses(line, used.origin):
                found |= _fragment_locals(use.name, package, (*seen, name), history)
    return found


def _with_fragments(code: str, origin: str, package: str, stack: tuple[str, ...] = (),
                    first_line: int = 1, history: bool = True) -> str:
    """``code`` with every ``@name(...)`` use expanded (comment lines are left as written)."""
    if "@" not in code:
        return code
    variables = _variables(code, origin, first_line)
    out: list[str] = []
    for number, line in enumerate(code.split("\n"), start=first_line):
        if line.lstrip().startswith("//") or "@" not in line:
            out.append(line)
            continue
        where = f"{origin}:{number}"
        indent = line[: len(line) - len(line.lstrip())]
        pieces: list[str] = []
        position = 0
        for use in _uses(line, where):
            expansion = _instantiate(use, where, variables, package, stack, history)
            lines = expansion.split("\n")
            expansion = "\n".join([lines[0], *((indent + x) if x.strip() else x for x in lines[1:])])
            pieces += [line[position:use.start], expansion]
            position = use.end
        out.append("".join([*pieces, line[position:]]))
    return "\n".join(out)


def _instantiate(use: _Use, where: str, variables: set[str], package: str,
                 stack: tuple[str, ...], history: bool = True) -> str:
    if use.name in stack:
        raise BadIncludeError(f"{where}: {' -> '.join((*stack, use.name))}: a fragment cycle")
    try:
        used = fragment(use.name, package, history)
    except UnknownQueryError:
        known = ", ".join(fragment_names(package)) or "none"
        raise BadIncludeError(f"{where}: no fragment @{use.name} "
                              f"({FRAGMENT_FOLDER}/{use.name}.cypher; fragments: {known})") from None
    unknown = sorted(set(use.bindings) - set(used.slots))
    if unknown:
        raise BadIncludeError(f"{where}: @{use.name} has no slot {', '.join(unknown)} "
                              f"(slots: {', '.join(used.slots)})")
    unbound = [slot for slot in used.slots if slot not in use.bindings]
    if unbound:
        raise BadIncludeError(f"{where}: @{use.name} leaves slot {', '.join(unbound)} unbound")
    for slot in set(_pattern_variables(used.body, used.origin, used.first_line)) & set(used.slots):
        if not re.fullmatch(_IDENTIFIER, use.bindings[slot]):
            raise BadIncludeError(f"{where}: @{use.name} matches a pattern on slot {slot}; bind "
                                  f"it to a variable, not {use.bindings[slot]!r}")
    captured = sorted(_fragment_locals(use.name, package, history=history) & variables)
    if captured:
        raise BadIncludeError(
            f"{where}: @{use.name} binds {', '.join(captured)} in its own subqueries, which would "
            f"capture the including text's variable(s) of that name; rename them")
    body = _with_fragments(used.body, used.origin, package, (*stack, use.name), used.first_line,
                           history)
    slots = "|".join(re.escape(s) for s in sorted(used.slots, key=len, reverse=True))
    if slots:
        pattern = re.compile(rf"{_STRING_OR_COMMENT}|(?<![\w.$:])({slots})(?!\w)")
        body = pattern.sub(lambda m: use.bindings[m.group(1)] if m.group(1) else m.group(0), body)
    return body if _one_group(body) else f"({body})"


def _one_group(expression: str) -> bool:
    """True when ``expression`` needs no parentheses to stand as an operand: one parenthesised
    group, or no operator outside brackets, braces, parentheses and strings."""
    stripped = expression.strip()
    if stripped.startswith("(") and _closing_parenthesis(stripped, 0) == len(stripped) - 1:
        return True
    words = re.findall(r"\b(?:CASE|END)\b", re.sub(_STRING_OR_COMMENT, "''", stripped))
    if words and re.match(r"CASE\b", stripped) and re.search(r"\bEND$", stripped):
        # one CASE expression: its first CASE is closed only by the last END
        open_cases = [sum(1 if w == "CASE" else -1 for w in words[: i + 1]) for i in range(len(words))]
        if 0 not in open_cases[:-1]:
            return True
    depth = 0
    top: list[str] = []
    for char in re.sub(_STRING, "''", stripped):
        depth += char in "([{"
        depth -= char in ")]}"
        top.append(char if depth == 0 else " ")
    return not _TOP_LEVEL_OPERATOR.search("".join(top))


def fragments_used(name: str, package: str = QUERY_PACKAGE) -> list[str]:
    """The fragments a statement uses, directly or through other fragments, sorted."""
    return list(_fragments_used(name, package))


@functools.cache
def _fragments_used(name: str, package: str) -> tuple[str, ...]:
    found: set[str] = set()
    pending = [raw_text(name, package)]
    while pending:
        for line in pending.pop().split("\n"):
            if line.lstrip().startswith("//"):
                continue
            for use in _uses(line, name):
                if use.name not in found:
                    found.add(use.name)
                    pending.append(fragment(use.name, package).body)
    return tuple(sorted(found))


@functools.cache
def has_current_form(name: str, package: str = QUERY_PACKAGE) -> bool:
    """Whether the statement, with its includes and fragments, binds every fragment's known_at
    slot to its own ``$known_at`` or null -- so that with ``$known_at`` null its current form
    reads exactly what the full form reads. (An audit query comparing two instants has none.)"""
    statements = [raw_text(name, package)] + [raw_text(i, package) for i, _ in _includes_deep(name, package)]
    pending = [(code, _CURRENT_BINDINGS | ({KNOWN_AT_SLOT} if _KNOWN_AT_VARIABLE.search(code) else set()))
               for code in statements]
    seen: set[str] = set()
    while pending:
        code, allowed = pending.pop()
        for line in code.split("\n"):
            if line.lstrip().startswith("//"):
                continue
            for use in _uses(line, name):
                if use.bindings.get(KNOWN_AT_SLOT, "null") not in allowed:
                    return False
                if use.name not in seen:
                    seen.add(use.name)
                    pending.append((fragment(use.name, package).body, frozenset({"null", KNOWN_AT_SLOT})))
    return True


def _includes_deep(name: str, package: str) -> list[tuple[str, dict[str, str]]]:
    found = includes(name, package)
    return found + [deeper for included, _ in found for deeper in _includes_deep(included, package)]


def reads_history(name: str, params: Mapping[str, Any], package: str = QUERY_PACKAGE) -> bool:
    """Which form of the statement these parameters need: the full one when ``known_at`` is
    given or the statement has no current form, else the current one (module docstring)."""
    return params.get(KNOWN_AT_SLOT) is not None or not has_current_form(name, package)


PROFILE_PREFIX = "PROFILE\n"


def statement(name: str, package: str = QUERY_PACKAGE, *, profile: bool = False,
              history: bool = True) -> LiteralString:
    """The statement as the driver's ``LiteralString`` (for ``Transaction.run``). ``profile``:
    with Cypher's PROFILE keyword in front, so the result summary carries the executed plan
    (benchmarks/bench.py keeps it in docs/benchmarks.md). ``history=False``: the current form,
    for parameters whose ``known_at`` is null (module docstring)."""
    if not history and not has_current_form(name, package):
        raise BadIncludeError(f"{name}: no current form (a fragment's known_at is bound to "
                              f"something other than $known_at); use reads_history()")
    # The one place a file's text becomes a LiteralString: it comes from our own package data.
    body = text(name, package, history)
    return cast(LiteralString, PROFILE_PREFIX + body if profile else body)


def load(name: str, *, timeout: float | None = None, package: str = QUERY_PACKAGE,
         history: bool = True) -> Query:
    """A ``neo4j.Query`` for the named statement, tagged so it shows in the server's query log."""
    return Query(statement(name, package, history=history), metadata={"car_query": name},
                 timeout=timeout)


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
    those of the fragments it uses, and those of the statements it includes but for the
    parameters bound to its variables."""
    # cached: analyst.bind checks every analyst call's parameters against them
    return dict(_declared_parameters(name, package))


@functools.cache
def _declared_parameters(name: str, package: str) -> tuple[tuple[str, DeclaredParameter], ...]:
    declared: dict[str, DeclaredParameter] = {}
    for used in fragments_used(name, package):
        for parameter, entry in fragment(used, package).parameters.items():
            declared.setdefault(parameter, entry)
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
    return tuple(declared.items())


def clear_caches() -> None:
    """Forget every statement read so far (for catalogues whose files change, as in tests)."""
    for cached in (text, fragment, has_current_form, _fragments_used, _declared_parameters,
                   clock_defaults):
        cached.cache_clear()


@functools.cache
def clock_defaults(name: str, package: str = QUERY_PACKAGE) -> dict[str, None]:
    """{"known_at": None} when the statement takes the transaction-time clock: a caller that
    does not name it reads the current graph (every caller written before the clock existed
    keeps its meaning)."""
    return {"known_at": None} if "known_at" in declared_parameters(name, package) else {}


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
