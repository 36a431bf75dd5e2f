"""Question linking policy (pure logic of car_graph.linking): names, typos, short names,
partial identifiers."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from car_graph.ingest.domains.drug.entities import SALTS
from car_graph.linking import (
    LinkedEntity,
    LinkingSettings,
    adjacent_term_pairs,
    anchor_lexical_query,
    compound_tokens,
    covering,
    defined_terms,
    in_name_order,
    inside_other_names,
    is_ordinary,
    linked_words,
    name_spellings,
    name_word_pattern,
    partial_digit_runs,
    readings_per_name,
    setting_words,
    short_name_tokens,
    significant_words,
    spelled_out,
    title_definitions,
    typo_corrections,
    typo_readings,
    unwritten_relatives,
    without_spans,
    word_readings,
    words,
    written_as_name,
    written_whole,
    written_words,
)

STOP = frozenset({"the", "is", "in", "of", "on", "still", "a", "it", "i", "by", "for", "to", "can", "go", "and"})
SETTINGS = LinkingSettings()


def readings(name: str, question: str, vocabulary: set[str], qualifiers=frozenset(),
             others: tuple[str, ...] = ()) -> int:
    """As EntityLinker does it: ``name`` among the candidates ``others``, whose words (with
    ``vocabulary``) are the words typos are corrected to. 0 when the question does not cover the
    name, else how many readings its least certain typo has (1: linked at full weight)."""
    asked = words(question)
    vocabulary = vocabulary | {w for n in (name, *others) for w in words(n)}
    corrections = typo_corrections(asked, vocabulary, SETTINGS, STOP)
    coverings = [covering(n, asked, STOP, qualifiers, corrections, SETTINGS) for n in (name, *others)]
    found = [c for c in coverings if c is not None]
    return readings_per_name(found)[0] if coverings[0] is not None else 0


def linked(name: str, question: str, vocabulary: set[str], qualifiers=frozenset(),
           others: tuple[str, ...] = ()) -> bool:
    """Linked at full weight: covered, and every typo read one way."""
    return readings(name, question, vocabulary, qualifiers, others) == 1


@pytest.mark.parametrize(
    ("name", "question", "vocabulary"),
    [
        ("django", "Is Django still vulnerable to the SQL injection in QuerySet.order_by?", {"django"}),
        ("Bowers v. Hardwick", "Is Bowers v. Hardwick still good law?", {"bowers", "hardwick"}),
        ("The Harrisburg", "Is The Harirsburg (1886) still binding precedent?", {"harrisburg"}),
        ("Ex parte Bain", "Does the holding of Ex pate Bain (1887) still stand?", {"parte", "bain"}),
        ("fenfluramine hydrochloride", "Is fenfluramine still on the market?", {"fenfluramine"}),
        ("axios", "Is axois still affected by the SSRF?", {"axios", "lodash"}),  # 5 letters, 1 swap
        ("vite", "Is vtie still affected?", {"vite", "lodash"}),  # 4 letters, 1 swap
    ],
)
def test_question_names_the_entity(name: str, question: str, vocabulary: set[str]) -> None:
    assert linked(name, question, vocabulary, SALTS)


@pytest.mark.parametrize(
    ("name", "question", "vocabulary"),
    [
        ("golang.org/x/crypto", "Is Go still affected by a panic in crypto/tls?", {"golang", "org", "crypto"}),
        ("sanic", "Is Go still affected by a panic in crypto/tls?", {"sanic"}),  # 'panic' is a word
        ("django-helpdesk", "Is Django still vulnerable to SQL injection?", {"django", "helpdesk"}),
        ("the", "Is the library safe?", {"the"}),  # a stop word names nothing
        ("cve-2026-34568", "Is CVE-2026-34569 fixed?", {"cve", "2026", "34568"}),  # digits never fuzzy
    ],
)
def test_question_does_not_name_the_entity(name: str, question: str, vocabulary: set[str]) -> None:
    assert not linked(name, question, vocabulary)


@pytest.mark.parametrize(
    ("name", "question", "in_order"),
    [
        ("Brown v. United States", "Would a court still follow Brown v. United States?", True),
        ("United States v. Brown", "Would a court still follow Brown v. United States?", False),
        ("Brown v. United States", "Brown's appeal: is Brown v. United States good law?", True),
        ("Brown v. United States", "Is the United States rule of Brown good law?", False),
        ("Bowers v. Hardwick", "Is Bowers v. Hardwik still good law?", True),  # a typo, in order
    ],
)
def test_an_ordered_name_is_named_only_by_its_words_in_its_order(name: str, question: str,
                                                                 in_order: bool) -> None:
    asked = words(question)
    used = covering(name, asked, STOP, frozenset(), typo_corrections(asked, set(words(name)), SETTINGS, STOP),
                    SETTINGS)
    assert used is not None  # every word is there: only the order tells the names apart
    assert in_name_order(name, asked, STOP, frozenset(), used) is in_order


def test_a_typo_completing_two_different_names_links_neither_at_full_weight() -> None:
    # each is one of two readings; EntityLinker links both at half weight
    assert readings("axios", "Is axois still affected?", set(), others=("axoid",)) == 2
    assert readings("axoid", "Is axois still affected?", set(), others=("axios",)) == 2
    assert readings("trovan", "Can I still buy Tovan?", set(), others=("povan", "tolvan")) == 3


def test_typo_readings_say_which_question_word_was_read_which_ways() -> None:
    # the word EntityLinker records as each typo reading's reading_of: one mention, read two ways
    assert typo_readings([{"axois": "axios"}, {"axois": "axoid", "ssrf": "ssrf"}]) == {
        "axois": {"axios", "axoid"}, "ssrf": {"ssrf"}}
    assert typo_readings([]) == {}
    # what the retrieval passes on: only what was read two or more ways, as "type:key"
    linked = [LinkedEntity("brand", "bextra", 0.5, "typo_reading", reading_of="bextar"),
              LinkedEntity("brand", "bexxar", 0.5, "typo_reading", reading_of="bextar"),
              LinkedEntity("cve", "cve-2022-1705", 2.5, "partial", reading_of="1705"),
              LinkedEntity("product", "go", 1.0, "short_name")]
    assert word_readings(linked) == [("brand:bextra", "brand:bexxar")]
    # and how the question writes a name when not as its key does
    spelled = LinkedEntity("product", "zope2", 1.0, "name", written_as=("zope",))
    assert name_spellings([*linked, spelled]) == [("product:zope2", ("zope",))]


def test_a_typo_one_edit_from_several_words_links_the_one_name_it_completes() -> None:
    # "kell" is one edit from "kwell" and from "cell", but no candidate name is completed by "cell"
    assert linked("Kwell", "Can I still buy Kell in the US?", set(), others=("sickle cell disease",))
    # two entities with the same name (a drug and a brand) are one reading
    assert linked("Kwell", "Can I still buy Kell in the US?", set(), others=("KWELL",))


def test_coverings_report_the_corrections_they_used() -> None:
    corrections = typo_corrections(["vtie", "affected"], {"vite"}, SETTINGS, STOP)
    assert corrections == {"vtie": ("vite",)}
    assert covering("vite", ["is", "vtie", "affected"], STOP, frozenset(), corrections, SETTINGS) == {"vtie": "vite"}
    assert covering("vite", ["is", "vite"], STOP, frozenset(), corrections, SETTINGS) == {}
    assert covering("lodash", ["is", "vtie"], STOP, frozenset(), corrections, SETTINGS) is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Can EMP060-Evans still trade GS?", ["GS"]),
        ("A blackout on C was announced; is C still open?", ["C"]),
        ("It is unclear whether MS may be traded", ["MS"]),
        ("Is six affected?", []),  # lowercase stop word
        ("Has jwt been fixed?", ["jwt"]),
        ("I think a trade is fine", []),
        ("She was cleared to buy 100 shares of K. Does that still stand?", ["K"]),  # full stop
        ("Is BA. still open?", ["BA"]),
        ("Is BRK.B open?", []),  # longer than three characters: not a short name
        ("Is Go still affected by 62718?", ["Go"]),  # a capitalised stop word mid-sentence
        ("Which Go release fixes the ID ending in 6221?", ["Go", "ID"]),
        ("Go and check whether GS is open", ["GS"]),  # opening the sentence: a word
        # opening a sentence as a label: the name of what follows
        ("Django: data loss. Go: data race in net/http. Fixed?", ["Go"]),
        ("Is it open? no: it is fixed", []),  # a lowercase stop word before a colon
        ("Is it still open?", []),
    ],
)
def test_short_names_are_exact_case_preserving_tokens(question: str, expected: list[str]) -> None:
    assert short_name_tokens(question, STOP, SETTINGS) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Is lodash still affected by 62718?", ["62718"]),
        ("the advisory numbered 62718, fixed in 2021?", ["62718"]),  # 2021 is a year
        ("Is 4.17.1234 safe?", []),  # part of a version
        ("Were 1,2345 users hit?", []),
        ("ID ending in 718", []),  # three digits are not distinctive
        # a version a bound gives, not an identifier's tail
        ("Does the TLS module within SaltStack through 3002 leak keys?", []),
        ("Is salt before 3002 affected, and 62718?", ["62718"]),
        ("fixed in versions >= 30021", []),
        ("Is the 2718 advisory fixed since 30021?", ["2718"]),
        # a year-like number is an identifier's tail only when the question says it is a number
        ("Is Go still affected by the one numbered 1962?", ["1962"]),
        ("Which release fixes #2048 or the ID ending in 1999?", ["2048", "1999"]),
        ("Was the Go flaw of 1962 fixed in 2019?", []),
        ("Is Django still affected by 2048?", []),
    ],
)
def test_partial_digit_runs(question: str, expected: list[str]) -> None:
    assert partial_digit_runs(question, [], SETTINGS) == expected


@pytest.mark.parametrize(
    ("word", "question", "expected"),
    [
        ("county", "Do I still have to sue in state court, as Williamson County held?", True),
        ("state", "Is Smith v. State still good law?", True),  # "v." ends no sentence
        ("my", "My grandmother took it. Is it still sold?", False),  # a sentence's first word
        ("court", "It was held so. Court rules differ", False),
        ("shows", "Our scan still shows a flaw", False),
    ],
)
def test_written_as_name_is_capitalised_other_than_at_a_sentences_start(
        word: str, question: str, expected: bool) -> None:
    assert written_as_name(word, question) is expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Our PHP site may have cross-site scripting. Is there a fixed version?", {"php"}),
        ("Our Kotlin Android app has it; should we upgrade?", {"kotlin", "android"}),
        ("In our Node.js app, npm audit reports a flaw", {"node"}),  # "js" is not capitalised
        ("My doctor mentioned an old gout medicine", set()),  # no name after the possessive
        ("Is the PHP flaw in our PHP site fixed?", set()),  # the asker names it as the subject too
        ("Does PHP still have the flaw?", set()),  # no possessive: a name the question asks about
        # the noun phrase opening a clause whose verb reports: the reporter's names
        ("Maven dependency check warns about a flaw in our Spring service.", {"maven", "spring"}),
        ("GitHub Dependabot says the parser overflows. Upgrade?", {"github", "dependabot"}),
        ("Fixed? The CVE scanner flagged an overflow", {"cve"}),  # a later clause's reporter
        ("Acme.io scanner flags an overflow", {"acme"}),  # a dot inside a name ends no clause
        ("Is the XSS that Acme reported fixed?", set()),  # no bare noun phrase before the verb
        ("Acme Parser Library Test Suite Runner Tool warns about it", set()),  # too long for one
    ],
)
def test_setting_words_name_the_askers_own_setting_or_the_reporter_not_the_subject(
        question: str, expected: set[str]) -> None:
    assert setting_words(question) == expected


@given(st.text())
@example("our Kİosk says")  # "İ" lower-cased is "i" and a combining dot: two characters
@example("Maven \u212aelvin check warns about it")  # the Kelvin sign lower-cases to "k"
def test_setting_words_are_words_of_the_question_split_as_words_splits_it(question: str) -> None:
    # a setting word is left out of a candidate's own words (as ``words`` reads them), so the
    # two must split a question alike, however lower-casing changes it
    assert [w for w, _, _ in written_words(question)] == words(question)
    assert setting_words(question) <= set(words(question))


def test_written_words_keep_the_span_each_word_was_read_from() -> None:
    question = "In our Node.js app, İzmir"
    assert [(w, question[a:b]) for w, a, b in written_words(question)] == [
        ("in", "In"), ("our", "our"), ("node", "Node"), ("js", "js"), ("app", "app"),
        ("i", "İ"), ("zmir", "zmir")]


def test_digit_runs_inside_spelled_identifiers_are_not_partial() -> None:
    question = "Is CVE-2021-44228 fixed?"
    assert partial_digit_runs(question, [(3, 17)], SETTINGS) == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Can this drug, prescribed for testosterone deficiency, still be sold?",
         [("testosterone", "deficiency")]),
        # punctuation, a stop word or a short word between two terms breaks the pair
        ("Is the flaw in parsing of headers, request smuggling, fixed in Go code?",
         [("request", "smuggling")]),
        ("Is mild pain pain relief still sold?", [("mild", "pain"), ("pain", "pain"), ("pain", "relief")]),
        ("Is it fixed?", []),
    ],
)
def test_adjacent_term_pairs_are_content_terms_written_side_by_side(
        question: str, expected: list[tuple[str, str]]) -> None:
    assert adjacent_term_pairs(question) == expected


def test_the_phrases_of_the_lexical_query_weigh_together_as_one() -> None:
    one = anchor_lexical_query("Can this drug, prescribed for testosterone deficiency, still be sold?")
    assert one.endswith(' OR ("testosterone deficiency")^1')
    four = anchor_lexical_query("Is request smuggling in the HTTP server framework fixed now?")
    assert four.endswith(' OR ("request smuggling" OR "http server" OR "server framework" '
                         'OR "framework fixed")^0.25')
    unpaired = anchor_lexical_query("Can this drug, prescribed for testosterone deficiency, still be sold?",
                                    LinkingSettings(term_pairs=False))
    assert '"' not in unpaired and unpaired.startswith(one.split(' OR ("')[0])


def test_a_phrase_holding_a_word_of_a_linked_name_is_left_to_the_names_link() -> None:
    named = linked_words([LinkedEntity("defined", "rid", 2.0, "defined"),
                          LinkedEntity("product", "vm-memory", 1.0, "name")])
    assert named == {"rid", "vm", "memory"}
    question = "Is the RID specification for transport error reporting still current?"
    assert '"rid specification"' in anchor_lexical_query(question)
    query = anchor_lexical_query(question, named=named)
    assert query.endswith(' OR ("transport error" OR "error reporting")^0.5')
    assert '"rid ' not in anchor_lexical_query("Is the RID specification current?", named=named)


def test_a_rare_term_is_fuzzy_on_itself_and_on_its_porter_stem() -> None:
    from car_graph.linking import anchor_lexical_query

    # the index holds "nizor" (Porter stem of "Nizoral"); one edit from it is "nizaor", the stem
    # of the misspelling -- "nizaoral~1" alone would never reach it
    query = anchor_lexical_query("Is Nizaoral still available?").split(" OR ")
    assert {"nizaoral", "nizaoral~1", "nizaor~1"} <= set(query)
    assert "available~1" not in query  # common words stay exact
    unstemmed = anchor_lexical_query("Is Nizaoral still available?",
                                     LinkingSettings(fuzzy_stems=False)).split(" OR ")
    assert "nizaor~1" not in unstemmed


def test_a_term_that_is_its_own_stem_gets_one_fuzzy_clause() -> None:
    from car_graph.linking import anchor_lexical_query

    query = anchor_lexical_query("Is Unjasyn still available?").split(" OR ")
    assert query.count("unjasyn~1") == 1 and not any(q.startswith("unjasy~") for q in query)


def test_names_are_read_from_the_question_without_its_identifiers() -> None:
    question = "Has CVE-2017-15042 been fixed in Go?"
    start = question.index("CVE")
    blanked = without_spans(question, [(start, start + len("CVE-2017-15042"))])
    assert len(blanked) == len(question)   # offsets stay valid
    assert "cve" not in words(blanked) and words(blanked)[-1] == "go"
    assert without_spans(question, []) == question


# --------------------------------------------------------------------------- ordinary name words


def test_a_name_word_used_by_many_documents_no_name_holds_is_ordinary() -> None:
    # counts as name_word_use.cypher gives them: (documents using the word not as a name, own)
    assert is_ordinary(190, 2, SETTINGS)       # "memory" of vm-memory
    assert is_ordinary(11, 1, SETTINGS)        # "rsa" of the package rsa, in RSA-key advisories
    assert not is_ordinary(6, 589, SETTINGS)   # "django": its own documents use it
    assert not is_ordinary(0, 82, SETTINGS)    # "pillow"
    assert not is_ordinary(2, 1, SETTINGS)     # too few ordinary uses to tell
    assert not is_ordinary(92, 453, SETTINGS)  # "go": more Go documents than ordinary uses
    assert not is_ordinary(190, 2, LinkingSettings(ordinary_word_documents=None))


@pytest.mark.parametrize(("name", "word", "matches"), [
    ("vm-memory", "memory", True),
    ("memory", "memory", True),
    ("mongodb", "go", False),
    ("github.com/go-yaml/yaml go", "go", True),
    ("memoryfs", "memory", False),
    ("a.b (rsa) c", "rsa", True),
])
def test_the_name_word_pattern_matches_whole_tokens_only(name: str, word: str, matches: bool) -> None:
    import re

    assert (re.fullmatch(name_word_pattern(word), name) is not None) is matches


@pytest.mark.parametrize(("name", "question", "whole"), [
    ("vm-memory", "Is vm-memory still affected?", True),
    ("vm-memory", "Is VM memory still affected?", True),
    ("vm-memory", "Uncontrolled Memory allocation in the VM", False),
    ("P. Internet Protocol", "Which internet protocol is obsolete?", False),
    ("P. Internet Protocol", "Is the P. Internet Protocol still current?", True),
    ("memory", "memory", False),  # one token: written whole is only the word itself
    # one index token of several words: a crate or host name, not two English words
    ("zip_next", "Is the rename in zip_next fixed?", True),
    ("zip_next", "What is next for zip archives?", False),
    ("gitea.dev", "the label oracle in gitea.dev", True),
])
def test_a_multi_token_name_is_written_whole_only_with_every_token_in_order(
        name: str, question: str, whole: bool) -> None:
    assert written_whole(name, question) is whole


@pytest.mark.parametrize(("name", "question", "spelled"), [
    ("django", "Is django still affected?", True),
    ("django", "Is django-user-sessions still affected?", False),  # part of a longer name
    ("example.org/lxc/incus", "in example.org/lxc/incus-os/incus-osd", False),
    ("sibutramine", "Is sibutramine hydrochloride sold?", True),
    ("vm-memory", "Is VM memory affected?", True),
    ("", "anything", False),
])
def test_a_name_is_spelled_out_when_its_words_stand_in_order_and_alone(
        name: str, question: str, spelled: bool) -> None:
    assert spelled_out(name, question) is spelled


LAW_STOP = frozenset({"in", "re", "v", "co", "inc"})


def covered_by_words(names: list[str]):
    """``inside_other_names``' coverage test: every significant word of the name is there."""
    return lambda i, rest: all(w in rest for w in significant_words(names[i], LAW_STOP))


@pytest.mark.parametrize("names, question, inside", [
    # "In re Moore" is covered by the "Moore" of the case the question names
    (["Moore v. Illinois Central Railroad Co.", "In re Moore"],
     "Can I still rely on Moore v. Illinois Central Railroad Co.?", {1}),
    # a whole name with commas and a hyphen between its words
    (["Hust v. Moore-McCormack Lines, Inc.", "In re Moore"],
     "Can I still rely on Hust v. Moore-McCormack Lines, Inc.?", {1}),
    # a brand whose words a longer brand holds apart
    (["Ortho Tri-Cyclen Lo", "Ortho Cyclen"], "Is Ortho Tri-Cyclen Lo still sold?", {1}),
    # both written whole: two names, both kept
    (["In re Moore", "Moore v. Illinois Central Railroad Co."],
     "Are In re Moore and Moore v. Illinois Central Railroad Co. still good law?", set()),
    # the shorter name's word also stands outside the longer name: kept
    (["Moore v. Illinois Central Railroad Co.", "In re Moore"],
     "Did Moore v. Illinois Central Railroad Co. settle what the Moore petition asked?", set()),
    # a name written whole inside a longer one is the question's own (a module and its package)
    (["golang.org/x/net/http2", "golang.org/x/net"], "Is the golang.org/x/net/http2 flaw fixed?",
     set()),
    # a shorter name written whole, commas and all, is the question's own too
    (["Hust v. Moore-McCormack Lines, Inc.", "Moore-McCormack Lines, Inc."],
     "Can I still rely on Hust v. Moore-McCormack Lines, Inc.?", set()),
    # a longer name written with a parenthesis is written whole, not inside the shorter one
    (["Drotrecogin alfa", "Drotrecogin alfa (Activated)"],
     "Would a pharmacy still fill a prescription for Drotrecogin alfa (Activated)?", set()),
    # a longer name covered by its words apart is never inside a shorter one written whole
    (["Ortho Cyclen", "Cyclen Ortho Tri"], "Is Ortho Cyclen (Tri) still sold?", set()),
    # no name of two or more words written whole: nothing to be inside
    (["In re Moore"], "Is Moore still good law?", set()),
    # a name of as many words, written whole, holds the word that covers the other one
    (["tokio-udp", "tokio-fs"], "Is tokio-udp still unmaintained?", {1}),
    # ... unless that word also stands outside it
    (["tokio-udp", "tokio-fs"], "Is tokio-udp unmaintained like the rest of tokio?", set()),
    # words counted once: a path repeating a word is no longer than the path written whole
    (["github.com/containerd/imgcrypt", "github.com/containerd/containerd/v2"],
     "Is github.com/containerd/imgcrypt still affected?", {1}),
    # two names of as many words, both written whole: both kept
    (["tokio-udp", "tokio-fs"], "Are tokio-udp and tokio fs unmaintained?", set()),
])
def test_a_name_the_question_gives_only_inside_a_longer_name_it_writes_is_not_linked(
        names: list[str], question: str, inside: set[int]) -> None:
    assert inside_other_names(names, question, covered_by_words(names)) == inside


def test_a_longer_name_written_whole_but_for_a_typo_still_holds_the_shorter_one() -> None:
    names = ["Hust v. Moore-McCormack Lines, Inc.", "In re Moore"]
    question = "Can I still rely on Hust v. Moore-McCormack Lnies, Inc.?"
    asked = words(question)
    corrections = typo_corrections(asked, {w for n in names for w in words(n)}, SETTINGS, STOP)
    used = [covering(n, asked, STOP, frozenset(), corrections, SETTINGS) for n in names]
    assert used[0] == {"lnies": "lines"} and used[1] == {}
    assert inside_other_names(names, question, covered_by_words(names), used) == {1}
    # without the typo read, the longer name is not written whole and holds nothing
    assert inside_other_names(names, question, covered_by_words(names)) == set()


def sig(name: str) -> tuple[str, list[str]]:
    return name, significant_words(name, STOP)


@pytest.mark.parametrize(("names", "question", "relatives"), [
    # the question spells out "acme"; "acme-fs" is covered by the same word, its "fs" unwritten
    (["acme", "acme-fs"], "Was it part of the Acme 0.1 ecosystem, superseded since?", {1}),
    (["acme-fs", "acme"], "Was it part of the Acme 0.1 ecosystem, superseded since?", {0}),
    # its short word written, apart or joined: both are named
    (["acme", "acme-fs"], "Is acme fs still maintained?", set()),
    (["acme", "acme-fs"], "Is acme-fs still maintained?", set()),
    # no shorter name spelled out beside it: the only reading stays
    (["acme-fs"], "Was it part of the Acme ecosystem?", set()),
    # the shorter name read from a misspelling: neither is spelled out, both stay readings
    (["acme", "acme-fs"], "Was it part of the Acmee ecosystem?", set()),
    # a relative with a significant word of its own is another name, not a longer spelling
    (["acme", "acme-tools"], "Was it part of the Acme ecosystem?", set()),
    (["acme", "acme-db-tools"], "Was it part of the Acme tools ecosystem?", set()),
])
def test_a_longer_relative_of_a_name_the_question_spells_out_is_not_linked(
        names: list[str], question: str, relatives: set[int]) -> None:
    assert unwritten_relatives([sig(n) for n in names], question) == relatives


def test_index_tokens_joining_several_words_are_looked_up_whole() -> None:
    # the entity-name index holds "zip_next" and "gitea.dev" as one token each, so their words
    # alone never find them; versions and identifiers without letters are not names
    assert compound_tokens("Is zip_next or gitea.dev 1.2.3 still affected, unlike zip?") == [
        "zip_next", "gitea.dev"]


# --------------------------------------------------------------------------- defining titles

TITLE_STOP = frozenset({"the", "to", "of", "for", "and", "in", "over", "a", "with"})


@pytest.mark.parametrize(("title", "defined"), [
    ("The Point-to-Point Protocol (PPP)", [("PPP", "Point to Point Protocol", ())]),
    ("The Transport Layer Security (TLS) Protocol Version 1.2",
     [("TLS", "Transport Layer Security", ("1.2",))]),
    ("The PPP Internet Protocol Control Protocol (IPCP)",
     [("IPCP", "Internet Protocol Control Protocol", ())]),
    ("Real-time Inter-network Defense (RID)", [("RID", "Real time Inter network Defense", ())]),
    ("Internet Protocol, Version 6 (IPv6) Specification",
     [("IPv6", "Internet Protocol Version 6", ("6",))]),
    # titles that use a name without defining it, or define it inside a longer statement
    ("PPP LCP Extensions", []),
    ("Using PPP (RFC 1661) over Ethernet", []),
    ("Server-Side Request Forgery (SSRF) in axios and node-fetch", []),
    ("Cross-site Scripting (XSS) in the admin console", []),
    ("Sonic (SAM) Extensions", []),  # S and A are not initials of the words before it
    ("Uncontrolled Resource Consumption (DoS)", []),  # one capital of the expansion too few
])
def test_a_title_defines_a_short_name_when_its_capitals_are_the_initials_before_it(
        title: str, defined: list[tuple[str, str, tuple[str, ...]]]) -> None:
    found = title_definitions(title, TITLE_STOP)
    assert [(d.short, d.expansion, d.versions) for d in found] == defined


@pytest.mark.parametrize(("question", "terms"), [
    ("Is the PPP specification still current?", [("PPP", "")]),
    ("Has TLS 1.0 been obsoleted?", [("TLS", "1.0")]),
    ("Is TLS version 1.3 the up-to-date one?", [("TLS", "1.3")]),
    ("What about IPv6?", [("IPv6", "")]),
    ("Is it worth getting rid of the old one?", []),  # the English word, not the acronym RID
    ("Is Go still affected?", []),                     # one capital: a name, not an acronym
])
def test_a_question_names_an_acronym_by_two_capitals_with_the_version_after_it(
        question: str, terms: list[tuple[str, str]]) -> None:
    assert defined_terms(question) == terms
