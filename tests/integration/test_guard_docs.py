"""Every ```python block of docs/guard.md runs, in order, against a real Neo4j holding the
bundled law sample, through CarClient.from_env() as a reader would run it, and prints what the
page says it prints (the ```text block after it; "..." stands for what the page left out)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from test_docs_examples import law_sample, shortened  # noqa: F401 (law_sample: a fixture)

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

DOC = Path(__file__).resolve().parents[2] / "docs" / "guard.md"
PAGE = DOC.read_text(encoding="utf-8")
EXAMPLES = [(m.group(1), shown.group(1)) for m in re.finditer(r"```python\n(.*?)```", PAGE, flags=re.S)
            if (shown := re.match(r"\s*prints[^\n]*:\s*```text\n(.*?)```", PAGE[m.end():], flags=re.S))]


def test_every_example_shows_what_it_prints() -> None:
    assert len(EXAMPLES) == len(re.findall(r"```python\n", PAGE)) >= 6
    assert len(PAGE.splitlines()) <= 300


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_guard_md_example_runs_and_prints_what_it_shows(number: int, law_sample, monkeypatch) -> None:  # noqa: F811
    for name, value in (("NEO4J_URI", law_sample.uri), ("NEO4J_USER", law_sample.user),
                        ("NEO4J_PASSWORD", law_sample.password), ("NEO4J_DATABASE", law_sample.database)):
        monkeypatch.setenv(name, value)
    code, shown = EXAMPLES[number]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{DOC.name}[{number}]", "exec"), {"__name__": "__doc_example__"})
    printed = out.getvalue().splitlines()
    expected = shown.splitlines()
    assert len(printed) == len(expected), printed
    for line, want in zip(printed, expected, strict=True):
        assert re.fullmatch(shortened(want), line), (want, line, printed)
