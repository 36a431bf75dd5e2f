"""The closing summary's split of behaviour tests from catalogue checks (tests/outcome_counts.py),
on reports made as pytest makes them."""

from __future__ import annotations

import pytest
from outcome_counts import split_outcomes, summary_line


def report(name: str, outcome: str, when: str = "call", *, catalogue: bool = False) -> pytest.TestReport:
    keywords = {name: 1, "unit": 1, **({"catalogue": 1} if catalogue else {})}
    return pytest.TestReport(f"tests/unit/test_x.py::{name}", ("tests/unit/test_x.py", 1, name),
                             keywords, outcome, None, when)


def test_marked_items_count_as_catalogue_checks_and_the_rest_as_behaviour_tests() -> None:
    stats = {
        "passed": [report("a", "passed"), report("b", "passed"), report("q[chain]", "passed", catalogue=True)],
        "failed": [report("c", "failed"), report("q[car]", "failed", catalogue=True)],
        "error": [report("c", "failed", "teardown")],  # c also erred in its teardown: both count
        "skipped": [report("d", "skipped", "setup")],
        "warnings": [object()],  # not an outcome
    }
    behaviour, catalogue = split_outcomes(stats)
    assert (behaviour["passed"], behaviour["failed"], behaviour["error"], behaviour["skipped"]) == (2, 1, 1, 1)
    assert (catalogue["passed"], catalogue["failed"], catalogue["error"]) == (1, 1, 0)
    assert summary_line(stats) == ("behaviour tests: 2 passed, 1 failed, 1 error, 1 skipped; "
                                   "catalogue checks: 1 passed, 1 failed")


def test_collection_errors_are_left_to_pytests_own_line_and_an_empty_run_prints_nothing() -> None:
    broken = pytest.CollectReport("tests/unit/test_y.py", "failed", "SyntaxError", [])
    assert split_outcomes({"error": [broken]}) == split_outcomes({})
    assert summary_line({"error": [broken]}) is None
    assert summary_line({"passed": [report("a", "passed")]}) == "behaviour tests: 1 passed; catalogue checks: none run"
