"""Question reading from data: the lexicon, the Unicode tokenizer, and NOT_FOUND when nothing the
retrieval found accounts for the question (no database, no model)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from car_graph.errors import ConfigError
from car_graph.lexicon import lexicon
from car_graph.linking import porter_stem, setting_words, words
from car_graph.reading import (
    AccountingWeights,
    accounted_for,
    content_words,
    setting_phrases,
    tokens,
    weights,
)
from car_graph.types import Explanation, Result, Retrieval, Status
from car_graph.verdict import VerdictKind, found_wanting, verdict_for

RATES = AccountingWeights(zipf_ceiling=7.0, min_weight=0.25, number_weight=2.0, min_share=0.4)


def test_a_word_in_another_script_or_with_accents_is_one_word() -> None:
    assert tokens("Le médicament Zyrtec") == ["le", "médicament", "zyrtec"]
    assert words("Le médicament Zyrtec") == ["le", "médicament", "zyrtec"]
    assert tokens("東京 zip_next") == ["東京", "zip", "next"]


def test_the_lexicon_is_data_and_a_rules_file_extends_it() -> None:
    en = lexicon()
    assert "unresolved" in en.status_words and "our" in en.asker_possessives
    more = en.extended({"reporting_verbs": ["Pinged"], "status_words": ["caduc"]})
    assert "pinged" in more.reporting_verbs and "caduc" in more.status_words
    assert "pinged" not in en.reporting_verbs  # the bundled lexicon is not changed
    with pytest.raises(ConfigError, match="unknown lexicon list"):
        en.extended({"status_wrds": ["x"]})


def test_cue_patterns_are_built_from_the_lexicon() -> None:
    en = lexicon()
    assert en.version_bound.search("SaltStack through ")
    assert en.version_bound.search("versions <= ")
    assert en.number_cue.search("the one numbered ")
    assert en.number_cue.search("the ID ending in ")
    assert not en.number_cue.search("the year ")
    extended = en.extended({"number_cues": ["numéro"]})
    assert extended.number_cue.search("le numéro ")


@pytest.mark.parametrize("question, reporter", [
    ("According to Trivy, is the tar flaw in Go fixed?", "trivy"),
    ("Dependabot raised an alert about lodash; is it fixed?", "dependabot"),
    ("GitHub Dependabot says our lodash is vulnerable", "dependabot"),
])
def test_a_reporter_named_by_a_reporting_phrase_is_setting_not_subject(question: str, reporter: str) -> None:
    assert reporter in setting_words(question)


def test_content_words_leave_out_status_frame_stop_and_setting_words() -> None:
    asked = content_words("Our PHP site: is the Roe v. Wade ruling still good law?", lexicon(),
                          frozenset({"is", "the", "v", "our"}), ignore={"php"})
    assert asked == ["site", "roe", "wade", "ruling"]


def test_rare_words_weigh_more_than_everyday_ones_and_numbers_weigh_alike() -> None:
    assert RATES.weight("wade") > RATES.weight("site") >= RATES.min_weight
    assert RATES.weight("2022") == RATES.weight("15042") == RATES.number_weight


def test_accounting_is_the_best_documents_share_of_the_questions_weight() -> None:
    documents = {"a": "Prototype pollution in lodash", "b": "Lodash release 4.17.12"}
    found = accounted_for(["lodash", "prototype", "pollution"], documents, porter_stem, RATES)
    assert found.best == "a" and found.share == pytest.approx(1.0) and found.unexplained == ()
    partly = accounted_for(["lodash", "roe"], documents, porter_stem, RATES)
    assert 0 < partly.share < 1 and partly.unexplained == ("roe",)


def test_a_word_is_held_by_its_stem() -> None:
    found = accounted_for(["vulnerabilities"], {"a": "A vulnerability in tar"}, porter_stem, RATES)
    assert found.share == pytest.approx(1.0)


def test_a_question_without_content_words_is_fully_accounted_for() -> None:
    assert accounted_for([], {"a": "anything"}, porter_stem, RATES).share == 1.0


def test_the_bundled_weights_are_read_from_data() -> None:
    bundled = weights()
    assert 0.0 <= bundled.min_share <= 1.0 and bundled.number_weight > 0


# -- NOT_FOUND through verdict_for -------------------------------------------------------------

def _result(doc_id: str, title: str, text: str) -> Result:
    return Result(doc_id=doc_id, title=title, kind="advisory", domain="security", published=None,
                  status=Status.ACTIVE, score=1.0, anchor_id=doc_id, chain=(), text=text)


def _explanation(r: Result) -> Explanation:
    return Explanation(doc_id=r.doc_id, title=r.title, status=Status.ACTIVE, as_of=None,
                       controlling=(r,), superseded_by=(), supersedes=(), text=r.text,
                       scope=("product:tar",))


ADVISORY = _result("adv:1", "Path traversal in tar", "Archives extracted by tar may write outside the folder.")


def _retrieval(question: str, held: tuple[tuple[str, ...], ...] = ((),)) -> Retrieval:
    return Retrieval(question=question, as_of=None, results=(ADVISORY,), anchors=(ADVISORY.doc_id,),
                     suppressed=0, ambiguous_scopes=(), anchor_held=held,
                     readings=(_explanation(ADVISORY),))


def _verdict(retrieval: Retrieval, rates: AccountingWeights = RATES):  # type: ignore[no-untyped-def]
    return verdict_for(retrieval, lambda _doc: _explanation(ADVISORY), rates=rates)


def test_a_question_the_graph_does_not_hold_is_not_found() -> None:
    verdict = _verdict(_retrieval("Is Roe v. Wade still good law?"))
    assert verdict.kind is VerdictKind.NOT_FOUND and not verdict.decisive
    assert verdict.accounting is not None and "roe" in verdict.accounting.unexplained
    data = verdict.to_json()
    assert data["verdict"] == "not_found" and "wade" in data["accounting"]["unexplained"]
    assert "roe" in data["notes"][0]


def test_a_question_a_found_document_accounts_for_is_answered() -> None:
    verdict = _verdict(_retrieval("Is the path traversal in tar still unresolved?"))
    assert verdict.kind is VerdictKind.IN_FORCE and verdict.subject_id == "adv:1"
    assert verdict.accounting is not None and verdict.accounting.share == pytest.approx(1.0)


def test_a_linked_entity_held_by_an_anchor_accounts_for_the_question() -> None:
    retrieval = _retrieval("Is Roe v. Wade still good law?", held=(("product:tar",),))
    assert not found_wanting(retrieval, _verdict(retrieval).accounting or _never(), RATES)
    assert _verdict(retrieval).kind is not VerdictKind.NOT_FOUND


def test_at_a_zero_threshold_nothing_is_not_found() -> None:
    verdict = _verdict(_retrieval("Is Roe v. Wade still good law?"), replace(RATES, min_share=0.0))
    assert verdict.kind is VerdictKind.IN_FORCE


def _never():  # type: ignore[no-untyped-def]
    raise AssertionError("an answered verdict carries its accounting")


def test_setting_and_reporter_phrases_are_not_what_the_question_is_about() -> None:
    stop = frozenset({"about", "a", "in", "is", "the", "whether", "of"})
    said = setting_phrases("Cargo audit warns about a flaw in my Rust CLI. Is the crate patched?",
                           lexicon(), stop)
    assert {"cargo", "audit", "warns", "rust", "cli"} <= said and "crate" not in said
    opened = setting_phrases("According to Trivy, is the tar flaw fixed?", lexicon(), stop)
    assert "trivy" in opened and "tar" not in opened
    # a possessive's phrase is the names right after it, not what the asker says of them
    assert "acetophenetidin" not in setting_phrases("My father took acetophenetidin. Is it available?",
                                                    lexicon(), stop)
    assert "diethylstilbestrol" not in setting_phrases("My father took Diethylstilbestrol", lexicon(), stop)
    # a word also written outside the phrase stays a content word
    assert "acme" not in setting_phrases("In our Acme service, is the Acme parser flaw fixed?",
                                         lexicon(), stop)


def test_the_docstring_examples_hold() -> None:
    import doctest

    import car_graph.reading

    assert doctest.testmod(car_graph.reading).failed == 0


def test_a_misspelt_long_word_is_held_by_the_word_one_edit_away() -> None:
    documents = {"a": "Aspirin tablets, approval"}
    assert accounted_for(["aspkrin"], documents, porter_stem, RATES).share == pytest.approx(1.0)
    # short words and numbers must match exactly: one edit turns them into other words
    assert accounted_for(["asp"], {"a": "ask"}, porter_stem, RATES).share == 0.0
    assert accounted_for(["16845"], {"a": "16846"}, porter_stem, RATES).share == 0.0


def test_a_domains_cue_words_extend_the_lexicon_of_a_graph_holding_it() -> None:
    from car_graph.domains import DomainRegistry, domain_from_json, domain_from_mapping, domain_to_mapping
    from car_graph.errors import RulesError

    declared = domain_from_mapping({"domain": "pharma", "lexicon": {"status_words": ["Delisted"]}}, "f.yaml")
    assert declared is not None and declared.lexicon == {"status_words": ("delisted",)}
    # stored in the graph and read back by another process, the words come along
    assert domain_from_json(__import__("json").dumps(domain_to_mapping(declared)), "g").lexicon == declared.lexicon
    registry = DomainRegistry([declared])
    assert "delisted" in registry.lexicon.status_words and "unresolved" in registry.lexicon.status_words
    assert "delisted" not in DomainRegistry().lexicon.status_words
    # the bundled drug domain declares its own (ingest/domains/drug/rules.yaml), only for its graphs
    installed = DomainRegistry.installed()
    assert "banned" in installed.subset(["drug"]).lexicon.status_words
    assert "banned" not in installed.subset(["security"]).lexicon.status_words
    with pytest.raises(RulesError, match="unknown lists"):
        domain_from_mapping({"domain": "pharma", "lexicon": {"status_wrds": ["x"]}}, "f.yaml")


def test_the_verdict_reads_the_question_with_the_retrievals_own_cue_words() -> None:
    question = "Is the path traversal in tar still delisted?"
    english = _verdict(_retrieval(question)).accounting
    assert english is not None and "delisted" in english.unexplained
    cues = lexicon().extended({"status_words": ["delisted"]})
    extended = _verdict(replace(_retrieval(question), cues=cues)).accounting
    assert extended is not None and "delisted" not in extended.unexplained
    assert extended.share > english.share
