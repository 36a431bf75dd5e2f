"""Where typo correction stops (car_graph.linking.typo_corrections, covering, and the in-memory
NameIndex that finds the candidate names), pinned without a server: one edit and no more, from a
question word of three letters (one short of the shortest name a typo may name,
min_fuzzy_length = 4) to a name word of four or more.

The edit counts below are counted by hand (OSA distance: a swap of two neighbouring letters is
one edit), not computed with the library the linker uses. None of the question words is a common
English word, which the linker never corrects."""

from __future__ import annotations

from string import ascii_lowercase

import pytest
from wordfreq import zipf_frequency

from car_graph.linking import (
    LUCENE_MAX_EXPANSIONS,
    LinkingSettings,
    NameIndex,
    covering,
    fuzzy_query,
    is_common_word,
    typo_corrections,
    words,
)

SETTINGS = LinkingSettings()
STOP = frozenset({"is", "the", "still", "by"})


def corrected(word: str, vocabulary: set[str]) -> tuple[str, ...]:
    """The name words ``word`` is read as (empty: not corrected)."""
    return typo_corrections([word], vocabulary, SETTINGS, STOP).get(word, ())


def test_the_settings_are_the_ones_these_boundaries_are_written_for() -> None:
    assert SETTINGS.min_fuzzy_length == 4


@pytest.mark.parametrize(("word", "name"), [
    ("hpi", "hapi"),     # a letter dropped from a four-letter name: three letters left
    ("haapi", "hapi"),   # a letter added
    ("hepi", "hapi"),    # a letter changed
    ("hpai", "hapi"),    # two neighbours swapped
])
def test_one_edit_from_a_name_of_four_letters_is_corrected_to_it(word: str, name: str) -> None:
    assert corrected(word, {name, "lodash"}) == (name,)


@pytest.mark.parametrize(("word", "name"), [
    ("hpa", "hapi"),     # swapped and dropped: two edits, three letters
    ("axeis", "axios"),  # two letters changed
    ("xaois", "axios"),  # two swaps
    ("hpaii", "hapi"),   # swapped and added
])
def test_two_edits_from_a_name_are_never_corrected(word: str, name: str) -> None:
    assert corrected(word, {name}) == ()


def test_a_name_of_three_letters_is_no_typo_target_however_close() -> None:
    # names this short link only as written (short_name_tokens): "jwy" is no misspelt "jwt"
    assert corrected("jwy", {"jwt"}) == ()
    assert corrected("jwts", {"jwt"}) == ()


def test_a_three_letter_question_word_covers_the_four_letter_name_it_misspells() -> None:
    # the unit-level twin of tests/integration/test_linking.py's "hpi" question
    asked = words("Is hpi still crashed by cookie headers?")
    corrections = typo_corrections(asked, {"hapi", "cookie"}, SETTINGS, STOP)
    assert corrections == {"hpi": ("hapi",)}
    assert covering("hapi", asked, STOP, frozenset(), corrections, SETTINGS) == {"hpi": "hapi"}


def test_only_a_word_that_could_be_a_misspelt_name_is_corrected() -> None:
    # a word the names already hold is itself, however close another name word is
    assert typo_corrections(["hapi"], {"hapi", "happi"}, SETTINGS, STOP) == {}
    # a stop word is never a typo, even a rare one
    assert typo_corrections(["vtie"], {"vite"}, SETTINGS, frozenset({"vtie"})) == {}
    # digits are never read as a misspelt name: 93817 is no typo of the token x93817
    assert typo_corrections(["93817"], {"x93817"}, SETTINGS, STOP) == {}


def test_covering_reads_the_settings_it_is_given_and_the_defaults_without() -> None:
    corrections = {"hpi": ("hapi",)}
    assert covering("hapi", ["is", "hpi"], STOP, frozenset(), corrections, None) == {"hpi": "hapi"}
    # with typos allowed from 5 letters only, a 4-letter name must be written exactly
    assert covering("hapi", ["is", "hpi"], STOP, frozenset(), corrections,
                    LinkingSettings(min_fuzzy_length=5)) is None


def test_a_word_of_a_multiword_name_takes_a_typo_only_from_five_letters() -> None:
    asked = words("Does Ex parte Bian still stand?")  # "bian": Bain with two letters swapped
    corrections = typo_corrections(asked, {"parte", "bain"}, SETTINGS, STOP)
    assert corrections == {"bian": ("bain",)}
    assert covering("Bain", asked, STOP, frozenset(), corrections, SETTINGS) == {"bian": "bain"}
    # in "Ex parte Bain" the other words vouch, but a 4-letter word must still be exact
    assert covering("Ex parte Bain", asked, frozenset({"ex"}), frozenset(), corrections, SETTINGS) is None
    asked = words("Does Ex prate Bain still stand?")  # a 5-letter word of it may be off by one
    corrections = typo_corrections(asked, {"parte", "bain"}, SETTINGS, STOP)
    assert covering("Ex parte Bain", asked, frozenset({"ex"}), frozenset(), corrections, SETTINGS) == {
        "prate": "parte"}


def test_fuzzy_query_writes_an_exact_query_with_no_edits_and_skips_blank_terms() -> None:
    # the linker asks the common words of a question with max_edits=0 (exact)
    assert fuzzy_query(["lochner", "york"], max_edits=0) == "lochner OR york"
    assert fuzzy_query(["", "york", " "], max_edits=1) == "york~1"  # a blank term ends nothing
    with pytest.raises(ValueError, match="max_edits must be 0, 1 or 2"):
        fuzzy_query(["york"], max_edits=3)


def test_the_name_index_finds_names_one_edit_away_and_no_further() -> None:
    index = NameIndex([{"type": "product", "key": "axios", "name": "axios"}])
    assert [e.key for e in index.candidates([], ["axois"], 10) or []] == ["axios"]  # one swap
    assert index.candidates([], ["axeis"], 10) == []  # two letters changed (one deletion apart)


def test_the_name_index_answers_up_to_lucenes_expansions_and_then_defers() -> None:
    # tokens one letter changed from "bcdf", as many as Lucene expands a fuzzy term to
    near = [f"{'bcdf'[:i]}{c}{'bcdf'[i + 1:]}" for i in range(4) for c in ascii_lowercase if c != "bcdf"[i]]
    assert len(near) >= LUCENE_MAX_EXPANSIONS + 1
    rows = [{"type": "product", "key": token, "name": token} for token in near[:LUCENE_MAX_EXPANSIONS]]
    found = NameIndex(rows).candidates([], ["bcdf"], 1000)
    assert found is not None and len(found) == LUCENE_MAX_EXPANSIONS
    rows.append({"type": "product", "key": near[LUCENE_MAX_EXPANSIONS], "name": near[LUCENE_MAX_EXPANSIONS]})
    assert NameIndex(rows).candidates([], ["bcdf"], 1000) is None  # past Lucene's limit: ask Lucene


def test_the_name_index_lists_candidates_by_type_and_key_whatever_the_row_order() -> None:
    rows = [{"type": "product", "key": "zlib", "name": "shared zlib"},
            {"type": "cve", "key": "cve-1", "name": "shared flaw"},
            {"type": "product", "key": "axios", "name": "shared axios"}]
    found = NameIndex(rows).candidates(["shared"], [], 10) or []
    assert [(e.type, e.key) for e in found] == [("cve", "cve-1"), ("product", "axios"), ("product", "zlib")]


def test_the_name_index_keeps_its_graph_version_and_indexes_a_nameless_entity_by_its_key() -> None:
    index = NameIndex([{"type": "cve", "key": "cve-2021-44228", "name": None}], version=["v7", "run 3"])
    assert index.version == ("v7", "run 3")
    assert [e.key for e in index.candidates(["44228"], [], 10) or []] == ["cve-2021-44228"]
    assert index.candidates(["xxxx"], [], 10) == []  # no made-up name tokens


def test_a_word_exactly_as_frequent_as_the_threshold_is_a_common_word() -> None:
    # "at least this frequent": the threshold itself is common (wordfreq, the linker's source)
    frequency = zipf_frequency("abject", "en")
    assert frequency > 0
    assert is_common_word("abject", frequency)
    assert not is_common_word("abject", frequency + 0.01)
