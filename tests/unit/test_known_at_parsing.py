"""One time format on every surface (issue 61, Deliver 5): a date-only known-at, in either
ISO spelling, means the END of that day; ``run:N`` names a run; a bad value is a clear error
(a query line's, with its file and line)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from car_graph.errors import IngestError
from car_graph.evaluation import parse_queries
from car_graph.types import RunRef, instant, known_at_instant, parse_known_at

END = datetime(2026, 12, 7, 23, 59, 59, 999999, tzinfo=UTC)


@pytest.mark.parametrize("text", ["2026-12-07", "20261207", " 2026-12-07 "])
def test_a_date_only_known_at_is_the_end_of_that_day_in_either_spelling(text: str) -> None:
    assert parse_known_at(text) == END
    assert known_at_instant(text) == END


def test_a_date_only_purge_cutoff_is_the_start_of_that_day_in_either_spelling() -> None:
    start = datetime(2026, 12, 7, tzinfo=UTC)
    assert instant("20261207", day_end=False) == instant("2026-12-07", day_end=False) == start


def test_a_datetime_is_itself_and_a_zone_less_one_is_utc() -> None:
    assert parse_known_at("2026-12-07T10:30:00") == datetime(2026, 12, 7, 10, 30, tzinfo=UTC)
    assert parse_known_at("2026-12-07T10:30:00+01:00") == datetime(2026, 12, 7, 9, 30, tzinfo=UTC)


def test_run_n_names_a_run_and_only_the_graph_resolves_it() -> None:
    assert parse_known_at("run:42") == RunRef(42)
    assert parse_known_at("RUN:7") == RunRef(7)
    with pytest.raises(ValueError, match="names a run"):
        known_at_instant("run:42")


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-45", "run:", "run:x"])
def test_a_bad_known_at_says_what_is_accepted(bad: str) -> None:
    with pytest.raises(ValueError, match=r"YYYY-MM-DD.*run:N"):
        parse_known_at(bad)


def test_a_query_line_keeps_its_known_at_and_a_bad_one_is_that_lines_error() -> None:
    good = '{"id": "q1", "question": "Q?", "gold": ["A"], "known_at": "2023-12-31"}'
    assert parse_queries([good], "q.jsonl")[0].known_at == "2023-12-31"
    assert parse_queries(['{"id": "q1", "question": "Q?", "gold": ["A"]}'], "q.jsonl")[0].known_at is None
    bad = '{"id": "q2", "question": "Q?", "gold": ["A"], "known_at": "someday"}'
    with pytest.raises(IngestError) as caught:
        parse_queries([good, bad], "q.jsonl")
    assert "q.jsonl" in str(caught.value) and "2" in str(caught.value)


def test_query_param_known_at_in_basic_form_is_the_end_of_the_day_and_a_bad_one_is_clear() -> None:
    from car_graph import analyst
    from car_graph.errors import QueryParameterError

    name = analyst.resolve_name("chain")
    # `-p known_at=20261207` arrives as the JSON number 20261207
    bound = analyst.bind(name, {"doc_id": "X", "known_at": analyst.parse_param("known_at=20261207")[1]})
    assert bound["known_at"] == END
    with pytest.raises(QueryParameterError, match="known_at"):
        analyst.bind(name, {"doc_id": "X", "known_at": "garbage"})
