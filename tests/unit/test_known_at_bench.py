"""The known-at benchmark's pure parts on hand-made records: when each source recorded a record,
which ingest step that puts it in, and the gold "as known then" (benchmarks/known_at.py).

No Neo4j, no corpora: hand-made raw lines in the raw files' own shapes, run through the real
adapters and the real source-link reader, with the expected answers stated from the records'
dates by hand.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from car_graph.ingest.domains.security.corpus import load_security
from car_graph_benchmarks.known_at import (
    controlling_known_then,
    plan_steps,
    recorded_versions,
    step_of,
)
from car_graph_benchmarks.links import security_links

DATES = (date(2021, 12, 31), date(2023, 12, 31))


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# --- when a source recorded a record ------------------------------------------------------------


def test_a_pysec_record_is_recorded_when_it_was_last_modified() -> None:
    [version] = recorded_versions("pypa", {"id": "PYSEC-1", "published": "2020-01-05T10:00:00Z",
                                           "modified": "2021-07-15T08:30:00.123456Z"})
    assert version.recorded == datetime(2021, 7, 15, 8, 30, 0, 123456, tzinfo=UTC)
    assert (version.basis, version.withdrawn) == ("modified", False)


def test_a_go_record_with_placeholder_dates_is_recorded_at_its_first_commit() -> None:
    [version] = recorded_versions("govulndb", {
        "id": "GO-2022-0001", "modified": "0001-01-01T00:00:00Z", "published": "0001-01-01T00:00:00Z",
        "_report_first_committed": "2022-08-12T21:03:42+02:00"})
    assert version.recorded == datetime(2022, 8, 12, 19, 3, 42, tzinfo=UTC)
    assert version.basis == "_report_first_committed"


def test_a_withdrawn_record_has_an_unwithdrawn_version_first() -> None:
    before, after = recorded_versions("pypa", {
        "id": "PYSEC-2", "published": "2022-06-23T17:15:00Z", "withdrawn": "2023-11-08T00:54:24Z",
        "modified": "2024-02-16T13:47:54Z"})
    assert (before.recorded, before.basis, before.withdrawn) == (
        utc("2022-06-23T17:15:00"), "published", False)
    # the held version was written at the later of its withdrawal and its last modification
    assert (after.recorded, after.basis, after.withdrawn) == (
        utc("2024-02-16T13:47:54"), "modified", True)

    _, go_after = recorded_versions("govulndb", {
        "id": "GO-2024-1", "modified": "0001-01-01T00:00:00Z", "withdrawn": "2024-08-21T16:25:56Z",
        "_report_first_committed": "2024-01-23T12:50:23Z"})
    assert (go_after.basis, go_after.recorded) == ("withdrawn", utc("2024-08-21T16:25:56"))

    rust_before, rust_after = recorded_versions("rustsec", {
        "advisory": {"id": "RUSTSEC-1", "date": "2020-01-01", "withdrawn": "2021-03-04"}})
    assert rust_before.recorded == utc("2020-01-01T00:00:00") and not rust_before.withdrawn
    assert rust_after.recorded == utc("2021-03-04T00:00:00") and rust_after.withdrawn


def test_a_record_withdrawn_before_anyone_recorded_it_has_one_version() -> None:
    [only] = recorded_versions("govulndb", {
        "id": "GO-2024-2", "modified": "0001-01-01T00:00:00Z", "withdrawn": "2024-01-23T12:50:08Z",
        "_report_first_committed": "2024-08-21T00:00:00Z"})
    assert only.withdrawn and only.recorded == utc("2024-08-21T00:00:00")


def test_releases_are_recorded_on_their_release_dates_and_undated_records_from_the_start() -> None:
    [django] = recorded_versions("django", {"version": "3.2.5", "release_date": "July 1, 2021"})
    [debian] = recorded_versions("debian", {"source": "python-django", "version": "2:3.2.5-1",
                                            "date": "Wed, 16 Oct 2024 19:53:04 +0300"})
    [go] = recorded_versions("go_releases", {"version": "go1.16.1", "date": "2021-03-10"})
    [old] = recorded_versions("django", {"version": "1.1", "release_date": None})
    [npm] = recorded_versions("nodejs", {"id": 1, "created_at": "2016-07-22",
                                         "updated_at": "2017-02-10", "publish_date": "2016-07-25"})
    assert django.recorded == utc("2021-07-01T00:00:00")
    assert debian.recorded == utc("2024-10-16T16:53:04")
    assert go.recorded == utc("2021-03-10T00:00:00")
    assert (old.recorded, old.basis) == (None, "undated")
    assert (npm.recorded, npm.basis) == (utc("2017-02-10T00:00:00"), "updated_at")
    with pytest.raises(ValueError, match="unknown security source"):
        recorded_versions("cargo", {})


def test_step_of_puts_a_day_on_or_before_a_date_in_that_step() -> None:
    assert step_of(None, DATES) == 1
    assert step_of(utc("2021-12-31T23:59:59"), DATES) == 1
    assert step_of(utc("2022-01-01T00:00:00"), DATES) == 2
    assert step_of(utc("2023-12-31T12:00:00"), DATES) == 2
    assert step_of(utc("2026-08-01T00:00:00"), DATES) == 3
    # a non-UTC instant counts by its UTC day
    assert step_of(datetime.fromisoformat("2022-01-01T01:00:00+03:00"), DATES) == 1


# --- gold as known then ------------------------------------------------------------------------


LINKS = [("rel-a", "adv", False), ("rel-b", "adv", False), ("rel-c", "adv-2", True),
         ("rel-d", "adv-3", False), ("rel-e", "rel-d", False)]


def test_gold_is_what_fixed_the_anchor_among_the_documents_recorded_then() -> None:
    assert controlling_known_then("adv", LINKS, {"adv"}) == {"adv"}  # nothing fixed it yet
    assert controlling_known_then("adv", LINKS, {"adv", "rel-a"}) == {"rel-a"}
    assert controlling_known_then("adv", LINKS, {"adv", "rel-a", "rel-b"}) == {"rel-a", "rel-b"}
    # a release recorded before its advisory supersedes it only once the advisory is recorded
    assert controlling_known_then("adv", LINKS, {"rel-a", "rel-b"}) is None


def test_gold_keeps_a_partially_superseded_anchor_and_follows_chains() -> None:
    assert controlling_known_then("adv-2", LINKS, {"adv-2", "rel-c"}) == {"adv-2", "rel-c"}
    assert controlling_known_then("adv-3", LINKS, {"adv-3", "rel-d"}) == {"rel-d"}
    assert controlling_known_then("adv-3", LINKS, {"adv-3", "rel-d", "rel-e"}) == {"rel-e"}
    # a link whose newer end is unknown then does not count, even when what it leads to is known
    assert controlling_known_then("adv-3", LINKS, {"adv-3", "rel-e"}) == {"adv-3"}


def test_a_cycle_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError, match="cycle"):
        controlling_known_then("x", [("y", "x", False), ("x", "y", False)], {"x", "y"})
    with pytest.raises(ValueError, match="cycle"):
        controlling_known_then("a", [("b", "a", False), ("c", "b", False), ("b", "c", False),
                                     ("d", "c", False)], {"a", "b", "c", "d"})


# --- hand-made raw files through the adapters and the source links -----------------------------


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _affected(fixed: str) -> list[dict]:
    return [{"package": {"name": "django", "ecosystem": "PyPI"},
             "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": fixed}]}]}]


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    _write(tmp_path / "pypa_advisories.jsonl", [
        # recorded 2021; fixed by 3.2.5 (2021) and, by its CVE, a Debian upload of 2024
        {"id": "PYSEC-2021-1", "published": "2021-06-01T00:00:00Z",
         "modified": "2021-07-15T00:00:00Z", "aliases": ["CVE-2021-1111"],
         "details": "SQL injection in QuerySet.order_by in Django.", "affected": _affected("3.2.5")},
        # recorded 2023, fixed by 4.2.1 only in 2024: unfixed as known at the end of 2023
        {"id": "PYSEC-2023-2", "published": "2023-03-01T00:00:00Z",
         "modified": "2023-03-02T00:00:00Z", "aliases": [],
         "details": "Denial of service in multipart parsing in Django.", "affected": _affected("4.2.1")},
        # published 2021, withdrawn 2022-03: an update of the same id in the second step
        {"id": "PYSEC-2021-3", "published": "2021-05-01T00:00:00Z",
         "modified": "2022-03-09T00:00:00Z", "withdrawn": "2022-03-08T00:00:00Z", "aliases": [],
         "details": "Header injection in Django, disputed.", "affected": _affected("3.2.5")},
    ])
    _write(tmp_path / "django_release_notes.jsonl", [
        {"version": "3.2.5", "release_date": "July 1, 2021", "cve_ids": [],
         "text": "Django 3.2.5 fixes a security issue and several bugs."},
        {"version": "4.2.1", "release_date": "May 3, 2024", "cve_ids": [],
         "text": "Django 4.2.1 fixes a security issue."},
    ])
    _write(tmp_path / "debian_changelogs.jsonl", [
        {"source": "python-django", "version": "2:3.2.5-1+deb12u1", "binary_package": "python3-django",
         "date": "Wed, 16 Oct 2024 19:53:04 +0300", "cve_ids": ["CVE-2021-1111"],
         "distribution": "bookworm", "text": "Fix CVE-2021-1111: SQL injection."},
    ])
    return tmp_path


def test_steps_and_gold_from_hand_made_raw_files(raw: Path) -> None:
    records = load_security(raw, [])
    steps, first_step, stats = plan_steps(raw, records, DATES)
    by_step = [{r.id: r for r in step} for step in steps]
    assert set(by_step[0]) == {"PYSEC-2021-1", "PYSEC-2021-3", "django-release:3.2.5"}
    assert set(by_step[1]) == {"PYSEC-2023-2", "PYSEC-2021-3"}
    assert set(by_step[2]) == {"django-release:4.2.1", "debian-changelog:python-django:2:3.2.5-1+deb12u1"}
    # the withdrawal is an update of the same id: unwithdrawn first, withdrawn in the next step
    assert "withdrawn" not in by_step[0]["PYSEC-2021-3"].attributes
    assert by_step[1]["PYSEC-2021-3"].attributes["withdrawn"] == "2022-03-08"
    assert stats["updates_across_steps"] == 1 and stats["withdrawn_with_earlier_version"] == 1
    assert first_step["PYSEC-2021-3"] == 1

    links = [(x.newer, x.older, x.partial) for x in security_links(raw).links]

    def gold(anchor: str, step: int) -> frozenset[str] | None:
        return controlling_known_then(anchor, links, {d for d, s in first_step.items() if s <= step})

    assert gold("PYSEC-2021-1", 1) == {"django-release:3.2.5"}
    assert gold("PYSEC-2021-1", 2) == {"django-release:3.2.5"}
    assert gold("PYSEC-2021-1", 3) == {"django-release:3.2.5",
                                       "debian-changelog:python-django:2:3.2.5-1+deb12u1"}
    assert gold("PYSEC-2023-2", 1) is None
    assert gold("PYSEC-2023-2", 2) == {"PYSEC-2023-2"}
    assert gold("PYSEC-2023-2", 3) == {"django-release:4.2.1"}
    # withdrawal changes the status, not what controls the advisory
    assert gold("PYSEC-2021-3", 1) == gold("PYSEC-2021-3", 2) == {"django-release:3.2.5"}


def test_a_corpus_document_missing_from_the_raw_files_is_an_error(raw: Path, tmp_path: Path) -> None:
    records = load_security(raw, [])
    (raw / "debian_changelogs.jsonl").unlink()
    with pytest.raises(ValueError, match="1 corpus documents not found"):
        plan_steps(raw, records, DATES)


# --- the committed question sets -----------------------------------------------------------------


def test_the_committed_sets_are_what_the_builder_writes(raw_corpora: Path, tmp_path: Path) -> None:
    """benchmarks/security/known_at.* are a rebuild's output, byte for byte (a change to the
    builder, the corpus or the dates must come with regenerated sets)."""
    from car_graph_benchmarks.known_at import build_history, write_history

    committed = Path(__file__).parents[2] / "benchmarks" / "security"
    bench = build_history(raw_corpora)
    paths = write_history(bench, tmp_path)
    for name in ("known_at.dev.jsonl", "known_at.test.jsonl", "known_at.stats.json"):
        assert paths[name].read_text(encoding="utf-8") == \
            (committed / name).read_text(encoding="utf-8"), name
    rows = [json.loads(line) for split in ("dev", "test")
            for line in (committed / f"known_at.{split}.jsonl").read_text().splitlines()]
    # every question is asked at a date its anchor was recorded by, and at an earlier step
    assert all(1 <= r["step"] < len(bench.steps) for r in rows)
    assert all(bench.first_step[r["anchors"][0]] <= r["step"] for r in rows)
    assert sum(r["info"]["gold_changed_later"] for r in rows) == sum(
        v["gold_changed_later"] for v in bench.stats["per_date"].values())
