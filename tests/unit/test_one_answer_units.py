"""One answer everywhere (issue 60), the pure parts: the verdict's caution is its subject's own
(read with its closure), the chain shown runs along full edges (semantics.py's reference for
closure.cypher and the analyst chain query), explain's tree shows the amendments beside it, the
caution and multi_chain_scopes share one fragment, and a domain's YAML sets
``min_partial_digits`` per identifier. tests/integration/test_one_answer.py runs them on a graph.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

import pytest

from car_graph import cypher
from car_graph.cli import render_explanation
from car_graph.domains import DomainRegistry, domain_from_json, domain_from_mapping, domain_to_mapping
from car_graph.errors import RulesError
from car_graph.linking import LinkingSettings, partial_digit_runs
from car_graph.semantics import AuthorityGraph, Edge
from car_graph.types import Explanation, Hop, Result, Retrieval, Status
from car_graph.verdict import decide

V1, V2, MEMO, V3, V4 = "v1", "v2", "memo", "v3", "v4"
# the fixture's travel line: each version replaces the one before; the memo amends v1 and v2 in
# part and v3 and v4 absorb it
TRAVEL = AuthorityGraph([
    Edge(V2, V1), Edge(V3, V2), Edge(V4, V3),
    Edge(MEMO, V1, partial=True), Edge(MEMO, V2, partial=True),
    Edge(V3, MEMO), Edge(V4, MEMO),
])


# --------------------------------------------------------------------------- the chain shown


def test_the_chain_shown_runs_along_full_edges_when_they_lead_there() -> None:
    assert TRAVEL.distance(V1, V4) == 2             # v1 -> memo (in part) -> v4
    assert TRAVEL.chain_length(V1, V4) == 3         # v1 -> v2 -> v3 -> v4, the verdict's chain
    assert TRAVEL.chain_length(MEMO, V4) == 1
    assert TRAVEL.controlling({V1}) == {V4}


def test_a_controlling_document_reached_only_through_an_amendment_keeps_the_shortest_chain() -> None:
    amended = AuthorityGraph([Edge("m", "a", partial=True), Edge("n", "m")])
    assert amended.controlling({"a"}) == {"a", "n"}
    assert amended.chain_length("a", "n") == 2 and amended.chain_length("a", "a") == 0
    assert amended.chain_length("n", "a") is None


def hop(older: str, newer: str, *, partial: bool = False, rule: str = "version_replaces_previous") -> Hop:
    return Hop(from_id=older, to_id=newer, rule=rule, effective=date(2021, 1, 1), evidence=None,
               partial=partial)


def test_explain_shows_the_amendments_beside_the_chain() -> None:
    v4 = Result(doc_id=V4, title="Travel policy, version 4", kind="policy_version", domain="policy",
                published=date(2023, 5, 22), status=Status.ACTIVE, score=1.0, anchor_id=V1,
                chain=(hop(V1, V2), hop(V2, V3), hop(V3, V4)),
                amendments=(hop(V1, MEMO, partial=True, rule="memo_amends_version"),
                            hop(V2, MEMO, partial=True, rule="memo_amends_version")))
    tree = render_explanation(Explanation(doc_id=V1, title="Travel policy, version 1",
                                          status=Status.SUPERSEDED, as_of=None, controlling=(v4,),
                                          superseded_by=(), supersedes=()))
    lines = [line.strip(" │├└─") for line in tree.splitlines()]
    at = {text: i for i, text in enumerate(lines)}
    amendment = "amended in part by memo via memo_amends_version on 2021-01-01"
    assert [line for line in lines if line.startswith("amended")] == [amendment, amendment]
    # v1's amendment under the controlling branch, v2's under the hop to v2, before v3's hop
    assert lines.index(amendment) < at["superseded by v2 via version_replaces_previous on 2021-01-01"]
    assert (at["superseded by v2 via version_replaces_previous on 2021-01-01"]
            < len(lines) - 1 - lines[::-1].index(amendment)
            < at["superseded by v3 via version_replaces_previous on 2021-01-01"])


# --------------------------------------------------------------------------- one caution


def test_the_verdict_cautions_the_scopes_its_subjects_closure_says_hold_several_chains() -> None:
    v4 = Result(doc_id=V4, title="v4", kind=None, domain=None, published=None, status=Status.ACTIVE,
                score=1.0, anchor_id=V2, chain=(hop(V2, V3), hop(V3, V4)))
    retrieval = Retrieval(question="Is v2 still in force?", as_of=None, results=(v4,), anchors=(V2,),
                          suppressed=1, ambiguous_scopes=("line:travel",))
    subject = Explanation(doc_id=V2, title="v2", status=Status.SUPERSEDED, as_of=None,
                          controlling=(v4,), superseded_by=(hop(V2, V3),), supersedes=(),
                          scope=("line:travel",), ambiguous_scopes=())
    # the retrieval's listed rows say nothing about the subject: its own reading does
    assert decide(retrieval, subject).ambiguous_scopes == ()
    several = replace(subject, ambiguous_scopes=("line:travel",))
    assert decide(retrieval, several).ambiguous_scopes == ("line:travel",)


def test_the_caution_and_multi_chain_scopes_share_one_fragment() -> None:
    uses = {name: set(cypher.fragments_used(name)) for name in
            ("analyst/multi_chain_scopes", "closure", "explain", "analyst/chain")}
    assert "chain_head" in uses["analyst/multi_chain_scopes"]
    assert ("closure", {"anchors": "anchors"}) in cypher.includes("car")  # anchors handed to closure
    for name in ("closure", "explain"):
        assert {"several_chains", "chain_head"} <= uses[name], name
    for name in ("closure", "analyst/chain"):
        assert {"chain_path", "amendments"} <= uses[name], name
    # the head test is written once: nowhere else does a statement ask what supersedes a head
    for name in cypher.query_names():
        assert "head_newer IN docs" not in cypher.raw_text(name), name


# --------------------------------------------------------------------------- min_partial_digits


POLICY = {"domain": "policy", "identifiers": [
    {"type": "policy_number", "pattern": r"POL-\d{4}-\d{3}", "partial": True, "min_partial_digits": 3},
    {"type": "memo_number", "pattern": r"MEMO-\d{4}-\d{2}", "partial": True},
]}


def test_min_partial_digits_is_read_from_the_yaml_and_stored_with_the_domain() -> None:
    domain = domain_from_mapping(POLICY, "policy.yaml")
    assert domain is not None
    assert {s.type: s.min_partial_digits for s in domain.identifiers} == {"policy_number": 3, "memo_number": None}
    stored = domain_to_mapping(domain)
    assert [i.get("min_partial_digits") for i in stored["identifiers"]] == [3, None]
    assert "min_partial_digits" not in stored["identifiers"][1]  # a domain without it stores as before
    again = domain_from_json(json.dumps(stored), "graph domain policy")
    assert {s.type: s.min_partial_digits for s in again.identifiers} == {"policy_number": 3, "memo_number": None}
    assert DomainRegistry([again]).partial_digits(LinkingSettings.min_partial_digits) == {
        "policy_number": 3, "memo_number": 4}


@pytest.mark.parametrize("value", [0, -1, "3", 2.5, True])
def test_min_partial_digits_must_be_a_whole_number(value: object) -> None:
    bad = {"domain": "policy", "identifiers": [
        {"type": "policy_number", "pattern": r"POL-\d{4}-\d{3}", "partial": True, "min_partial_digits": value}]}
    with pytest.raises(RulesError, match="min_partial_digits"):
        domain_from_mapping(bad, "policy.yaml")


def test_min_partial_digits_needs_a_partial_identifier() -> None:
    bad = {"domain": "policy", "identifiers": [
        {"type": "policy_number", "pattern": r"POL-\d{4}-\d{3}", "min_partial_digits": 3}]}
    with pytest.raises(RulesError, match="partial: true"):
        domain_from_mapping(bad, "policy.yaml")


def test_digit_runs_as_short_as_the_least_a_type_allows() -> None:
    settings = LinkingSettings()
    assert partial_digit_runs("Is policy 031 still in force?", [], settings) == []
    assert partial_digit_runs("Is policy 031 still in force?", [], settings, least=3) == ["031"]
    assert partial_digit_runs("Is memo 07 still in force?", [], settings, least=3) == []
