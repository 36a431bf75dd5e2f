"""The freshness guard (CarClient.guard) against the real Neo4j: items another retriever returned
are matched to car-graph documents (by id, by exact text, as a chunk, as a near duplicate, or
not at all) and each policy puts what controls a stale one into the context.

The graph: an advisory on lib (fixed in 4.17.12) superseded by the release that fixes it, and a
long, unrelated active guide whose 500-character chunks must each find it."""

from __future__ import annotations

from datetime import date

import pytest

from car_graph.client import CarClient
from car_graph.guard import normalise
from car_graph.records import parse_record

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

# a long document of distinct sentences, so that every chunk of it is its own
GUIDE_TEXT = " ".join(
    f"Step {n}: configure the {word} resolver with a timeout of {n * 7} seconds and retry {n % 4} times."
    for n, word in enumerate(["north", "south", "east", "west", "amber", "cobalt", "violet", "scarlet",
                              "olive", "teal", "ivory", "umber", "coral", "azure", "jade", "onyx",
                              "pearl", "ruby", "slate", "topaz", "plum", "sable", "linen", "ochre"]))
GUIDE = {"id": "GUIDE-1", "kind": "guide", "published": "2019-01-01",
         "title": "Resolver configuration guide", "text": GUIDE_TEXT, "scope": {"package": "npm:dns"}}
UNKNOWN = {"text": "A recipe for lemon cake: butter, sugar, eggs and flour.", "metadata": {"source": "blog"}}


@pytest.fixture
def graph(lib_graph: CarClient) -> CarClient:  # conftest.py: ADV-1 superseded by REL-4.17.12
    lib_graph.ingest([parse_record(GUIDE)])
    return lib_graph


def chunks(text: str, size: int = 500, overlap: int = 100) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text) - overlap, size - overlap)]


def test_an_item_with_a_known_id_is_matched_and_its_controlling_document_named(graph: CarClient) -> None:
    report = graph.guard([{"text": "whatever my chunker kept", "metadata": {"doc_id": "ADV-1"}}])
    [item] = report.items
    assert (item.match, item.score, item.doc_id) == ("id", 1.0, "ADV-1")
    assert item.status == "superseded" and item.verdict == "superseded"
    [controller] = [c for c in item.controlling if c.doc_id != "ADV-1"]
    assert controller.doc_id == "REL-4.17.12"
    assert [(h.from_id, h.to_id, h.rule) for h in controller.chain] == [
        ("ADV-1", "REL-4.17.12", "release_fixes_advisory")]
    # annotate (the default): kept, with the warning naming what controls it in front
    [out] = report.context
    assert out.text.startswith("[car-graph: Prototype pollution in lib [ADV-1] is SUPERSEDED now")
    assert "REL-4.17.12" in out.text and out.text.endswith("whatever my chunker kept")
    assert out.metadata["car_graph"]["controlling"] == ["REL-4.17.12"]
    assert report.to_json()["items"][0]["controlling"][0]["chain"][0]["rule"] == "release_fixes_advisory"


def test_each_policy_puts_what_it_says_into_the_context(graph: CarClient) -> None:
    docs = [{"text": "stale advisory", "metadata": {"doc_id": "ADV-1"}}, UNKNOWN]
    replaced = graph.guard(docs, policy="replace").context
    assert [(c.doc_id, c.replaces) for c in replaced] == [("REL-4.17.12", "ADV-1"), (None, None)]
    assert replaced[0].text.startswith("lib 4.17.12 released\nVersion 4.17.12 is out.")
    assert [c.doc_id for c in graph.guard(docs, policy="drop").context] == [None]
    kept = graph.guard(docs, policy="keep").context
    assert kept[0].text == "stale advisory" and kept[0].metadata["car_graph"]["status"] == "superseded"
    # a replacement the context already holds is not repeated
    both = graph.guard([*docs, {"text": "r", "metadata": {"doc_id": "REL-4.17.12"}}], policy="replace")
    assert [c.doc_id for c in both.context] == [None, "REL-4.17.12"]
    # before the release the advisory is in force: kept as it came
    before = graph.guard(docs, as_of=date(2020, 3, 15), policy="replace")
    assert before.items[0].status == "active" and before.context[0].text == "stale advisory"


def test_an_unknown_item_passes_through_untouched_and_is_counted(graph: CarClient,
                                                                lib_advisory: dict) -> None:
    report = graph.guard([UNKNOWN, {"text": lib_advisory["text"], "metadata": {"doc_id": "my-own-17"}}])
    unknown, advisory = report.items
    assert (unknown.match, unknown.doc_id, unknown.action) == ("unmatched", None, "pass")
    assert report.context[0].text == UNKNOWN["text"] and report.context[0].metadata == UNKNOWN["metadata"]
    # an id the graph does not hold falls back to the text
    assert (advisory.match, advisory.doc_id) == ("exact", "ADV-1")
    assert report.counts["passed_through"] == 1 and report.counts["matched"] == 1


def test_text_is_matched_exactly_as_a_chunk_or_as_a_near_duplicate(graph: CarClient,
                                                                   lib_advisory: dict) -> None:
    exact = f"{lib_advisory['title']}\n\n{lib_advisory['text'].upper()}"  # case and spacing differ
    pieces = chunks(GUIDE_TEXT)
    assert len(pieces) >= 3 and all(len(p) == 500 for p in pieces[:-1])
    edited = pieces[1].replace("configure", "set up", 1).replace("seconds", "secs", 1)
    report = graph.guard([exact, *pieces, edited])
    found = [(i.match, i.doc_id) for i in report.items]
    assert found[0] == ("exact", "ADV-1")
    assert found[1:-1] == [("chunk", "GUIDE-1")] * len(pieces)
    assert found[-1] == ("near", "GUIDE-1") and 0.9 <= report.items[-1].score < 1.0
    assert normalise(edited) not in normalise(GUIDE_TEXT)  # really not word for word


def test_copies_and_chunks_are_found_by_one_phrase_lookup_and_only_the_rest_go_further(
        graph: CarClient, lib_advisory: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    statements: list[tuple[str, list]] = []
    read = graph.store.read

    def counted(name: str, **params):
        statements.append((name, params.get("items") or []))
        return read(name, **params)

    monkeypatch.setattr(graph.store, "read", counted)
    # as a store holds them: title, a line break, text (a title and a text are indexed apart)
    copies = [f"{lib_advisory['title']}\n{lib_advisory['text']}", f"{GUIDE['title']}\n{GUIDE_TEXT}",
              *chunks(GUIDE_TEXT)[:2]]
    report = graph.guard(copies)
    assert [i.doc_id for i in report.items] == ["ADV-1", "GUIDE-1", "GUIDE-1", "GUIDE-1"]
    lookups = [items for name, items in statements if name.startswith("guard_")]
    assert len(lookups) == 1 and all(q["phrase"] and not q["fulltext"] for q in lookups[0])
    # a near duplicate goes on to the content words and the embedding
    statements.clear()
    edited = chunks(GUIDE_TEXT)[1].replace("configure", "set up", 1).replace("seconds", "secs", 1)
    assert graph.guard([edited]).items[0].match == "near"
    assert [name for name, _ in statements if name.startswith("guard_")] == [
        "guard_text_candidates", "guard_text_candidates", "guard_vector_candidates"]


def test_a_passage_two_documents_hold_is_not_guessed(car: CarClient) -> None:
    twin = {**GUIDE, "id": "GUIDE-2", "title": "Resolver configuration guide, mirror"}
    car.ingest([parse_record(GUIDE), parse_record(twin)])
    [item] = car.guard([chunks(GUIDE_TEXT)[1]]).items
    assert item.match == "unmatched" and set(item.candidates) == {"GUIDE-1", "GUIDE-2"}
