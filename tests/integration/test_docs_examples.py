"""Every ```python block of docs/rag.md runs, in order, against a real Neo4j holding the
bundled law sample, through CarClient.from_env() exactly as a reader would run it, and prints
what the page says it shows."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from car_graph import schema
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph.demo import sample_dir
from car_graph.records import read_jsonl

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

DOC = Path(__file__).resolve().parents[2] / "docs" / "rag.md"
PAGE = DOC.read_text(encoding="utf-8")
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
