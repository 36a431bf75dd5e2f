"""The citator (CarClient.check, `car-graph check`) against the real Neo4j: a brief citing an
overruled case by name and by citation, an advisory by its CVE alias and a case still good law;
each mention with its span, line and status, and a CI gate on `--fail-on superseded`."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.records import parse_record

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

DECISIONS = [
    {"id": "scotus:478-us-186", "domain": "law", "kind": "decision", "published": "1986-06-30",
     "title": "Bowers v. Hardwick", "text": "Bowers v. Hardwick, 478 U.S. 186 (1986).",
     "scope": {"case": ["Bowers v. Hardwick"]}, "attributes": {"citation": "478 U.S. 186"}},
    {"id": "scotus:539-us-558", "domain": "law", "kind": "decision", "published": "2003-06-26",
     "title": "Lawrence v. Texas",
     "text": "Lawrence v. Texas, 539 U.S. 558 (2003). Lawrence v. Texas overruled Bowers v. Hardwick.",
     "scope": {"case": ["Lawrence v. Texas", "Bowers v. Hardwick"]},
     "attributes": {"citation": "539 U.S. 558"},
     "supersedes": [{"id": "scotus:478-us-186", "effective": "2003-06-26", "evidence": "CONAN table"}]},
    {"id": "scotus:384-us-436", "domain": "law", "kind": "decision", "published": "1966-06-13",
     "title": "Miranda v. Arizona", "text": "Miranda v. Arizona, 384 U.S. 436 (1966).",
     "scope": {"case": ["Miranda v. Arizona"]}, "attributes": {"citation": "384 U.S. 436"}},
]
ADVISORIES = [
    {"id": "GHSA-p6mc-m468-83gw", "domain": "security", "kind": "advisory", "published": "2020-07-15",
     "title": "Prototype pollution in lodash", "text": "Prototype pollution in lodash zipObjectDeep.",
     "scope": {"package": ["npm:lodash"]}, "attributes": {"aliases": ["CVE-2020-8203"]}},
    {"id": "REL-lodash-4.17.20", "domain": "security", "kind": "release", "published": "2020-08-13",
     "title": "lodash 4.17.20", "text": "lodash 4.17.20 fixes CVE-2020-8203.",
     "scope": {"package": ["npm:lodash"]},
     "supersedes": [{"id": "GHSA-p6mc-m468-83gw", "effective": "2020-08-13", "evidence": "release notes"}]},
]
BRIEF = """# Brief

The petitioner relies on Bowers v. Hardwick, 478 U.S. 186 (1986), and on
Miranda v. Arizona. The library is also exposed to CVE-2020-8203.
Nothing here cites 999 U.S. 999 or Smith v. Nobody.
"""


@pytest.fixture
def graph(car: CarClient) -> CarClient:
    car.ingest([parse_record(r) for r in DECISIONS + ADVISORIES])
    return car


def test_every_mention_is_found_with_its_span_line_and_status(graph: CarClient) -> None:
    report = graph.check(BRIEF)
    found = [(m.line, m.text, m.status) for m in report.mentions]
    assert found == [
        (3, "Bowers v. Hardwick", "superseded"), (3, "478 U.S. 186", "superseded"),
        (4, "Miranda v. Arizona", "active"), (4, "CVE-2020-8203", "superseded"),
    ]
    for m in report.mentions:
        assert BRIEF[m.start:m.end] == m.text
        assert BRIEF.splitlines()[m.line - 1][m.column - 1:m.column - 1 + len(m.text)] == m.text
    bowers = report.mentions[0]
    [controlling] = bowers.controlling()
    assert controlling.doc_id == "scotus:539-us-558"
    assert [h.from_id for h in controlling.chain] == ["scotus:478-us-186"]
    assert report.mentions[3].controlling()[0].doc_id == "REL-lodash-4.17.20"
    # before the overruling, Bowers was good law
    assert graph.check(BRIEF, as_of=date(1990, 1, 1)).mentions[0].status == "active"


def _cli(target, *args: str) -> list[str]:
    return ["--uri", target.uri, "--user", target.user, "--password", target.password,
            "--database", target.database, *args]


def test_check_fail_on_superseded_gates_a_file(graph: CarClient, neo4j_target, tmp_path: Path) -> None:
    runner = CliRunner()
    stale = tmp_path / "brief.md"
    stale.write_text(BRIEF)
    gated = runner.invoke(main, _cli(neo4j_target, "check", str(stale), "--fail-on", "superseded"))
    assert gated.exit_code == 1, gated.output
    assert "Bowers v. Hardwick" in gated.output and "scotus:539-us-558" in gated.output
    clean = tmp_path / "clean.md"
    clean.write_text("Under Miranda v. Arizona, 384 U.S. 436, the warnings are required.\n")
    passed = runner.invoke(main, _cli(neo4j_target, "check", str(clean), "--fail-on",
                                      "superseded,withdrawn", "--json"))
    assert passed.exit_code == 0, passed.output
    assert [m["status"] for m in json.loads(passed.stdout)["mentions"]] == ["active", "active"]
    # as of 1990 Bowers was still good law: the same brief passes the gate
    old = runner.invoke(main, _cli(neo4j_target, "check", str(stale), "--as-of", "1990-01-01",
                                   "--fail-on", "superseded"))
    assert old.exit_code == 0, old.output
    sarif = runner.invoke(main, _cli(neo4j_target, "check", str(stale), "--format", "sarif",
                                     "--fail-on", "superseded"))
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert {r["level"] for r in results} == {"error"} and len(results) == 3
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    bad = runner.invoke(main, _cli(neo4j_target, "check", str(stale), "--fail-on", "stale"))
    assert bad.exit_code == 2 and "unknown status stale" in bad.output
