"""CLI plugins: commands from the entry-point group ``car_graph.cli`` join ``car-graph``; a broken
plugin costs one warning line, never the CLI; the core never imports the benchmarks package.

Each run is a fresh interpreter, since plugins load once per process and a fake distribution is
put on its path (a real ``*.dist-info`` folder, found by importlib.metadata as pip's would be).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import car_graph

BENCHMARK_COMMANDS = ("synthetic", "reproduce", "bench", "corpora", "known-at-bench")


def _car_graph(*args: str, pythonpath: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "car_graph", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def _commands(help_text: str) -> set[str]:
    lines = help_text.split("Commands:", 1)[1].splitlines()
    return {line.split()[0] for line in lines if line.startswith("  ") and line.strip()}


def _fake_distribution(root: Path, entry_points: str) -> Path:
    info = root / "broken_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[car_graph.cli]\n" + entry_points)
    return root


def test_installed_benchmarks_add_their_commands_without_a_warning(tmp_path) -> None:
    run = _car_graph("--help", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    commands = _commands(run.stdout)
    assert set(BENCHMARK_COMMANDS) <= commands
    assert {"ask", "ingest", "neo4j", "schema"} <= commands
    assert run.stderr == ""


def test_a_broken_plugin_is_one_warning_line_and_the_rest_of_the_cli_works(tmp_path) -> None:
    site = _fake_distribution(tmp_path / "site", (
        "kaput = car_graph_no_such_module:command\n"   # import fails
        "notclick = json:dumps\n"                       # loads, but is no click command
        "ask = json:dumps\n"))                          # would shadow a built-in
    run = _car_graph("--help", pythonpath=site, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    warnings = run.stderr.splitlines()
    assert len(warnings) == 3, run.stderr
    by_name = {name: [w for w in warnings if f"'{name}'" in w] for name in ("kaput", "notclick", "ask")}
    assert all(len(lines) == 1 for lines in by_name.values()), warnings
    assert "ModuleNotFoundError" in by_name["kaput"][0] and "broken-plugin 0.1" in by_name["kaput"][0]
    assert "not a click command" in by_name["notclick"][0]
    assert "already exists" in by_name["ask"][0]
    commands = _commands(run.stdout)
    assert set(BENCHMARK_COMMANDS) <= commands and "ask" in commands
    assert not {"kaput", "notclick"} & commands

    out = tmp_path / "synthetic"
    plugin_command = _car_graph("synthetic", str(out), "--docs", "200", "--seed", "3", pythonpath=site, cwd=tmp_path)
    assert plugin_command.returncode == 0, plugin_command.stderr
    assert (out / "documents.jsonl").is_file()
    assert len(plugin_command.stderr.splitlines()) == 3  # the same warnings, once each

    builtin = _car_graph("neo4j", "--help", pythonpath=site, cwd=tmp_path)
    assert builtin.returncode == 0 and "install" in builtin.stdout
    assert builtin.stderr == ""  # built-in commands never load plugins


def test_the_core_cli_never_imports_the_benchmarks_package(tmp_path) -> None:
    package = Path(car_graph.__file__).parent
    imports = [f"{path}:{node.lineno}" for path in package.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(), str(path)))
               if isinstance(node, ast.Import | ast.ImportFrom) and any(
                   name.startswith("car_graph_benchmarks")
                   for name in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]))]
    assert imports == []
    probe = ("import sys\nfrom car_graph import cli\n"
             "cli.main(['ask', '--help'], prog_name='car-graph', standalone_mode=False)\n"
             "print(sorted(m for m in sys.modules if m.startswith('car_graph_benchmarks')))\n")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"
