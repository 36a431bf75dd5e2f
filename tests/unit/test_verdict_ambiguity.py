"""Ambiguity-aware verdicts (issue 17) and their scoring, on hand-made objects: every branch of
``judge`` (margin, same reading, named, ambiguous, not found, several subjects) and every
counter of ``metrics.score_verdicts``."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

import pytest

from car_graph.cli import render_verdict
from car_graph.linking import only_in_qualified_names, words
from car_graph.metrics import Reading, VerdictOutcome, score_verdicts, verdict_stale
from car_graph.quoting import (
    MAX_QUOTE_SHARERS,
    distinct_passage,
    mention_positions,
    quoted_beside,
    quoted_elsewhere,
    quoted_for_others,
    quoted_holder,
    quoted_run,
    quotes_text,
    quotes_title,
    reach,
)
from car_graph.types import Explanation, Hop, Result, Retrieval, Status
from car_graph.verdict import (
    BY_ELIMINATION,
    Verdict,
    VerdictKind,
    answered_subjects,
    answering,
    beside_answers,
    close_anchors,
    decide,
    judge,
    lead_explained,
    mention_groups,
    name_read_as_word,
    named_subjects,
    named_verdict,
    named_whole,
    not_the_whole_question,
    outcome,
    outfitted,
    read_among_its_words,
    several,
    subject_mentions,
    text_fit,
    unheld_mentions,
    unnamed_in_force,
    unplaced_number,
    verdict_for,
    voiding_kinds,
    weakly_named,
)

A, B, C, FIX = "adv:a", "adv:b", "adv:c", "rel:fix"


def result(doc_id: str, anchor: str, status: Status = Status.ACTIVE,
           chain: tuple[Hop, ...] = ()) -> Result:
    return Result(doc_id=doc_id, title=f"Title {doc_id}", kind="advisory", domain="security",
                  published=date(2020, 1, 1), status=status, score=1.0, anchor_id=anchor,
                  chain=chain)


FIXES_A = Hop(from_id=A, to_id=FIX, rule="fixed_in", effective=date(2021, 1, 1),
              evidence="fixed in 1.2", partial=False)


def explanation(doc_id: str, status: Status, controlling: tuple[Result, ...],
                superseded_by: tuple[Hop, ...] = (), scope: tuple[str, ...] = ()) -> Explanation:
    return Explanation(doc_id=doc_id, title=f"Title {doc_id}", status=status, as_of=None,
                       controlling=controlling, superseded_by=superseded_by, supersedes=(),
                       scope=scope)


# A is superseded by FIX; B and C are in force on their own
EXPLAINED = {
    A: explanation(A, Status.SUPERSEDED, (result(FIX, A, chain=(FIXES_A,)),), (FIXES_A,),
                   scope=("product:alpha",)),
    B: explanation(B, Status.ACTIVE, (result(B, B),), scope=("product:beta",)),
    C: explanation(C, Status.ACTIVE, (result(C, C),), scope=("product:beta",)),
    FIX: explanation(FIX, Status.ACTIVE, (result(FIX, FIX),), scope=("product:alpha",)),
}


def retrieval(anchors: tuple[str, ...], scores: tuple[float, ...],
              entities: tuple[str, ...] = ()) -> Retrieval:
    results = tuple((EXPLAINED.get(a) or EXPLAINED[A]).controlling[0] for a in anchors)
    return Retrieval(question="Is the parser flaw still unpatched?", as_of=None, results=results,
                     anchors=anchors, suppressed=0, ambiguous_scopes=(),
                     question_entities=entities, anchor_scores=scores)


def test_close_anchors_are_those_within_the_margin_of_the_top_one() -> None:
    r = retrieval((B, A, C), (2.0, 1.9, 1.0))
    assert close_anchors(r, 0.25) == (B, A)
    assert close_anchors(r, 1.0) == (B, A, C)
    assert close_anchors(r, 1.0, limit=1) == (B,)
    # without scores (a hand-made retrieval) only the top anchor is trusted
    assert close_anchors(Retrieval("q", None, r.results, (B, A, C), 0, ()), 5.0) == (B,)


def test_a_clear_lead_asserts_the_top_anchor() -> None:
    verdict = judge(retrieval((B, A), (2.5, 1.0)), EXPLAINED, margin=0.25)
    assert verdict.kind is VerdictKind.IN_FORCE and verdict.subject_id == B
    assert verdict.decisive and verdict.singled_out_by == "margin"
    assert verdict.to_json()["confidence"] == {"score": 2.5, "lead": 1.5, "margin": 0.25,
                                               "singled_out_by": "margin"}
    assert verdict.to_json()["candidates"] == []


def test_close_candidates_that_read_differently_make_an_ambiguous_verdict_never_in_force() -> None:
    verdict = judge(retrieval((B, A, C), (2.0, 1.95, 0.5)), EXPLAINED, margin=0.25)
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert verdict.subject_id is None
    assert [c.subject_id for c in verdict.candidates] == [B, A]   # C is not close
    data = verdict.to_json()
    assert data["verdict"] == "ambiguous" and data["subject"] is None
    first, second = data["candidates"]
    assert (first["subject"]["doc_id"], first["status"], first["verdict"]) == (B, "active", "in_force")
    assert [c["doc_id"] for c in first["controlling"]] == [B]
    assert (second["subject"]["doc_id"], second["status"]) == (A, "superseded")
    assert [c["doc_id"] for c in second["controlling"]] == [FIX]
    assert second["superseded_by"][0]["to_id"] == FIX
    # the voided reading is called out, with what controls it
    assert any(A in n and "superseded" in n and FIX in n for n in data["notes"])
    assert "no single one is singled out" in data["summary"] and "no longer in force" in data["summary"]
    context = verdict.context()
    assert "Verdict: AMBIGUOUS" in context and "Do not assume one" in context
    assert f"Caution: {A} is superseded" in context
    assert "Reading 1: IN FORCE" in context and "Reading 2: SUPERSEDED" in context
    assert f"{A}: Title {A}" in context and "[possibly asked about]" in context
    assert f"{FIX}: Title {FIX}" in context and "[CONTROLLING]" in context


def test_close_candidates_with_the_same_controlling_documents_are_decisive_on_the_voided_one() -> None:
    # the advisory and the release that fixes it: both readings say FIX controls
    verdict = judge(retrieval((FIX, A), (2.0, 1.9)), EXPLAINED, margin=0.25)
    assert verdict.decisive and verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.subject_id == A and verdict.singled_out_by == "the others answer it"
    # FIX is A's controlling document: an answer to the question about A, not a second subject
    assert answering((FIX, A), EXPLAINED) == {FIX}
    assert answering((B, C), EXPLAINED) == set()


def test_the_only_close_candidate_holding_the_named_entity_is_the_subject() -> None:
    r = retrieval((B, A), (2.0, 1.95), entities=("product:alpha",))
    verdict = judge(r, EXPLAINED, margin=0.25)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "named in the question"
    # two close candidates holding the name: the name does not single one out
    both = judge(retrieval((B, C, A), (2.0, 1.95, 1.9), entities=("product:beta",)),
                 {**EXPLAINED, C: explanation(C, Status.WITHDRAWN, (result(C, C, Status.WITHDRAWN),),
                                              scope=("product:beta",))}, margin=0.25)
    assert both.kind is VerdictKind.AMBIGUOUS
    assert [c.kind for c in both.candidates] == [VerdictKind.IN_FORCE, VerdictKind.WITHDRAWN,
                                                 VerdictKind.SUPERSEDED]
    assert "2 of these readings point to a document no longer in force" in both.summary


def test_a_named_candidate_another_close_one_outfits_in_words_is_not_singled_out() -> None:
    # A holds the name the question gives (boosted to the top), B fits the question's own words
    # better: the name may be an ordinary word of a question about B -- list both, assert none
    r = replace(retrieval((A, B), (2.4, 1.6), entities=("product:alpha",)),
                anchor_held=(("product:alpha",), ()), anchor_text_scores=(1.4, 1.6))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    assert outfitted(r, A, (A, B)) and not outfitted(r, B, (A, B))
    verdict = judge(r, EXPLAINED, margin=1.0, held=held)
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert {c.subject_id for c in verdict.candidates} == {A, B}
    # the named one fits at least as well: singled out by the name, as before
    fits = replace(r, anchor_text_scores=(1.6, 1.6))
    named = judge(fits, EXPLAINED, margin=1.0, held=held)
    assert named.decisive and named.subject_id == A
    assert named.singled_out_by == "named in the question"
    # an identifier the question gives is no ordinary word: its holder stays singled out
    by_id = replace(r, question_entities=("cve:cve-1",), question_identifiers=("cve:cve-1",),
                    anchor_held=(("cve:cve-1",), ()))
    held_id = dict(zip(by_id.anchors, by_id.anchor_held, strict=True))
    assert judge(by_id, EXPLAINED, margin=1.0, held=held_id).subject_id == A
    # unknown fits (a hand-made retrieval): the name is trusted
    assert not outfitted(replace(r, anchor_text_scores=()), A, (A, B))


def test_a_name_written_only_inside_a_passage_quoted_from_another_candidate_does_not_choose() -> None:
    # A and B carry the same text (one advisory per package); A is scoped to the product whose
    # name the question writes only inside the URL it quotes from that text: the name is a word
    # of the quote, and B fits the question's words as well
    sentence = ("The parser in https://example.org/alpha/alpha/blob/main/parse.c can be tricked "
                "into a stack overflow due to recursion.")
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text=sentence),
                 B: replace(EXPLAINED[B], text=sentence)}
    r = replace(retrieval((A, B), (2.6, 1.6), entities=("product:alpha",)),
                question="Has the issue where the parser in https://example.org/alpha/alpha/blob/"
                         "main/parse.c can be tricked into a stack overflow been fixed?",
                anchor_held=(("product:alpha",), ()), anchor_text_scores=(1.6, 1.6))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    verdict = judge(r, explained, margin=1.0, held=held)
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in verdict.candidates} == {A, B}
    # B fitting the question's words less well: the name decides, as before
    worse = judge(replace(r, anchor_text_scores=(1.6, 1.2)), explained, margin=1.0, held=held)
    assert worse.subject_id == A and worse.singled_out_by == "named in the question"
    # the name written beside the quote, not inside it, is the question's own choice
    beside = replace(r, question="Alpha: the parser in https://example.org/ can be tricked into "
                                 "a stack overflow due to recursion. Fixed?")
    named = judge(beside, explained, margin=1.0, held=held)
    assert named.subject_id == A and named.singled_out_by == "named in the question"


def test_a_name_of_several_words_the_question_writes_whole_is_no_ordinary_word() -> None:
    # A is scoped to the case the question writes out; B holds the same words in another order
    # ("United States v. Brown") and so fits them as well or better -- the name still decides
    case = "case:brown v. united states"
    r = replace(retrieval((A, B), (2.9, 2.0), entities=(case,)),
                question="Would a court today still follow Brown v. United States?",
                anchor_held=((case,), ()), anchor_text_scores=(1.9, 2.0))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    assert named_whole(r, held[A]) and outfitted(r, A, (A, B))
    verdict = judge(r, EXPLAINED, margin=1.0, held=held)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "named in the question"
    # one word of it, or a one-word name, may be an ordinary word: outfitted as before
    # and so may a name's words joined otherwise than the name joins them (a function
    # "shell_quote" for the package shell-quote)
    for question, entity in (("Would a court today still follow Brown?", "case:brown"),
                             ("Is the protobuf decoding flaw fixed?", "product:protobuf"),
                             ("Was the shell_quote function ever patched?", "product:shell-quote")):
        word = replace(r, question=question, question_entities=(entity,),
                       anchor_held=((entity,), ()))
        assert not named_whole(word, (entity,))
        held_word = dict(zip(word.anchors, word.anchor_held, strict=True))
        assert judge(word, EXPLAINED, margin=1.0, held=held_word).kind is VerdictKind.AMBIGUOUS


def test_quoting_a_title_whole_needs_its_words_in_order_and_enough_of_them() -> None:
    title = "Unbounded read from invalid inputs in encoding/binary"
    assert quotes_title('Has the Go flaw "unbounded read from invalid inputs in encoding/binary" '
                        "been dealt with?", title)
    assert not quotes_title("Has the unbounded read in encoding/binary been dealt with?", title)
    assert not quotes_title("Is the read from invalid inputs fixed?", title)
    # a short title is an ordinary phrase of other documents' questions
    assert not quotes_title("Is the denial of service in alpha fixed?", "Denial of service")
    # whole words only: "parsersx" is not "parsers"
    assert not quotes_title("Is the ReDoS in the parsersx module fixed?", "ReDoS in the parsers")
    assert quotes_title("Is the ReDoS in the parsers module fixed?", "ReDoS in the parsers")


def test_the_one_close_candidate_whose_title_the_question_quotes_is_singled_out() -> None:
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], title="Parser flaw in the alpha tokenizer"),
                 B: replace(EXPLAINED[B], title="Crash in the beta tokenizer")}
    r = replace(retrieval((B, A), (1.9, 1.6)),
                question="Is the parser flaw in the alpha tokenizer still unpatched?",
                anchor_text_scores=(1.5, 1.6))
    verdict = judge(r, explained, margin=1.0)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.singled_out_by == "title quoted in the question"
    # another close candidate fits the question's words better: not singled out by the quote
    outfit = judge(replace(r, anchor_text_scores=(1.8, 1.6)), explained, margin=1.0)
    assert outfit.kind is VerdictKind.AMBIGUOUS
    # two quoted titles: the quote does not choose between them
    both = {**explained, B: replace(explained[B], title="the alpha tokenizer still unpatched")}
    assert judge(r, both, margin=1.0).kind is VerdictKind.AMBIGUOUS


def test_a_quoted_title_chooses_between_siblings_holding_the_same_name_whatever_fits_better() -> None:
    # A and B both hold the product the question names; B fits the question's words better
    # (its own wording of a similar flaw) but only A's title is quoted: A is the one meant
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], title="Panic when opening certain archives in archive/zip",
                            scope=("product:go",)),
                 B: replace(EXPLAINED[B], title="Panic when opening archives in archive/zip",
                            scope=("product:go",))}
    r = replace(retrieval((B, A), (2.9, 2.4), entities=("product:go",)),
                question='Has the Go flaw "panic when opening certain archives in archive/zip" been fixed?',
                anchor_text_scores=(1.9, 1.4))
    verdict = judge(r, explained, margin=1.0)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "title quoted in the question"
    # a better-fitting candidate about something else (holding no name the question gives)
    # still outfits the quote: the question may be about it
    other = {**explained, B: replace(explained[B], scope=("product:other",))}
    assert judge(r, other, margin=1.0).kind is VerdictKind.AMBIGUOUS


def test_a_quoted_title_beyond_the_margin_outranks_a_lead_whose_title_is_not_quoted() -> None:
    # B leads by more than the margin (it holds more readings of the named product), but the
    # question quotes A's title whole: A is the document it means
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], title="RCE via ZipSlip and symbolic links in workflows"),
                 B: replace(EXPLAINED[B], title="Pod spec patch bypasses the security context")}
    r = replace(retrieval((B, A), (8.2, 7.0)),
                question='Is the workflows issue "RCE via ZipSlip and symbolic links in workflows" fixed?')
    verdict = judge(r, explained, margin=1.0, limit=2)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "title quoted in the question"
    # the leader's own title quoted: the lead stands
    both = {**explained, B: replace(explained[B], title="RCE via ZipSlip and symbolic links")}
    assert judge(r, both, margin=1.0, limit=2).subject_id == B
    # a boilerplate title shared by many documents does not overrule the lead
    assert judge(r, explained, margin=1.0, limit=2, sharers=lambda _d, _p: 9).subject_id == B
    # nor does a title of an anchor the verdict did not read
    assert judge(r, {B: explained[B]}, margin=1.0, limit=2).subject_id == B


def test_a_question_quoting_a_sentence_of_one_close_candidates_text_singles_it_out() -> None:
    text = ("Parsing a crafted archive might allow remote attackers to read arbitrary files "
            "outside the extraction directory.")
    assert quotes_text("Is the alpha flaw where it might allow remote attackers to read "
                       "arbitrary files outside the directory fixed?", text)
    assert not quotes_text("Might remote attackers read arbitrary files?", text)  # a phrase
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text=text),
                 B: replace(EXPLAINED[B], text="A crafted archive crashes the beta reader.")}
    r = replace(retrieval((B, A), (1.9, 1.6)),
                question="Was it fixed: might allow remote attackers to read arbitrary files outside?",
                anchor_text_scores=(1.5, 1.6))
    verdict = judge(r, explained, margin=1.0)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "text quoted in the question"
    # both texts hold the quote: it does not choose between them
    both = {**explained, B: replace(explained[B], text=text)}
    assert judge(r, both, margin=1.0).kind is VerdictKind.AMBIGUOUS
    # the text is no part of explain's JSON
    assert "text" not in explained[A].to_json() and "kind" not in explained[A].to_json()


def test_a_quote_many_documents_of_the_candidates_scope_share_is_boilerplate_not_a_subject() -> None:
    boilerplate = "TensorFlow is an end-to-end open source platform for machine learning"
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], title=boilerplate),
                 B: replace(EXPLAINED[B], title="Crash in the beta tokenizer")}
    r = replace(retrieval((B, A), (1.9, 1.6)),
                question=f'Is the tensorflow issue "{boilerplate}" fixed?',
                anchor_text_scores=(1.5, 1.6))
    asked: list[tuple[str, str]] = []

    def sharers(count: int):
        def ask(doc_id: str, passage: str) -> int:
            asked.append((doc_id, passage))
            return count
        return ask

    # the quoted title is held by as many other documents as a verdict lists: still a quote
    few = judge(r, explained, margin=1.0, sharers=sharers(MAX_QUOTE_SHARERS))
    assert few.decisive and few.subject_id == A
    assert few.singled_out_by == "title quoted in the question"
    assert asked[0] == (A, boilerplate)
    # held by more: a family's boilerplate, and the verdict lists the close candidates instead
    many = judge(r, explained, margin=1.0, sharers=sharers(MAX_QUOTE_SHARERS + 1))
    assert many.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in many.candidates} == {A, B}
    # the same for a run of the text: the passage asked about is the quoted run, as the text
    # writes it (a phrase query then tokenises it as the index did)
    text = "Affected versions of this crate dereference a raw pointer without any check at all."
    quoting = {**EXPLAINED, A: replace(EXPLAINED[A], text=text)}
    q = replace(r, question="Is the flaw where affected versions of this crate dereference a raw "
                            "pointer without any check fixed?")
    asked.clear()
    assert judge(q, quoting, margin=1.0, sharers=sharers(0)).singled_out_by == "text quoted in the question"
    assert asked == [(A, "Affected versions of this crate dereference a raw pointer without any check")]
    assert judge(q, quoting, margin=1.0, sharers=sharers(9)).kind is VerdictKind.AMBIGUOUS


def test_the_quoted_run_is_the_longest_passage_of_the_text_the_question_repeats() -> None:
    text = ("one two three four five six seven eight nine ten. "
            "alpha beta gamma delta epsilon zeta eta theta iota")
    question = ("one two three four five six seven eight and then alpha beta gamma delta epsilon "
                "zeta eta theta iota")
    assert quoted_run(question, text) == "alpha beta gamma delta epsilon zeta eta theta iota"
    assert quoted_run("one two three four five six seven", text) is None  # shorter than a run
    # the passage as the text writes it: its capitals and punctuation inside the quote
    assert quoted_run("was the flaw where torch load with weights only true reads any pickle fixed",
                      "Remote code execution: torch.load with weights_only=True reads any pickle!"
                      ) == "torch.load with weights_only=True reads any pickle"
    assert quoted_run("one two three four five six seven eight nine ten", text) == (
        "one two three four five six seven eight nine ten")
    # ... cut where the text writes it, even after letters that lower-casing lengthens ("İ")
    assert quoted_run("did the quick brown fox jump over the lazy dog again",
                      "İİİ: the quick brown fox jump over the lazy dog again.") == (
        "the quick brown fox jump over the lazy dog again")


def test_of_siblings_quoting_the_question_the_one_quoting_a_sentence_more_is_singled_out() -> None:
    stock = "allows remote attackers to inject arbitrary web script or HTML"
    own = "via a filename associated with a file upload in the admin"
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], text=f"XSS in alpha 1.1: {stock} {own}.", scope=("product:alpha",)),
                 B: replace(EXPLAINED[B], text=f"XSS in alpha 1.2: {stock} via a redirect.",
                            scope=("product:alpha",))}
    r = replace(retrieval((B, A), (2.9, 2.5), entities=("product:alpha",)),
                question=f"I read that alpha {stock} {own} -- what should I upgrade to?",
                anchor_text_scores=(1.9, 1.5))
    verdict = judge(r, explained, margin=1.0)
    assert verdict.decisive and verdict.subject_id == A
    assert verdict.singled_out_by == "text quoted in the question"
    # a few words more than the sibling's stock phrase are no sentence of its own
    short = replace(r, question=f"I read that alpha {stock} via a filename -- what should I upgrade to?")
    assert judge(short, explained, margin=1.0).kind is VerdictKind.AMBIGUOUS
    # the other quoting candidate is about something else (not holding alpha): no choice made
    other = {**explained, B: replace(explained[B], scope=("product:beta",))}
    assert judge(r, other, margin=1.0).kind is VerdictKind.AMBIGUOUS


def test_nothing_retrieved_is_not_found() -> None:
    empty = Retrieval("q", None, (), (), 0, ())
    assert judge(empty, EXPLAINED).kind is VerdictKind.NOT_FOUND
    assert not judge(empty, EXPLAINED).decisive


def test_a_question_naming_two_subjects_gets_one_verdict_each() -> None:
    r = retrieval((A, B), (3.0, 3.0), entities=("product:alpha", "product:beta"))
    verdict = several(r, [decide(r, EXPLAINED[A]), decide(r, EXPLAINED[B])])
    assert verdict.kind is VerdictKind.MULTIPLE and verdict.decisive is False
    data = verdict.to_json()
    assert [(s["subject"]["doc_id"], s["status"]) for s in data["subjects"]] == [
        (A, "superseded"), (B, "active")]
    assert "Subject 1: SUPERSEDED" in verdict.context() and "Subject 2: IN FORCE" in verdict.context()
    assert outcome(verdict).decisive
    assert {s.subject for s in outcome(verdict).subjects} == {A, B}


def test_the_readings_of_one_misspelt_word_are_one_mention_not_two_subjects() -> None:
    # "Is Bextar still available?": one edit from the brands Bextra and Bexxar, both linked at
    # half weight; names sharing no word would otherwise be two mentions, two subjects
    read = ("brand:bextra", "brand:bexxar")
    assert mention_groups(list(read), "Is Bextar still available?") == [(read[0],), (read[1],)]
    assert mention_groups(list(read), "Is Bextar still available?", readings=[read]) == [read]
    # so are identifiers of two types one number is the tail of ("Re: Go 1705")
    tails = ("cve:cve-2022-1705", "go_vuln:go-2023-1705")
    assert len(mention_groups(list(tails), "Re: Go 1705 -- fixed?")) == 2
    assert mention_groups(list(tails), "Re: Go 1705 -- fixed?", readings=[tails]) == [tails]
    # readings of an entity the retrieval did not keep are skipped; other mentions stay apart
    assert mention_groups([*read, "brand:zyloprim"], "Bextar or Zyloprim?",
                          readings=[(*read, "brand:gone")]) == [read, ("brand:zyloprim",)]
    r = replace(retrieval((A, B), (3.0, 2.8), entities=read),
                question="Is Bextar still available?", anchor_held=((read[0],), (read[1],)),
                anchor_text_scores=(1.0, 0.8))
    assert verdict_for(r, EXPLAINED.__getitem__, k=5, margin=1.0).kind is VerdictKind.MULTIPLE
    one = verdict_for(replace(r, question_readings=(read,)), EXPLAINED.__getitem__, k=5, margin=1.0)
    assert one.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in one.candidates} == {A, B}


def test_a_named_subject_beyond_the_top_k_counts_when_its_holder_fits_the_question() -> None:
    # the words of beta's flaw fill the top 2; alpha's advisory comes back at rank 2 only as a
    # holder (anchors.cypher's $holders): it names a second subject when it fits the question's
    # own words, and is a common word read as a name when it does not
    def ranked(fit_of_a: float) -> Retrieval:
        return replace(retrieval((B, C, A), (3.0, 2.9, 1.2),
                                 entities=("product:alpha", "product:beta")),
                       anchor_held=(("product:beta",), ("product:beta",), ("product:alpha",)),
                       anchor_text_scores=(2.0, 1.9, fit_of_a))

    fits = ranked(0.8)
    held = dict(zip(fits.anchors, fits.anchor_held, strict=True))
    assert subject_mentions(fits, held, k=2) == [("product:alpha",), ("product:beta",)]
    assert named_subjects(fits, held, k=2) == [(A,), (B, C)]
    verdict = verdict_for(fits, EXPLAINED.__getitem__, k=2, margin=1.0)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert verdict.subjects[0].subject_id == A
    # the same holder fitting nothing else the question says: no second subject
    weak = ranked(0.3)
    assert subject_mentions(weak, held, k=2) == [("product:beta",)]
    assert named_subjects(weak, held, k=2) == []
    assert verdict_for(weak, EXPLAINED.__getitem__, k=2, margin=1.0).kind is not VerdictKind.MULTIPLE


def test_a_question_naming_more_documents_asks_less_fit_of_each_holder_beyond_the_top_k() -> None:
    # alpha's advisory comes back beyond the top 2, fitting the question's words at 0.4: too
    # little for a question about two documents (0.5), enough for one about three (1/3 of
    # the words each)
    def ranked(entities: tuple[str, ...], held_by_c: tuple[str, ...]) -> Retrieval:
        return replace(retrieval((B, C, A), (3.0, 2.9, 1.4), entities=entities),
                       anchor_held=(("product:beta",), held_by_c, ("product:alpha",)),
                       anchor_text_scores=(1.0, 0.9, 0.4))

    two = ranked(("product:alpha", "product:beta"), ("product:beta",))
    held = dict(zip(two.anchors, two.anchor_held, strict=True))
    assert subject_mentions(two, held, k=2) == [("product:beta",)]
    three = ranked(("product:alpha", "product:beta", "product:gamma"), ("product:gamma",))
    held = dict(zip(three.anchors, three.anchor_held, strict=True))
    assert subject_mentions(three, held, k=2) == [
        ("product:alpha",), ("product:beta",), ("product:gamma",)]


def test_two_mentions_one_document_holds_are_one_subject_of_a_multiple_verdict() -> None:
    # B is scoped to both beta and gamma (one advisory of a product known by two names), A to
    # alpha: the question names two subjects, not three
    r = replace(retrieval((B, A, C), (3.0, 2.9, 1.0),
                          entities=("product:alpha", "product:beta", "product:gamma")),
                anchor_held=(("product:beta", "product:gamma"), ("product:alpha",), ()),
                anchor_text_scores=(2.0, 1.9, 0.5))
    verdict = verdict_for(r, EXPLAINED.__getitem__, k=5, margin=1.0)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [s.subject_id for s in verdict.subjects] == [A, B]
    assert outcome(verdict).decisive and {s.subject for s in outcome(verdict).subjects} == {A, B}


def test_a_holder_leading_its_siblings_by_the_other_subjects_name_is_not_singled_out() -> None:
    # "Async-std: discontinued. Tensorflow: <the sentence every advisory of it opens with>":
    # B and C are beta's advisories, both quoting the shared sentence; B also writes "async"
    # and "std" elsewhere in its own text, which is what put it a margin ahead of C
    question = "Async-std: the crate is discontinued. beta: shared opening sentence here. Fixed?"
    beside = "shared opening sentence here"

    def asked(b_text: str, c_text: str) -> Verdict:
        texts = {A: "the crate is discontinued", B: b_text, C: c_text}
        explained = {a: replace(EXPLAINED[a], text=texts[a], scope=scope)
                     for a, scope in ((A, ("product:async-std",)), (B, ("product:beta",)),
                                      (C, ("product:beta",)))}
        r = replace(retrieval((B, A, C), (3.0, 2.8, 1.5),
                              entities=("product:async-std", "product:beta")),
                    question=question, anchor_text_scores=(1.0, 0.9, 0.5),
                    anchor_held=(("product:beta",), ("product:async-std",), ("product:beta",)))
        return verdict_for(r, explained.__getitem__, k=5, margin=1.0)

    borrowed = asked(f"{beside}. the async code uses std move", beside)
    assert borrowed.kind is VerdictKind.MULTIPLE
    beta = next(v for v in borrowed.subjects if v.subject_id != A)
    assert beta.kind is VerdictKind.AMBIGUOUS and {c.subject_id for c in beta.candidates} == {B, C}
    assert any("async, std" in n for n in beta.notes)
    # the runner-up writing the name too: the lead is not the other name's (and B holds a word
    # of the question C lacks, "shared": something the question says accounts for it)
    both = asked(f"{beside}. the async code uses std move", "opening sentence here. async std")
    assert [v.subject_id for v in both.subjects] == [A, B]
    # the question quoting B where it writes the name ("... async-std: the crate ..."): B's own wording
    quoting = asked(f"{beside} and async std the crate", beside)
    assert [v.subject_id for v in quoting.subjects] == [A, B]


def test_a_lead_no_word_of_the_question_accounts_for_singles_out_nothing() -> None:
    # "Our formulary lists alpha and beta. Has either been withdrawn?": B and C both carry the
    # name beta; B's shorter text puts it a margin ahead of C, though C holds every word of the
    # question B holds
    question = "Our formulary lists alpha and beta. Has either of them been withdrawn?"

    def asked(b_text: str, c_text: str = "beta approved 1989. class: hormones",
              text_scores: tuple[float, ...] = (1.9, 1.0, 0.9)) -> Verdict:
        texts = {A: "alpha approved 1981", B: b_text, C: c_text}
        explained = {a: replace(EXPLAINED[a], text=texts[a], scope=scope)
                     for a, scope in ((A, ("product:alpha",)), (B, ("product:beta",)),
                                      (C, ("product:beta",)))}
        r = replace(retrieval((B, C, A), (3.0, 1.9, 1.5), entities=("product:beta", "product:alpha")),
                    question=question, anchor_text_scores=text_scores,
                    anchor_held=(("product:beta",), ("product:beta",), ("product:alpha",)))
        return verdict_for(r, explained.__getitem__, k=5, margin=1.0)

    unexplained = asked("beta approved 1989")
    assert unexplained.kind is VerdictKind.MULTIPLE
    beta = next(v for v in unexplained.subjects if v.subject_id != A)
    assert beta.kind is VerdictKind.AMBIGUOUS and {c.subject_id for c in beta.candidates} == {B, C}
    # B holding a word of the question that C lacks ("formulary"): the lead stands
    explained = asked("beta approved 1989 for the formulary")
    assert [(v.subject_id, v.singled_out_by) for v in explained.subjects] == [(B, "margin"), (A, "only candidate")]
    # ... or a run of the question's words in its order, which C holds only scattered
    scattered = "beta 1989: lists the formulary"
    assert asked("beta 1989: formulary lists", scattered).subjects[0].subject_id == B
    assert asked("beta 1989: lists formulary", scattered).subjects[0].kind is VerdictKind.AMBIGUOUS
    # a status word is no such word: the question asks it of every reading
    assert next(v for v in asked("beta withdrawn 1989").subjects if v.subject_id != A).kind \
        is VerdictKind.AMBIGUOUS
    # without text fits (a hand-made retrieval) the lead is taken as it stands
    assert [v.subject_id for v in asked("beta approved 1989", text_scores=()).subjects] == [B, A]
    # a linked entity the leader holds and the next does not accounts for the lead, words aside
    same = {B: replace(EXPLAINED[B], text="beta"), C: replace(EXPLAINED[C], text="beta")}
    r = replace(retrieval((B, C), (3.0, 1.9), entities=("product:beta", "version:beta@2")),
                question="Is beta 2 still in force?", anchor_text_scores=(1.9, 1.0))
    assert not lead_explained(r, B, C, same, {B: ("product:beta",), C: ("product:beta",)})
    assert lead_explained(r, B, C, same, {B: ("product:beta", "version:beta@2"), C: ("product:beta",)})


def test_a_lead_over_the_document_answering_the_leader_is_weighed_against_the_next_rival() -> None:
    # alpha's holders: A, then FIX (on A's chain, repeating A's words: a release quoting the
    # advisory it fixes), then D, another alpha document within the margin of FIX but not of A
    d = "adv:d"
    question = "Our formulary lists alpha and beta. Has either of them been withdrawn?"
    texts = {A: "alpha formulary entry 1981", FIX: "alpha formulary entry 1981, fixed",
             d: "alpha approved 1990", B: "beta approved 1989"}
    explained = {**EXPLAINED, d: explanation(d, Status.ACTIVE, (result(d, d),), scope=("product:alpha",))}
    explained = {a: replace(explained[a], text=text) for a, text in texts.items()}
    r = replace(retrieval((A, FIX, d, B), (3.0, 1.9, 1.8, 1.5), entities=("product:alpha", "product:beta")),
                question=question, anchor_text_scores=(2.0, 1.0, 0.9, 0.5),
                anchor_held=(("product:alpha",), ("product:alpha",), ("product:alpha",), ("product:beta",)))
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0)
    # A holds "formulary", which D, the next document not on its chain, lacks: the lead stands
    assert [(v.subject_id, v.singled_out_by) for v in verdict.subjects] == [
        (A, "margin"), (B, "only candidate")]


def test_a_third_name_written_whole_that_nothing_retrieved_holds_leaves_the_verdict_open() -> None:
    # A holds alpha, B beta; the question names a third product no retrieved document holds
    def asked(third: str, written: str) -> Retrieval:
        return replace(retrieval((B, A), (3.0, 2.9),
                                 entities=("product:alpha", "product:beta", f"product:{third}")),
                       question=f"Are the alpha, beta and {written} flaws all fixed?",
                       anchor_held=(("product:beta",), ("product:alpha",)),
                       anchor_text_scores=(2.0, 1.9))

    verdict = verdict_for(asked("gamma-delta", "gamma-delta"), EXPLAINED.__getitem__, k=5,
                          margin=1.0)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [(s.subject_id, s.kind) for s in verdict.subjects] == [
        (A, VerdictKind.SUPERSEDED), (B, VerdictKind.IN_FORCE), (None, VerdictKind.NOT_FOUND)]
    assert verdict.subjects[2].notes == (
        "the question names gamma-delta, which no retrieved document answers",)
    assert verdict.to_json()["subjects"][2]["verdict"] == "not_found"
    # the reason reaches the JSON and the prompt context, not only the CLI's rendering
    assert verdict.to_json()["subjects"][2]["notes"] == list(verdict.subjects[2].notes)
    assert ("Subject 3: NOT FOUND. No document found for: gamma-delta (the question names "
            "gamma-delta, which no retrieved document answers)") in verdict.context().splitlines()
    out = outcome(verdict)
    assert not out.decisive and out.ambiguous and out.subject_candidates == ((),)
    assert ("  subject: [not_found] the question names gamma-delta, which no retrieved document "
            "answers") in render_verdict(verdict).splitlines()
    # a one-word name that is no common English word is a name wherever it stands
    rare = verdict_for(asked("tensorflow", "tensorflow"), EXPLAINED.__getitem__, k=5, margin=1.0)
    assert [(s.subject_id, s.kind) for s in rare.subjects][2] == (None, VerdictKind.NOT_FOUND)
    # a common word ("gamma"), or a name the question writes with other separators, may be a
    # word of a flaw's description: the two subjects answer the question
    for third, written in (("gamma", "gamma"), ("gamma-delta", "gamma_delta")):
        two = verdict_for(asked(third, written), EXPLAINED.__getitem__, k=5, margin=1.0)
        assert [s.subject_id for s in two.subjects] == [A, B] and outcome(two).decisive
    # ... and so is a name a subject's own text writes: the question quotes its description
    quoted = {**EXPLAINED, B: replace(EXPLAINED[B], text="A crash when decoding tensorflow input.")}
    two = verdict_for(asked("tensorflow", "tensorflow"), quoted.__getitem__, k=5, margin=1.0)
    assert [s.subject_id for s in two.subjects] == [A, B] and outcome(two).decisive


def test_a_name_written_whole_whose_only_reading_fits_nothing_is_answered_by_nothing() -> None:
    # C holds gamma-delta but fits none of the question's words: not asserted in force (a name
    # read as a word), yet the question writes the name whole, so the verdict says it found
    # nothing for it rather than leaving it out
    def asked(written: str) -> Retrieval:
        return replace(retrieval((B, A, C), (3.0, 2.9, 1.0),
                                 entities=("product:alpha", "product:beta", "product:gamma-delta")),
                       question=f"Are the alpha, beta and {written} flaws all fixed?",
                       anchor_held=(("product:beta",), ("product:alpha",), ("product:gamma-delta",)),
                       anchor_text_scores=(2.0, 1.9, 0.1))

    verdict = verdict_for(asked("gamma-delta"), EXPLAINED.__getitem__, k=5, margin=1.0)
    assert [(s.subject_id, s.kind) for s in verdict.subjects] == [
        (A, VerdictKind.SUPERSEDED), (B, VerdictKind.IN_FORCE), (None, VerdictKind.NOT_FOUND)]
    assert verdict.subjects[2].notes == ("the question names gamma-delta; the retrieved documents "
                                         "about it fit too little of the question to answer it",)
    # written with other separators: a word of the description, left out as before
    other = verdict_for(asked("gamma_delta"), EXPLAINED.__getitem__, k=5, margin=1.0)
    assert [s.subject_id for s in other.subjects] == [A, B] and outcome(other).decisive


def test_outcome_reads_what_the_verdict_asserted() -> None:
    ambiguous = judge(retrieval((B, A), (2.0, 1.95)), EXPLAINED, margin=0.25)
    out = outcome(ambiguous)
    assert out.kind == "ambiguous" and out.reading is None and not out.decisive
    assert out.candidates == (Reading(B, "in_force", frozenset({B})),
                              Reading(A, "superseded", frozenset({FIX})))
    decisive = outcome(judge(retrieval((A, B), (3.0, 1.0)), EXPLAINED, margin=0.25))
    assert decisive.reading == Reading(A, "superseded", frozenset({FIX}))


def test_score_verdicts_counts_each_outcome_class() -> None:
    gold, anchors = frozenset({FIX}), frozenset({A})
    right = VerdictOutcome("superseded", Reading(A, "superseded", frozenset({FIX})))
    wrong_subject_stale = VerdictOutcome("in_force", Reading(B, "in_force", frozenset({B})))
    amb_with = VerdictOutcome("ambiguous", candidates=(Reading(B, "in_force", frozenset({B})),
                                                       Reading(A, "superseded", frozenset({FIX}))))
    amb_without = VerdictOutcome("ambiguous", candidates=(Reading(B, "in_force", frozenset({B})),))
    nothing = VerdictOutcome("not_found")
    scores = score_verdicts([(o, gold, anchors) for o in
                             (right, wrong_subject_stale, amb_with, amb_without, nothing)])
    assert (scores.n, scores.decisive, scores.decisive_right) == (5, 2, 1)
    assert scores.decisive_precision == 0.5 and scores.decisive_coverage == 0.4
    assert (scores.ambiguous, scores.ambiguous_with_gold) == (2, 1)
    assert scores.ambiguous_with_gold_rate == 0.5
    assert (scores.stale, scores.stale_rate) == (1, 0.2)
    assert scores.not_found == 1 and scores.answered_right == 0.4
    data = scores.as_dict()
    assert data["decisive_precision"] == 0.5 and data["stale_rate"] == 0.2


def test_ambiguous_readings_that_all_agree_say_so_in_summary_context_and_json() -> None:
    # two approvals of one drug, both withdrawn by one withdrawal: still two documents the
    # question may mean (no subject asserted), but whichever it means the answer is the same
    first, second, withdrawal = "approval:1", "approval:2", "withdrawal:w"
    hops = {a: Hop(from_id=a, to_id=withdrawal, rule="explicit", effective=date(2004, 1, 1),
                   evidence="", partial=False) for a in (first, second)}
    explained = {a: explanation(a, Status.SUPERSEDED, (result(withdrawal, a, chain=(hops[a],)),),
                                (hops[a],)) for a in (first, second)}
    explained[C] = EXPLAINED[C]
    asked = Retrieval(question="Is ethinyl estradiol still approved?", as_of=None,
                      results=(result(first, first), result(second, second)),
                      anchors=(first, second), suppressed=0, ambiguous_scopes=(),
                      anchor_scores=(2.0, 1.95))
    verdict = judge(asked, explained, margin=0.25)
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.subject_id is None
    assert verdict.agreed_reading is verdict.candidates[0]
    data = verdict.to_json()
    assert data["agreed_reading"]["verdict"] == "superseded"
    assert [c["doc_id"] for c in data["agreed_reading"]["controlling"]] == [withdrawal]
    assert data["subject"] is None and not data["decisive"]
    assert f"Every reading agrees: superseded, controlled by Title {withdrawal} [{withdrawal}]" \
        in verdict.summary
    context = verdict.context()
    assert "Every reading agrees" in context and "the answer is NOT in force" in context
    assert "Caution:" not in context
    # one reading in force among them: nothing agrees, the caution stays
    mixed = replace(verdict, candidates=(verdict.candidates[0], judge(
        retrieval((C,), (1.0,)), EXPLAINED, margin=0.25)))
    assert mixed.agreed_reading is None and mixed.to_json()["agreed_reading"] is None
    assert "Caution:" in mixed.context() and "Every reading agrees" not in mixed.summary
    # each superseded only in part by the same documents: the rest of each stays in force, so
    # the readings do not settle the answer
    partly = replace(verdict, candidates=tuple(
        replace(c, kind=VerdictKind.PARTIALLY_SUPERSEDED) for c in verdict.candidates))
    assert partly.agreed_reading is None
    # superseded by different documents: no agreement either
    apart = replace(verdict, candidates=(verdict.candidates[0], judge(
        retrieval((A,), (1.0,)), EXPLAINED, margin=0.25)))
    assert apart.agreed_reading is None


def test_answers_that_all_void_one_retrieved_document_make_it_the_subject() -> None:
    # "Has adenosine phosphate been pulled from the US market?": the drug's two withdrawals
    # fit the words best; both withdraw its approval, which the question is about
    approval, first, second, other = "approval:p", "withdrawal:1", "withdrawal:2", "approval:q"
    hop = {w: Hop(from_id=approval, to_id=w, rule="explicit", effective=date(1973, 1, 1),
                  evidence="", partial=False) for w in (first, second)}
    drug = "drug:adenosine phosphate"

    def withdrawal(doc_id: str, voids: str) -> Explanation:
        voiding = Hop(from_id=voids, to_id=doc_id, rule="explicit", effective=date(1973, 1, 1),
                      evidence="", partial=False)
        return replace(explanation(doc_id, Status.ACTIVE, (result(doc_id, doc_id),)),
                       supersedes=(voiding,), kind="withdrawal")

    explained = {
        first: withdrawal(first, approval), second: withdrawal(second, approval),
        approval: replace(explanation(approval, Status.SUPERSEDED,
                                      tuple(result(w, approval, chain=(hop[w],)) for w in hop),
                                      tuple(hop.values())), kind="approval"),
    }

    def asked(entities: tuple[str, ...] = (drug,), anchors: tuple[str, ...] = (first, second, approval),
              found: dict[str, Explanation] = explained) -> Verdict:
        r = Retrieval(question="Has adenosine phosphate been pulled from the US market?",
                      as_of=None, results=tuple(result(a, a) for a in anchors), anchors=anchors,
                      suppressed=0, ambiguous_scopes=(), question_entities=entities,
                      anchor_scores=(3.0, 2.8, 1.9, 1.8)[:len(anchors)],
                      anchor_held=tuple((drug,) for _ in anchors),
                      anchor_text_scores=(2.0, 1.8, 0.9, 0.8)[:len(anchors)])
        return verdict_for(r, found.__getitem__, k=5, margin=1.0,
                           corpus=FakeCorpus(answering=frozenset({"withdrawal"})))

    verdict = asked()
    assert verdict.kind is VerdictKind.SUPERSEDED and verdict.subject_id == approval
    assert {c.doc_id for c in verdict.controlling} == {first, second}
    assert verdict.singled_out_by == "voided by every close candidate"
    # the question names nothing: no evidence for the approval, the answers stay the readings
    assert asked(entities=()).kind is VerdictKind.AMBIGUOUS
    # the voided document was not retrieved: nothing says what it holds
    assert asked(anchors=(first, second)).kind is VerdictKind.AMBIGUOUS
    # the two withdrawals void different approvals: two documents the question may mean
    apart = {**explained, second: withdrawal(second, other)}
    assert asked(found=apart).kind is VerdictKind.AMBIGUOUS
    # they both void two retrieved documents: either may be meant
    both = {w: replace(explained[w], supersedes=(*explained[w].supersedes, Hop(
        from_id=other, to_id=w, rule="explicit", effective=None, evidence="", partial=False)))
        for w in (first, second)}
    assert asked(found={**explained, **both}, anchors=(first, second, approval, other)
                 ).kind is VerdictKind.AMBIGUOUS
    # a withdrawal of part of it does not void it wholly
    part = replace(explained[second], supersedes=(replace(explained[second].supersedes[0],
                                                          partial=True),))
    assert asked(found={**explained, second: part}).kind is VerdictKind.AMBIGUOUS
    # candidates of a kind not known to answer are readings, whatever they supersede
    notices = {w: replace(explained[w], kind="notice") for w in (first, second)}
    assert asked(found={**explained, **notices}).kind is VerdictKind.AMBIGUOUS
    # without knowing withdrawals to be answers, they are readings like any other
    r = Retrieval(question="q", as_of=None, results=(result(first, first), result(second, second)),
                  anchors=(first, second), suppressed=0, ambiguous_scopes=(),
                  question_entities=(drug,), anchor_scores=(3.0, 2.8), anchor_held=((drug,), (drug,)))
    assert verdict_for(r, explained.__getitem__, k=5, margin=1.0).kind is VerdictKind.AMBIGUOUS


def test_score_verdicts_counts_ambiguous_verdicts_whose_readings_agree() -> None:
    gold, anchors = frozenset({FIX}), frozenset({A})
    agree_right = VerdictOutcome("ambiguous", candidates=(
        Reading(C, "superseded", frozenset({FIX})), Reading(A, "superseded", frozenset({FIX}))))
    agree_elsewhere = VerdictOutcome("ambiguous", candidates=(
        Reading(B, "superseded", frozenset({FIX})), Reading(C, "superseded", frozenset({FIX}))))
    differ = VerdictOutcome("ambiguous", candidates=(
        Reading(A, "superseded", frozenset({FIX})), Reading(B, "superseded", frozenset({B}))))
    in_force_alike = VerdictOutcome("ambiguous", candidates=(
        Reading(A, "in_force", frozenset({FIX})), Reading(B, "in_force", frozenset({FIX}))))
    right = VerdictOutcome("superseded", Reading(A, "superseded", frozenset({FIX})))
    assert agree_right.readings_agree and agree_elsewhere.readings_agree
    assert not differ.readings_agree and not in_force_alike.readings_agree
    assert not right.readings_agree
    scores = score_verdicts([(o, gold, anchors) for o in
                             (agree_right, agree_elsewhere, differ, in_force_alike, right)])
    assert (scores.ambiguous, scores.agreeing, scores.agreeing_right) == (4, 2, 1)
    assert scores.settled_right == 0.4
    data = scores.as_dict()
    assert (data["ambiguous_agreeing"], data["ambiguous_agreeing_right"]) == (2, 1)
    assert data["settled_right"] == 0.4


def test_in_force_of_the_gold_document_is_not_stale_and_unknown_anchors_judge_by_gold() -> None:
    in_force = VerdictOutcome("in_force", Reading(B, "in_force", frozenset({B})))
    assert not verdict_stale(in_force, frozenset({B}))
    assert verdict_stale(in_force, frozenset({C}))
    scores = score_verdicts([(in_force, frozenset({B}), None)])
    assert scores.decisive_right == 1
    # right controlling documents but not the document asked about: not right
    assert score_verdicts([(in_force, frozenset({B}), frozenset({A}))]).decisive_right == 0


def test_a_multiple_verdict_is_right_when_it_names_the_anchors_and_their_controlling_documents() -> None:
    both = VerdictOutcome("multiple", subjects=(Reading(A, "superseded", frozenset({FIX})),
                                                Reading(B, "in_force", frozenset({B}))))
    assert score_verdicts([(both, frozenset({FIX, B}), frozenset({A, B}))]).decisive_right == 1
    assert score_verdicts([(both, frozenset({FIX, C}), frozenset({A, C}))]).decisive_right == 0
    assert score_verdicts([(both, frozenset({FIX, C}), frozenset({A, C}))]).stale == 1


# -- mentions, names several documents carry, several voided readings ----------------------------

A2 = "adv:a2"   # a second document FIX also supersedes (a second approval of one withdrawn drug)
FIXES_A2 = Hop(from_id=A2, to_id=FIX, rule="fixed_in", effective=date(2021, 1, 1),
               evidence="fixed in 1.2", partial=False)
WITH_A2 = {**EXPLAINED, A2: explanation(A2, Status.SUPERSEDED, (result(FIX, A2, chain=(FIXES_A2,)),),
                                        (FIXES_A2,), scope=("product:alpha",))}


def test_mentions_group_the_readings_of_one_name_and_keep_distinct_names_apart() -> None:
    assert mention_groups(["drug:sibutramine hydrochloride", "drug:sibutramine"]) == [
        ("drug:sibutramine hydrochloride", "drug:sibutramine")]
    assert mention_groups(["brand:regitine mesylate", "brand:durabolin", "brand:regitine hcl"]) == [
        ("brand:regitine mesylate", "brand:regitine hcl"), ("brand:durabolin",)]
    assert mention_groups(["drug:ethinyl estradiol", "drug:estradiol"]) == [
        ("drug:ethinyl estradiol", "drug:estradiol")]
    assert mention_groups(["fda_application:nda008278", "brand:regitine"]) == [
        ("fda_application:nda008278",), ("brand:regitine",)]
    assert mention_groups([]) == []
    # path-like names: one host is no shared name, a major-version suffix is the same name
    assert mention_groups(["product:example.org/acme/core", "product:example.org/umbrella/vault",
                           "product:example.org/umbrella/vault/v2"]) == [
        ("product:example.org/acme/core",),
        ("product:example.org/umbrella/vault", "product:example.org/umbrella/vault/v2")]
    assert mention_groups(["product:example.org/x/net", "product:example.org/x/crypto"]) == [
        ("product:example.org/x/net",), ("product:example.org/x/crypto",)]
    assert mention_groups(["product:host/fiber/v3", "product:host/fiber/v2"]) == [
        ("product:host/fiber/v3", "product:host/fiber/v2")]
    # one name in two registries ("Has this PyYAML issue been fixed?" links both): one mention;
    # two names in one registry stay two
    assert mention_groups(["package:debian:pyyaml", "package:pypi:pyyaml"]) == [
        ("package:debian:pyyaml", "package:pypi:pyyaml")]
    assert mention_groups(["package:pypi:pyyaml", "package:pypi:pillow"]) == [
        ("package:pypi:pyyaml",), ("package:pypi:pillow",)]


def test_a_mention_keeps_the_names_the_question_spells_out_not_those_read_inside_them() -> None:
    # "example.org/lxc/incus" is covered word by word by the longer module path the question
    # writes, but not spelled out in it: the mention is the longer name alone
    question = "Is the example.org/lxc/incus-os/incus-osd LUKS bypass fixed, and the kotti CSRF?"
    entities = ["product:example.org/lxc/incus-os/incus-osd", "product:example.org/lxc/incus",
                "product:example.org/lxc/incus/v7", "product:kotti"]
    assert mention_groups(entities) == [tuple(entities[:3]), ("product:kotti",)]
    assert mention_groups(entities, question) == [
        ("product:example.org/lxc/incus-os/incus-osd",), ("product:kotti",)]
    # a name spelled out inside a longer one stays ("sibutramine" in "sibutramine hydrochloride"),
    # and readings of which none is spelled out all stay (a typo, a brand read two ways)
    salt = ["drug:sibutramine hydrochloride", "drug:sibutramine"]
    assert mention_groups(salt, "Is sibutramine hydrochloride still sold?") == [tuple(salt)]
    brands = ["brand:regitine mesylate", "brand:regitine hcl"]
    assert mention_groups(brands, "Is Regitine still sold?") == [tuple(brands)]
    assert mention_groups(["product:django-user-sessions", "product:django"],
                          "Is django-user-sessions still affected?") == [("product:django-user-sessions",)]


def test_one_name_read_two_ways_is_one_subject_not_several() -> None:
    # both entities read the same mention; A holds one, B the other: not "two subjects"
    r = replace(retrieval((A, B), (3.0, 1.5), entities=("product:alpha", "product:alpha beta")),
                anchor_held=(("product:alpha",), ("product:alpha beta",)))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    assert named_subjects(r, held, 5) == []
    verdict = judge(r, EXPLAINED, margin=1.0, held=held)
    assert verdict.decisive and verdict.subject_id == A


def test_two_distinct_names_get_a_verdict_each_and_a_name_two_documents_carry_stays_ambiguous() -> None:
    r = replace(retrieval((A, A2, B), (3.0, 2.9, 2.0), entities=("product:alpha", "product:beta")),
                anchor_held=(("product:alpha",), ("product:alpha",), ("product:beta",)))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    per_mention = named_subjects(r, held, 5)
    assert per_mention == [(A, A2), (B,)]
    explained = {**WITH_A2, A2: replace(WITH_A2[A2], controlling=(result(A2, A2),),
                                        status=Status.ACTIVE, superseded_by=())}
    subjects = [named_verdict(r, holders, group, explained, held, margin=1.0)
                for holders, group in zip(per_mention, mention_groups(list(r.question_entities)),
                                          strict=True)]
    assert subjects[0].kind is VerdictKind.AMBIGUOUS   # "alpha" names A and A2 alike
    assert [c.subject_id for c in subjects[0].candidates] == [A, A2]
    assert subjects[1].decisive and subjects[1].subject_id == B
    verdict = several(r, subjects)
    data = verdict.to_json()
    assert data["subjects"][0]["verdict"] == "ambiguous"
    assert [c["subject"]["doc_id"] for c in data["subjects"][0]["candidates"]] == [A, A2]
    assert "[possibly asked about]" in verdict.context()
    seen = outcome(verdict)
    assert not seen.decisive and seen.ambiguous
    # scored: every gold anchor read (asserted or as a candidate) and the union is the gold
    gold = frozenset({FIX, B})
    scores = score_verdicts([(seen, gold, frozenset({A, B}))])
    assert (scores.decisive, scores.ambiguous, scores.ambiguous_with_gold, scores.stale) == (0, 1, 1, 0)
    wrong = score_verdicts([(seen, frozenset({C}), frozenset({A, C}))])
    assert wrong.ambiguous_with_gold == 0


def test_one_ambiguous_verdict_listing_every_document_a_question_names_holds_the_gold() -> None:
    # "Are A and B both fixed?" answered by one ambiguous verdict whose candidates include A and
    # B: a reader shown it has both readings, as from a multiple verdict with ambiguous subjects
    listing = VerdictOutcome("ambiguous", candidates=(Reading(A, "superseded", frozenset({FIX})),
                                                      Reading(C, "in_force", frozenset({C})),
                                                      Reading(B, "in_force", frozenset({B}))))
    both = frozenset({A, B})
    assert score_verdicts([(listing, frozenset({FIX, B}), both)]).ambiguous_with_gold == 1
    # one of the two documents missing, or a reading's controlling documents not the gold's
    only_a = replace(listing, candidates=listing.candidates[:2])
    assert score_verdicts([(only_a, frozenset({FIX, B}), both)]).ambiguous_with_gold == 0
    assert score_verdicts([(listing, frozenset({A, B}), both)]).ambiguous_with_gold == 0
    # a question about one document is still scored on one reading
    assert score_verdicts([(listing, frozenset({FIX}), frozenset({A}))]).ambiguous_with_gold == 1


def test_several_voided_candidates_with_one_reading_are_ambiguous_not_the_first() -> None:
    # FIX supersedes both A and A2 (two approvals, one withdrawal): which approval is meant is
    # not singled out, though the answer is the same
    verdict = judge(retrieval((FIX, A, A2), (2.0, 1.9, 1.8)), WITH_A2, margin=0.5)
    assert verdict.kind is VerdictKind.AMBIGUOUS
    # FIX answers both (it is their controlling document); A and A2 stay, neither singled out
    assert [c.subject_id for c in verdict.candidates] == [A, A2]
    assert all(c.kind is VerdictKind.SUPERSEDED for c in verdict.candidates)


def test_a_subject_that_leaves_a_mention_of_the_question_unheld_is_not_asserted() -> None:
    # "alpha" and "gamma" are two mentions; A leads by the margin but holds only alpha
    r = replace(retrieval((A, B), (3.0, 1.0), entities=("product:alpha", "product:gamma")),
                anchor_held=(("product:alpha",), ()))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    decisive = judge(r, EXPLAINED, margin=1.0, held=held)
    assert decisive.decisive and decisive.subject_id == A
    assert unheld_mentions(decisive, r, held) == [("product:gamma",)]
    verdict = not_the_whole_question(decisive, r, EXPLAINED, held, margin=1.0)
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert [c.subject_id for c in verdict.candidates] == [A]   # B is not within the margin
    assert any("also names gamma" in n for n in verdict.notes)
    # holding every mention keeps the verdict as it was
    whole = replace(r, anchor_held=(("product:alpha", "product:gamma"), ()))
    held_all = dict(zip(whole.anchors, whole.anchor_held, strict=True))
    assert not_the_whole_question(decisive, whole, EXPLAINED, held_all, margin=1.0) is decisive


def test_an_identifier_no_retrieved_document_holds_qualifies_the_question_and_names_no_subject() -> None:
    # "We pinned alpha to 1.22": the version is linked as an identifier, but documents only
    # mention it; no anchor holds it, so A answering alpha answers the whole question
    r = replace(retrieval((A, B), (3.0, 1.0), entities=("product:alpha", "version:1.22")),
                anchor_held=(("product:alpha",), ()), question_identifiers=("version:1.22",))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    decisive = judge(r, EXPLAINED, margin=1.0, held=held)
    assert decisive.decisive and decisive.subject_id == A
    assert unheld_mentions(decisive, r, held) == []
    assert not_the_whole_question(decisive, r, EXPLAINED, held, margin=1.0) is decisive
    # an identifier another retrieved document holds is a subject A does not answer
    cited = replace(r, anchor_held=(("product:alpha",), ("version:1.22",)))
    held_cited = dict(zip(cited.anchors, cited.anchor_held, strict=True))
    assert unheld_mentions(decisive, cited, held_cited) == [("version:1.22",)]
    # and a name no retrieved document holds still counts (a second subject nothing retrieved)
    named = replace(r, question_identifiers=())
    assert unheld_mentions(decisive, named, held) == [("version:1.22",)]


def test_in_force_by_the_lead_alone_on_a_subject_the_question_does_not_name_is_not_asserted() -> None:
    # B leads by the margin, is in force, and holds nothing the question names (it names
    # nothing): the best match of a generic question is not said to be in force
    r = retrieval((B, A), (2.5, 1.0))
    guess = judge(r, EXPLAINED, margin=1.0, held={})
    assert guess.kind is VerdictKind.IN_FORCE and guess.singled_out_by == "margin"
    assert unnamed_in_force(guess, r, {})
    verdict = not_the_whole_question(guess, r, EXPLAINED, {}, margin=1.0)
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert any("not asserted to be in force" in n for n in verdict.notes)
    # named by the question: asserted
    named = replace(r, question_entities=("product:beta",), anchor_held=(("product:beta",), ()))
    held = dict(zip(named.anchors, named.anchor_held, strict=True))
    kept = judge(named, EXPLAINED, margin=1.0, held=held)
    assert not unnamed_in_force(kept, named, held)
    assert not_the_whole_question(kept, named, EXPLAINED, held, margin=1.0) is kept


def test_a_name_read_inside_another_names_hyphenated_key_is_one_mention() -> None:
    # "Django ... user sessions" links the product and the package named after it: one mention
    assert mention_groups(["product:django", "product:django-user-sessions"]) == [
        ("product:django", "product:django-user-sessions")]
    assert mention_groups(["product:go", "product:golang.org/x/net"]) == [
        ("product:go",), ("product:golang.org/x/net",)]


def test_identifiers_written_in_full_are_two_mentions_and_read_from_one_fragment_are_one() -> None:
    two = ["cve:cve-2021-28677", "cve:cve-2020-1234"]
    assert mention_groups(two, "Are CVE-2021-28677 and CVE-2020-1234 fixed?", two) == [
        ("cve:cve-2021-28677",), ("cve:cve-2020-1234",)]
    # "the CVE ending in 30629": two CVEs end so, one mention read two ways
    suffix = ["cve:cve-2022-30629", "cve:cve-2023-30629"]
    assert mention_groups(suffix, "Is Go still affected by the CVE ending in 30629?", suffix) == [
        tuple(suffix)]
    # one identifier linked under two types is one mention; without the identifiers given, or
    # without the question, keys group by their first word as names do
    assert mention_groups(["cve:cve-2021-1", "alias:cve-2021-1"], "Is CVE-2021-1 fixed?",
                          ["cve:cve-2021-1", "alias:cve-2021-1"]) == [
        ("cve:cve-2021-1", "alias:cve-2021-1")]
    assert mention_groups(two, "Are CVE-2021-28677 and CVE-2020-1234 fixed?") == [tuple(two)]
    assert mention_groups(two, None, two) == [tuple(two)]


def test_a_fix_answers_the_advisory_holding_the_same_name_in_another_registry() -> None:
    # FIX (a distribution's changelog) holds the CVE and the name in its registry; A, the
    # advisory it fixes, the CVE and the same name in another: one mention each, so A is answered
    explained = {**EXPLAINED, FIX: replace(EXPLAINED[FIX], supersedes=(FIXES_A,))}
    r = replace(retrieval((FIX, A, B), (5.6, 4.5, 2.5),
                          entities=("package:debian:alpha", "package:pypi:alpha", "cve:cve-2021-1")),
                question="Is alpha still affected by the CVE ending in 2021-1?",
                anchor_held=(("cve:cve-2021-1", "package:debian:alpha"),
                             ("cve:cve-2021-1", "package:pypi:alpha"), ("package:pypi:alpha",)),
                question_identifiers=("cve:cve-2021-1",))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    top = judge(r, explained, margin=1.0, held=held)
    assert top.kind is VerdictKind.IN_FORCE and top.subject_id == FIX
    assert answered_subjects(top, r, held, explained[FIX], 5) == (A,)
    # an advisory of another name with the same CVE is not what the question names
    other = replace(r, anchor_held=(r.anchor_held[0], ("cve:cve-2021-1", "package:pypi:beta"),
                                    ("package:pypi:alpha",)))
    held_other = dict(zip(other.anchors, other.anchor_held, strict=True))
    assert answered_subjects(top, other, held_other, explained[FIX], 5) == ()


def test_the_release_that_holds_the_identifier_of_the_advisory_it_fixes_is_its_answer() -> None:
    # FIX lists A's identifier too and leads by the margin; the question names A, FIX answers it
    explained = {**EXPLAINED, FIX: replace(EXPLAINED[FIX], supersedes=(FIXES_A,))}
    r = replace(retrieval((FIX, A, B), (5.6, 4.5, 2.5), entities=("cve:cve-1", "product:alpha")),
                anchor_held=(("cve:cve-1", "product:alpha"), ("cve:cve-1", "product:alpha"),
                             ("product:alpha",)),
                question_identifiers=("cve:cve-1",))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    top = judge(r, explained, margin=1.0, held=held)
    assert top.kind is VerdictKind.IN_FORCE and top.subject_id == FIX
    assert answered_subjects(top, r, held, explained[FIX], 5) == (A,)
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0)
    assert verdict.kind is VerdictKind.SUPERSEDED and verdict.subject_id == A
    assert verdict.singled_out_by == "answered by the top match"
    assert [c.doc_id for c in verdict.controlling] == [FIX]
    # an anchor that holds less than the top does is not what the question names
    fewer = replace(r, anchor_held=(("cve:cve-1", "product:alpha"), ("product:alpha",), ()))
    held_fewer = dict(zip(fewer.anchors, fewer.anchor_held, strict=True))
    assert answered_subjects(top, fewer, held_fewer, explained[FIX], 5) == ()
    # nor is one the top does not supersede, nor anything before the fix takes effect
    assert answered_subjects(top, r, held, EXPLAINED[FIX], 5) == ()
    assert answered_subjects(top, replace(r, as_of=date(2020, 6, 1)), held, explained[FIX], 5) == ()


def test_a_fix_answering_two_documents_the_question_fits_alike_leaves_them_both_open() -> None:
    # FIX (a withdrawal) voids A and C, two approvals of the drug the question names; they rank
    # within the margin of each other: either may be meant, and both read alike
    fixes_c = replace(FIXES_A, from_id=C)
    explained = {**EXPLAINED, FIX: replace(EXPLAINED[FIX], supersedes=(FIXES_A, fixes_c)),
                 C: explanation(C, Status.SUPERSEDED, (result(FIX, C, chain=(fixes_c,)),),
                                (fixes_c,))}

    def asked(scores: tuple[float, float, float]) -> Verdict:
        r = replace(retrieval((FIX, A, C), scores, entities=("drug:alpha",)),
                    anchor_held=(("drug:alpha",),) * 3)
        return verdict_for(r, explained.__getitem__, k=5, margin=1.0)

    tied = asked((3.0, 1.85, 1.83))
    assert tied.kind is VerdictKind.AMBIGUOUS
    assert [c.subject_id for c in tied.candidates] == [A, C]
    assert tied.agreed_reading is not None and tied.agreed_reading.kind is VerdictKind.SUPERSEDED
    # one of them fits the question far better: it is the one answered
    clear = asked((3.0, 1.9, 0.5))
    assert clear.kind is VerdictKind.SUPERSEDED and clear.subject_id == A
    assert clear.singled_out_by == "answered by the top match"


def test_a_subject_named_by_a_name_alone_that_fits_nothing_else_is_not_asserted() -> None:
    # B holds the name the question gives, leads by the margin, but its text fits the
    # question's other words at 0.2: the name is an ordinary word of the question
    r = replace(retrieval((B, A), (2.2, 0.9), entities=("product:beta",)),
                anchor_held=(("product:beta",), ()), anchor_text_scores=(0.2, 0.9))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    assert text_fit(r, B) == 0.2 and text_fit(r, "adv:none") is None
    named = judge(r, EXPLAINED, margin=1.0, held=held)
    assert named.kind is VerdictKind.IN_FORCE and named.subject_id == B
    assert weakly_named(named, r, held) and weakly_named(named, r, held, in_force_only=True)
    verdict = not_the_whole_question(named, r, EXPLAINED, held, margin=1.0)
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert any("fits little else" in n for n in verdict.notes)
    # the same fit with an identifier the question gives: singled out, asserted
    by_id = replace(r, question_entities=("cve:cve-2",), question_identifiers=("cve:cve-2",),
                    anchor_held=(("cve:cve-2",), ()))
    held_id = dict(zip(by_id.anchors, by_id.anchor_held, strict=True))
    kept = judge(by_id, EXPLAINED, margin=1.0, held=held_id)
    assert not weakly_named(kept, by_id, held_id)
    assert not_the_whole_question(kept, by_id, EXPLAINED, held_id, margin=1.0) is kept
    # a good fit: asserted; no text scores (hand-made retrieval): trusted as before
    fits = replace(r, anchor_text_scores=(1.2, 0.9))
    assert not weakly_named(judge(fits, EXPLAINED, margin=1.0, held=held), fits, held)
    bare = replace(r, anchor_text_scores=())
    assert not weakly_named(judge(bare, EXPLAINED, margin=1.0, held=held), bare, held)


def test_a_name_another_close_fitting_document_writes_as_a_word_does_not_single_its_holder_out() -> None:
    # B is scoped to the project "protobuf" and leads by the name's boost; A, about something
    # else, writes "protobuf" in its own text and fits the question's words nearly as well
    question = "What is the current status of when decoding a tensor from protobuf?"
    texts = {A: "Title adv:a Crash when decoding a tensor from protobuf", B: "Title adv:b heap overflow"}
    r = replace(retrieval((B, A), (2.68, 1.61), entities=("product:protobuf",)), question=question,
                anchor_held=(("product:protobuf",), ()), anchor_text_scores=(1.68, 1.61))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    named = judge(r, EXPLAINED, margin=1.0, held=held)
    assert named.decisive and named.subject_id == B and named.singled_out_by == "margin"
    assert name_read_as_word(named, r, held, texts.__getitem__, k=5) == [A]
    verdict = not_the_whole_question(named, r, EXPLAINED, held, margin=1.0, word_readers=[A])
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert {c.subject_id for c in verdict.candidates} == {A, B}
    assert any("as a word of their own text" in n for n in verdict.notes)
    # the other document does not write the name, or fits the question's words far worse, or
    # the name is an identifier the question gives: the verdict stands
    assert name_read_as_word(named, r, held, {A: "Title adv:a other words", B: ""}.__getitem__, 5) == []
    far = replace(r, anchor_text_scores=(1.68, 0.5))
    assert name_read_as_word(judge(far, EXPLAINED, margin=1.0, held=held), far, held,
                             texts.__getitem__, 5) == []
    by_id = replace(r, question_entities=("product:protobuf",),
                    question_identifiers=("product:protobuf",))
    assert name_read_as_word(judge(by_id, EXPLAINED, margin=1.0, held=held), by_id, held,
                             texts.__getitem__, 5) == []
    # a term the question writes with its capitals and the subject's title defines ("the LINK
    # specification", "... (LINK)"): the defined thing, whoever else uses the term in its text
    defined = replace(r, question="What is the controlling specification for LINK?",
                      question_entities=("defined_name:link",),
                      anchor_held=(("defined_name:link",), ()))
    held_defined = dict(zip(defined.anchors, defined.anchor_held, strict=True))
    uses = {A: "Title adv:a LINK extensions for LINK", B: ""}
    named_defined = judge(defined, EXPLAINED, margin=1.0, held=held_defined)
    assert named_defined.decisive and named_defined.subject_id == B
    assert name_read_as_word(named_defined, defined, held_defined, uses.__getitem__, 5) == []
    as_product = replace(defined, question_entities=("product:link",),
                         anchor_held=(("product:link",), ()))
    held_product = dict(zip(as_product.anchors, as_product.anchor_held, strict=True))
    assert name_read_as_word(judge(as_product, EXPLAINED, margin=1.0, held=held_product),
                             as_product, held_product, uses.__getitem__, 5) == [A]
    # a named subject that is voided is no "in force" said on a guess: it stands ("What is the
    # status of Copaxone?", other labels writing "Copaxone" in their text)
    superseded = replace(named, kind=VerdictKind.SUPERSEDED)
    assert name_read_as_word(superseded, r, held, texts.__getitem__, 5) == []
    # end to end through verdict_for: A's closure (walked by the retrieval) gives its text
    walked = {**EXPLAINED, A: replace(EXPLAINED[A], text=texts[A])}
    whole = verdict_for(r, walked.__getitem__, k=5, margin=1.0)
    assert whole.kind is VerdictKind.AMBIGUOUS, whole.to_json()
    assert {c.subject_id for c in whole.candidates} == {A, B}
    assert verdict_for(r, EXPLAINED.__getitem__, k=5, margin=1.0).subject_id == B


def test_a_weakly_named_second_subject_in_force_is_dropped_and_unheld_mentions_name_none() -> None:
    # "alpha" names A (superseded, fits well); "beta" names B only as an ordinary word (in
    # force, fit 0.3); "gamma" is held by no top anchor
    r = replace(retrieval((A, FIX, B), (3.0, 2.5, 1.3),
                          entities=("product:alpha", "product:beta", "product:gamma")),
                anchor_held=(("product:alpha",), ("product:alpha",), ("product:beta",)),
                anchor_text_scores=(2.0, 1.5, 0.3))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    assert subject_mentions(r, held, 5) == [("product:alpha",), ("product:beta",)]
    assert named_subjects(r, held, 5) == [(A, FIX), (B,)]
    verdict = verdict_for(r, EXPLAINED.__getitem__, k=5, margin=1.0)
    # beta's reading is dropped; one subject is left and judged: A (FIX answers it), which
    # leaves beta and gamma unheld, so it is listed, not asserted -- and B is never in force
    assert verdict.kind is VerdictKind.AMBIGUOUS and not verdict.decisive
    assert verdict.candidates[0].subject_id == A
    assert verdict.candidates[0].kind is VerdictKind.SUPERSEDED
    assert not outcome(verdict).subjects and not verdict_stale(outcome(verdict), frozenset({FIX}))
    # the same second subject fitting the question is a subject of its own
    fits = replace(r, anchor_text_scores=(2.0, 1.5, 0.9))
    several_ = verdict_for(fits, EXPLAINED.__getitem__, k=5, margin=1.0)
    assert several_.kind is VerdictKind.MULTIPLE
    assert [s.subject_id for s in several_.subjects] == [A, B]
    # ... unless an anchor that holds no name the question links writes "beta" inside the
    # question's words around it ("the beta reader") and fits the question's own words better
    # than B: the question may use the name as that text does
    worded = replace(retrieval((A, FIX, B, C), (3.0, 2.5, 1.3, 1.2),
                               entities=("product:alpha", "product:beta", "product:gamma")),
                     question="Is the alpha flaw unpatched, and does the beta reader loop forever?",
                     anchor_held=(("product:alpha",), ("product:alpha",), ("product:beta",), ()),
                     anchor_text_scores=(2.0, 1.5, 0.9, 1.2))
    beta_word = {**EXPLAINED, C: replace(EXPLAINED[C], text="The beta reader loops on a header.")}
    read = verdict_for(worded, beta_word.__getitem__, k=5, margin=1.0)
    assert read.kind is not VerdictKind.MULTIPLE
    assert B not in {read.subject_id, *(s.subject_id for s in read.subjects)}
    # C fitting worse than B, not writing the name, or writing it apart from the question's
    # words around it ("is beta affected"), leaves B a subject
    worse = replace(worded, anchor_text_scores=(2.0, 1.5, 0.9, 0.8))
    assert verdict_for(worse, beta_word.__getitem__, k=5, margin=1.0).kind is VerdictKind.MULTIPLE
    assert verdict_for(worded, EXPLAINED.__getitem__, k=5, margin=1.0).kind is VerdictKind.MULTIPLE
    apart = replace(worded, question="Is the alpha flaw unpatched, and is beta affected?")
    assert verdict_for(apart, beta_word.__getitem__, k=5, margin=1.0).kind is VerdictKind.MULTIPLE
    # ... and so does B's own text writing the name among the same words (siblings' boilerplate)
    both = {**beta_word, B: replace(EXPLAINED[B], text="The beta reader loops on a header.")}
    assert verdict_for(worded, both.__getitem__, k=5, margin=1.0).kind is VerdictKind.MULTIPLE
    # ... and so is one the question quotes, however little else of it fits: a quote is more
    # than a name used as a word -- unless a family of documents shares the passage
    b_text = "A crafted header makes the beta reader loop forever on every request it parses."
    quoting = replace(r, question=r.question + " And the beta issue: a crafted header makes the "
                                               "beta reader loop forever on every request?")
    explained = {**EXPLAINED, B: replace(EXPLAINED[B], text=b_text)}
    quoted = verdict_for(quoting, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert quoted.kind is VerdictKind.MULTIPLE
    assert [s.subject_id for s in quoted.subjects] == [A, B]
    few = verdict_for(quoting, explained.__getitem__, k=5, margin=1.0,
                      sharers=lambda d, p: MAX_QUOTE_SHARERS)
    assert few.kind is VerdictKind.MULTIPLE
    boilerplate = verdict_for(quoting, explained.__getitem__, k=5, margin=1.0,
                              sharers=lambda d, p: MAX_QUOTE_SHARERS + 1)
    assert boilerplate.kind is VerdictKind.AMBIGUOUS


def test_a_subject_in_force_is_read_as_a_word_where_an_unnamed_anchor_writes_the_name_among_the_questions_words() -> None:
    # B is in force, named by "beta"; C holds no linked name, writes "the beta reader" as the
    # question does, and fits the question's own words better than B
    r = replace(retrieval((A, FIX, B, C), (3.0, 2.5, 1.3, 1.2),
                          entities=("product:alpha", "product:beta")),
                question="Is the alpha flaw unpatched, and does the beta reader loop forever?",
                anchor_held=(("product:alpha",), ("product:alpha",), ("product:beta",), ()),
                anchor_text_scores=(2.0, 1.5, 0.9, 1.2))
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    texts = {A: "Title adv:a", FIX: "Title rel:fix", B: "Title adv:b heap overflow",
             C: "Title adv:c The beta reader loops on a header."}
    in_force = decide(r, EXPLAINED[B])
    assert in_force.kind is VerdictKind.IN_FORCE and in_force.subject_id == B
    beta = ("product:beta",)
    assert read_among_its_words(in_force, beta, r, held, texts.__getitem__, 5)
    # C beyond the top k, fitting worse than B, or holding a linked name is no reader
    assert not read_among_its_words(in_force, beta, r, held, texts.__getitem__, 3)
    worse = replace(r, anchor_text_scores=(2.0, 1.5, 0.9, 0.8))
    assert not read_among_its_words(in_force, beta, worse, held, texts.__getitem__, 5)
    named_c = {**held, C: ("product:alpha",)}
    assert not read_among_its_words(in_force, beta, r, named_c, texts.__getitem__, 5)
    # the name written apart from the question's words around it, or B writing the same run
    apart = {**texts, C: "Title adv:c The reader of beta loops on a header."}
    assert not read_among_its_words(in_force, beta, r, held, apart.__getitem__, 5)
    both = {**texts, B: "Title adv:b The beta reader loops on a header."}
    assert not read_among_its_words(in_force, beta, r, held, both.__getitem__, 5)
    # a voided subject, or a mention the question does not write, is never read so
    voided = replace(in_force, kind=VerdictKind.SUPERSEDED)
    assert not read_among_its_words(voided, beta, r, held, texts.__getitem__, 5)
    assert not read_among_its_words(in_force, ("product:gamma",), r, held, texts.__getitem__, 5)


def test_the_distinct_passage_is_the_longest_run_of_the_question_no_other_text_holds() -> None:
    question = "Is the drug indicated for gout still approved?"
    mine = "Atophan was approved in 1908. Indication: Gout."
    theirs = ["Zyloprim was approved in 1966.", "Promin was approved in 1945."]
    assert distinct_passage(question, mine, theirs) == "gout"
    # a run another text holds too is no one's own
    assert distinct_passage(question, mine, [*theirs, "Indication: gout."]) is None
    # longer runs first, spelled as words split them (a phrase query of plain words)
    assert distinct_passage("Is the flaw in torch.load of pickles fixed?",
                            "Unsafe torch.load of pickles.", ["Unsafe pickles."]) == "torch load of pickles"


def _distinct_passage_by_definition(question: str, text: str, others: list[str]) -> str | None:
    """The definition spelled out: every run length from the longest down, every start in the
    question's order, the first run ``text`` holds and no other text does."""
    said, written, theirs = words(question), words(text), [words(o) for o in others]

    def holds(seq: list[str], run: list[str]) -> bool:
        return any(seq[j:j + len(run)] == run for j in range(len(seq) - len(run) + 1))

    for n in range(min(len(said), len(written)), 0, -1):
        for i in range(len(said) - n + 1):
            run = said[i:i + n]
            if holds(written, run) and not any(holds(t, run) for t in theirs):
                return " ".join(run)
    return None


def test_the_distinct_passage_agrees_with_its_definition_on_texts_that_repeat_words() -> None:
    # a six-word vocabulary makes runs repeat within and across texts: ties, overlaps, a run
    # the text holds twice, another text holding a longer or a shorter part of it. Positions to
    # skip are the definition run on the question with those words replaced by one no text has
    rng = random.Random(17)
    vocabulary = ["a", "b", "c", "d", "e", "f"]
    for _ in range(4000):
        def text(longest: int) -> str:
            return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, longest)))
        question, mine = text(14), text(30)
        others = [text(30) for _ in range(rng.randint(0, 3))]
        assert distinct_passage(question, mine, others) == _distinct_passage_by_definition(
            question, mine, others), (question, mine, others)
        skip = {i for i in range(len(words(question))) if rng.random() < 0.3}
        masked = " ".join("zz" if i in skip else w for i, w in enumerate(words(question)))
        assert distinct_passage(question, mine, others, skip) == _distinct_passage_by_definition(
            masked, mine, others), (question, mine, others, skip)


def test_words_quoted_for_another_subject_are_the_positions_of_its_documents_quotes_alone() -> None:
    question = ("the author recommends using the maintained web time crate instead in alpha "
                "and this affects the package in beta")
    theirs = ["This crate is unmaintained: the author recommends using the maintained web time crate instead."]
    said = words(question)
    quoted = quoted_for_others(question, ["Downgrading babel from depends to recommends."], theirs)
    assert {said[i] for i in quoted} == {"the", "author", "recommends", "using", "maintained", "web",
                                          "time", "crate", "instead"}
    assert quoted == frozenset(range(10))
    # a passage this subject's own documents quote too is no other subject's alone
    assert quoted_for_others(question, theirs, theirs) == frozenset()
    # fewer than MIN_QUOTED_TEXT_WORDS in a row is no quote
    assert quoted_for_others(question, [], ["the author recommends using it"]) == frozenset()


def test_a_holder_singled_out_by_words_quoted_for_the_other_subject_is_not_asserted() -> None:
    # "... the author recommends using the maintained web time crate instead in alpha, and
    # this affects the package in beta": B and C are beta's releases; B writes "recommends"
    # in its own changelog. That word is the quote of alpha's advisory, not anything said of beta
    question = ("I'm tracking the author recommends using the maintained web time crate instead "
                "in alpha and this affects the package in beta; has either been resolved?")

    def asked(b_text: str) -> Verdict:
        texts = {A: "The author recommends using the maintained web time crate instead.",
                 B: b_text, C: "Team upload."}
        explained = {a: replace(EXPLAINED[a], text=texts[a], scope=scope)
                     for a, scope in ((A, ("product:alpha",)), (B, ("product:beta",)),
                                      (C, ("product:beta",)))}
        r = replace(retrieval((A, B, C), (3.0, 2.0, 1.9),
                              entities=("product:alpha", "product:beta")),
                    question=question, anchor_text_scores=(2.0, 0.8, 0.8),
                    anchor_held=(("product:alpha",), ("product:beta",), ("product:beta",)))
        return verdict_for(r, explained.__getitem__, k=5, margin=1.0, corpus=FakeCorpus(every=0))

    borrowed = asked("Downgrading babel from depends to recommends.")
    assert borrowed.kind is VerdictKind.MULTIPLE
    beta = next(v for v in borrowed.subjects if v.subject_id != A)
    assert beta.kind is VerdictKind.AMBIGUOUS and {c.subject_id for c in beta.candidates} == {B, C}
    # a word the question writes of beta's own ("package") still singles B out
    own = asked("Downgrading babel; this affects the package.")
    assert [v.subject_id for v in own.subjects] == [A, B]
    assert own.subjects[1].singled_out_by == "words of the question only it holds"


class FakeCorpus:
    """A ``verdict.Corpus`` answering from fixed counts and kinds, recording what it is asked."""

    def __init__(self, counts: dict[str, int | None] | None = None, every: int | None = None,
                 answering: frozenset[str] = frozenset()) -> None:
        self.counts, self.every, self.answering = counts or {}, every, answering
        self.asked: list[tuple[str, str]] = []
        self.asked_kinds: list[tuple[object, object]] = []
        self.asked_clocks: list[tuple[object, object]] = []
        self.holders = 0  # other documents of a kind holding the question's names
        self.asked_holders: list[tuple[object, ...]] = []
        # a word -> (the asked document holds it, how many others of its kind do)
        self.words_held: dict[str, tuple[bool, int] | None] = {}
        self.asked_words: list[tuple[object, ...]] = []

    def passage_holders(self, asks, as_of, known_at):
        self.asked.extend(asks)
        self.asked_clocks.append((as_of, known_at))
        return [self.every if self.every is not None else self.counts.get(p) for _, p in asks]

    def answering_kinds(self, as_of, known_at) -> frozenset[str]:
        self.asked_kinds.append((as_of, known_at))
        return self.answering

    def quoted_documents(self, passage, as_of, known_at) -> list[tuple[str, str]]:
        return []  # no document quoted beyond the retrieval

    def kind_holders(self, doc_id, mentions, as_of, known_at) -> int:
        self.asked_holders.append((doc_id, [list(m) for m in mentions], as_of, known_at))
        return self.holders

    def word_holders(self, doc_id, kind, asked, as_of, known_at) -> list[tuple[bool, int] | None]:
        self.asked_words.append((doc_id, kind, list(asked), as_of, known_at))
        return [self.words_held.get(w, (False, 0)) for w in asked]


def test_words_of_the_question_only_one_candidate_holds_and_few_documents_do_single_it_out() -> None:
    # B and C are close and read differently (B, C in force; A superseded): ambiguous by margin
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], text="Class: Analgesic. Indication: Gout."),
                 B: replace(EXPLAINED[B], text="Approved as a new molecular entity."),
                 C: replace(EXPLAINED[C], text="Approved as a new molecular entity.")}
    r = replace(retrieval((A, B, C), (1.1, 1.0, 0.9)),
                question="Is the drug indicated for gout still approved?",
                anchor_text_scores=(1.1, 1.0, 0.9))

    # no corpus to ask (a hand-made retrieval): ambiguous, as before
    assert judge(r, explained, margin=1.0).kind is VerdictKind.AMBIGUOUS
    # the passage and its own word held by no other document of A's kind: A
    corpus = FakeCorpus({"gout": 0})
    alone = judge(r, explained, margin=1.0, corpus=corpus)
    assert alone.decisive and alone.subject_id == A and alone.kind is VerdictKind.SUPERSEDED
    assert alone.singled_out_by == "words of the question only it holds"
    assert (A, "gout") in corpus.asked
    # the corpus is asked as of the retrieval's date and instant, as its readings were read
    dated = replace(r, as_of=date(2020, 6, 1), known_at=datetime(2021, 1, 1, tzinfo=UTC))
    asked_then = FakeCorpus({"gout": 0})
    assert judge(dated, explained, margin=1.0, corpus=asked_then).subject_id == A
    assert asked_then.asked_clocks == [(dated.as_of, dated.known_at)]
    # other approvals hold it (an indication several drugs share): it names none of them
    shared = judge(r, explained, margin=1.0, corpus=FakeCorpus({"gout": 2}))
    assert shared.kind is VerdictKind.AMBIGUOUS
    # the index cannot vouch for the passage (stop words, too many hits): no decision
    assert judge(r, explained, margin=1.0, corpus=FakeCorpus()).kind is VerdictKind.AMBIGUOUS
    # a better-fitting close candidate about something else overrules it
    better = replace(r, anchor_text_scores=(0.5, 1.0, 0.9))
    assert judge(better, explained, margin=1.0,
                 corpus=FakeCorpus({"gout": 0})).kind is VerdictKind.AMBIGUOUS


def test_a_phrase_unique_only_by_its_word_order_or_leaving_a_named_product_unheld_is_no_subject() -> None:
    # A's passage "node module suffers" is unique as a phrase, but B holds each of its words
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], text="merge-options node module suffers from pollution"),
                 B: replace(EXPLAINED[B], text="assign-deep node module before 0.4.7 suffers from it")}
    r = replace(retrieval((A, B), (1.1, 1.0)),
                question="Was prototype pollution node module suffers ever patched?",
                anchor_text_scores=(1.1, 1.0))
    everything_rare = FakeCorpus(every=0)  # a corpus where every word is rare
    assert judge(r, explained, margin=1.0, corpus=everything_rare).kind is VerdictKind.AMBIGUOUS
    # words only A holds, but the question also names a product A does not hold
    gout = {**EXPLAINED, A: replace(EXPLAINED[A], text="Indication: Gout."),
            B: replace(EXPLAINED[B], text="Approved.")}
    named = replace(retrieval((A, B), (1.1, 1.0), entities=("product:beta",)),
                    question="Are the gout issue and the beta issue both fixed?",
                    anchor_text_scores=(1.1, 1.0))
    verdict = judge(named, gout, margin=1.0, held={A: (), B: ()}, corpus=everything_rare)
    assert verdict.kind is VerdictKind.AMBIGUOUS


def titled_pair(a_title: str, b_title: str, question: str) -> tuple[dict[str, Explanation], Retrieval]:
    """A and B known by their titles alone, close (A ahead), for ``question``."""
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], title=a_title, text=""),
                 B: replace(EXPLAINED[B], title=b_title, text="")}
    return explained, replace(retrieval((A, B), (1.1, 1.0)), question=question,
                              anchor_text_scores=(1.1, 1.0))


def assert_no_word_singles_out(r: Retrieval, explained: dict[str, Explanation]) -> None:
    """Ambiguous even in a corpus where every word is rare, and the corpus was never asked."""
    rare = FakeCorpus(every=0)
    assert judge(r, explained, margin=1.0, corpus=rare).kind is VerdictKind.AMBIGUOUS
    assert rare.asked == []


def words_single_out_a(r: Retrieval, explained: dict[str, Explanation]) -> bool:
    """In a corpus where every word is rare, A is the subject by words only it holds."""
    verdict = judge(r, explained, margin=1.0, corpus=FakeCorpus(every=0))
    return verdict.subject_id == A and verdict.singled_out_by == "words of the question only it holds"


@pytest.mark.parametrize(
    ("a_title", "b_title", "frame", "citing"),
    [
        # "Our scanner flagged ...": A alone holds "scanner", but only as a segment of the path
        # go/scanner; a question writing the name itself cites it
        ("Infinite loop in parsing in go/scanner", "Infinite loop in parsing inputs",
         "Our scanner flagged an infinite loop. Is it still unresolved?",
         "Is the infinite loop in go/scanner still unresolved?"),
        # A alone writes "shows a" (its page "shows a green URL"); "shows" is everyday English,
        # the question's own wording; a rarer word of the same passage is evidence
        ("Reloading a page shows a green URL", "Response splitting in header parsing",
         "Our container image scan still shows a flaw that uses HTTP. Patched?",
         "Our container image scan still shows a green URL. Patched?"),
        # "county" is everyday English too, but written as a word of the name the question
        # gives, it is the name's (B holds "williamson" as well)
        ("Williamson County Regional Planning Commission", "Suydam v. Williamson",
         "Do I still have to go to state court, as williamson county held?",
         "Do I still have to go to state court, as Williamson County held?"),
        # "Our PHP site": a name of the asker's own setting, where the asker meets the flaw; A
        # alone writing "PHP" does not make it the cross-site scripting the asker means
        ("DataTables: cross-site scripting in the PHP editor", "Cross-site scripting in the admin panel",
         "Our PHP site may have cross-site scripting. Is there a fixed version?",
         "Is the cross-site scripting in the PHP editor fixed?"),
        # "Maven dependency check warns about ...": the name of who reports the flaw
        ("Updatecli exposes Maven credentials in console output", "Problem in the parser",
         "Maven dependency check warns about a problem. Resolved?",
         "Are Maven credentials still exposed in console output?"),
    ],
    ids=["inside-a-qualified-name", "everyday-word", "everyday-word-of-a-name", "asker-setting",
         "reporter"],
)
def test_words_of_the_questions_frame_a_candidate_alone_holds_do_not_single_it_out(
        a_title: str, b_title: str, frame: str, citing: str) -> None:
    explained, r = titled_pair(a_title, b_title, frame)
    assert_no_word_singles_out(r, explained)
    assert words_single_out_a(replace(r, question=citing), explained)


def test_a_document_writing_a_path_segment_on_its_own_is_held_to_it() -> None:
    explained, r = titled_pair("Infinite loop in parsing in go/scanner", "Infinite loop in parsing inputs",
                               "Our scanner flagged an infinite loop. Is it still unresolved?")
    plain = {**explained, A: replace(explained[A], text="Found by a scanner.")}
    assert words_single_out_a(r, plain)


def test_only_in_qualified_names_reads_paths_modules_and_members_not_prose() -> None:
    text = "Infinite loop in parsing in go/scanner. Use torch.load; HTTP/2 floods net/http."
    assert only_in_qualified_names("scanner", text, "Our scanner flagged it")
    assert not only_in_qualified_names("scanner", text, "Is go/scanner fixed?")
    assert only_in_qualified_names("load", text, "Does it load models?")
    assert not only_in_qualified_names("parsing", text, "parsing")  # written on its own
    assert not only_in_qualified_names("http", text, "http")  # "HTTP/2" is no qualified name
    assert not only_in_qualified_names("gout", "Indication: Gout.", "gout")
    assert not only_in_qualified_names("absent", text, "absent")  # not written at all


def withdrawn_approval(**changes: Any) -> Explanation:
    """A as an approval that its controlling document, a withdrawal, voids."""
    return replace(EXPLAINED[A], kind="approval", **changes, controlling=(
        replace(EXPLAINED[A].controlling[0], kind="withdrawal"),))


def test_candidates_of_a_kind_that_only_voids_others_are_answers_not_readings() -> None:
    # the question fits an approval (A, withdrawn by FIX: a withdrawal) and, about as well,
    # another country's withdrawal (B) and a recall (C): both in force, neither its subject
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, A: withdrawn, B: replace(EXPLAINED[B], kind="withdrawal"),
                 C: replace(EXPLAINED[C], kind="recall")}
    assert voiding_kinds((A, B, C), explained) == {"withdrawal"}
    r = replace(retrieval((B, A), (1.1, 1.0), entities=("drug:phenformin",)),
                question="Would a pharmacy still fill a prescription for phenformin?")
    held = {A: ("drug:phenformin",), B: ("drug:phenformin",), C: ()}
    verdict = judge(r, explained, margin=1.0, held=held)
    assert verdict.decisive and verdict.subject_id == A and verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.singled_out_by == "the others are of a kind that answers"
    # left alone by elimination, but the question names nothing it holds: no evidence, no subject
    unnamed = replace(r, question_entities=(), question="Is the drug for diabetes still sold?")
    assert judge(unnamed, explained, margin=1.0, held=held).kind is VerdictKind.AMBIGUOUS
    assert judge(r, explained, margin=1.0, held={A: (), B: (), C: ()}).kind is VerdictKind.AMBIGUOUS
    # a kind no read candidate shows voiding anything (the recall) stays a reading
    three = judge(replace(retrieval((B, A, C), (1.1, 1.0, 0.9)), question=unnamed.question),
                  explained, margin=1.0, held=held)
    assert three.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in three.candidates} == {A, C}
    # a kind that is voided too is no answering kind: a withdrawn withdrawal
    both = {**explained, B: replace(explained[B], superseded_by=(FIXES_A,))}
    assert voiding_kinds((A, B), both) == frozenset()


def test_set_aside_answers_leave_the_readings_within_the_margin_of_the_best_one_asked_about() -> None:
    # "Can this drug, prescribed for convulsion, still be sold?": a withdrawal whose reason is
    # convulsion (B) leads; the approvals the question means (A, C, and D, E further down) sit
    # closer to each other than to it: D and E are outside the margin of B, inside that of A
    D, E = "adv:d", "adv:e"
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, A: withdrawn, B: replace(EXPLAINED[B], kind="withdrawal"),
                 C: replace(EXPLAINED[C], kind="approval")}
    further = [replace(withdrawn, doc_id=d, title=f"Title {d}") for d in (D, E)]
    r = replace(retrieval((B, A, C, D, E), (2.0, 1.2, 1.1, 0.5, 0.4)),
                question="Can this drug, prescribed for convulsion, still be sold?")
    assert close_anchors(r, 1.0) == (B, A, C)
    walked = replace(r, readings=(*(explained[a] for a in (B, A, C)), *further))
    verdict = judge(walked, explained, margin=1.0, held={})
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert [c.subject_id for c in verdict.candidates] == [A, C, D, E]
    # at most k of them; beyond the margin of the best one asked about, none
    assert [c.subject_id for c in judge(walked, explained, margin=1.0, limit=3,
                                        held={}).candidates] == [A, C, D]
    far = replace(walked, anchor_scores=(2.0, 1.2, 1.1, 0.5, 0.1))
    assert [c.subject_id for c in judge(far, explained, margin=1.0, held={}).candidates] == [A, C, D]
    # without the closures the retrieval walked (a hand-made one), the close ones asked about
    assert [c.subject_id for c in judge(r, explained, margin=1.0, held={}).candidates] == [A, C]


def test_one_candidate_asked_about_among_answers_is_read_with_those_within_the_margin_of_it() -> None:
    # "Has the drug for depression been pulled from the market?": withdrawals whose reason is
    # depression (B) lead; one approval (A) is close, the others (D, E) only within the margin
    # of it. A alone among answers, the question naming nothing, is no evidence for A over D, E
    D, E = "adv:d", "adv:e"
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, A: withdrawn, B: replace(EXPLAINED[B], kind="withdrawal")}
    further = [replace(withdrawn, doc_id=d, title=f"Title {d}") for d in (D, E)]
    r = replace(retrieval((B, A, D, E), (2.0, 1.2, 0.5, 0.4)),
                question="Has the drug for depression been pulled from the market?")
    assert close_anchors(r, 1.0) == (B, A)
    walked = replace(r, readings=(explained[B], explained[A], *further))
    verdict = judge(walked, explained, margin=1.0, held={})
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert [c.subject_id for c in verdict.candidates] == [A, D, E]
    # no further reading asked about within its margin: the close ones stay the readings
    assert [c.subject_id for c in judge(r, explained, margin=1.0, held={}).candidates] == [B, A]
    far = replace(walked, anchor_scores=(2.0, 1.2, 0.1, 0.0))
    assert [c.subject_id for c in judge(far, explained, margin=1.0, held={}).candidates] == [B, A]


def test_an_unnamed_answer_leading_alone_is_read_beside_the_documents_it_may_be_asked_about() -> None:
    # "Has the drug for convulsion been pulled from the market?": a withdrawal whose reason is
    # convulsion (B, in force) leads every approval for it (A, D, withdrawn) by more than the
    # margin. Not asserted (the question names nothing), and not the only reading either
    D = "adv:d"
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, A: withdrawn, B: replace(EXPLAINED[B], kind="withdrawal")}
    r = replace(retrieval((B, A, D), (2.0, 0.7, 0.6)),
                question="Has the drug for convulsion been pulled from the market?",
                readings=(explained[B], withdrawn, replace(withdrawn, doc_id=D, title="Title D")))
    guess = judge(r, explained, margin=1.0, held={})
    assert guess.kind is VerdictKind.IN_FORCE and guess.singled_out_by == "margin"
    corpus = FakeCorpus(answering=frozenset({"withdrawal"}))
    verdict = not_the_whole_question(guess, r, dict(explained), {}, margin=1.0, limit=5,
                                     corpus=corpus)
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert [c.subject_id for c in verdict.candidates] == [B, A, D]
    assert [c.kind for c in verdict.candidates] == [VerdictKind.IN_FORCE, VerdictKind.SUPERSEDED,
                                                    VerdictKind.SUPERSEDED]
    # without the corpus to tell what only answers, or when the lead is a kind asked about
    # (an advisory), the one best match is the one reading, and the summary says it is one
    alone = not_the_whole_question(guess, r, dict(explained), {}, margin=1.0, limit=5)
    assert [c.subject_id for c in alone.candidates] == [B]
    assert alone.summary.startswith("The question's best match is not singled out")
    # ... and the prompt context says it may mean a document not found, not "several"
    assert "may mean a document not found here" in alone.context()
    assert "fits several documents" not in alone.context()
    assert "fits several documents" in verdict.context()
    asked = {**explained, B: EXPLAINED[B]}
    assert [c.subject_id for c in not_the_whole_question(
        judge(r, asked, margin=1.0, held={}), r, asked, {}, margin=1.0, limit=5,
        corpus=corpus).candidates] == [B]


def test_left_alone_among_answers_a_candidate_must_account_for_the_number_the_question_gives() -> None:
    # "Is phenformin affected by the one numbered 1962?": the linker reads 1962 as a year, so
    # only the name links; the one approval among withdrawals is singled out only if it writes
    # the number somewhere (its text, or the key of an entity it holds)
    withdrawn = withdrawn_approval(text="Approved for diabetes.")
    explained = {**EXPLAINED, A: withdrawn, B: replace(EXPLAINED[B], kind="withdrawal")}
    r = replace(retrieval((B, A), (1.1, 1.0), entities=("drug:phenformin",)),
                question="Is phenformin affected by the one numbered 1962?")
    held = {A: ("drug:phenformin",), B: ("drug:phenformin",)}
    assert judge(r, explained, margin=1.0, held=held).kind is VerdictKind.AMBIGUOUS
    assert unplaced_number(r, explained[A], held[A])
    # written in its text, or in an identifier it holds that the question links: accounted for
    text = {**explained, A: replace(withdrawn, text="Approved in 1962 for diabetes.")}
    assert judge(r, text, margin=1.0, held=held).subject_id == A
    assert not unplaced_number(r, explained[A], ("cve:cve-2022-1962",))
    # short numbers (a version's parts, "3.1") are no identifier's tail
    short = replace(r, question="Is phenformin 3.1 still sold?")
    assert judge(short, explained, margin=1.0, held=held).subject_id == A


def test_a_status_word_one_candidate_holds_alone_does_not_single_it_out() -> None:
    # the question asks whether a flaw is "still unresolved"; B alone holds "unresolved" in its
    # own title (another flaw's "Unresolved Hostname"): a word asking about status, not one
    # saying which document is meant
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], text="Configuration is read from several places."),
                 B: replace(EXPLAINED[B], title="SSRF bypass via unresolved hostname",
                            text="Notification URLs are fetched."),
                 C: replace(EXPLAINED[C], text="Configuration is read from several places.")}
    r = replace(retrieval((A, B, C), (1.1, 1.0, 0.9)),
                question="Our tool flagged that configuration is read. Is it still unresolved?",
                anchor_text_scores=(1.0, 1.1, 0.9))  # B even fits the question's words best
    everything_rare = FakeCorpus(every=0)
    assert judge(r, explained, margin=1.0, corpus=everything_rare).kind is VerdictKind.AMBIGUOUS
    assert not any("unresolved" in p for _, p in everything_rare.asked)
    # ... nor as a frame writes it: "Our auditors ask whether ... is still outstanding"
    outstanding = {**explained, B: replace(explained[B], title="An outstanding soundness issue")}
    asked = replace(r, question="Our tool flagged that configuration is read. Still outstanding?")
    assert judge(asked, outstanding, margin=1.0,
                 corpus=FakeCorpus(every=0)).kind is VerdictKind.AMBIGUOUS
    # the same document singled out by a word of the description only it holds
    described = replace(r, question="Our tool flagged an SSRF bypass. Is it still open?")
    verdict = judge(described, explained, margin=1.0, corpus=FakeCorpus(every=0))
    assert verdict.decisive and verdict.subject_id == B
    assert verdict.singled_out_by == "words of the question only it holds"


def test_words_of_the_question_only_an_answer_holds_do_not_make_it_the_subject() -> None:
    # "Drug for psoriasis - withdrawn?" reads withdrawals; B, the recall of a shampoo, alone
    # writes "psoriasis". A recall only answers: it is no drug the question asks about
    explained = {**EXPLAINED,
                 B: replace(EXPLAINED[B], kind="recall", title="Recall: dandruff shampoo",
                            text="Shampoo for psoriasis, lot 4."),
                 C: replace(EXPLAINED[C], kind="withdrawal", title="Fenproporex off the market",
                            text="Europe, 1999.")}
    r = replace(retrieval((B, C), (1.0, 1.0)), question="Drug for psoriasis - withdrawn?",
                anchor_text_scores=(1.0, 1.0))
    answers = frozenset({"recall", "withdrawal"})
    verdict = judge(r, explained, margin=1.0, corpus=FakeCorpus(every=0, answering=answers))
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in verdict.candidates} == {B, C}
    # in a graph where recalls are asked about (they void nothing), its words single it out
    asked = judge(r, explained, margin=1.0,
                  corpus=FakeCorpus(every=0, answering=frozenset({"withdrawal"})))
    assert asked.subject_id == B and asked.singled_out_by == "words of the question only it holds"


def test_a_kind_the_whole_graph_shows_only_voiding_is_an_answer_not_a_reading() -> None:
    # the question fits an approval (A, withdrawn by a withdrawal) and a recall of one lot (C),
    # in force: nothing the verdict read shows recalls voiding anything, the graph does
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, A: withdrawn, C: replace(EXPLAINED[C], kind="recall")}
    r = replace(retrieval((A, C), (1.1, 1.0), entities=("drug:etomidate",)),
                question="Would a pharmacy still fill a prescription for etomidate?")
    held = {A: ("drug:etomidate",), C: ("drug:etomidate",)}
    assert judge(r, explained, margin=1.0, held=held).kind is VerdictKind.AMBIGUOUS
    recalls_void = FakeCorpus(answering=frozenset({"recall", "withdrawal"}))
    verdict = judge(r, explained, margin=1.0, held=held, corpus=recalls_void)
    assert verdict.decisive and verdict.subject_id == A and verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.singled_out_by == "the others are of a kind that answers"
    assert recalls_void.asked_kinds[-1] == (r.as_of, r.known_at)  # the retrieval's clocks
    # a graph where recalls are voided too (or never void) leaves the recall a reading
    assert judge(r, explained, margin=1.0, held=held,
                 corpus=FakeCorpus(answering=frozenset({"withdrawal"}))).kind is VerdictKind.AMBIGUOUS
    # elimination is still no evidence about a question that names nothing
    unnamed = replace(r, question_entities=(), question="Is the anaesthetic still sold?")
    assert judge(unnamed, explained, margin=1.0, held=held,
                 corpus=recalls_void).kind is VerdictKind.AMBIGUOUS


def test_the_one_document_of_its_kind_read_among_a_names_answers_is_no_elimination_when_more_rank_beyond() -> None:
    # "Our Go microservice: a flaw that uses HTTP -- patched upstream?": every document read
    # holds the product the question names; one advisory (A) among its release notes (B, C),
    # which answer. The product's other advisories rank beyond them, unread
    GO = ("product:go",)
    fixed = replace(EXPLAINED[A], kind="advisory",
                    controlling=(replace(EXPLAINED[A].controlling[0], kind="release"),))
    explained = {**EXPLAINED, A: fixed, B: replace(EXPLAINED[B], kind="release"),
                 C: replace(EXPLAINED[C], kind="release")}
    r = replace(retrieval((A, B, C), (2.1, 1.5, 1.4), entities=GO), anchor_held=(GO, GO, GO),
                question="Our Go microservice: a flaw that uses HTTP -- patched upstream?")
    held = dict(zip(r.anchors, r.anchor_held, strict=True))
    answers = frozenset({"release"})
    others = FakeCorpus(answering=answers)
    others.holders = 1
    verdict = judge(r, explained, margin=1.0, held=held, corpus=others)
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.subject_id is None
    assert others.asked_holders == [(A, [list(GO)], r.as_of, r.known_at)]
    # the only advisory of its kind holding the name: the others it read only answer
    alone = FakeCorpus(answering=answers)
    verdict = judge(r, explained, margin=1.0, held=held, corpus=alone)
    assert verdict.subject_id == A and verdict.singled_out_by == BY_ELIMINATION
    # a lead by the margin over the last document read: what ranks beyond is further behind
    ahead = FakeCorpus(answering=answers)
    ahead.holders = 1
    clear = replace(r, anchor_scores=(2.5, 1.6, 1.5))
    verdict = judge(clear, explained, margin=1.0, held=held, corpus=ahead)
    assert verdict.subject_id == A and verdict.singled_out_by == BY_ELIMINATION
    assert ahead.asked_holders == []
    # ... but not over a second advisory read within the margin beyond the k close ones
    D, E = "rel:d", "adv:e"
    second = replace(clear, anchors=(A, B, C, E, D), anchor_scores=(2.5, 1.6, 1.55, 1.52, 1.3),
                     anchor_held=(GO,) * 5)
    verdict = judge(second, {**explained, E: replace(EXPLAINED[C], doc_id=E, kind="advisory"),
                             D: replace(EXPLAINED[B], doc_id=D, kind="release")},
                    margin=1.0, limit=3, held={**held, E: GO, D: GO}, corpus=ahead)
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert [asked[0] for asked in ahead.asked_holders] == [A]
    # a document read that does not hold the name: the name's documents did not fill the
    # readings, and the close ones are all of them that fit
    unfilled = replace(r, anchor_held=(GO, GO, ()))
    counted = FakeCorpus(answering=answers)
    counted.holders = 1
    verdict = judge(unfilled, explained, margin=1.0, held={**held, C: ()}, corpus=counted)
    assert verdict.subject_id == A and verdict.singled_out_by == BY_ELIMINATION
    assert counted.asked_holders == []


def test_close_candidates_that_all_only_answer_are_read_beside_what_they_answer() -> None:
    # "Was astemizole recalled or withdrawn?": its two withdrawals (B, voiding A; C, another
    # country's) lead on the words saying what the question asks; the approval they answer (A)
    # is read from the walked closures beyond the margin, and left alone among answers it holds
    # the name the question gives
    D = "adv:d"
    withdrawn = withdrawn_approval()
    explained = {**EXPLAINED, B: replace(EXPLAINED[B], kind="withdrawal"),
                 C: replace(EXPLAINED[C], kind="withdrawal")}
    r = replace(retrieval((B, C, A, D), (2.9, 2.5, 1.8, 0.3), entities=("drug:astemizole",)),
                question="Was astemizole recalled or withdrawn?",
                readings=(explained[B], explained[C], withdrawn,
                          replace(EXPLAINED[B], doc_id=D, kind="recall")))
    held = {A: ("drug:astemizole",), B: ("drug:astemizole",), C: ("drug:astemizole",), D: ()}
    answers = FakeCorpus(answering=frozenset({"withdrawal", "recall"}))
    verdict = judge(r, explained, margin=1.0, held=held, corpus=answers)
    assert verdict.decisive and verdict.subject_id == A and verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.singled_out_by == "the others are of a kind that answers"
    # without the corpus to tell what only answers, the withdrawals stay the readings
    assert [c.subject_id for c in judge(r, explained, margin=1.0, held=held).candidates] == [B, C]
    # the answers fill the k places: the reading asked about takes the weakest one's
    assert [c.subject_id for c in judge(r, explained, margin=1.0, limit=2, held=held,
                                        corpus=FakeCorpus()).candidates] == [B, C]
    full = judge(replace(r, question_entities=()), explained, margin=1.0, limit=2, held=held,
                 corpus=answers)
    assert [c.subject_id for c in full.candidates] == [B, A]
    # a close candidate of a kind asked about keeps the close ones as they are
    asked = {**explained, C: EXPLAINED[C]}
    assert beside_answers(r, [B, C], asked, answers, 1.0, 5) == (asked, [B, C])
    assert beside_answers(r, [B, C], explained, answers, 1.0, 5)[1] == [B, C, A]


def test_a_lead_the_question_quotes_nothing_of_gives_way_to_the_document_it_quotes() -> None:
    # B (superseded) leads by the margin on meaning alone; the question names nothing and
    # quotes a sentence of C: C is what it asks about, not a second subject beside B
    b_text = "A malicious module proxy can serve altered versions of the toolchain."
    c_text = ("This applies to modules downloaded using the command from the module proxy, as "
              "well as modules downloaded directly.")
    explained = {**EXPLAINED, B: replace(EXPLAINED[A], doc_id=B, text=b_text),
                 C: replace(EXPLAINED[C], text=c_text)}
    question = ("We read that this applies to modules downloaded using the command from the "
                "module proxy, as -- do we need to upgrade?")
    r = replace(retrieval((B, C), (3.0, 1.2)), question=question,
                results=(result(B, B), replace(result(C, C), text=c_text)),
                anchor_text_scores=(2.0, 1.2))
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert verdict.decisive and verdict.subject_id == C
    assert verdict.singled_out_by == "text quoted in the question"
    # the question quoting the lead too: both are subjects, as before
    both = replace(r, question=question.replace("-- do", "and a malicious module proxy can "
                                                 "serve altered versions of the toolchain -- do"))
    assert [v.subject_id for v in verdict_for(both, explained.__getitem__, k=5, margin=1.0,
                                              sharers=lambda d, p: 0).subjects] == [B, C]
    # an unnamed lead said to be in force is no subject either: the quoted document is
    in_force = {**explained, B: replace(EXPLAINED[B], text=b_text)}
    verdict = verdict_for(r, in_force.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert verdict.decisive and verdict.subject_id == C
    # ... and so when the question names something (the lead's name), quote or not
    named = replace(r, question_entities=("product:beta",), anchor_held=(("product:beta",), ()))
    assert [v.subject_id for v in verdict_for(named, explained.__getitem__, k=5, margin=1.0,
                                              sharers=lambda d, p: 0).subjects] == [B, C]


def test_a_sentence_of_a_second_document_the_question_quotes_makes_it_a_second_subject() -> None:
    # B leads by the margin; the question also quotes C's text, in force and read only as its
    # own result ("the tar issue" names C by an ordinary word no name is linked on)
    b_text = "Buffer overflow in the array parser allows attackers to crash the beta reader."
    c_text = "Archives may contain symbolic links that overwrite targets outside the expected path."
    explained = {**EXPLAINED, B: replace(EXPLAINED[B], text=b_text)}
    question = ("Are the beta issue \"buffer overflow in the array parser allows attackers to crash "
                "the reader\" and the tar issue \"archives may contain symbolic links that "
                "overwrite targets outside the expected path\" both fixed?")
    own_c = replace(result(C, C), text=c_text)
    r = replace(retrieval((B, C), (3.0, 1.2), entities=("product:beta",)), question=question,
                results=(result(B, B), own_c), anchor_held=(("product:beta",), ()),
                anchor_text_scores=(2.0, 1.2))
    read: list[str] = []

    def closure_of(doc_id: str) -> Explanation:
        read.append(doc_id)
        return {**explained, C: replace(EXPLAINED[C], text=c_text)}[doc_id]

    verdict = verdict_for(r, closure_of, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [(s.subject_id, s.kind) for s in verdict.subjects] == [
        (B, VerdictKind.IN_FORCE), (C, VerdictKind.IN_FORCE)]
    assert verdict.subjects[1].singled_out_by == "text quoted in the question"
    assert read == [B, C]  # C's closure is walked only once the quote names it
    # a passage a family of documents shares is boilerplate: no second subject
    assert verdict_for(r, closure_of, k=5, margin=1.0,
                       sharers=lambda d, p: MAX_QUOTE_SHARERS + 1).subject_id == B
    # the subject holding part of the passage: one document's sentence, not a second subject's
    overlapping = {B: replace(explained[B], text=b_text + " Its links that overwrite targets outside.")}
    assert quoted_beside(B, r, overlapping, 5) is None
    assert quoted_beside(B, r, {B: explained[B]}, 5) == C
    # a document on the subject's chain answers it and is no second subject
    fixed = {B: replace(explained[B], controlling=(own_c,))}
    assert quoted_beside(B, r, fixed, 5) is None
    # an anchor the retrieval read (its closure walked by the same statement) is read whatever
    # its status: a superseded one has no result of its own
    walked = replace(r, results=(result(B, B), result(FIX, C, chain=(FIXES_A,))),
                     readings=(replace(EXPLAINED[C], text=c_text),))
    assert quoted_beside(B, walked, {B: explained[B]}, 5) == C
    assert quoted_beside(B, replace(walked, readings=()), {B: explained[B]}, 5) is None
    # a question quoting one document only stays decisive
    single = replace(r, question="Was the buffer overflow in the array parser that allows "
                                 "attackers to crash the reader fixed?")
    assert verdict_for(single, closure_of, k=5, margin=1.0).subject_id == B


def test_a_shorter_quote_beside_the_name_of_its_documents_scope_makes_a_second_subject() -> None:
    # "rsa" is a name the corpus also uses as a word, so the linker leaves it; the question
    # writes it and half a sentence of C (scoped to rsa), the product's name cut out of it
    b_text = "Buffer overflow in the array parser allows attackers to crash the beta reader."
    c_text = "It was found that python-rsa is vulnerable to Bleichenbacher timing attacks."
    explained = {**EXPLAINED, B: replace(EXPLAINED[B], text=b_text),
                 C: replace(EXPLAINED[C], text=c_text, scope=("product:rsa",))}

    def asked(question: str) -> Retrieval:
        return replace(retrieval((B, C), (3.0, 1.2), entities=("product:beta",)),
                       question=question, anchor_held=(("product:beta",), ()),
                       anchor_text_scores=(2.0, 1.2), readings=(explained[C],))

    both = asked("Beta: buffer overflow in the array parser. rsa: it was found that is "
                 "vulnerable to Bleichenbacher timing attacks. Fixed?")
    assert quoted_beside(B, both, explained, 5) == C
    verdict = verdict_for(both, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [s.subject_id for s in verdict.subjects] == [B, C]
    # the same words without the name, or without a rare word, or with the name alone: one subject
    assert quoted_beside(B, asked(both.question.replace("rsa:", "also:")), explained, 5) is None
    assert quoted_beside(B, asked("Beta: buffer overflow in the array parser. rsa: it was found "
                                  "that is vulnerable. Fixed?"), explained, 5) is None
    assert quoted_beside(B, asked("Beta: buffer overflow in the array parser. Is rsa fixed?"),
                         explained, 5) is None
    # a family's boilerplate names none of its documents
    assert quoted_beside(B, both, explained, 5, sharers=lambda d, p: MAX_QUOTE_SHARERS + 1) is None
    # a name the question links is the named-subject rules' to judge, and a name the subject
    # carries too tells no second document from it
    assert quoted_beside(B, replace(both, question_entities=("product:beta", "product:rsa")),
                         explained, 5) is None
    shared = {**explained, B: replace(explained[B], scope=("product:beta", "product:rsa"))}
    assert quoted_beside(B, both, shared, 5) is None
    # ... but beside a subject holding no name the question links (singled out by its quote),
    # the one linked name is that of the other document the question asks about
    unnamed = replace(both, question_entities=("product:rsa",), anchor_held=((), ("product:rsa",)))
    assert quoted_beside(B, unnamed, explained, 5) == C
    assert quoted_beside(B, replace(unnamed, question="Beta: buffer overflow in the array "
                                                      "parser. Is rsa fixed?"), explained, 5) is None


def test_a_quoted_run_sheds_the_names_the_question_writes_at_its_ends() -> None:
    text = ("TensorFlow is an end-to-end open source platform for machine learning. TensorFlow "
            "crashes in the reader.")
    question = ("Are TensorFlow is an end-to-end open source platform for machine learning "
                "(tensorflow-gpu) and the pillow flaw fixed?")
    said = words(question)
    names = {i for i, w in enumerate(said) if w == "tensorflow"} | {said.index("gpu")}
    # without the names the run reaches the text's next sentence by the product's name
    assert quoted_run(question, text) == (
        "TensorFlow is an end-to-end open source platform for machine learning. TensorFlow")
    assert quoted_run(question, text, names=names) == (
        "is an end-to-end open source platform for machine learning")
    # never below a run's length: a short quote keeps the name it needs to be one
    short = "Crash in one two three of tensorflow now."
    assert quoted_run("is one two three of tensorflow now fixed in the crash", short,
                      names={5}) is None
    assert quoted_run("a crash in one two three of tensorflow now", short, names={7}) == (
        "Crash in one two three of tensorflow now")


def test_a_boilerplate_quote_followed_by_the_products_name_singles_nothing_out() -> None:
    # the question quotes a family's boilerplate, then names the product; the text of A opens
    # its next sentence with that name, so the quoted run is one word longer in A than in the
    # family's other documents, which hold the boilerplate alone
    boilerplate = "TensorFlow is an end-to-end open source platform for machine learning."
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], title=boilerplate, text=f"{boilerplate} TensorFlow "
                            "crashes in the reader."),
                 B: replace(EXPLAINED[B], title="Crash in the beta tokenizer")}
    r = replace(retrieval((B, A), (1.9, 1.6), entities=("product:tensorflow",
                                                         "product:tensorflow-gpu")),
                question="Is TensorFlow is an end-to-end open source platform for machine "
                         "learning (tensorflow-gpu) fixed?", anchor_text_scores=(1.5, 1.6))

    def sharers(_doc_id: str, passage: str) -> int:
        # thirty of the family's documents hold the boilerplate (or a part of it), none of them
        # with A's next sentence
        return 0 if passage.endswith("TensorFlow") or "crashes" in passage else 30

    verdict = judge(r, explained, margin=1.0, sharers=sharers)
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in verdict.candidates} == {A, B}


def test_a_quoted_run_is_one_passage_of_the_text_not_windows_from_two_places() -> None:
    # "a ... h" and "b ... i" are both in the text, but never "a ... i" together: the longest
    # run it holds whole is eight words (this raised StopIteration before)
    text = "a b c d e f g h X b c d e f g h i"
    assert quoted_run("a b c d e f g h i", text) == "a b c d e f g h"
    assert quoted_run("b c d e f g h i j", text) == "b c d e f g h i"
    assert quoted_run("c d e f g h i j", text) is None


def test_a_name_written_inside_another_subjects_quoted_sentence_is_no_subject_of_its_own() -> None:
    # A's sentence names two products, scoped to alpha only; the question quotes it leaving out
    # the versions, so "gamma" stands inside the quote. C (gamma's own advisory) is no subject:
    # the question asks about A and about beta's B
    a_text = ("The token middleware in Acme alpha before 1.6.0 and gamma before 1.4.0 disables "
              "certificate verification when the insecure option is set, regardless of the value.")
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text=a_text)}
    quoted = ("the token middleware in Acme gamma disables certificate verification when the "
              "insecure option is set regardless of the value")

    def asked(question: str) -> Retrieval:
        return replace(retrieval((A, C, B), (3.0, 2.9, 2.8),
                                 entities=("product:alpha", "product:gamma", "product:beta")),
                       question=question,
                       anchor_held=(("product:alpha",), ("product:gamma",), ("product:beta",)),
                       anchor_text_scores=(2.0, 1.5, 1.5))

    def subjects(question: str, sharers: int = 0) -> list[str | None]:
        verdict = verdict_for(asked(question), explained.__getitem__, k=5, margin=1.0,
                              sharers=lambda d, p: sharers)
        assert verdict.kind is VerdictKind.MULTIPLE
        return [s.subject_id for s in verdict.subjects]

    inside = f"What is the status of {quoted} in alpha and of the beta issue?"
    assert subjects(inside) == [A, B]
    # the same name written beside the quote, not inside it, is a subject
    assert subjects(f"What is the status of {quoted.replace('Acme gamma', 'Acme')} in alpha, "
                    "of gamma and of the beta issue?") == [A, C, B]
    # ... and so is one written just before the quote it holds
    assert subjects(f"What is the status of gamma {quoted.replace('Acme gamma', 'Acme')} in "
                    "alpha and of the beta issue?") == [A, C, B]
    # a name the quoted text does not hold, written into the quote, is a subject
    explained[A] = replace(EXPLAINED[A], text=a_text.replace("gamma", "the client"))
    assert subjects(inside) == [A, C, B]
    explained[A] = replace(EXPLAINED[A], text=a_text)
    # a passage more documents share than MAX_QUOTE_SHARERS is boilerplate that quotes no one
    assert subjects(inside, sharers=MAX_QUOTE_SHARERS + 1) == [A, C, B]
    # the question quoting gamma's own advisory as well keeps it a subject
    explained[C] = replace(EXPLAINED[C], text="Session cookies leak to third-party hosts through "
                                              "the redirect handler on every request.")
    assert subjects(f"What is the status of {quoted} in alpha, of session cookies that leak to "
                    "third-party hosts through the redirect handler on every request, and of the "
                    "beta issue?") == [A, C, B]


def test_a_name_the_question_writes_its_own_way_inside_another_subjects_quote_is_no_subject() -> None:
    # "Zope" inside a sentence quoted from plone's advisory links the product zope2 (one edit):
    # the linker says how the question writes it (question_spellings), so the quote rule finds
    # it there as it finds a name written as the key spells it
    a_text = ("Multiple cross-site request forgery vulnerabilities in Zope Management Interface "
              "and earlier, and in the alpha content system before 5.")
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text=a_text)}
    question = ("Alpha: multiple cross-site request forgery vulnerabilities in Zope Management "
                "Interface and earlier, and. The beta issue: fixed?")
    r = replace(retrieval((A, C, B), (3.0, 2.9, 2.8),
                          entities=("product:alpha", "product:zope2", "product:beta")),
                question=question,
                anchor_held=(("product:alpha",), ("product:zope2",), ("product:beta",)),
                anchor_text_scores=(2.0, 1.5, 1.5))

    def subjects(retrieved: Retrieval) -> list[str | None]:
        verdict = verdict_for(retrieved, explained.__getitem__, k=5, margin=1.0,
                              sharers=lambda d, p: 0)
        assert verdict.kind is VerdictKind.MULTIPLE
        return [s.subject_id for s in verdict.subjects]

    # without the spelling the name is found nowhere in the question, so nowhere inside a quote
    assert subjects(r) == [A, C, B]
    spelled = replace(r, question_spellings=(("product:zope2", ("zope",)),))
    assert subjects(spelled) == [A, B]
    assert mention_positions(("product:zope2",), words(question),
                             dict(spelled.question_spellings)) == [(8, 9)]


def test_a_name_inside_a_sentence_quoted_from_a_reading_of_an_ambiguous_subject_is_no_subject() -> None:
    # alpha has two advisories with the same sentence (A superseded, A2 in force): the question
    # quoting it leaves alpha ambiguous between them, and "gamma", inside the quote, names no
    # third subject (C, gamma's own advisory, said to be in force)
    a_text = ("The token middleware in Acme alpha before 1.6.0 and gamma before 1.4.0 disables "
              "certificate verification when the insecure option is set, regardless of the value.")
    a2 = "adv:a2"
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text=a_text),
                 a2: replace(explanation(a2, Status.ACTIVE, (result(a2, a2),),
                                         scope=("product:alpha",)), text=a_text)}
    question = ("What is the status of the token middleware in Acme gamma disables certificate "
                "verification when the insecure option is set regardless of the value in alpha "
                "and of the beta issue?")
    r = replace(retrieval((A, a2, C, B), (3.0, 2.95, 2.9, 2.8),
                          entities=("product:alpha", "product:gamma", "product:beta")),
                question=question,
                anchor_held=(("product:alpha",), ("product:alpha",), ("product:gamma",),
                             ("product:beta",)),
                anchor_text_scores=(2.0, 2.0, 1.5, 1.5))
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0)
    assert verdict.kind is VerdictKind.MULTIPLE
    alpha, beta = verdict.subjects
    assert alpha.kind is VerdictKind.AMBIGUOUS and {c.subject_id for c in alpha.candidates} == {A, a2}
    assert beta.subject_id == B


def test_reach_is_the_longest_run_from_each_position_of_the_question() -> None:
    # against the definition, on random word sequences over a small vocabulary (many repeats)
    rng = random.Random(7)
    for _ in range(500):
        said = [rng.choice("abcd") for _ in range(rng.randint(0, 30))]
        written = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        expected = [max((n for j in range(len(written)) for n in range(1, len(said) - i + 1)
                         if written[j:j + n] == said[i:i + n]), default=0)
                    for i in range(len(said))]
        assert reach(said, written) == expected


def _reach_eliding_by_definition(said: list[str], written: list[str], elide: int) -> list[int]:
    """The most words from each i of ``said`` that ``written`` holds in order, adjacent but for
    one gap of at most ``elide`` of its words: every start, every gap, checked by slicing."""
    out = []
    for i in range(len(said)):
        best = 0
        for j in range(len(written)):
            for n in range(1, len(said) - i + 1):
                run = said[i:i + n]
                if written[j:j + n] == run or any(
                        written[j:j + cut] == run[:cut]
                        and written[j + cut + gap:j + n + gap] == run[cut:]
                        for cut in range(1, n) for gap in range(1, elide + 1)):
                    best = max(best, n)
        out.append(best)
    return out


def test_reach_may_leave_out_one_gap_of_the_written_words() -> None:
    said = words("it was found that is vulnerable to timing attacks")
    written = words("it was found that python-rsa is vulnerable to timing attacks")
    assert max(reach(said, written)) == 5
    assert max(reach(said, written, elide=2)) == 9
    assert max(reach(said, written, elide=1)) == 5  # a two-word name is not left out by one
    # against the definition, on random word sequences (gaps anywhere, once)
    rng = random.Random(11)
    for _ in range(300):
        said = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        written = [rng.choice("abcde") for _ in range(rng.randint(0, 16))]
        assert reach(said, written, elide=2) == _reach_eliding_by_definition(said, written, 2)
    # the passage as the text writes it, the left-out name inside it
    assert quoted_run("rsa: it was found that is vulnerable to Bleichenbacher timing attacks",
                      "It was found that python-rsa is vulnerable to Bleichenbacher timing attacks.",
                      elide=2) == ("It was found that python-rsa is vulnerable to Bleichenbacher "
                                   "timing attacks")
    assert quoted_run("rsa: it was found that is vulnerable to Bleichenbacher timing attacks",
                      "It was found that python-rsa is vulnerable to Bleichenbacher timing attacks.",
                      ) is None


def test_a_sentence_quoted_without_the_product_name_it_holds_is_still_a_quote_of_it() -> None:
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text="Buffer overflow in the alpha array parser.")}
    r = replace(retrieval((A,), (3.0,), entities=("product:alpha",)),
                question=("Do alpha and rsa still suffer from buffer overflow in the alpha array "
                          "parser and it was found that is vulnerable to Bleichenbacher timing "
                          "attacks, respectively?"),
                anchor_held=(("product:alpha",),), anchor_text_scores=(2.0,))
    rsa = ("adv:rsa", "It was found that python-rsa is vulnerable to Bleichenbacher timing attacks.")
    corpus = QuotedCorpus([rsa])
    assert quoted_elsewhere(r, [explained[A]], corpus.quoted_documents) == ["adv:rsa"]
    # more than the name left out is another sentence
    three = ("adv:rsa", "It was found that the python-rsa package is vulnerable to Bleichenbacher "
             "timing attacks.")
    assert quoted_elsewhere(r, [explained[A]], QuotedCorpus([three]).quoted_documents) == []


class QuotedCorpus:
    """A ``verdict.Corpus`` whose fulltext look-up returns fixed documents, recording the
    stretches of the question it is asked about."""

    def __init__(self, hits: list[tuple[str, str]]) -> None:
        self.hits, self.asked = hits, []

    def quoted_documents(self, passage, as_of, known_at) -> list[tuple[str, str]]:
        self.asked.append(passage)
        return self.hits

    def passage_holders(self, asks, as_of, known_at):
        return [None for _ in asks]

    def answering_kinds(self, as_of, known_at) -> frozenset[str]:
        return frozenset()


# a question about three products: alpha's and beta's advisories are retrieved through their
# names; the third product is named by a common word no name links on, and its flaw is quoted
DASK = ("single machine clusters started with the local cluster would mistakenly configure "
        "their workers to listen on external interfaces")
THIRD = "adv:dask"


def test_a_sentence_no_subject_writes_quoted_from_a_document_nothing_retrieved_is_a_subject() -> None:
    explained = {**EXPLAINED,
                 A: replace(EXPLAINED[A], text="Buffer overflow in the alpha array parser."),
                 B: replace(EXPLAINED[B], text="Symbolic links in beta archives overwrite files."),
                 THIRD: explanation(THIRD, Status.ACTIVE, (result(THIRD, THIRD),))}
    r = replace(retrieval((B, A), (3.0, 2.9), entities=("product:alpha", "product:beta")),
                question=("Status check: buffer overflow in the alpha array parser in alpha; "
                          f"symbolic links in beta archives overwrite files in beta; {DASK} in "
                          "distributed. Which are still open?"),
                anchor_held=(("product:beta",), ("product:alpha",)), anchor_text_scores=(2.0, 1.9))
    held_dask = (THIRD, f"Title {THIRD} In affected versions {DASK}. Upgrade.")
    corpus = QuotedCorpus([("adv:other", "Workers may listen on external interfaces."), held_dask])
    read: list[str] = []

    def closure_of(doc_id: str) -> Explanation:
        read.append(doc_id)
        return explained[doc_id]

    verdict = verdict_for(r, closure_of, k=5, margin=1.0, sharers=lambda d, p: 0, corpus=corpus)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [(s.subject_id, s.kind) for s in verdict.subjects] == [
        (A, VerdictKind.SUPERSEDED), (B, VerdictKind.IN_FORCE), (THIRD, VerdictKind.IN_FORCE)]
    assert verdict.subjects[2].singled_out_by == "text quoted in the question"
    assert THIRD in read and outcome(verdict).decisive
    # only the stretch no subject writes is looked up: the quote, with the frame words around it
    assert corpus.asked == [" ".join(words(f"{DASK} in distributed which are still open"))]
    subjects = [explained[A], explained[B]]
    assert quoted_elsewhere(r, subjects, corpus.quoted_documents) == [THIRD]
    # two documents holding the stretch as far: it names neither
    twice = QuotedCorpus([held_dask, ("adv:twin", f"Also: {DASK}.")])
    assert quoted_elsewhere(r, subjects, twice.quoted_documents) == []
    # a passage a family of documents shares is boilerplate
    assert quoted_elsewhere(r, subjects, corpus.quoted_documents,
                            sharers=lambda d, p: MAX_QUOTE_SHARERS + 1) == []
    # a document on a subject's chain (the release fixing it repeats its text) is no subject
    assert quoted_elsewhere(
        r, subjects, QuotedCorpus([(FIX, f"Fixed: {DASK}.")]).quoted_documents) == []
    # a run shorter than a sentence quotes nothing
    assert quoted_elsewhere(r, subjects, QuotedCorpus(
        [(THIRD, "they listen on external interfaces")]).quoted_documents) == []
    # a question every word of which a subject's document writes asks the corpus nothing
    quiet = QuotedCorpus([held_dask])
    covered = replace(r, question="Status check: buffer overflow in the alpha array parser in alpha; "
                                  "symbolic links in beta archives overwrite files in beta.")
    assert quoted_elsewhere(covered, subjects, quiet.quoted_documents) == [] and quiet.asked == []


def test_a_single_subjects_verdict_also_asks_about_a_sentence_it_quotes_from_a_document_not_retrieved() -> None:
    # "... in alpha and <the Dask sentence> in distributed": one name links, its advisory leads
    # by the margin; the other product's advisory was not retrieved, its sentence is quoted
    explained = {**EXPLAINED, A: replace(EXPLAINED[A], text="Buffer overflow in the alpha array parser."),
                 THIRD: explanation(THIRD, Status.ACTIVE, (result(THIRD, THIRD),))}
    r = replace(retrieval((A, B), (3.0, 1.0), entities=("product:alpha",)),
                question=f"I'm tracking buffer overflow in the alpha array parser in alpha and {DASK} "
                         "in distributed; has either been resolved?",
                anchor_held=(("product:alpha",), ()), anchor_text_scores=(2.0, 1.0))
    corpus = QuotedCorpus([(THIRD, f"In affected versions {DASK}.")])
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0,
                          corpus=corpus)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert [(s.subject_id, s.kind) for s in verdict.subjects] == [
        (A, VerdictKind.SUPERSEDED), (THIRD, VerdictKind.IN_FORCE)]
    assert verdict.subjects[1].singled_out_by == "text quoted in the question"
    # without the corpus (or with nothing quoted) the one subject stands
    assert verdict_for(r, explained.__getitem__, k=5, margin=1.0).subject_id == A
    nothing = QuotedCorpus([])
    assert verdict_for(r, explained.__getitem__, k=5, margin=1.0, corpus=nothing).subject_id == A
    assert nothing.asked  # the uncovered stretch was looked up
    # a question its subject's document writes whole asks the corpus nothing
    quiet = QuotedCorpus([(THIRD, f"In affected versions {DASK}.")])
    whole = replace(r, question="Is the buffer overflow in the alpha array parser fixed?")
    assert verdict_for(whole, explained.__getitem__, k=5, margin=1.0, corpus=quiet).subject_id == A
    assert quiet.asked == []
    # nor does one whose uncovered words are a frame of common English words only
    frame = replace(r, question="Would a pharmacy in the country still fill a prescription for the "
                               "buffer overflow in the alpha array parser?")
    assert verdict_for(frame, explained.__getitem__, k=5, margin=1.0, corpus=quiet).subject_id == A
    assert quiet.asked == []


# "Go: arbitrary code execution in go command with cgo in cmd/go and cmd/cgo. Django: ...": the
# beta quote sets the scores; alpha's holders are a release (R) and one advisory (A), which the
# question does not quote; the corpus holds D, scoped to alpha, whose sentence it does quote
GO_SENTENCE = "arbitrary code execution in the alpha command with cgo in cmd and cgo"


def test_a_subject_left_by_elimination_gives_way_to_the_holder_of_its_name_the_question_quotes() -> None:
    R, D = "rel:r", "adv:d"
    released = replace(EXPLAINED[A].controlling[0], kind="release")
    explained = {
        **EXPLAINED,
        A: replace(EXPLAINED[A], kind="advisory", text="Code injection via the alpha command on Windows.",
                   controlling=(released,)),
        B: replace(EXPLAINED[B], kind="advisory",
                   text="The password hasher in beta allows remote attackers to enumerate users."),
        R: replace(explanation(R, Status.ACTIVE, (result(R, R),), scope=("product:alpha",)),
                   kind="release", text="Alpha 1.2 released."),
        D: replace(explanation(D, Status.ACTIVE, (result(D, D),), scope=("product:alpha",)),
                   kind="advisory", text=f"{GO_SENTENCE.capitalize()}."),
    }
    r = replace(retrieval((B, R, A), (3.0, 1.6, 1.5), entities=("product:beta", "product:alpha")),
                question=(f"Alpha: {GO_SENTENCE}. Beta: the password hasher in beta allows remote "
                          "attackers to enumerate users. Are these patched?"),
                anchor_held=(("product:beta",), ("product:alpha",), ("product:alpha",)),
                anchor_text_scores=(3.0, 1.6, 1.5))
    corpus = QuotedCorpus([(A, f"Title {A} {explained[A].text}"), (D, f"Title {D} {explained[D].text}")])
    verdict = verdict_for(r, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0,
                          corpus=corpus)
    assert verdict.kind is VerdictKind.MULTIPLE
    assert {s.subject_id: s.singled_out_by for s in verdict.subjects} == {
        B: "only candidate", D: "text quoted in the question"}
    # without the corpus look-up, elimination leaves A
    alone = verdict_for(r, explained.__getitem__, k=5, margin=1.0, sharers=lambda d, p: 0,
                        corpus=QuotedCorpus([]))
    assert {s.subject_id: s.singled_out_by for s in alone.subjects} == {
        B: "only candidate", A: "the others are of a kind that answers"}
    # the rule itself: only the question's words the other subject's text does not hold are
    # looked up; a holder of another name, two holders quoting as long a run, boilerplate, or a
    # subject the question quotes itself: no replacement
    docs = corpus.quoted_documents
    assert quoted_holder(explained[A], [explained[B]], ("product:alpha",), r, docs,
                         explained.__getitem__) == D
    assert "password" not in corpus.asked[-1] and "arbitrary" in corpus.asked[-1]
    assert quoted_holder(explained[A], [explained[B]], ("product:gamma",), r, docs,
                         explained.__getitem__) is None
    twin = {**explained, "adv:e": replace(explained[D], doc_id="adv:e")}
    twins = QuotedCorpus([(D, explained[D].text), ("adv:e", explained[D].text)]).quoted_documents
    assert quoted_holder(explained[A], [explained[B]], ("product:alpha",), r, twins,
                         twin.__getitem__) is None
    assert quoted_holder(explained[A], [explained[B]], ("product:alpha",), r, docs,
                         explained.__getitem__, sharers=lambda d, p: MAX_QUOTE_SHARERS + 1) is None
    quoted_itself = replace(explained[D], doc_id="adv:x", controlling=(result("adv:x", "adv:x"),))
    assert quoted_holder(quoted_itself, [explained[B]], ("product:alpha",), r, docs,
                         explained.__getitem__) is None


def test_a_lead_among_a_names_documents_on_the_frames_words_is_no_subject_when_a_rare_word_is_elsewhere() -> None:
    # "In our Node.js app, npm audit reports a flaw that has CSRF": every advisory read is
    # node's; one about npm tokens leads on "npm" by the margin, and it does not write "CSRF",
    # which many advisories of other products do
    NODE = ("product:node",)
    explained = {a: replace(EXPLAINED[B], doc_id=a, kind="advisory", controlling=(result(a, a),),
                            title=f"node: security flaw in the use of npm tokens {a}")
                 for a in (A, B, C)}
    r = replace(retrieval((A, B, C), (3.0, 1.7, 1.6), entities=NODE), anchor_held=(NODE,) * 3,
                question="In our Node.js app, npm audit reports a flaw that has CSRF. Is there a fix?",
                anchor_text_scores=(2.0, 0.7, 0.6), as_of=date(2021, 1, 1))

    def asked_of(held: tuple[bool, int] | None, retrieved: Retrieval = r) -> tuple[Verdict, FakeCorpus]:
        corpus = FakeCorpus()
        corpus.words_held = {"csrf": held}
        return judge(retrieved, explained, margin=1.0, corpus=corpus), corpus

    verdict, corpus = asked_of((False, 12))
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.subject_id is None
    assert {c.subject_id for c in verdict.candidates} == {A, B, C}
    # asked once, of the lead, as of the retrieval's date, for the rare words it does not write:
    # not "npm" (it writes it), nor the name, nor the status and everyday words
    [(doc, kind, words_asked, as_of, known_at)] = corpus.asked_words
    assert (doc, kind, as_of, known_at) == (A, "advisory", r.as_of, r.known_at)
    assert "csrf" in words_asked
    assert not {"npm", "node", "fix", "flaw", "reports", "app"} & set(words_asked)
    # the lead holds the word in another form (the index stems), one other document holds it,
    # or too many hold it to tell: the lead stands
    for held in [(True, 12), (False, 1), None]:
        stands, _ = asked_of(held)
        assert stands.decisive and stands.subject_id == A and stands.singled_out_by == "margin"
    # the next anchor does not hold the name: the name is part of the lead; nothing is asked
    unnamed = replace(r, anchor_held=(NODE, (), NODE))
    stands, corpus = asked_of((False, 12), unnamed)
    assert stands.subject_id == A and corpus.asked_words == []
    # a question whose words the lead writes asks nothing
    written = replace(r, question="In our Node.js app, npm audit reports a flaw in npm tokens. Is there a fix?")
    stands, corpus = asked_of((False, 12), written)
    assert stands.subject_id == A and corpus.asked_words == []
    # no corpus to ask (a hand-made retrieval): the margin alone, as before
    assert judge(r, explained, margin=1.0).subject_id == A
