"""The closing summary's split (tests/conftest.py, ``pytest_terminal_summary``): behaviour tests
apart from the per-file lint checks of the Cypher catalogue (the ``catalogue`` marker), so that
the count of tests says what it measures. pytest's own closing line is left as it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

CATALOGUE_MARKER = "catalogue"
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def split_outcomes(stats: Mapping[str, Sequence[object]]) -> tuple[dict[str, int], dict[str, int]]:
    """Outcome counts of (behaviour tests, catalogue checks) from the terminal reporter's stats:
    an item carrying the ``catalogue`` marker is a catalogue check, anything else a behaviour
    test. Counted per report, as pytest's own line counts (a test failing in its call and
    erring in its teardown is one failed and one error); collection errors are left to it."""
    behaviour = dict.fromkeys(OUTCOMES, 0)
    catalogue = dict.fromkeys(OUTCOMES, 0)
    for outcome in OUTCOMES:
        for report in stats.get(outcome, []):
            keywords = getattr(report, "keywords", None)
            if getattr(report, "when", None) is None or keywords is None:
                continue  # a collection report
            (catalogue if CATALOGUE_MARKER in keywords else behaviour)[outcome] += 1
    return behaviour, catalogue


def summary_line(stats: Mapping[str, Sequence[object]]) -> str | None:
    """"behaviour tests: N passed, ...; catalogue checks: M passed" (None when nothing ran)."""
    behaviour, catalogue = split_outcomes(stats)
    if not any(behaviour.values()) and not any(catalogue.values()):
        return None

    def text(counts: dict[str, int]) -> str:
        return ", ".join(f"{n} {outcome}" for outcome, n in counts.items() if n) or "none run"

    return f"behaviour tests: {text(behaviour)}; catalogue checks: {text(catalogue)}"
