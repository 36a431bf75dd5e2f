import json
from datetime import date
from pathlib import Path

import pytest

from car_graph.errors import IngestError
from car_graph.ingest.domains.security import common, corpus, osv, releases
from car_graph.records import parse_record
from car_graph.rules import load_rules
from car_graph.semantics import rule_edges

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "security"
RULES = Path(corpus.__file__).parent / "rules.yaml"


@pytest.fixture(scope="module")
def loaded():
    problems = []
    records = corpus.load_security(FIXTURES, problems)
    return {r.id: r for r in records}, problems


def test_every_source_loads_and_bad_lines_are_reported(loaded):
    docs, problems = loaded
    assert {"PYSEC-2023-222", "GO-2023-2102", "RUSTSEC-2020-0105", "NSWG-CORE-1", "NSWG-ECO-1",
            "django-release:4.2.7", "go-release:go1.21.3",
            "debian-changelog:python-django:3:3.2.19-1+deb12u1"} <= set(docs)
    where = {(Path(p.source).name, p.line) for p in problems}
    assert where == {
        ("pypa_advisories.jsonl", 5),          # truncated JSON
        ("pypa_advisories.jsonl", 6),          # no id
        ("go_release_history.jsonl", 5),       # no version
        ("go_release_history.jsonl", 6),       # 'go-next'
        ("django_release_notes.jsonl", 2),     # index.txt is not a release
        ("nodejs_security_wg_vulns.jsonl", 4),  # aggregate index.json
    }
    assert all(p.reason for p in problems)
    kinds = {r.kind for r in docs.values()}
    assert kinds == {"advisory", "release"} and {r.domain for r in docs.values()} == {"security"}


def test_osv_advisory_fields(loaded):
    docs, _ = loaded
    adv = docs["PYSEC-2023-222"]
    assert adv.scope == {"package": ("pypi:django",), "cve": ("CVE-2023-46695",)}
    assert "4.2.7" in adv.attributes["fixed_versions"]
    assert "pypi:django@4.2.7" in adv.attributes["fixed_package_versions"]
    assert adv.attributes["ecosystem"] == "PyPI"
    assert adv.published == date(2023, 11, 2)
    assert adv.title.startswith("PYSEC-2023-222: ")
    assert len(adv.text) <= common.ADVISORY_TEXT_LIMIT + 10


def test_unparsable_fixed_version_is_kept_out_but_not_lost(loaded):
    docs, _ = loaded
    assert docs["PYSEC-2019-125"].attributes["fixed_versions"] == []
    assert any(w[0] == "PYSEC-2019-125" and w[1] == "2019-09-12"
               for w in corpus.LAST_VERSION_WARNINGS)


def test_withdrawn_and_go_date_proxies(loaded):
    docs, _ = loaded
    assert docs["PYSEC-2022-43059"].attributes["withdrawn"] == "2023-11-08"
    assert docs["GO-2022-0617"].attributes["withdrawn"] == "2024-08-21"
    assert docs["RUSTSEC-2021-0147"].attributes["withdrawn"] == "2023-02-19"
    go = docs["GO-2023-2102"]  # OSV 'published' is the 0001-01-01 placeholder
    assert go.published == date(2023, 10, 11)
    assert go.attributes["published_source"] == "_report_first_committed"
    assert docs["GO-2020-0001"].attributes["published_source"] == "published"
    assert set(go.scope["package"]) >= {"go:stdlib"}
    assert "1.21.3" in go.attributes["fixed_versions"]


def test_rustsec_and_nodejs(loaded):
    docs, _ = loaded
    rust = docs["RUSTSEC-2020-0105"]
    assert rust.scope["package"] == ("crates.io:abi_stable",)
    assert rust.attributes["fixed_versions"] == ["0.9.1"]
    assert docs["CVE-2015-20001"].scope["package"] == ("rust:std",)
    core = docs["NSWG-CORE-1"]
    assert core.scope["package"] == ("nodejs:node",)
    assert core.attributes["fixed_versions"] == ["4.8.4", "6.11.1", "7.10.1", "8.1.4"]
    assert core.published is None
    eco = docs["NSWG-ECO-1"]
    assert eco.scope == {"package": ("npm:bassmaster",), "cve": ("CVE-2014-7205",)}
    assert eco.attributes["fixed_versions"] == ["1.5.2"]
    assert docs["NSWG-ECO-66"].attributes["fixed_versions"] == ["2.0.0-alpha8"]


def test_releases(loaded):
    docs, _ = loaded
    dj = docs["django-release:4.2.7"]
    assert dj.kind == "release" and dj.published == date(2023, 11, 1)
    assert dj.attributes["version"] == "4.2.7"
    assert dj.scope == {"package": ("pypi:django",), "cve": ("CVE-2023-46695",)}
    # security section first, RST roles cleaned
    assert dj.text.index("CVE-2023-46695") < dj.text.index("Bugfixes")
    assert ":func:" not in dj.text and "``" not in dj.text
    go = docs["go-release:go1.20.11"]
    assert go.attributes["version"] == "1.20.11"
    assert go.scope == {"package": ("go:stdlib", "go:toolchain")}
    assert "security fixes to the path/filepath package" in go.text
    assert docs["go-release:go1.21.3"].attributes["details_missing"] is True
    deb = docs["debian-changelog:python-django:3:3.2.19-1+deb12u1"]
    assert deb.scope["package"] == ("debian:python-django",)
    assert deb.attributes["version"] == "3:3.2.19-1+deb12u1"
    assert deb.attributes["fixes_packages"] == ["debian:python-django", "pypi:django"]
    assert deb.published == date(2023, 7, 28)
    pil = docs["debian-changelog:pillow:9.4.0-1.1+deb12u1"]
    assert pil.attributes["upstream_package"] == "pypi:pillow"


def test_rules_file_parses_and_links_the_right_pairs(loaded):
    docs, _ = loaded
    rules = load_rules(RULES)
    assert {r.name for r in rules} == {"release_fixes_advisory", "release_names_cve"}
    assert all(r.domain == "security" and r.order == "any" for r in rules)
    edges = {(e.newer, e.older, e.rule) for e in rule_edges(rules, list(docs.values()))}
    assert ("go-release:go1.21.3", "GO-2023-2102", "release_fixes_advisory") in edges
    assert ("django-release:4.2.7", "PYSEC-2023-222", "release_fixes_advisory") in edges
    assert ("django-release:4.2.7", "PYSEC-2023-222", "release_names_cve") in edges
    deb = "debian-changelog:python-django:3:3.2.19-1+deb12u1"
    assert (deb, "PYSEC-2023-100", "release_names_cve") in edges
    # never across packages: Go releases do not fix module advisories, pillow fixes no Django
    assert not any(o == "GO-2020-0001" for _, o, _ in edges)
    assert not any(n.startswith("debian-changelog:pillow") for n, _, _ in edges)
    stats = corpus.security_stats(list(docs.values()), rules)
    assert stats["advisories_with_controlling_release"] >= 3


def test_records_round_trip_through_the_generic_format(loaded):
    docs, _ = loaded
    for record in docs.values():
        assert parse_record(json.loads(json.dumps(record.to_json()))) == record


def test_read_osv_file_directory_and_jsonl(tmp_path):
    lines = (FIXTURES / "govulndb_osv.jsonl").read_text(encoding="utf-8").splitlines()
    one = tmp_path / "GO-2023-2102.json"
    one.write_text(json.dumps(json.loads(lines[0]), indent=2), encoding="utf-8")
    assert [r.id for r in osv.read_osv(one)] == ["GO-2023-2102"]
    folder = tmp_path / "osv"
    folder.mkdir()
    for line in lines:
        obj = json.loads(line)
        (folder / f"{obj['id']}.json").write_text(json.dumps(obj), encoding="utf-8")
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    problems = []
    records = osv.read_osv(folder, problems)
    assert {r.id for r in records} == {"GO-2023-2102", "GO-2022-0617", "GO-2020-0001"}
    assert len(problems) == 1 and problems[0].source.endswith("broken.json")
    problems = []
    records = osv.read_osv(FIXTURES / "pypa_advisories.jsonl", problems)
    assert len(records) == 4 and [p.line for p in problems] == [5, 6]
    with pytest.raises(IngestError):
        osv.read_osv(FIXTURES / "pypa_advisories.jsonl")


def test_trim_and_excerpt_caps():
    long = ("word " * 1000).strip()
    assert len(common.trim(long, 2000)) <= 2010
    raw = "=====\nTitle release notes\n=====\n\n*May 1, 2020*\n\nIntro.\n\n" + "\n\n".join(
        f"Section {i}\n=========\n\n" + "text " * 200 for i in range(10)
    )
    assert len(releases.django_excerpt(raw)) <= common.RELEASE_TEXT_LIMIT + 10
