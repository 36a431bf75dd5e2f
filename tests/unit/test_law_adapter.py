import json
from datetime import date
from pathlib import Path

import pytest

from car_graph.errors import IngestError
from car_graph.ingest.domains.law import conan as law
from car_graph.records import parse_record
from car_graph.rules import load_rules

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "law"
RULES = Path(law.__file__).parent / "rules.yaml"


@pytest.fixture(scope="module")
def loaded():
    problems = []
    records = law.load_law(FIXTURES, problems)
    return {r.id: r for r in records}, problems


def edges(docs):
    return {(r.id, s.id): s for r in docs.values() for s in r.supersedes}


def test_bad_lines_are_reported_and_skipped(loaded):
    docs, problems = loaded
    assert [(Path(p.source).name, p.line) for p in problems] == [
        ("conan_overruled_pairs.jsonl", 11),
        ("conan_overruled_pairs.jsonl", 12),
    ]
    assert "invalid JSON" in problems[0].reason and "citation" in problems[1].reason
    assert all(r.kind == "decision" and r.domain == "law" for r in docs.values())
    with pytest.raises(IngestError):
        law.load_law(FIXTURES, None)


def test_one_document_per_decision_and_explicit_edges(loaded):
    docs, _ = loaded
    ramos = docs["scotus:no-18-5924"]
    assert ramos.title == "Ramos v. Louisiana"
    assert ramos.published == date(2020, 4, 20)
    assert {s.id for s in ramos.supersedes} == {"scotus:406-us-404", "scotus:406-us-366"}
    edge = edges(docs)[("scotus:no-18-5924", "scotus:406-us-404")]
    assert edge.effective == date(2020, 4, 20) and not edge.partial
    assert "row 1" in edge.evidence and "Apodaca v. Oregon" in edge.evidence
    assert set(ramos.scope["case"]) == {"Ramos v. Louisiana", "Apodaca v. Oregon",
                                        "Johnson v. Louisiana"}


def test_overruled_text_never_names_the_overruling_decision(loaded):
    docs, _ = loaded
    apodaca = docs["scotus:406-us-404"]
    assert apodaca.scope == {"case": ("Apodaca v. Oregon",)}
    assert "Ramos" not in apodaca.text and "overrul" not in apodaca.text.lower()
    assert "plurality opinion" in apodaca.text
    assert apodaca.published == date(1972, 1, 1)
    assert apodaca.attributes["date_precision"] == "year"


def test_chain_comes_out_edge_by_edge_and_typo_is_merged(loaded):
    docs, _ = loaded
    e = edges(docs)
    garcia, nlc, wirtz = "scotus:469-us-528", "scotus:426-us-833", "scotus:392-us-183"
    assert (garcia, nlc) in e and (nlc, wirtz) in e and (garcia, wirtz) not in e
    assert e[(garcia, nlc)].effective == date(1985, 1, 1)
    assert docs[nlc].title == "National League of Cities v. Usery"  # "Nationall" corrected
    assert "Garcia" not in docs[nlc].text and "Maryland v. Wirtz" in docs[nlc].text


def test_mis_split_row_is_repaired_and_in_part_is_partial(loaded):
    docs, _ = loaded
    local = docs["scotus:371-us-542"]
    assert local.title == "Local No. 438 Construction & General Laborers' Union v. Curry"
    edge = edges(docs)[("scotus:371-us-542", "scotus:344-us-178")]
    assert edge.partial is True
    assert any("re-parsed" in text for _, text in law.LAST_REPAIRS)


def test_homonyms_stay_distinct(loaded):
    docs, _ = loaded
    harrises = sorted(r.id for r in docs.values() if r.title == "Harris v. United States")
    assert harrises == ["scotus:331-us-145", "scotus:382-us-162", "scotus:536-us-545"]
    e = edges(docs)
    assert ("scotus:570-us-99", "scotus:536-us-545") in e
    assert ("scotus:570-us-99", "scotus:331-us-145") not in e
    assert ("scotus:354-us-1", "scotus:351-us-487") in e  # Reid v. Covert on rehearing


def test_rules_file_relies_on_explicit_edges(loaded):
    assert load_rules(RULES) == []
    docs, _ = loaded
    for record in docs.values():
        assert parse_record(json.loads(json.dumps(record.to_json()))) == record
    stats = law.law_stats(list(docs.values()))
    assert stats["dangling_edges"] == 0 and stats["explicit_edges"] == 10


def test_parse_case():
    cite, note = law.parse_case("Knick v. Township of Scott, No. 17-647 (U.S. June 21, 2019)")
    assert (cite.name, cite.key, cite.decided) == ("Knick v. Township of Scott", "no-17-647",
                                                   date(2019, 6, 21))
    cite, note = law.parse_case("Pennoyer v. Neff, 95 U.S. (5 Otto) 714 (1878) (in part)")
    assert (cite.key, cite.year, note) == ("95-us-714", 1878, "in part")
    with pytest.raises(ValueError):
        law.parse_case("Some Case v. Other")
