"""The citator on texts citing the real law and drug corpora as their writers do (opinions citing
decisions by name and U.S. Reports citation, labels citing FDA application numbers), through
the benchmark's own code (benchmarks/guard.py, ``run_citator``; the styles are
benchmarks/<domain>/citator.json). The gold is the corpora's own join keys (the CONAN table's
pairs, the withdrawn table and openFDA's application numbers, ``links``), never the graph.
The full run: ``python -m car_graph_benchmarks.guard --domain law --citator-only``."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph_benchmarks import guard as guard_benchmark

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.long(200)]


@pytest.mark.parametrize("domain", ["law", "drug"])
def test_citator_flags_the_voided_authorities_texts_cite_and_only_those(
        car: CarClient, raw_corpora: Path, domain: str) -> None:
    scores = guard_benchmark.run_citator(car, raw_corpora, domain=domain, split="test",
                                         n_distractors=0, texts=25)
    assert scores["authorities"] == 100 and scores["voided_cited"] >= 40, scores
    assert scores["mentions"] >= scores["authorities"], scores
    assert scores["precision"] >= 0.98 and scores["recall"] >= 0.95, scores


def test_a_citation_style_reads_the_records_fields_as_a_writer_cites_them() -> None:
    from car_graph.records import parse_record

    law = guard_benchmark.CitationStyle.of("law")
    decision = parse_record({"id": "scotus:478-us-186", "kind": "decision", "published": "1986-06-30",
                             "title": "Bowers v. Hardwick", "text": "Bowers v. Hardwick.",
                             "attributes": {"citation": "478 U.S. 186", "year": 1986}})
    assert law.cites(decision) == ["Bowers v. Hardwick, 478 U.S. 186 (1986)"]
    docket = parse_record({"id": "scotus:ramos", "kind": "decision", "published": "2020-04-20",
                           "title": "Ramos v. Louisiana", "text": "Ramos v. Louisiana.",
                           "attributes": {"citation": "No. 18-5924", "year": 2020}})
    assert law.cites(docket) == []  # no U.S. Reports citation: not cited
    drug = guard_benchmark.CitationStyle.of("drug")
    approval = parse_record({"id": "fda-approval:NDA021572:daptomycin", "kind": "approval",
                             "published": "2003-09-12", "title": "Cubicin", "text": "Cubicin approved.",
                             "attributes": {"application_number": "NDA021572"}})
    assert drug.cites(approval) == ["NDA 021572"]
    recall = parse_record({"id": "recall:D-0001-2015", "kind": "recall", "published": "2014-10-08",
                           "title": "Recall", "text": "A recall.", "attributes": {"application_number": "NDA021572"}})
    assert drug.cites(recall) == []  # a label cites its approval, not a recall
