"""Adding a built-in domain is adding one folder: tests/fixtures/example_domain/tickets/ (an
``__init__.py`` declaring the domain and its ``tickets-csv`` format, a ``rules.yaml``) copied to
ingest/domains/tickets/ of a copy of the source tree, with no other file changed, ships in the
wheel and is registered, its rules and its format working (docs/domains.md shows the same
folder)."""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "fixtures" / "example_domain" / "tickets"
IGNORE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__",
                                ".pytest_cache", "tests")

PROBE = """
import json, sys
from pathlib import Path
from car_graph.domains import DomainRegistry
from car_graph.rules import bundled_rules
from car_graph.ingest.sources import format_names, read_source
registry = DomainRegistry.installed()
problems = []
records = list(read_source(Path(sys.argv[1]), "tickets-csv", problems))
tickets = registry.for_document("tickets")
print(json.dumps({
    "domains": list(registry.names),
    "rules": [r.name for r in bundled_rules("tickets")],
    "formats": list(format_names()),
    "records": [[r.id, r.domain, r.kind] for r in records],
    "problems": [[p.line, p.reason] for p in problems],
    "identifiers": tickets.identifiers_of_attributes(records[0].attributes),
    "scoped": list(tickets.names),
}))
"""
CSV = (
    "id,kind,published,team,ref,text\n"
    "T-1,ticket,2024-02-01,Payments Squad,TCK-20931,Checkout page times out under load.\n"
    "F-1,fix,2024-02-09,Payments Squad,TCK-20931,Raised the pool size.\n"
    "broken,ticket,not a date,Payments,TCK-1,Bad date.\n"
)


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.slow
def test_a_new_domain_folder_ships_and_registers_with_no_other_edit(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=IGNORE)
    target = source / "ingest" / "domains" / EXAMPLE.name
    assert not target.exists()
    shutil.copytree(EXAMPLE, target)  # the only change to the tree

    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source)
    [wheel] = list(dist.glob("car_graph-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"car_graph/ingest/domains/tickets/__init__.py",
            "car_graph/ingest/domains/tickets/rules.yaml"} <= names
    for builtin in ("security", "law", "drug"):  # the built-ins' rules ship as before
        assert f"car_graph/ingest/domains/{builtin}/rules.yaml" in names

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    # as tests/test_wheel.py: the dev venv's dependencies, but not its editable car_graph
    new_site = Path(_run(venv / "bin" / "python", "-c", "import site; print(site.getsitepackages()[0])").strip())
    (new_site / "zz_dev_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _run(venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel)

    data = tmp_path / "tickets.csv"
    data.write_text(CSV, encoding="utf-8")
    probe = json.loads(_run(venv / "bin" / "python", "-c", PROBE, data, cwd=tmp_path))
    assert probe["domains"] == sorted(probe["domains"]) and "tickets" in probe["domains"]
    assert probe["rules"] == ["fix_closes_ticket"]
    assert "tickets-csv" in probe["formats"] and probe["formats"][0] == "jsonl"
    assert probe["records"] == [["T-1", "tickets", "ticket"], ["F-1", "tickets", "fix"]]
    assert [line for line, _ in probe["problems"]] == [4]
    assert probe["identifiers"] == [["ticket", "tck-20931", "TCK-20931"]]
    assert probe["scoped"] == ["tickets"]
    help_text = _run(venv / "bin" / "car-graph", "ingest", "--help", cwd=tmp_path)
    assert "tickets-csv" in help_text and "osv" in help_text and "openfda-enforcement" in help_text
