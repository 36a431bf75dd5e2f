"""The generic JSON Lines format: valid lines load, bad lines are reported with file and line."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from car_graph.errors import IngestError, InputProblem
from car_graph.records import parse_record, read_jsonl, write_jsonl


def test_full_record_parses_and_keeps_unknown_fields_as_attributes() -> None:
    record = parse_record({
        "id": "d1", "text": "body", "title": "T", "domain": "law", "kind": "decision",
        "published": "1905-04-17", "scope": {"case": ["Lochner v. New York"]},
        "supersedes": ["d0", {"id": "d-1", "effective": "1937-03-29", "evidence": "row 12",
                              "partial": True}],
        "attributes": {"citation": "198 U.S. 45"}, "court": "SCOTUS",
    })
    assert record.published == date(1905, 4, 17)
    assert record.scope == {"case": ("Lochner v. New York",)}
    assert [s.id for s in record.supersedes] == ["d0", "d-1"]
    assert record.supersedes[1].partial and record.supersedes[1].effective == date(1937, 3, 29)
    assert record.attributes == {"court": "SCOTUS", "citation": "198 U.S. 45"}


def test_record_round_trips_through_json() -> None:
    obj = {"id": "d1", "text": "x", "scope": {"drug": "a"}, "supersedes": [{"id": "d0"}]}
    assert parse_record(parse_record(obj).to_json()) == parse_record(obj)


def test_published_with_a_time_keeps_the_date_and_the_instant() -> None:
    record = parse_record({"id": "d", "text": "t", "published": "2024-01-05T09:30:00"})
    assert record.published == date(2024, 1, 5)
    assert record.published_at == datetime(2024, 1, 5, 9, 30)
    assert parse_record(record.to_json()) == record
    dated = parse_record({"id": "d", "text": "t", "published": "2024-01-05"})
    assert dated.published == date(2024, 1, 5) and dated.published_at is None


def test_published_with_an_offset_is_stored_as_utc_with_the_date_as_written() -> None:
    record = parse_record({"id": "d", "text": "t", "published": "2024-01-05T22:00:00-05:00"})
    assert record.published == date(2024, 1, 5)
    assert record.published_at == datetime(2024, 1, 6, 3, 0)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"text": "no id"}', "missing required field 'id'"),
        ('{"id": "x"}', "missing required field 'text'"),
        ('{"id": "x", "text": "t", "published": "yesterday"}', "published is not a date"),
        ('{"id": "x", "text": "t", "published": "2024-01-05T25:00:00"}',
         "published is neither a date nor an ISO date-time"),
        ('{"id": "x", "text": "t", "scope": ["a"]}', "field 'scope' must be an object"),
        ('{"id": "x", "text": "t", "scope": {"bad type": "a"}}', "scope entity type 'bad type'"),
        ('{"id": "x", "text": "t", "supersedes": [3]}', "bad 'supersedes' entry 3"),
        ('{"id": "x", "text": 5}', "field 'text' must be a string"),
        ('[1, 2]', "must hold a JSON object"),
        ('{"id": "x", "text": ', "invalid JSON"),
    ],
)
def test_bad_line_is_reported_with_file_line_and_reason(tmp_path: Path, line: str, reason: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "ok", "text": "fine"}\n' + line + "\n")
    problems: list[InputProblem] = []
    loaded = list(read_jsonl(path, problems))
    assert [r.id for r in loaded] == ["ok"]  # the valid line is not lost
    assert len(problems) == 1
    assert problems[0].source == str(path) and problems[0].line == 2
    assert reason in problems[0].reason


def test_strict_reading_raises_on_the_first_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "a", "text": "t"}\n\n{"id": "a", "text": "again"}\n')
    with pytest.raises(IngestError) as caught:
        list(read_jsonl(path))
    assert str(caught.value) == f"{path}:3: duplicate id 'a' in this file (line 1 was kept)"


def test_write_then_read_is_lossless(tmp_path: Path) -> None:
    records = [parse_record({"id": f"d{i}", "text": f"t{i}", "attributes": {"n": i}}) for i in range(3)]
    path = tmp_path / "out.jsonl"
    assert write_jsonl(records, path) == 3
    assert list(read_jsonl(path)) == records
    assert all(json.loads(line)["id"] for line in path.read_text().splitlines())
