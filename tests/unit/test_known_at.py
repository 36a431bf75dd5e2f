"""--known-at and purge --before: a date or a datetime, as one instant of transaction time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.mcp_server import InputRejected, check_known_at
from car_graph.types import instant, known_at_instant


def test_a_date_is_the_end_of_that_day_for_known_at_and_its_start_for_purge() -> None:
    end = known_at_instant("2019-06-01")
    assert end is not None and end.isoformat() == "2019-06-01T23:59:59.999999+00:00"
    assert known_at_instant(date(2019, 6, 1)) == end
    start = instant("2019-06-01", day_end=False)
    assert start.isoformat() == "2019-06-01T00:00:00+00:00"
    assert end - start == timedelta(days=1, microseconds=-1)


def test_a_datetime_keeps_its_instant_and_a_naive_one_is_utc() -> None:
    paris = datetime(2019, 6, 1, 12, 30, tzinfo=timezone(timedelta(hours=2)))
    assert known_at_instant(paris) == datetime(2019, 6, 1, 10, 30, tzinfo=UTC)
    assert known_at_instant("2019-06-01T10:30:00.000005") == datetime(
        2019, 6, 1, 10, 30, 0, 5, tzinfo=UTC)
    assert known_at_instant(None) is None


@pytest.mark.parametrize("bad", ["yesterday", "2019-13-01", "2019-06-01T25:00"])
def test_anything_else_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        known_at_instant(bad)
    with pytest.raises(InputRejected, match="known_at"):
        check_known_at(bad)
    run = CliRunner().invoke(main, ["explain", "X", "--known-at", bad])
    assert run.exit_code == 2 and "--known-at" in run.output
    run = CliRunner().invoke(main, ["purge", "--before", bad])
    assert run.exit_code == 2 and "--before" in run.output
