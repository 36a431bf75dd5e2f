"""The identifier side of question linking without a server: which digit runs of a question may
be the tail of an identifier (car_graph.linking.partial_digit_runs, beyond
tests/unit/test_entity_linking.py's table: a run set aside never stops the runs after it from
being read, and each reason to set one aside holds at the question's very first character
too), and what a linked entity hands anchors.cypher (``LinkedEntity.parameter``). Expected
values are read off the questions by hand (min_partial_digits = 4)."""

from __future__ import annotations

import pytest

from car_graph.linking import LinkedEntity, LinkingSettings, partial_digit_runs

SETTINGS = LinkingSettings()


def test_the_settings_are_the_ones_these_questions_are_written_for() -> None:
    assert SETTINGS.min_partial_digits == 4


@pytest.mark.parametrize(("question", "spelled", "runs"), [
    ("Is 12 or 34568 affected?", [], ["34568"]),                  # too short, then a tail
    ("In 2019, was 34568 fixed?", [], ["34568"]),                 # a year, then a tail
    ("Is CVE-2021-44228 or 1705 fixed?", [(3, 17)], ["1705"]),     # inside a spelled id, then a tail
    ("Is 4.17052 or 30021 affected?", [], ["30021"]),             # a decimal's digits, then a tail
    ("Is 20481.5 or 30021 affected?", [], ["30021"]),             # a number's integer part, then a tail
])
def test_a_run_set_aside_does_not_hide_the_runs_after_it(question: str, spelled: list[tuple[int, int]],
                                                         runs: list[str]) -> None:
    assert partial_digit_runs(question, spelled, SETTINGS) == runs


@pytest.mark.parametrize(("question", "spelled", "runs"), [
    ("34568 is still open?", [(0, 5)], []),      # the spelled identifier is exactly the run
    ("Is 34568 open, CVE-2021-1705?", [(15, 28)], ["34568"]),  # a span elsewhere hides nothing
    ("#1962 still open?", [], ["1962"]),           # a number cue at the first character: no year
    ("<30021 fixed?", [], []),                     # a version bound at the first character
    (".17052 of them", [], []),                    # a decimal point at the first character
])
def test_each_reason_holds_at_the_edges_of_the_question(question: str, spelled: list[tuple[int, int]],
                                                        runs: list[str]) -> None:
    assert partial_digit_runs(question, spelled, SETTINGS) == runs


@pytest.mark.parametrize(("question", "runs"), [
    ("Is 20481.5 percent affected?", []),   # 20481.5: a number, not an identifier's tail
    ("Is 20481,5 percent affected?", []),   # the same with a decimal comma
    ("Is 20481. Is it fixed?", ["20481"]),  # a full stop ends the sentence, not a number
    ("Is 20481, or 30021, fixed?", ["20481", "30021"]),  # a comma that separates
])
def test_a_run_followed_by_a_separator_and_a_digit_is_part_of_a_number(question: str, runs: list[str]) -> None:
    assert partial_digit_runs(question, [], SETTINGS) == runs


def test_identifiers_count_where_documents_mention_them_and_names_only_where_they_scope() -> None:
    assert LinkedEntity("cve", "cve-2021-44228", 2.5, "identifier").parameter() == {
        "type": "cve", "key": "cve-2021-44228", "weight": 2.5, "mentions": True, "documents": []}
    assert LinkedEntity("cve", "cve-2021-1705", 2.5, "partial", reading_of="1705").parameter()["mentions"] is True
    for how in ("name", "short_name", "typo_reading"):
        assert LinkedEntity("product", "axios", 1.0, how).parameter()["mentions"] is False
    defined = LinkedEntity("defined_name", "ppp", 2.0, "defined", ("rfc:1661", "rfc:1548"))
    assert defined.parameter() == {"type": "defined_name", "key": "ppp", "weight": 2.0, "mentions": False,
                                   "documents": ["rfc:1661", "rfc:1548"]}
