"""A user's identifier pattern runs on RE2, in time linear in the text: no pattern stored by a
rules file, the graph or an MCP client can hang question analysis. Measured before: with
``(?:[\\w ]+)+Q`` stored, a 28-character question took 18.9 s and a 30-character one 89.6 s on
Python's backtracking engine."""

from __future__ import annotations

import json
import time

import pytest

from car_graph.domains import domain_from_json, domain_from_mapping, domain_to_mapping
from car_graph.errors import RulesError
from car_graph.extraction import find_identifiers


def declared(pattern: str, **extra):
    domain = domain_from_mapping(
        {"domain": "tickets", "identifiers": [{"type": "ticket", "pattern": pattern, **extra}]},
        "tickets.yaml")
    assert domain is not None
    return domain


def test_a_catastrophic_pattern_answers_a_long_question_at_once() -> None:
    [spec] = declared(r"(?:[\w ]+)+Q").identifiers
    question = "a" * 26 + "!"  # Python's engine: seconds here, doubling with each character
    started = time.perf_counter()
    assert find_identifiers(question, [spec]) == []
    assert time.perf_counter() - started < 0.5


@pytest.mark.parametrize(("pattern", "named"), [
    (r"(?<!X)TCK-\d+", "lookahead or lookbehind"),
    (r"TCK-\d+(?=!)", "lookahead or lookbehind"),
    (r"(TCK)-\1", "backreference"),
])
def test_a_construct_re2_cannot_run_is_refused_by_name(pattern: str, named: str) -> None:
    with pytest.raises(RulesError) as refused:
        declared(pattern)
    assert named in str(refused.value) and "tickets.yaml identifiers[0]" in str(refused.value)


def test_identifiers_stay_bounded_on_either_side() -> None:
    [spec] = declared(r"TCK-\d{4,}", case_insensitive=True).identifiers
    text = "see TCK-2093, xTCK-1234, tck-5555.x and TCK-7777. then TCK-8888-b"
    found = [text[start:end] for start, end, _, _ in find_identifiers(text, [spec])]
    assert found == ["TCK-2093", "TCK-7777"]
    assert spec.fullmatch_key("TCK-20931") == "tck-20931"
    assert spec.fullmatch_key("TCK-20931x") is None


def test_a_pattern_stored_by_an_earlier_version_reads_back_linear() -> None:
    stored = domain_to_mapping(declared(r"(?:[\w ]+)+Q"))
    [identifier] = stored["identifiers"]
    assert identifier["engine"] == "re2" and identifier["pattern"] == r"(?:[\w ]+)+Q"
    # the form graphs stored before: the Python-bounded pattern
    identifier.pop("engine")
    identifier.update(pattern=r"(?<![\w-])(?:(?:[\w ]+)+Q)(?![\w-]|\.\w)", _bounded=True)
    [spec] = domain_from_json(json.dumps(stored), "graph domain tickets").identifiers
    assert spec.linear and spec.pattern == r"(?:[\w ]+)+Q"
    started = time.perf_counter()
    assert find_identifiers("b" * 26 + "!", [spec]) == []
    assert time.perf_counter() - started < 0.5
