"""Verdicts and prompt context from hand-made retrieval results (no database, no model)."""

from __future__ import annotations

from datetime import date

from car_graph.types import Explanation, Hop, Result, Retrieval, Status
from car_graph.verdict import VerdictKind, decide, subject_of, with_llm

OLD, NEW, NEWER, OTHER = "case:old", "case:new", "case:newer", "case:other"
EVIDENCE = "Table of overruled decisions, row 7: New v. State overruled Old v. State"


def hop(older: str, newer: str, *, effective: date | None = date(2003, 6, 26), partial: bool = False,
        rule: str = "explicit", evidence: str | None = EVIDENCE) -> Hop:
    return Hop(from_id=older, to_id=newer, rule=rule, effective=effective, evidence=evidence,
               partial=partial)


def result(doc_id: str, title: str, status: Status = Status.ACTIVE, anchor: str | None = None,
           chain: tuple[Hop, ...] = (), published: date | None = None, text: str = "") -> Result:
    return Result(doc_id=doc_id, title=title, kind="decision", domain="law", published=published,
                  status=status, score=1.0, anchor_id=anchor or doc_id, chain=chain, text=text)


def retrieval(*results: Result, as_of: date | None = None, ambiguous: tuple[str, ...] = ()) -> Retrieval:
    return Retrieval(question="Is Old v. State still good law?", as_of=as_of, results=results,
                     anchors=tuple(dict.fromkeys(r.anchor_id for r in results)), suppressed=0,
                     ambiguous_scopes=ambiguous)


def explanation(doc_id: str, status: Status, controlling: tuple[Result, ...],
                superseded_by: tuple[Hop, ...] = (), scope: tuple[str, ...] = ("case:old v. state",),
                as_of: date | None = None) -> Explanation:
    return Explanation(doc_id=doc_id, title="Old v. State", status=status, as_of=as_of,
                       controlling=controlling, superseded_by=superseded_by, supersedes=(),
                       scope=scope)


OVERRULING = hop(OLD, NEW)
NEW_RESULT = result(NEW, "New v. State", anchor=OLD, chain=(OVERRULING,), published=date(2003, 6, 26),
                    text="New v. State overruled Old v. State.")


def test_subject_is_the_anchor_of_the_top_result() -> None:
    assert subject_of(retrieval(NEW_RESULT, result(OTHER, "Other"))) == OLD
    assert subject_of(retrieval()) is None


def test_superseded_subject_names_superseder_rule_date_and_evidence() -> None:
    verdict = decide(retrieval(NEW_RESULT),
                     explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(OVERRULING,)))
    assert verdict.kind is VerdictKind.SUPERSEDED
    assert verdict.subject_id == OLD
    assert [h.to_id for h in verdict.superseded_by] == [NEW]
    assert verdict.summary == ("Old v. State [case:old] is superseded by New v. State [case:new] "
                               "(rule explicit, effective 2003-06-26).")
    data = verdict.to_json()
    assert data["verdict"] == "superseded"
    assert data["controlling"][0]["chain"][0]["evidence"] == EVIDENCE
    assert data["superseded_by"][0]["effective"] == "2003-06-26"


def test_superseded_through_a_chain_names_the_direct_superseder_and_the_controlling_end() -> None:
    second = hop(NEW, NEWER, effective=date(2010, 1, 1), rule="later_rule")
    newer = result(NEWER, "Newer v. State", anchor=OLD, chain=(OVERRULING, second))
    verdict = decide(retrieval(newer),
                     explanation(OLD, Status.SUPERSEDED, (newer,), superseded_by=(OVERRULING,)))
    # the intermediate document's title is not in the explanation: it is named by id
    assert "superseded by case:new (rule explicit, effective 2003-06-26)" in verdict.summary
    assert verdict.summary.endswith("now controlled by Newer v. State [case:newer].")
    context = verdict.context()
    # hops are cited by source number where the document is a source, else by id
    assert "[2] case:newer: Newer v. State" in context
    assert "[1] superseded by [2] under rule explicit" in context  # first hop, older cited as [1]
    assert "case:new superseded by [2] under rule later_rule, effective 2010-01-01" in context


def test_in_force_subject() -> None:
    old = result(OLD, "Old v. State")
    verdict = decide(retrieval(old), explanation(OLD, Status.ACTIVE, (old,)))
    assert verdict.kind is VerdictKind.IN_FORCE
    assert verdict.superseded_by == ()
    assert verdict.summary == "Old v. State [case:old] is in force."


def test_as_of_before_the_superseder_drops_edges_not_yet_effective() -> None:
    # explain.cypher lists every direct superseder; only those effective on as_of count
    late = hop(OLD, NEWER, effective=date(2020, 1, 1), partial=True)
    early = hop(OLD, NEW, effective=date(2003, 6, 26), partial=True)
    verdict = decide(retrieval(NEW_RESULT, as_of=date(2010, 1, 1)),
                     explanation(OLD, Status.PARTIALLY_SUPERSEDED, (result(OLD, "Old v. State"), NEW_RESULT),
                                 superseded_by=(late, early)))
    assert verdict.kind is VerdictKind.PARTIALLY_SUPERSEDED
    assert [h.to_id for h in verdict.superseded_by] == [NEW]
    assert "as of 2010-01-01" in verdict.summary and "in part by" in verdict.summary


def test_full_and_partial_superseders_are_told_apart() -> None:
    full, part = hop(OLD, NEW), hop(OLD, NEWER, partial=True)
    superseded = decide(retrieval(NEW_RESULT),
                        explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(part, full)))
    assert [h.to_id for h in superseded.superseded_by] == [NEW]


def test_dated_superseders_come_before_undated_ones() -> None:
    undated = hop(OLD, NEWER, effective=None)
    verdict = decide(retrieval(NEW_RESULT),
                     explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(undated, OVERRULING)))
    assert [h.to_id for h in verdict.superseded_by] == [NEW, NEWER]
    assert "effective undated" in verdict.summary


def test_withdrawn_and_unresolved_subjects() -> None:
    old = result(OLD, "Old v. State", Status.WITHDRAWN)
    assert decide(retrieval(old), explanation(OLD, Status.WITHDRAWN, (old,))).kind is VerdictKind.WITHDRAWN
    old = result(OLD, "Old v. State", Status.UNRESOLVED)
    verdict = decide(retrieval(old), explanation(OLD, Status.UNRESOLVED, (old,)))
    assert verdict.kind is VerdictKind.UNRESOLVED
    assert "no rule decided" in verdict.summary


def test_nothing_retrieved_is_not_found() -> None:
    verdict = decide(retrieval(), None)
    assert verdict.kind is VerdictKind.NOT_FOUND
    assert verdict.subject_id is None
    assert verdict.to_json()["subject"] is None
    assert "Verdict: NOT FOUND" in verdict.context()


def test_a_controlling_document_that_is_itself_withdrawn_is_noted() -> None:
    gone = result(NEW, "New v. State", Status.WITHDRAWN, anchor=OLD, chain=(OVERRULING,))
    verdict = decide(retrieval(gone),
                     explanation(OLD, Status.SUPERSEDED, (gone,), superseded_by=(OVERRULING,)))
    assert verdict.notes == ("controlling document case:new is itself withdrawn",)


def test_only_the_subjects_own_ambiguous_scopes_are_reported() -> None:
    verdict = decide(retrieval(NEW_RESULT, ambiguous=("case:old v. state", "case:elsewhere")),
                     explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(OVERRULING,)))
    assert verdict.ambiguous_scopes == ("case:old v. state",)
    assert "Caution: several independent chains share the scope case:old v. state" in verdict.context()


def test_context_numbers_subject_controlling_then_other_results_with_excerpts() -> None:
    other = result(OTHER, "Other v. State", published=date(1990, 1, 1), text="x" * 1000)
    verdict = decide(retrieval(NEW_RESULT, other),
                     explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(OVERRULING,)))
    assert [(s.number, s.doc_id, s.role) for s in verdict.sources()] == [
        (1, OLD, "subject"), (2, NEW, "controlling"), (3, OTHER, "retrieved")]
    context = verdict.context(excerpt_chars=50)
    lines = context.splitlines()
    assert lines[0] == "Question: Is Old v. State still good law?"
    assert lines[1].startswith("Verdict: SUPERSEDED. Old v. State [case:old] is superseded by")
    assert "[1] case:old: Old v. State; status SUPERSEDED [asked about]" in lines
    assert "[2] case:new: New v. State (decision, 2003-06-26); status ACTIVE [CONTROLLING]" in lines
    assert f"    [1] superseded by [2] under rule explicit, effective 2003-06-26; evidence: {EVIDENCE}" in lines
    assert "    excerpt: " + "x" * 49 + "…" in lines
    numbered = [line for line in verdict.context(limit=2).splitlines() if line.startswith("[")]
    assert [line.split(":")[0] for line in numbered] == ["[1] case", "[2] case"]


def test_llm_hook_receives_the_prompt_and_its_answer_is_kept() -> None:
    verdict = decide(retrieval(NEW_RESULT),
                     explanation(OLD, Status.SUPERSEDED, (NEW_RESULT,), superseded_by=(OVERRULING,)))
    prompts: list[str] = []

    def llm(prompt: str) -> str:
        prompts.append(prompt)
        return "No; New v. State [2] overruled it."

    answered = with_llm(verdict, llm)
    assert answered.llm_answer == "No; New v. State [2] overruled it."
    assert prompts[0].startswith("Answer the question from the sources below.")
    assert verdict.context() in prompts[0] and prompts[0].endswith("Answer:")
    assert verdict.llm_answer is None  # verdicts are immutable
