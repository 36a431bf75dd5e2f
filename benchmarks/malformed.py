"""A deterministic corpus of malformed input, mixed with valid records, for the bad-input checks.

``generate(seed)`` returns the JSON Lines bytes of one file and, for every line, what a correct
reader must do with it: load it (a valid record) or report it with a reason containing a given
fragment. The expectation is written here, by the generator that broke the line on purpose --
never computed by car-graph's reader. ``bad_rules_files()`` does the same for rules/domain YAML.

The valid records form small supersession chains (explicit ``supersedes`` references and one
rule, ``patch_replaces_patch``), so a clean run of the valid lines alone has edges to compare.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

TEN_MB = 10 * 2**20

RULES_YAML = """\
domain: fuzz
rules:
  - name: patch_replaces_patch
    newer_kind: patch
    older_kind: patch
    scope: component
    order: later
    match: {newer: version, older: next_versions, op: in, versioning: pypi}
"""


@dataclass(frozen=True)
class Line:
    """One line of the corpus: its bytes and what must happen to it."""

    data: bytes
    kind: str  # "valid" or the kind of damage
    reason: str | None = None  # for damaged lines: a fragment the reported reason must contain
    record_id: str | None = None


@dataclass
class Corpus:
    lines: list[Line] = field(default_factory=list)

    def to_bytes(self) -> bytes:
        return b"".join(line.data + b"\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.write_bytes(self.to_bytes())
        return path

    def write_valid_only(self, path: Path) -> Path:
        path.write_bytes(b"".join(line.data + b"\n" for line in self.lines if line.kind == "valid"))
        return path

    @property
    def valid_ids(self) -> list[str]:
        return [line.record_id for line in self.lines if line.kind == "valid" and line.record_id]

    def damaged(self) -> dict[int, Line]:
        """Line number (1-based) -> damaged line."""
        return {n: line for n, line in enumerate(self.lines, start=1) if line.kind != "valid"}

    def kinds(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for line in self.lines:
            counts[line.kind] = counts.get(line.kind, 0) + 1
        return counts


def _json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def _valid(n: int, rng: random.Random) -> dict[str, Any]:
    """A valid patch note; every fifth starts a new component, the others replace the previous."""
    component = f"comp{n // 5}"
    record: dict[str, Any] = {
        "id": f"ok-{n}",
        "text": f"Patch {n} for {component}: fixes issue {rng.randint(1, 9999)} in the parser.",
        "title": f"Patch {n}",
        "domain": "fuzz",
        "kind": "patch",
        "published": (date(2020, 1, 1) + timedelta(days=n)).isoformat(),
        "scope": {"component": component},
        "attributes": {"version": f"1.{n}", "next_versions": [f"1.{n + 1}.0"],
                       "severity": n % 4},
    }
    if n % 5 and n % 3 == 0:
        record["supersedes"] = [{"id": f"ok-{n - 1}", "evidence": "release notes", "effective":
                                 record["published"]}]
    if n % 7 == 0:  # a version no scheme can parse: still a valid record, kept as written
        record["attributes"]["version"] = f"v{n}~~not*a*version"
    if n % 11 == 0:  # odd but legal: unicode quotes and Lucene specials in the text
        record["text"] += " \u201cquoted\u201d (a OR b) AND c~ ^2 \\ / [x TO y]"
    return record


def valid_records(count: int, seed: int = 7, start: int = 1) -> list[dict[str, Any]]:
    """``count`` valid records (ids ok-<start>..), the same ones generate() mixes in."""
    rng = random.Random(seed)
    return [_valid(n, rng) for n in range(start, start + count)]


def _bad(n: int) -> Iterator[tuple[str, str, bytes]]:
    """(kind, reason fragment, line) for every kind of damage, numbered with ``n``."""
    rid = f"bad-{n}"
    base: dict[str, Any] = {"id": rid, "text": "some text"}

    def rec(**changes: Any) -> bytes:
        return _json({**base, **changes})

    yield "bad_json", "invalid JSON", f'{{"id": "{rid}", "text": '.encode()
    yield "bad_json", "invalid JSON", f'{{"id": "{rid}" "text": "x"}}'.encode()
    yield "bad_json", "invalid JSON", f"{{'id': '{rid}', 'text': 'single quotes'}}".encode()
    yield "bad_json", "invalid JSON", f'{{"id": "{rid}", "text": "x", "n": NaN}}'.encode()
    yield "not_object", "must hold a JSON object", b"[1, 2, 3]"
    yield "not_object", "must hold a JSON object", f'"{rid}"'.encode()
    yield "not_object", "must hold a JSON object", b"42"
    yield "not_object", "must hold a JSON object", b"null"
    yield "missing_id", "missing required field 'id'", _json({"text": "no id"})
    yield "missing_text", "missing required field 'text'", _json({"id": rid})
    yield "missing_id", "must not be empty", rec(id="   ")
    for name, value, reason in [
        ("id", 5, "field 'id' must be a string"),
        ("text", ["a"], "field 'text' must be a string"),
        ("title", 3.5, "field 'title' must be a string"),
        ("domain", {"a": 1}, "field 'domain' must be a string"),
        ("kind", True, "field 'kind' must be a string"),
        ("published", 20230101, "published must be a 'YYYY-MM-DD' string"),
        ("scope", ["component"], "field 'scope' must be an object"),
        ("scope", {"component": 5}, "scope 'component' must be a non-empty string"),
        ("scope", {"component": [""]}, "scope 'component' must be a non-empty string"),
        ("scope", {"bad type": "x"}, "scope entity type 'bad type'"),
        ("supersedes", "ok-1", "field 'supersedes' must be a list"),
        ("supersedes", [5], "bad 'supersedes' entry"),
        ("supersedes", [{"id": "ok-1", "partial": "yes"}], "'supersedes[].partial'"),
        ("supersedes", [{"id": "ok-1", "evidence": 5}], "'supersedes[].evidence'"),
        ("attributes", [], "field 'attributes' must be an object"),
        ("attributes", "x", "field 'attributes' must be an object"),
        ("attributes", {"bad name": 1}, "attribute name 'bad name'"),
        ("attributes", {"n": 2**70}, "beyond 64 bits"),
    ]:
        yield f"wrong_type:{name}", reason, rec(**{name: value})
    for value in ("2023-02-30", "0000-01-01", "99999-01-01", "2023-13-01", "yesterday"):
        yield "bad_date", "is not a date", rec(published=value)
    yield "bad_date", "supersedes[].effective is not a date", rec(
        supersedes=[{"id": "ok-1", "effective": "2021-02-29"}])
    yield "bad_date", "attributes.withdrawn is not a date", rec(attributes={"withdrawn": "soon"})
    yield "invalid_utf8", "invalid UTF-8", f'{{"id": "{rid}", "text": "caf'.encode() + b'\xe9"}'
    yield "invalid_utf8", "invalid UTF-8", f'{{"id": "{rid}", "text": "'.encode() + b'\xff\xfe\x80"}'
    yield "nul", "invalid JSON", f'{{"id": "{rid}", "text": "a'.encode() + b"\x00" + b'b"}'
    yield "nul", "NUL character", rec(text="a\u0000b")
    yield "nul", "NUL character", rec(id=f"{rid}\u0000")
    yield "surrogate", "unpaired surrogate", f'{{"id": "{rid}", "text": "\\ud800 alone"}}'.encode()
    nested: Any = "leaf"
    for _ in range(40):
        nested = {"a": nested}
    yield "deep_nesting", "nested deeper than", rec(attributes={"deep": nested})
    yield "deep_nesting", "nested too deeply", (
        f'{{"id": "{rid}", "text": "x", "attributes": {{"deep": '.encode()
        + b"[" * 100_000 + b"]" * 100_000 + b"}}")
    yield "long_key", "characters long", rec(id="x" * 5000)
    yield "long_key", "characters long", rec(scope={"component": "k" * 5000})
    yield "long_key", "characters long", rec(domain="d" * 3000, kind="k")


def generate(seed: int = 7, n_valid: int = 200, rounds: int = 22, huge_fields: int = 2) -> Corpus:
    """Valid records and ``rounds`` x every kind of damage, shuffled deterministically.

    Defaults give 200 valid lines and 1,000+ damaged ones (22 rounds of every damage, two 10 MB
    fields, and duplicates of valid ids with other content).
    """
    rng = random.Random(seed)
    valid = [Line(_json(r), "valid", record_id=r["id"]) for r in
             (_valid(n, rng) for n in range(1, n_valid + 1))]
    damaged: list[Line] = []
    for n in range(rounds):
        damaged.extend(Line(data, kind, reason) for kind, reason, data in _bad(n))
    for n in range(huge_fields):
        big = _json({"id": f"huge-{n}", "text": "y" * TEN_MB})
        damaged.append(Line(big, "huge_field", "bytes long"))
    lines = valid + damaged
    rng.shuffle(lines)
    # Duplicates of valid ids with different content go after the original, so the first
    # occurrence (the valid one) is the one kept.
    position = {line.record_id: i for i, line in enumerate(lines) if line.kind == "valid"}
    for rid in rng.sample(sorted(position), k=min(40, len(position))):
        dup = Line(_json({"id": rid, "text": "a different text under the same id"}),
                   "duplicate_id", "duplicate id")
        lines.insert(rng.randint(position[rid] + 1, len(lines)), dup)
        position = {line.record_id: i for i, line in enumerate(lines) if line.kind == "valid"}
    return Corpus(lines)


# ---------------------------------------------------------------------------- rules / domains


def _rule(**changes: Any) -> dict[str, Any]:
    rule = {"name": "r", "newer_kind": "patch", "older_kind": "patch", "scope": "component"}
    rule.update(changes)
    return {k: v for k, v in rule.items() if v is not None}


def bad_rules_files() -> list[tuple[str, str, str]]:
    """(name, YAML text, reason fragment) for every kind of mistake in a rules/domain file."""
    def rules(*items: Any, **top: Any) -> str:
        return json.dumps({"domain": "fuzz", **top, "rules": list(items)})  # JSON is YAML

    cases: list[tuple[str, str, str]] = [
        ("not_yaml", "rules: [\n  - name: r\n    newer_kind: {", "cannot read"),
        ("tab_indent", "rules:\n\t- name: r\n", "cannot read"),
        ("not_mapping", "- just\n- a list\n", "mapping"),
        ("empty_file", "", "mapping"),
        ("rules_not_list", json.dumps({"rules": {"name": "r"}}), "'rules' list"),
        ("domain_not_string", rules(_rule(), domain=5), "'domain' must be a string"),
        ("rule_not_mapping", rules("just a string"), "each rule is a mapping"),
        ("unknown_key", rules(_rule(newer_kinds="patch")), "unknown keys"),
        ("missing_name", rules(_rule(name=None)), "'name' must be an identifier"),
        ("name_not_identifier", rules(_rule(name="bad name; DROP")), "'name' must be an identifier"),
        ("name_injection", rules(_rule(name="x'}) MATCH (n) DETACH DELETE n //")),
         "'name' must be an identifier"),
        ("missing_newer_kind", rules(_rule(newer_kind=None)), "newer_kind must be a name"),
        ("empty_older_kind", rules(_rule(older_kind=[])), "older_kind must be a name"),
        ("kind_not_name", rules(_rule(older_kind="patch`) DELETE n")), "must match"),
        ("scope_wrong_type", rules(_rule(scope=5)), "scope must be a name"),
        ("bad_order", rules(_rule(order="earlier")), "'order' must be one of"),
        ("match_not_mapping", rules(_rule(match="version")), "'match' needs"),
        ("match_bad_op", rules(_rule(match={"newer": "a", "older": "b", "op": "like"})),
         "'match' needs"),
        ("match_missing_attr", rules(_rule(match={"newer": "a", "op": "in"})),
         "match.older must be a name"),
        ("match_attr_injection", rules(_rule(match={"newer": "a} RETURN 1 //", "older": "b",
                                                    "op": "in"})), "must match"),
        ("versioning_not_string", rules(_rule(match={"newer": "a", "older": "b", "op": "in",
                                                     "versioning": 3})), "'match.versioning'"),
        ("partial_not_bool", rules(_rule(partial="yes")), "'partial' must be true or false"),
        ("partial_from_bad", rules(_rule(partial_from="not a name")), "must match"),
        ("confidence_zero", rules(_rule(confidence=0)), "'confidence' must be a number"),
        ("confidence_text", rules(_rule(confidence="high")), "'confidence' must be a number"),
        ("confidence_above_one", rules(_rule(confidence=1.5)), "'confidence' must be a number"),
        ("duplicate_names", rules(_rule(), _rule()), "rule names must be unique"),
        ("unknown_top_key", json.dumps({"domain": "fuzz", "rulez": [], "rules": []}),
         "unknown top-level keys"),
        ("identifiers_without_domain", json.dumps({"identifiers": [{"type": "t", "pattern": "X"}]}),
         "needs a 'domain' name"),
        ("identifiers_not_list", json.dumps({"domain": "fuzz", "identifiers": {"t": "X"}}),
         "'identifiers' must be a list"),
        ("names_not_list", json.dumps({"domain": "fuzz", "names": "component"}),
         "'names' must be a list"),
        ("identifier_attributes_wrong", json.dumps({"domain": "fuzz", "identifier_attributes": 5}),
         "'identifier_attributes' must be"),
        ("identifier_attributes_nested_list", json.dumps({"domain": "fuzz",
                                                          "identifier_attributes": [["a"]]}),
         "'identifier_attributes' as a list"),
        ("identifier_attribute_bad_name", json.dumps({"domain": "fuzz",
                                                      "identifier_attributes": {"a b": None}}),
         "identifier attribute 'a b'"),
        ("identifier_bad_regex", json.dumps({"domain": "fuzz", "identifiers": [
            {"type": "t", "pattern": "(unclosed"}]}), "not a valid regular expression"),
        ("identifier_no_pattern", json.dumps({"domain": "fuzz", "identifiers": [{"type": "t"}]}),
         "'pattern' must be a non-empty"),
        ("identifier_not_mapping", json.dumps({"domain": "fuzz", "identifiers": ["X"]}),
         "each identifier is a mapping"),
        ("identifier_bad_key", json.dumps({"domain": "fuzz", "identifiers": [
            {"type": "t", "pattern": "X", "key": "nope"}]}), "'key' must be one of"),
        ("identifier_bad_group", json.dumps({"domain": "fuzz", "identifiers": [
            {"type": "t", "pattern": "X", "group": 3}]}), "'group' must be a group number"),
        ("name_bad_type", json.dumps({"domain": "fuzz", "names": [{"type": "bad type"}]}),
         "'type' must match"),
        ("name_not_mapping", json.dumps({"domain": "fuzz", "names": [5]}), "each name is a type"),
    ]
    return cases


def write_bad_rules_files(directory: Path) -> list[tuple[Path, str]]:
    """Write every bad rules file; returns (path, reason fragment) pairs."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text, reason in bad_rules_files():
        path = directory / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        out.append((path, reason))
    # a rules file that is not UTF-8 at all
    latin = directory / "latin1.yaml"
    latin.write_bytes("rules: [{name: caf\u00e9}]\n".encode("latin-1"))
    out.append((latin, "cannot read"))
    return out


