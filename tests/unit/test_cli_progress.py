"""Progress bars go where someone watches: a terminal, never under --json."""

from __future__ import annotations

import io

import click
import pytest

from car_graph import cli


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("flag", "as_json", "tty", "shown"), [
    (None, False, True, True),     # default: on at a terminal
    (None, False, False, False),   # default: off in a pipe or a log file
    (True, False, False, True),    # --progress forces them on
    (False, False, True, False),   # --no-progress
    (True, True, True, False),     # --json wins: its stdout is for machines, stderr stays quiet
    (None, True, True, False),
])
def test_progress_is_on_at_a_terminal_and_off_under_json(monkeypatch, flag, as_json, tty, shown) -> None:
    monkeypatch.setattr(cli.sys, "stderr", Terminal() if tty else io.StringIO())
    assert cli._show_progress(flag, as_json) is shown


@pytest.mark.parametrize("command", ["ingest", "eval", "demo", "reproduce"])
def test_every_long_command_offers_the_progress_switch(command) -> None:
    # reproduce is a plugin command (car-graph-benchmarks): looked up the way the CLI does
    found = cli.main.get_command(click.Context(cli.main), command)
    assert found is not None, command
    options = {name for param in found.params for name in param.opts}
    assert {"--progress"} <= options
    secondary = {name for param in found.params for name in param.secondary_opts}
    assert "--no-progress" in secondary
