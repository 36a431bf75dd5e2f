"""The per-corpus name index (car_graph.linking.NameIndex): what it finds must be what the
entity_names fulltext query finds (tests/integration/test_linking.py compares the two on a real
graph); here, the pure parts: Lucene's tokens, one-edit matching, and when it must not answer."""

from __future__ import annotations

import pytest
from rapidfuzz.distance import OSA

from car_graph.linking import LUCENE_MAX_EXPANSIONS, NameIndex, lucene_tokens


@pytest.mark.parametrize(("text", "tokens"), [
    ("django-rest-framework", ["django", "rest", "framework"]),
    ("Node.js", ["node.js"]),            # letters joined across a dot stay one token
    ("O'Brien v. Texas", ["o'brien", "v", "texas"]),
    ("pypi:Django", ["pypi:django"]),    # and across a colon
    ("go 1.21.3", ["go", "1.21.3"]),      # digits across dots
    ("v2.0", ["v2.0"]),
    ("a.1 b_c", ["a", "1", "b_c"]),       # letter-dot-digit splits; underscore joins
    ("CVE-2021-44228", ["cve", "2021", "44228"]),
    ("1,000 units", ["1,000", "units"]),
])
def test_lucene_tokens_split_as_the_standard_tokenizer(text: str, tokens: list[str]) -> None:
    assert lucene_tokens(text) == tokens


def rows(*names: str) -> list[dict[str, str]]:
    return [{"type": "package", "key": name.lower(), "name": name} for name in names]


def keys(found) -> set[str]:
    assert found is not None
    return {e.key for e in found}


def test_exact_terms_find_whole_tokens_of_name_or_key() -> None:
    index = NameIndex(rows("Django", "django-rest-framework", "Flask") + [
        {"type": "drug", "key": "ndc:0002", "name": None}])
    assert keys(index.candidates(["django"], [], 200)) == {"django", "django-rest-framework"}
    assert keys(index.candidates(["0002"], [], 200)) == {"ndc:0002"}  # the key field, split at ":"
    assert keys(index.candidates(["djang"], [], 200)) == set()  # exact means exact


def test_fuzzy_terms_find_tokens_one_edit_away_transpositions_included() -> None:
    index = NameIndex(rows("Kwell", "Cell", "Kwells", "Kell", "Wellness", "Trovan", "Povan"))
    assert keys(index.candidates([], ["kell"], 200)) == {"kwell", "cell", "kell"}
    assert keys(index.candidates([], ["tovan"], 200)) == {"trovan", "povan"}
    assert keys(index.candidates([], ["kwlel"], 200)) == {"kwell"}  # one transposition
    assert keys(index.candidates([], ["kwellsx"], 200)) == {"kwells"}
    assert keys(index.candidates([], ["wel"], 200)) == set()  # two edits from every name


def test_fuzzy_matching_agrees_with_osa_distance_on_every_token() -> None:
    words = ["lochner", "lochnr", "lochner", "locher", "lohcner", "blochner", "lochners", "ochner",
             "loch", "hardwick", "hardwik", "bowers", "bower", "xyz", "ab", "abc"]
    index = NameIndex(rows(*words))
    for term in ["lochner", "hardwick", "bowers", "abc", "abd"]:
        expected = {w for w in words if OSA.distance(term, w) <= 1}
        assert keys(index.candidates([], [term], 200)) == expected, term


def test_the_index_refuses_to_answer_past_the_statement_limit_or_lucene_expansions() -> None:
    index = NameIndex(rows(*[f"acme {i}" for i in range(5)]))
    assert len(index.candidates(["acme"], [], 5) or []) == 5
    assert index.candidates(["acme"], [], 4) is None  # Lucene would have cut at 4: ask it
    # "abca" is one substitution from every "abcX", "abXa", "aXca", "Xbca": 4 x 25 tokens
    letters = [chr(97 + i) for i in range(26)]
    crowded = NameIndex(rows(*{w for c in letters for w in (f"abc{c}", f"ab{c}a", f"a{c}ca", f"{c}bca")}))
    near = {t for t in crowded.by_token if OSA.distance("abca", t) <= 1}
    assert len(near) > LUCENE_MAX_EXPANSIONS
    assert crowded.candidates([], ["abca"], 10_000) is None


def test_short_names_are_found_exactly_as_written() -> None:
    index = NameIndex(rows("GS", "C", "go") + [{"type": "ticker", "key": "gs2", "name": "GS"}])
    assert {(e.type, e.key) for e in index.named(["GS"])} == {("package", "gs"), ("ticker", "gs2")}
    assert index.named(["gs"]) == [] and {e.key for e in index.named(["go", "c"])} == {"go"}
