"""Every ```python block of docs/rag.md runs, in order, against a real Neo4j holding the
bundled law sample, through CarClient.from_env() exactly as a reader would run it."""

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
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def law_sample(driver, neo4j_target, embedder, extractor):
    wipe_database(driver, neo4j_target.database, neo4j_target.uri,
                  allow_remote=os.environ.get("CAR_ALLOW_REMOTE_WIPE") == "1")
    schema.apply(driver, neo4j_target.database, 384)
    with CarClient(driver, neo4j_target.database, embedder=embedder, extractor=extractor) as car:
        car.ingest(list(read_jsonl(sample_dir() / "law.jsonl", [])))
    return neo4j_target


def test_rag_md_has_the_examples_it_promises() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_rag_md_example_runs(number: int, law_sample, monkeypatch) -> None:
    monkeypatch.setenv("NEO4J_URI", law_sample.uri)
    monkeypatch.setenv("NEO4J_USER", law_sample.user)
    monkeypatch.setenv("NEO4J_PASSWORD", law_sample.password)
    monkeypatch.setenv("NEO4J_DATABASE", law_sample.database)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[number], f"{DOC.name}[{number}]", "exec"), {"__name__": "__doc_example__"})
    printed = out.getvalue()
    assert printed.strip(), "every example prints something"
    # what each example is there to show, checked on what it printed
    assert "scotus:539-us-558" in printed or "Lawrence" in printed or "overruled" in printed, printed
