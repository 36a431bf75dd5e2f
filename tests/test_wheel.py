"""The built wheel is self-contained: one top-level package, CLI entry point, Cypher catalogue.

Built from a copy of the source tree, so stale files in the repository's build/ cannot leak in
and the working tree is left untouched.
"""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__",
                                ".pytest_cache", "tests")

PROBE = """
import json, sys
import car_graph
from car_graph import cypher
queries = cypher.query_names()
schemas = cypher.schema_names()
for name in queries:
    assert cypher.load(name).text.strip(), name
for name in schemas:
    assert cypher.load_schema(name).text.strip(), name
from importlib import resources
pom = resources.files("car_graph").joinpath("resources", "neo4j-pom.xml").read_text()
from car_graph import browser
print(json.dumps({"file": car_graph.__file__, "queries": queries, "schemas": schemas,
                  "pom": "org.neo4j" in pom, "style": "relationship.SUPERSEDES" in browser.style_text()}))
"""


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=IGNORE)
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source)
    wheels = list(dist.glob("car_graph-*.whl"))
    assert len(wheels) == 1

    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
    top_level = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top_level == {"car_graph"}
    assert "car_graph/resources/neo4j-pom.xml" in names
    assert any(n.startswith("car_graph/queries/") and n.endswith(".cypher") for n in names)
    assert any(n.startswith("car_graph/graph_schema/") and n.endswith(".cypher") for n in names)

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    # --system-site-packages exposes the *base* interpreter's packages; the dependencies
    # (neo4j, click, ...) live in the development venv, so expose its site-packages too,
    # after the new venv's own. A plain path line does not run the dev venv's .pth files,
    # so its editable car_graph finder stays out and the wheel is what gets imported.
    new_site = Path(_run(venv / "bin" / "python", "-c", "import site; print(site.getsitepackages()[0])").strip())
    (new_site / "zz_dev_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _run(venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheels[0])

    help_text = _run(venv / "bin" / "car-graph", "--help", cwd=tmp_path)
    assert "neo4j" in help_text and "schema" in help_text

    probe = json.loads(_run(venv / "bin" / "python", "-c", PROBE, cwd=tmp_path))
    assert Path(probe["file"]).resolve().is_relative_to(venv.resolve())
    assert probe["queries"] and probe["schemas"]
    assert any(name.startswith("analyst/") for name in probe["queries"])
    assert probe["pom"] and probe["style"]
