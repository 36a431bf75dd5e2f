"""The built wheel is self-contained: one top-level package, CLI entry point, Cypher catalogue,
and nothing but the library: the benchmarks are their own wheel (car-graph-benchmarks), whose
commands join the CLI when both are installed.

Built from a copy of the source tree, so stale files in the repository's build/ cannot leak in
and the working tree is left untouched.
"""

from __future__ import annotations

import fnmatch
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


# Everything the car-graph wheel may hold: the library's code, its Cypher catalogue and schema,
# rules, the Neo4j pom and the demo sample. A benchmark module or question set matches none.
LIBRARY_FILES = (
    "car_graph/*.py", "car_graph/py.typed", "car_graph/adapters/*.py",
    "car_graph/ingest/*.py", "car_graph/ingest/*/*.py", "car_graph/ingest/*/*/*.py",
    "car_graph/ingest/*.yaml", "car_graph/ingest/*/*.yaml", "car_graph/ingest/*/*/*.yaml",
    "car_graph/queries/*.py", "car_graph/queries/*.cypher", "car_graph/queries/analyst/*.cypher",
    "car_graph/queries/fragments/*.cypher",
    "car_graph/graph_schema/*.py", "car_graph/graph_schema/*.cypher", "car_graph/graph_schema/browser.grass",
    "car_graph/graph_schema/README.md",
    "car_graph/resources/*.xml", "car_graph/resources/sample/*.jsonl", "car_graph/resources/sample/SOURCE.md",
    # the verdict's data: its fitted weights and the cue words of each language
    "car_graph/resources/verdict.yaml", "car_graph/resources/lexicon/*.yaml",
)

BENCHMARKS_PROBE = """
import json
from importlib import resources
import car_graph_benchmarks
from car_graph_benchmarks import compliance, synthetic
from car_graph_benchmarks.corpora import load_manifest
data = resources.files("car_graph_benchmarks")
print(json.dumps({"file": car_graph_benchmarks.__file__, "manifest": len(load_manifest()),
                  "rules": compliance.RULES_PATH.is_file() and synthetic.RULES_PATH.is_file(),
                  "sets": all(data.joinpath(d, "queries.test.jsonl").is_file() for d in ("security", "law", "drug")),
                  "variants": data.joinpath("variants", "drug", "typo.test.jsonl").is_file()}))
"""


def _path_matches(name: str, pattern: str) -> bool:
    """Glob per path segment: unlike fnmatch, ``*`` never crosses a ``/``."""
    parts, wanted = name.split("/"), pattern.split("/")
    return len(parts) == len(wanted) and all(fnmatch.fnmatchcase(p, w) for p, w in zip(parts, wanted))


def test_library_file_patterns_do_not_cross_folders() -> None:
    assert _path_matches("car_graph/client.py", "car_graph/*.py")
    assert not _path_matches("car_graph/benchmarks/synthetic.py", "car_graph/*.py")
    assert not any(_path_matches("car_graph/benchmarks/security/queries.test.jsonl", p) for p in LIBRARY_FILES)


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
    assert {"car_graph/resources/verdict.yaml", "car_graph/resources/lexicon/en.yaml"} <= set(names)
    assert any(n.startswith("car_graph/queries/") and n.endswith(".cypher") for n in names)
    assert any(n.startswith("car_graph/graph_schema/") and n.endswith(".cypher") for n in names)
    assert not [n for n in names if n.startswith("car_graph/benchmarks/") or "car_graph_benchmarks" in n]
    library = [n for n in names if not n.split("/", 1)[0].endswith(".dist-info")]
    strays = [n for n in library if not any(_path_matches(n, pattern) for pattern in LIBRARY_FILES)]
    assert strays == [], f"the car-graph wheel holds more than the library: {strays}"

    # The benchmarks build their own wheel: code, question sets, rules, the corpora manifest, and
    # the entry points that add their commands to car-graph.
    _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source / "benchmarks")
    bench_wheels = list(dist.glob("car_graph_benchmarks-*.whl"))
    assert len(bench_wheels) == 1
    with zipfile.ZipFile(bench_wheels[0]) as wheel:
        bench_names = wheel.namelist()
        entry_points = next(wheel.read(n).decode() for n in bench_names if n.endswith(".dist-info/entry_points.txt"))
    assert {n.split("/", 1)[0] for n in bench_names if ".dist-info" not in n} == {"car_graph_benchmarks"}
    for expected in ("car_graph_benchmarks/cli.py", "car_graph_benchmarks/corpora.json",
                     "car_graph_benchmarks/security/queries.test.jsonl", "car_graph_benchmarks/rules/compliance.yaml",
                     "car_graph_benchmarks/variants/security/paraphrase.test.jsonl"):
        assert expected in bench_names, expected
    assert not [n for n in bench_names if n.endswith("documents.jsonl")]  # generated corpora stay out
    assert "[car_graph.cli]" in entry_points
    assert all(f"{name} = car_graph_benchmarks.cli:" in entry_points
               for name in ("synthetic", "reproduce", "bench", "corpora"))

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    # --system-site-packages exposes the *base* interpreter's packages; the dependencies
    # (neo4j, click, ...) live in the development venv, so expose its site-packages too,
    # after the new venv's own. A plain path line does not run the dev venv's .pth files,
    # so its editable car_graph finder stays out and the wheel is what gets imported.
    new_site = Path(_run(venv / "bin" / "python", "-c", "import site; print(site.getsitepackages()[0])").strip())
    (new_site / "zz_dev_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _run(venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheels[0], bench_wheels[0])

    help_run = subprocess.run([venv / "bin" / "car-graph", "--help"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
    assert help_run.returncode == 0, help_run.stderr
    help_text = help_run.stdout
    assert "neo4j" in help_text and "schema" in help_text
    assert all(f"  {name} " in help_text for name in ("synthetic", "reproduce", "bench", "corpora"))
    assert help_run.stderr == ""  # every plugin command loaded from the installed wheel

    synthetic_out = tmp_path / "synthetic"
    _run(venv / "bin" / "car-graph", "synthetic", synthetic_out, "--docs", "200", "--seed", "7", cwd=tmp_path)
    assert (synthetic_out / "documents.jsonl").is_file() and (synthetic_out / "rules.yaml").is_file()
    bench_probe = json.loads(_run(venv / "bin" / "python", "-c", BENCHMARKS_PROBE, cwd=tmp_path))
    assert Path(bench_probe["file"]).resolve().is_relative_to(venv.resolve())
    assert bench_probe["manifest"] >= 3 and bench_probe["rules"] and bench_probe["sets"] and bench_probe["variants"]

    probe = json.loads(_run(venv / "bin" / "python", "-c", PROBE, cwd=tmp_path))
    assert Path(probe["file"]).resolve().is_relative_to(venv.resolve())
    assert probe["queries"] and probe["schemas"]
    assert any(name.startswith("analyst/") for name in probe["queries"])
    assert probe["pom"] and probe["style"]
