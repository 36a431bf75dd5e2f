"""Every ```python block of docs/rag.md runs, in order, against a real Neo4j holding the
bundled law sample, through CarClient.from_env() exactly as a reader would run it, and prints
what the page says it shows. The README's Python tour is one of those examples, with the first
lines of what it prints; the README's domain tour (a record and a rule) parses and fits; every
`car-graph` line of the README and the guides parses against the real command tree."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
from pathlib import Path

import click
import pytest
import yaml

from car_graph import schema
from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph.cypher import declared_parameters
from car_graph.demo import sample_dir
from car_graph.records import parse_record, read_jsonl
from car_graph.rules import parse_rules

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

DOC = Path(__file__).resolve().parents[2] / "docs" / "rag.md"
PAGE = DOC.read_text(encoding="utf-8")
README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
# the output an example's text says it prints: a ```text block right after it ("prints ...:")
SHOWN = {m.group(1): shown.group(1) for m in re.finditer(r"```python\n(.*?)```", PAGE, flags=re.S)
         if (shown := re.match(r"\s*prints[^\n]*:\s*```text\n(.*?)```", PAGE[m.end():], flags=re.S))}

# What each example is there to show, read off docs/rag.md and the bundled law sample (law.jsonl:
# Lawrence v. Texas, scotus:539-us-558, overrules Bowers v. Hardwick, scotus:478-us-186, on the
# Constitution Annotated's evidence), not off what car-graph prints. Keyed by the example's
# first line that is not an import, so the check follows the example if the page is reordered.
BOWERS, LAWRENCE = "scotus:478-us-186", "scotus:539-us-558"
EVIDENCE = ("Congress.gov Constitution Annotated, Table of Supreme Court Decisions Overruled by "
            "Subsequent Decisions, row 21: Lawrence v. Texas,539 U.S. 558  (2003) overruled Bowers v. "
            "Hardwick,478 U.S. 186 (1986)")
CHAIN = f"[('{BOWERS}', 'explicit', '{LAWRENCE}')]"
CLAIMS: dict[str, list[str]] = {
    # retrieve: the controlling document first, active, with the chain from the anchor to it
    "for result in car.retrieve(": [rf"{LAWRENCE} active Lawrence v\. Texas {re.escape(CHAIN)}"],
    # answer: superseded, by what, under which rule, when, with what evidence; in force in 1999
    'verdict = car.answer("Is Bowers v. Hardwick still good law?")': [
        r"superseded - .*Bowers v\. Hardwick.* superseded by Lawrence v\. Texas.*",
        rf"  by {LAWRENCE} under explicit on 2003-01-01",
        rf"  evidence: {re.escape(EVIDENCE)}",
        r"in 1999: .*Bowers v\. Hardwick.*"],
    # an llm's answer is kept as it came back
    "def my_llm(": [re.escape("No. Lawrence v. Texas [2] overruled it in 2003.")],
    # the framework retrievers: the controlling document with its status and chain
    "docs = CarRetriever(client=car, k=3)": [rf"{LAWRENCE} active \['explicit'\]"],
    "nodes = CarRetriever(car, k=3)": [rf"{LAWRENCE} active"],
    "result = CarRetriever(car).search(": [re.escape(f"{LAWRENCE} {EVIDENCE[:60]}")],
    # known at a day before the fixture's only ingest: car-graph had recorded nothing, so it
    # finds nothing; the history holds the one version that ingest recorded
    'before = car.answer("Is Bowers v. Hardwick still good law?", known_at=': [
        r"known at 2000-01-01: not_found", rf"{BOWERS} current: True versions: 1"],
}


def shortened(line: str) -> str:
    """A shown line as a regular expression: "..." stands for what the page left out."""
    return ".*".join(map(re.escape, line.split("...")))


def claimed_lines(block: str) -> list[str]:
    """The regular expressions the first printed lines of ``block`` must match, in order: its
    entry in CLAIMS, or the output its text shows, where "..." stands for what was shortened."""
    if block in SHOWN:
        return [shortened(line) for line in SHOWN[block].splitlines()]
    [claim] = [lines for key, lines in CLAIMS.items() if key in block]
    return claim


@pytest.fixture(scope="module")
def law_sample(driver, neo4j_target, embedder, extractor):
    wipe_database(driver, neo4j_target.database, neo4j_target.uri,
                  allow_remote=os.environ.get("CAR_ALLOW_REMOTE_WIPE") == "1")
    schema.apply(driver, neo4j_target.database, 384)
    with CarClient(driver, neo4j_target.database, embedder=embedder, extractor=extractor) as car:
        car.ingest(list(read_jsonl(sample_dir() / "law.jsonl", [])))
    return neo4j_target


def test_rag_md_has_the_examples_it_promises_each_with_what_it_shows() -> None:
    assert len(BLOCKS) >= 7
    assert len(SHOWN) == 1 and "verdict.context(limit=3)" in next(iter(SHOWN))
    for block in BLOCKS:  # exactly one claim per example: a new one needs its own
        assert (block in SHOWN) + sum(key in block for key in CLAIMS) == 1, block


def test_readme_python_tour_is_a_rag_md_example_showing_its_first_lines() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    for block in blocks:
        assert block in BLOCKS, block  # so test_rag_md_example_runs runs it
        shown = re.match(r"\s*prints[^\n]*:\s*```text\n(.*?)```", README[README.index(block) + len(block) + 3:],
                         flags=re.S)
        assert shown, "the README shows what its example prints"
        lines = shown.group(1).splitlines()
        assert lines[-1] == "..." and len(lines) >= 3
        assert lines[:-1] == SHOWN[block].splitlines()[:len(lines) - 1]


def test_readme_domain_tour_record_and_rule_parse_and_fit_each_other() -> None:
    [record_text] = re.findall(r"```json\n(\{\"id\".*?)```", README, flags=re.S)
    [rules_text] = re.findall(r"```yaml\n(.*?)```", README, flags=re.S)
    record = parse_record(json.loads(record_text))
    [rule] = parse_rules(yaml.safe_load(rules_text), "README.md")
    # the rule the tour shows applies to the record it shows: its kind, within its scope
    assert record.kind in rule.newer_kinds
    assert set(rule.scope_types) <= set(record.scope)


GUIDES = ("README.md", "docs/rag.md", "docs/analysts.md", "docs/domains.md", "docs/architecture.md")


def shell_examples() -> list[tuple[str, list[str]]]:
    """Every `car-graph ...` line of a fenced block of the README and the guides, as arguments:
    a trailing comment dropped, an optional part ("[--dry-run]") taken as written."""
    examples = []
    for name in GUIDES:
        fenced = False
        for line in (DOC.parents[1] / name).read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            command = line.strip().removeprefix("$ ")
            if fenced and command.startswith("car-graph "):
                words = shlex.split(command, comments=True)[1:]
                examples.append((name, [w[1:-1] if w.startswith("[") and w.endswith("]") else w for w in words]))
    return examples


def test_every_shell_example_of_the_guides_parses_with_the_options_it_shows(tmp_path: Path,
                                                                          monkeypatch) -> None:
    """A renamed command, option or analyst-query parameter fails here before a reader meets it."""
    examples = shell_examples()
    assert len(examples) >= 15
    monkeypatch.chdir(tmp_path)  # the input files an example names, empty: only parsing is checked
    for _, args in examples:
        for word in args:
            if re.fullmatch(r"[\w.-][\w./-]*\.(jsonl|yaml|json)", word):
                (tmp_path / word).parent.mkdir(parents=True, exist_ok=True)
                (tmp_path / word).touch()
    for name, args in examples:
        ctx = main.make_context("car-graph", list(args))
        group, rest = main, [*ctx.protected_args, *ctx.args]
        while isinstance(group, click.Group):
            cmd_name, command, rest = group.resolve_command(ctx, rest)
            ctx = command.make_context(cmd_name, list(rest), parent=ctx)
            group, rest = command, [*getattr(ctx, "protected_args", ()), *ctx.args]
        if command.name == "query" and not ctx.params.get("show"):
            declared = declared_parameters(f"analyst/{ctx.params['name']}")
            given = {p.split("=", 1)[0] for p in (*ctx.params["assignments"], *ctx.params["embeds"])}
            assert given <= set(declared), (name, args, sorted(declared))


def test_shortened_output_matches_only_what_it_shows() -> None:
    pattern = shortened("[1] superseded by [2]; evidence: ... overruled X")
    assert re.fullmatch(pattern, "[1] superseded by [2]; evidence: row 21: Y overruled X")
    assert not re.fullmatch(pattern, "[1] superseded by [3]; evidence: row 21: Y overruled X")


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_rag_md_example_runs(number: int, law_sample, monkeypatch) -> None:
    monkeypatch.setenv("NEO4J_URI", law_sample.uri)
    monkeypatch.setenv("NEO4J_USER", law_sample.user)
    monkeypatch.setenv("NEO4J_PASSWORD", law_sample.password)
    monkeypatch.setenv("NEO4J_DATABASE", law_sample.database)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[number], f"{DOC.name}[{number}]", "exec"), {"__name__": "__doc_example__"})
    printed = out.getvalue().splitlines()
    claimed = claimed_lines(BLOCKS[number])
    # what the example is there to show, line by line, on the first lines it printed (a
    # retrieval's or a context's further results are the corpus's, not the example's claim)
    assert len(printed) >= len(claimed), printed
    for pattern, line in zip(claimed, printed, strict=False):
        assert re.fullmatch(pattern, line), (pattern, line, printed)
