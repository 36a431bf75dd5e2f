"""The guard's text matching and policies as pure functions (car_graph/guard.py)."""

from __future__ import annotations

import pytest

from car_graph.errors import ConfigError
from car_graph.guard import (
    MIN_CHUNK_CHARS,
    GuardedItem,
    _Candidate,
    apply_policy,
    as_input,
    near_duplicate,
    normalise,
    phrase_query,
    text_hash,
    word_for_word,
)
from car_graph.types import Hop, Result, Status

LONG = " ".join(f"Sentence {n} says something of its own about topic {n * 3}." for n in range(40))


def candidate(doc_id: str, text: str, title: str = "") -> _Candidate:
    return _Candidate.of({"doc_id": doc_id, "title": title, "text": text})


def test_normalising_sets_aside_case_spacing_and_punctuation() -> None:
    assert normalise("Hello,  World!\n(2020)") == "hello world 2020"
    assert text_hash("A  b.") == text_hash("a B")


def test_the_same_text_is_exact_and_a_passage_of_one_document_is_a_chunk() -> None:
    docs = [candidate("D1", LONG, "Title"), candidate("D2", "Something else entirely.")]
    assert word_for_word(normalise(f"TITLE {LONG}"), docs).how == "exact"
    chunk = normalise(LONG[137:637])
    found = word_for_word(chunk, docs)
    assert (found.how, found.doc_id) == ("chunk", "D1")
    # too short to single a document out: no chunk match
    assert word_for_word(normalise(LONG[:MIN_CHUNK_CHARS - 10]), docs) is None


def test_a_passage_several_documents_hold_is_unmatched_with_them_all() -> None:
    docs = [candidate("D1", LONG), candidate("D2", LONG + " And a tail.")]
    found = word_for_word(normalise(LONG[100:600]), docs)
    assert found.how == "unmatched" and found.candidates == ("D1", "D2")


def test_near_needs_high_similarity_and_a_clear_lead() -> None:
    edited = normalise(LONG[0:500].replace("something", "somethin", 2))
    found = near_duplicate(edited, [candidate("D1", LONG), candidate("D2", "Unrelated words here.")])
    assert (found.how, found.doc_id) == ("near", "D1") and 0.9 <= found.score < 1
    twin = near_duplicate(edited, [candidate("D1", LONG), candidate("D2", LONG + " x")])
    assert twin.how == "unmatched" and set(twin.candidates) == {"D1", "D2"}
    assert near_duplicate(normalise("A recipe for cake."), [candidate("D1", LONG)]).how == "unmatched"


def test_inputs_come_as_strings_mappings_or_objects_and_anything_else_is_refused() -> None:
    assert as_input("t").text == "t"
    assert as_input({"page_content": "p", "metadata": {"a": 1}}).metadata == {"a": 1}
    with pytest.raises(ConfigError):
        as_input({"metadata": {}})


def _superseded(doc_id: str = "OLD") -> GuardedItem:
    hop = Hop(doc_id, "NEW", "rule", None, None)
    new = Result("NEW", "New", None, None, None, Status.ACTIVE, 1.0, doc_id, (hop,), "new text")
    return GuardedItem(0, "old text", {"k": "v"}, "id", 1.0, doc_id, "Old", Status.SUPERSEDED, (new,), (hop,))


def test_each_policy_decides_what_a_superseded_item_becomes() -> None:
    unknown = GuardedItem(1, "other", {"x": 1}, "unmatched", 0.0, None)
    for policy, texts in (("keep", ["old text", "other"]), ("drop", ["other"]),
                          ("replace", ["New\nnew text", "other"])):
        out = apply_policy([_superseded(), unknown], policy, None, None, "doc_id")
        assert [c.text for i in out for c in i.output] == texts, policy
    annotated = apply_policy([_superseded(), unknown], "annotate", None, None, "doc_id")
    assert annotated[0].output[0].text.startswith("[car-graph: Old [OLD] is SUPERSEDED now; controlling: New [NEW]")
    assert annotated[1].output[0].metadata == {"x": 1} and annotated[1].action == "pass"


def test_the_phrase_stays_on_one_line_so_a_title_and_its_text_indexed_apart_are_found() -> None:
    # a store holding "title\ntext": the phrase is the text's, never running across the break
    assert phrase_query("Prototype pollution in lib\nThe merge function lets attackers modify "
                        "object prototypes.") == '"the merge function lets attackers modify object"'
    # one line: the first and last tokens go (a chunker cuts words at a chunk's edges)
    assert phrase_query("ution in lib lets attackers modi") == '"in lib lets attackers"'
    assert phrase_query("three short words") == ""  # fewer than three left: no phrase


def test_a_candidate_with_its_title_reads_as_the_title_and_text_normalised_together() -> None:
    for title, text in (("Title: One", "Body, two."), ("", "Body only."), ("Title only", "")):
        c = candidate("D", text, title)
        assert c.with_title == normalise(f"{title} {text}") and c.whole == normalise(text)
