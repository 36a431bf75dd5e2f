"""``CarClient.verdict_on`` asks the corpus about a quote once per verdict: the rules may ask of
one (document, passage) again, and within one retrieval the answer cannot change -- each ask is
a statement (quote_sharers.cypher). No server: the driver points at a closed port and the
retriever is replaced by one that records what it is asked."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from car_graph import client as client_module
from car_graph.client import CarClient
from car_graph.connection import new_driver
from car_graph.types import Retrieval

CLOSED = "bolt://127.0.0.1:1"


class RecordingCorpus:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str, date | None, datetime | None]] = []

    def quote_sharers(self, doc_id: str, passage: str, as_of: date | None = None,
                      known_at: datetime | None = None) -> int:
        self.asked.append((doc_id, passage, as_of, known_at))
        return len(self.asked)


def test_one_quote_is_looked_up_once_per_verdict_with_the_retrievals_clocks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    as_of, known_at = date(2020, 1, 1), datetime(2021, 1, 1, tzinfo=UTC)
    retrieval = Retrieval(question="q", as_of=as_of, results=(), anchors=(), suppressed=0,
                          ambiguous_scopes=(), known_at=known_at)
    counts: list[int] = []

    def judged(retrieval: Retrieval, closure_of: Any, k: int, margin: float, *, sharers: Any,
               corpus: Any) -> str:
        counts.extend([sharers("adv:a", "a passage"), sharers("adv:a", "a passage"),
                       sharers("adv:b", "a passage"), sharers("adv:a", "another passage")])
        return "verdict"

    monkeypatch.setattr(client_module, "verdict_for", judged)
    corpus = RecordingCorpus()
    driver = new_driver(CLOSED, "neo4j", "unused", max_transaction_retry_time=0.5)
    with CarClient(driver, uri=CLOSED, owns_driver=True) as car:
        monkeypatch.setattr(car, "_retriever", corpus)
        assert car.verdict_on(retrieval) == "verdict"
        assert counts == [1, 1, 2, 3]  # the second ask answered from the first
        assert corpus.asked == [("adv:a", "a passage", as_of, known_at),
                                ("adv:b", "a passage", as_of, known_at),
                                ("adv:a", "another passage", as_of, known_at)]
        # the next verdict asks afresh: the graph may have changed in between
        car.verdict_on(retrieval)
        assert len(corpus.asked) == 6
