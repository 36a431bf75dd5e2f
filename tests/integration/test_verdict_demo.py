"""Verdicts on the bundled demo sample (real security, law and drug documents) in a real Neo4j.

The sample is ingested once for the module by ``car_graph.demo.run_demo``, exactly as
``make demo`` does; the expected answers come from the sample's own sources (the Constitution
Annotated's table of overruled decisions, the withdrawal lists), not from car-graph.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.demo import sample_dir
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

BOWERS, LAWRENCE = "scotus:478-us-186", "scotus:539-us-558"
BOWERS_QUESTION = "Is Bowers v. Hardwick still good law?"


@pytest.fixture(scope="module")
def cli_env(neo4j_target) -> dict[str, str]:
    return {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
            "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}


def test_ask_says_bowers_was_overruled_by_lawrence_with_the_evidence(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["ask", BOWERS_QUESTION], env=cli_env)
    assert run.exit_code == 0, run.output
    first, *rest = run.output.splitlines()
    assert first.startswith("SUPERSEDED: Bowers v. Hardwick [scotus:478-us-186] is superseded by "
                            "Lawrence v. Texas [scotus:539-us-558] (rule explicit, effective 2003-01-01)")
    assert f"    {BOWERS} -> {LAWRENCE} via explicit on 2003-01-01" in rest
    evidence = [line for line in rest if line.strip().startswith("evidence:")]
    assert evidence and "Lawrence v. Texas,539 U.S. 558  (2003) overruled Bowers v. Hardwick" in evidence[0]


def test_ask_json_carries_verdict_subject_superseder_and_chain(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["ask", "--json", BOWERS_QUESTION], env=cli_env)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["verdict"] == "superseded"
    assert data["subject"]["doc_id"] == BOWERS
    assert [(h["to_id"], h["rule"], h["effective"]) for h in data["superseded_by"]] == [
        (LAWRENCE, "explicit", "2003-01-01")]
    assert [(c["doc_id"], c["status"]) for c in data["controlling"]] == [(LAWRENCE, "active")]
    assert "overruled Bowers v. Hardwick" in data["controlling"][0]["chain"][0]["evidence"]
    assert data["sources"][:2] == [
        {"n": 1, "doc_id": BOWERS, "title": "Bowers v. Hardwick", "status": "superseded", "role": "subject"},
        {"n": 2, "doc_id": LAWRENCE, "title": "Lawrence v. Texas", "status": "active", "role": "controlling"},
    ]


def test_before_lawrence_bowers_was_in_force(demo_graph) -> None:
    verdict = demo_graph.answer(BOWERS_QUESTION, as_of=date(1999, 1, 1))
    assert verdict.kind is VerdictKind.IN_FORCE
    assert verdict.subject_id == BOWERS
    assert verdict.superseded_by == ()


def test_context_block_cites_the_controlling_decision_and_its_evidence(demo_graph) -> None:
    context = demo_graph.context(BOWERS_QUESTION)
    assert context.startswith(f"Question: {BOWERS_QUESTION}\nVerdict: SUPERSEDED.")
    assert f"[1] {BOWERS}: Bowers v. Hardwick; status SUPERSEDED [asked about]" in context
    assert f"[2] {LAWRENCE}: Lawrence v. Texas (decision, 2003-01-01); status ACTIVE [CONTROLLING]" in context
    assert "    [1] superseded by [2] under rule explicit, effective 2003-01-01; evidence:" in context


def test_demo_verdicts_for_partial_overruling_and_drug_withdrawal(demo_graph) -> None:
    # The question names the case by its short name, which links no entity, and the decision
    # leads the other close candidates by less than the margin. Before issue 17 the top-ranked
    # anchor was asserted; then the verdict was ambiguous, with a Williamson County reading
    # partially superseded by Knick. Now "Williamson County" -- words of the question only that
    # decision holds, among the close candidates and in the whole corpus -- singles it out.
    # Never "in force" either way.
    williamson = demo_graph.answer("Do I still have to go through state court before bringing a "
                                 "takings claim, as Williamson County held?")
    assert williamson.kind is VerdictKind.PARTIALLY_SUPERSEDED, williamson.to_json()
    assert williamson.subject_id == "scotus:473-us-172"
    assert williamson.singled_out_by == "words of the question only it holds"
    assert [h.to_id for h in williamson.superseded_by] == ["scotus:no-17-647"]

    vioxx = demo_graph.answer("Is Vioxx (rofecoxib) still approved?")
    assert vioxx.kind is VerdictKind.SUPERSEDED
    assert vioxx.subject_id == "fda-approval:NDA021042:rofecoxib"
    assert {c.doc_id for c in vioxx.controlling} == {
        "withdrawal:rofecoxib:2004:worldwide", "withdrawal:rofecoxib:undated:us"}


def test_llm_hook_gets_the_prompt_with_the_controlling_document(demo_graph) -> None:
    seen: list[str] = []
    verdict = demo_graph.answer(BOWERS_QUESTION, llm=lambda prompt: seen.append(prompt) or "overruled [2]")
    assert verdict.llm_answer == "overruled [2]"
    assert LAWRENCE in seen[0] and seen[0].endswith("Answer:")


def test_explain_prints_the_chain_as_a_tree_with_statuses_rules_and_evidence(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["explain", "scotus:392-us-183"], env={**cli_env, "COLUMNS": "200"})
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[0] == "scotus:392-us-183 [superseded] Maryland v. Wirtz"
    assert "└── controlled by scotus:469-us-528 [active] Garcia v. San Antonio Metropolitan " \
           "Transit Authority (1985-01-01)" in lines
    first = next(i for i, line in enumerate(lines) if "superseded by scotus:426-us-833" in line)
    second = next(i for i, line in enumerate(lines) if "superseded by scotus:469-us-528" in line)
    assert first < second
    assert "via explicit on 1976-01-01" in lines[first] and "via explicit on 1985-01-01" in lines[second]
    # the second hop hangs under the first: deeper indentation
    assert lines[second].index("superseded") > lines[first].index("superseded")
    flat = " ".join(run.output.replace("│", " ").split())  # evidence may wrap over lines
    assert "evidence: Congress.gov Constitution Annotated" in flat
    assert "overruled Maryland v. Wirtz,392 U.S. 183 (1968)" in flat


def test_retrieve_prints_the_verdict_line_above_the_results(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["retrieve", "-k", "2", BOWERS_QUESTION], env=cli_env)
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[0].startswith("SUPERSEDED: Bowers v. Hardwick [scotus:478-us-186] is superseded by Lawrence")
    assert lines[1] == f"Q: {BOWERS_QUESTION}"
    assert lines[2].startswith(f" 1. {LAWRENCE} [active]")
    data = json.loads(CliRunner().invoke(main, ["retrieve", "--json", BOWERS_QUESTION], env=cli_env).output)
    assert data["verdict"] == "superseded" and data["results"][0]["doc_id"] == LAWRENCE


def test_unknown_document_suggests_the_nearest_ids(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["explain", "scotus:478-us-18"], env=cli_env)
    assert run.exit_code == 1
    assert "no document 'scotus:478-us-18'; nearest ids: scotus:478-us-186" in run.output


def test_browser_command_prints_url_style_and_the_chain_of_the_question_subject(demo_graph, cli_env) -> None:
    from car_graph import browser

    run = CliRunner().invoke(main, ["browser", "--question", BOWERS_QUESTION], env=cli_env)
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[0].startswith("Status labels refreshed: active ")
    host = cli_env["NEO4J_URI"].split("//", 1)[1].split(":")[0]
    assert lines[1].startswith(f"1. Open http://{host}:7474/browser/?connectURL=bolt%3A%2F%2F")
    assert browser.style_command() in lines
    commands = list(browser.chain_commands(BOWERS))
    start = lines.index(commands[0])
    assert lines[start:start + len(commands)] == commands
    labelled = demo_graph.driver.execute_query(
        "MATCH (d:Document {id: $id}) RETURN labels(d) AS labels", id=BOWERS).records[0]["labels"]
    assert sorted(labelled) == ["Document", "Superseded"]

    unknown = CliRunner().invoke(main, ["browser", "scotus:478-us-18", "--no-labels"], env=cli_env)
    assert unknown.exit_code == 1 and "nearest ids: scotus:478-us-186" in unknown.output


# What a verdict may ask of the whole corpus when the retrieval alone leaves it ambiguous (how
# many documents share a quoted passage or the question's words; which kinds only void others,
# once per graph version and clocks; which document a question naming several subjects quotes
# beside them; whether another document of a kind holds the names): look-ups, no closure
CORPUS_LOOKUPS = {"quote_sharers", "passage_holders", "answering_kinds", "quoted_documents",
                  "kind_holders", "word_holders"}


def test_answer_reads_the_closures_retrieval_walked_in_one_statement(demo_graph) -> None:
    """Issue 18: the verdict's closures come from car.cypher's own walk -- each reading is what
    ``explain`` says of that anchor, as of the same date -- and answer sends one statement, and
    no closure besides: beyond car.cypher, only the corpus look-ups a verdict the retrieval leaves
    ambiguous makes, on fewer than half of the questions."""
    questions = [q["question"] for q in map(json.loads, (sample_dir() / "questions.jsonl")
                                            .read_text().splitlines()) if q]
    assert len(questions) >= 5
    store = demo_graph.store
    sent: list[str] = []
    asked = looked_up = 0
    read, in_tx = store.read, store.in_read_transaction
    for question in [*questions, BOWERS_QUESTION]:
        for as_of in (None, date(1999, 1, 1)):
            retrieval = demo_graph.retriever.retrieve(question, 5, as_of, None, readings=5,
                                                    reading_margin=1.0)
            # every question finds an anchor today; in 1999 some find nothing (no readings)
            assert bool(retrieval.readings) == bool(retrieval.anchors), question
            assert as_of is not None or retrieval.readings, question
            if retrieval.readings:
                assert retrieval.readings[0].doc_id == retrieval.anchors[0]
            for reading in retrieval.readings:
                assert reading == demo_graph.explain(reading.doc_id, as_of), (question, reading.doc_id)
            # the same results and the same retrieve --json as without readings
            plain = demo_graph.retrieve_report(question, k=5, as_of=as_of)
            assert plain.to_json() == retrieval.to_json()
            try:
                store.read = lambda name, **p: sent.append(name) or read(name, **p)  # type: ignore[method-assign]
                store.in_read_transaction = lambda work: sent.append("tx") or in_tx(work)  # type: ignore[method-assign]
                demo_graph.answer(question, as_of=as_of)
            finally:
                store.read, store.in_read_transaction = read, in_tx  # type: ignore[method-assign]
            # as of a date, fewer anchors are visible: the anchor search may go deeper (issue
            # 61: stable search in the past), a count and car again, never a closure besides
            deeper = {"car", "searchable_count"} if as_of is not None else set()
            assert sent[0] == "car" and set(sent[1:]) <= CORPUS_LOOKUPS | deeper, (question, sent)
            looked_up += any(name in CORPUS_LOOKUPS for name in sent[1:])
            asked += 1
            sent.clear()
    assert looked_up < asked / 2, (looked_up, asked)


def test_a_verdict_reads_every_returned_anchor_not_only_the_top_k(demo_graph) -> None:
    # set-aside answers (a withdrawal whose reason is the question's indication) leave places
    # the readings asked about fill from further down (verdict.asked_window): the retrieval
    # walks each returned anchor's closure in the same statement
    retrieval = demo_graph.answer(BOWERS_QUESTION, k=1).retrieval
    assert retrieval is not None and len(retrieval.anchors) > 1
    assert set(retrieval.anchors) <= {e.doc_id for e in retrieval.readings}


@pytest.mark.parametrize("question", ["Is Roe v. Wade still good law?",
                                      "Is the Treaty of Westphalia still binding?"])
def test_a_question_about_what_the_graph_does_not_hold_is_not_found(demo_graph, question: str) -> None:
    # the sample holds no document about either: dense search still returns its nearest, but
    # none of them writes the question's own rare words, so no reading is offered
    verdict = demo_graph.answer(question)
    assert verdict.kind is VerdictKind.NOT_FOUND, verdict.to_json()["why"]
    assert not verdict.decisive and verdict.candidates == ()
    assert verdict.accounting is not None and verdict.accounting.unexplained
    assert verdict.to_json()["accounting"]["share"] < 0.5


def test_the_questions_the_sample_does_hold_are_still_found(demo_graph) -> None:
    for question in (BOWERS_QUESTION, "Is Vioxx (rofecoxib) still approved?"):
        verdict = demo_graph.answer(question)
        assert verdict.kind is not VerdictKind.NOT_FOUND, verdict.to_json()["why"]
        assert verdict.accounting is not None and verdict.accounting.share > 0.5


def test_ask_why_prints_each_anchors_evidence_and_the_accounting(demo_graph, cli_env) -> None:
    run = CliRunner().invoke(main, ["ask", BOWERS_QUESTION, "--why"], env=cli_env)
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    why = lines.index(next(line for line in lines if line.startswith("why:")))
    assert any(line.strip().startswith(f"subject   {BOWERS} score ") for line in lines[why:])
    assert any(line.strip().startswith("accounted for: ") for line in lines[why:])
    data = json.loads(CliRunner().invoke(main, ["ask", BOWERS_QUESTION, "--json"], env=cli_env).output)
    assert data["why"]["anchors"][0]["doc_id"] == BOWERS and data["why"]["anchors"][0]["role"] == "subject"
