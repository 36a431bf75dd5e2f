"""Stable search in the past (issue 61, Deliver 3): a question asked --known-at T or --as-of D
finds the document visible then, however many similar documents arrived later -- each index's
top candidates are filtered by time after ranking, so the search goes deeper until enough
visible anchors are found, and says when its bound cut it."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTION = "How should the quantum flux capacitor be calibrated?"


def old() -> dict[str, str]:
    return {"id": "OLDQ", "kind": "notice", "published": "2021-01-01",
            "title": "Flux capacitor upkeep",
            "text": "Upkeep of the flux capacitor: use the reference coil."}


def later(i: int) -> dict[str, str]:
    # each holds the question word for word: closer to it than OLDQ in every index
    return {"id": f"NEWQ-{i:03d}", "kind": "notice", "published": "2023-01-01",
            "title": f"{QUESTION} Bulletin {i}",
            "text": f"{QUESTION} Bulletin {i}: the quantum flux capacitor is calibrated "
                    f"with the reference coil at {20 + i % 5} C."}


def test_a_past_question_finds_its_document_after_70_similar_later_ones(car: CarClient) -> None:
    car.ingest([parse_record(old())])
    t = car.driver.execute_query("RETURN datetime.realtime() AS t").records[0]["t"].to_native()
    assert "OLDQ" in car.retrieve_report(QUESTION, k=3, known_at=t).ids
    car.ingest([parse_record(later(i)) for i in range(70)])
    # each index's first read is its top 10: all later documents
    shallow = replace(car.retriever.settings, candidates=10)

    car.retriever.settings = shallow
    then = car.retrieve_report(QUESTION, k=3, known_at=t)
    assert then.ids == ["OLDQ"] and not then.anchor_search_cut
    dated = car.retrieve_report(QUESTION, k=3, as_of=date(2022, 1, 1))
    assert dated.ids == ["OLDQ"] and not dated.anchor_search_cut

    # searching no deeper than that first read (what car-graph did before): the later
    # documents crowd OLDQ out -- and the answer says the bound cut the search
    car.retriever.settings = replace(shallow, max_candidates=10)
    cut = car.retrieve_report(QUESTION, k=3, known_at=t)
    assert "OLDQ" not in cut.ids
    assert cut.anchor_search_cut and cut.to_json()["anchor_search_cut"] is True
