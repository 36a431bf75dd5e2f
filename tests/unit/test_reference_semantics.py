"""car_graph/semantics.py, the reference the Cypher is property-tested against, on records small
enough to read the answer off by hand: the facts ``authority_graph`` takes from the records
(publication, withdrawal, unresolved dates), the explicit edges it keeps, the edges rules make
(attribute conditions, order, partial flags), and the walks over them (``reaches``, voiding)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.semantics import (
    EXPLICIT,
    AuthorityGraph,
    DocFacts,
    Edge,
    History,
    attribute_match,
    authority_graph,
    explicit_edges,
    rule_edges,
    unresolved_from,
)
from car_graph.types import Status


def rec(doc_id: str, published: str, supersedes: list[dict[str, Any]] | None = None, **extra: Any) -> Any:
    return parse_record({"id": doc_id, "text": f"document {doc_id}", "kind": extra.pop("kind", "decision"),
                         "published": published, "supersedes": supersedes or [], **extra})


RELEASE_RULE = parse_rules({"rules": [{
    "name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory", "scope": "package",
    "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}]}, "test")


def test_a_withdrawal_in_the_records_withdraws_the_document_from_that_day() -> None:
    graph = authority_graph([rec("W", "2003-01-01", attributes={"withdrawn": "2015-06-01"}),
                             rec("T", "2003-01-01", attributes={"withdrawn": "2016-02-03T09:30:00Z"}),
                             rec("K", "2003-01-01")])
    assert graph.status("W") is Status.WITHDRAWN
    assert graph.status("W", date(2015, 5, 31)) is Status.ACTIVE
    assert graph.status("W", date(2015, 6, 1)) is Status.WITHDRAWN
    # an instant counts from its day
    assert (graph.status("T", date(2016, 2, 2)), graph.status("T", date(2016, 2, 3))) == (
        Status.ACTIVE, Status.WITHDRAWN)
    assert graph.status("K") is Status.ACTIVE


def test_a_document_supersedes_nothing_before_it_is_published() -> None:
    # C's reference takes effect in 2001, but C is published only in 2010
    graph = authority_graph([rec("A", "2000-01-01"),
                             rec("C", "2010-01-01", [{"id": "A", "effective": "2001-01-01"}])])
    assert graph.status("A", date(2005, 1, 1)) is Status.ACTIVE
    assert graph.closure({"C"}, date(2005, 1, 1)) == set()
    assert graph.controlling({"A"}, date(2005, 1, 1)) == {"A"}
    assert graph.controlling({"A"}, date(2010, 1, 1)) == {"C"}


def test_a_later_document_a_rule_could_link_leaves_the_older_one_unresolved_from_its_date() -> None:
    records = [
        rec("ADV", "2019-01-01", kind="advisory", scope={"package": "npm:lib"},
            attributes={"fixed_versions": ["4.17.12"]}),
        # a release of another package, earlier: shares no scope, decides nothing
        rec("OTHER", "2019-03-01", kind="release", scope={"package": "npm:other"}, attributes={"version": "1.0.0"}),
        # a release of the package before the advisory: not later, so it leaves nothing open
        rec("REL0", "2018-06-01", kind="release", scope={"package": "npm:lib"}, attributes={"version": "4.0.0"}),
        # a release of the package that is not the fixed version: no edge, but undecided
        rec("REL", "2019-07-01", kind="release", scope={"package": "npm:lib"}, attributes={"version": "5.0.0"}),
    ]
    assert unresolved_from(RELEASE_RULE, records) == {"ADV": date(2019, 7, 1)}
    graph = authority_graph(records, RELEASE_RULE)
    assert graph.edges == ()
    assert graph.status("ADV", date(2019, 5, 1)) is Status.ACTIVE
    assert graph.status("ADV", date(2019, 7, 1)) is Status.UNRESOLVED
    assert graph.status("ADV") is Status.UNRESOLVED


def test_explicit_edges_keep_the_first_reference_to_each_present_other_document() -> None:
    records = [
        rec("A", "2000-01-01"),
        rec("B", "2005-01-01", [{"id": "B"},                                   # itself: ignored
                                {"id": "GONE"},                                # absent: ignored
                                {"id": "A", "effective": "2006-01-01"},        # kept
                                {"id": "A", "effective": "2009-01-01", "partial": True}]),  # again: first wins
        rec("C", "2010-01-01", [{"id": "A", "partial": True}]),
    ]
    assert explicit_edges(records) == [
        Edge("B", "A", date(2006, 1, 1), False, EXPLICIT),
        Edge("C", "A", date(2010, 1, 1), True, EXPLICIT),  # effective on its own date by default
    ]
    assert EXPLICIT == "explicit"


def test_reaches_follows_edges_in_force_and_partial_ones_unless_told_not_to() -> None:
    graph = AuthorityGraph([Edge("B", "A", date(2005, 1, 1), False, EXPLICIT),
                            Edge("C", "B", date(2010, 1, 1), True, EXPLICIT)])
    assert graph.reaches("A", "C")
    assert not graph.reaches("A", "C", full_only=True)  # C amends B only in part
    assert graph.reaches("A", "B", full_only=True)
    assert not graph.reaches("A", "C", date(2009, 1, 1))  # C's edge is not in force yet
    assert not graph.reaches("C", "A")


@pytest.mark.parametrize(("op", "newer", "older", "matches"), [
    (None, None, None, True),                      # no condition
    ("in", "4.17.12", ["4.17.11", "4.17.12"], True),
    ("in", "4.17.12", "4.17.12", True),            # a scalar is a list of one
    ("in", "4.17.13", ["4.17.11", "4.17.12"], False),
    ("in", ["4.17.12"], ["4.17.12"], False),       # a list is never "in" anything
    ("in", None, ["4.17.12"], False),              # missing values never match
    ("in", "4.17.12", None, False),
    ("in", True, [1], False),                      # a boolean never equals a number
    ("in", 1, [1.0], True),                        # numbers compare across int and float
    ("intersects", ["a", "b"], ["b", "c"], True),
    ("intersects", "a", ["b", "c"], False),
    ("equals", ["a", "b"], ["a", "b"], True),
    ("equals", ["a", "b"], ["b", "a"], False),     # in order
    ("equals", ["a"], ["a", "b"], False),
    ("equals", [["a"]], [["a"]], True),            # element by element, however deep
    ("equals", "a", 1, False),
    ("equals", "1", "1", True),
])
def test_attribute_conditions_compare_as_cypher_does(op: str | None, newer: Any, older: Any, matches: bool) -> None:
    assert attribute_match(op, newer, older) is matches


def test_an_unknown_condition_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown match op 'near'"):
        attribute_match("near", "a", "a")


def edition(doc_id: str, published: str, **attrs: Any) -> Any:
    return rec(doc_id, published, kind="edition", scope={"standard": "iso-1"}, attributes=attrs)


def rules_of(**fields: Any) -> list[Any]:
    return parse_rules({"rules": [{"name": "newer_edition", "newer_kind": "edition", "older_kind": "edition",
                                   "scope": "standard", **fields}]}, "test")


def test_a_later_rule_links_strictly_later_documents_only() -> None:
    records = [edition("E1", "2000-01-01"), edition("E2", "2005-01-01"), edition("E2b", "2005-01-01")]
    assert [(e.newer, e.older) for e in rule_edges(rules_of(order="later"), records)] == [
        ("E2", "E1"), ("E2b", "E1")]  # the two editions of the same day supersede neither
    # with order "any" every other edition, never the document itself
    assert len(rule_edges(rules_of(order="any"), records)) == 6


def test_a_date_known_to_the_year_orders_at_the_year_where_the_same_year_is_not_earlier() -> None:
    records = [edition("E1982", "1982-06-10"), edition("Y1982", "1982"), edition("Y1981", "1981"),
               edition("M198206", "1982-06"), edition("D1982", "1982-06-02")]
    linked = {(e.newer, e.older) for e in rule_edges(rules_of(order="later"), records)}
    # a year against a day: the same year either way, an earlier year never
    assert {("Y1982", "E1982"), ("E1982", "Y1982"), ("Y1982", "Y1981"), ("E1982", "Y1981")} <= linked
    assert ("Y1981", "E1982") not in linked and ("Y1981", "Y1982") not in linked
    # a month against a day: the same month either way; two days: strictly later only
    assert {("M198206", "D1982"), ("D1982", "M198206"), ("E1982", "D1982")} <= linked
    assert ("D1982", "E1982") not in linked
    # a year against itself is not later (one document never supersedes itself)
    assert ("Y1982", "Y1982") not in linked


def test_a_previous_rule_links_only_the_latest_earlier_documents() -> None:
    records = [edition("E1", "2000-01-01"), edition("E2", "2005-01-01"), edition("E2b", "2005-01-01"),
               edition("E3", "2010-01-01")]
    assert [(e.newer, e.older) for e in rule_edges(rules_of(order="previous"), records)] == [
        ("E2", "E1"), ("E2b", "E1"), ("E3", "E2"), ("E3", "E2b")]  # ties: all of them


def test_a_rules_edges_are_partial_as_the_rule_or_the_newer_documents_flag_says() -> None:
    records = [edition("E1", "2000-01-01"), edition("E2", "2005-01-01", amends=True),
               edition("E3", "2010-01-01", amends=False)]
    edges = rule_edges(rules_of(order="previous", partial_from="amends"), records)
    assert edges == [Edge("E2", "E1", date(2005, 1, 1), True, "newer_edition"),
                     Edge("E3", "E2", date(2010, 1, 1), False, "newer_edition")]
    edges = rule_edges(rules_of(order="previous", partial=True), records)
    assert [e.partial for e in edges] == [True, True]


def test_the_graph_keeps_the_edges_it_is_given() -> None:
    edges = [Edge("B", "A", None, False, EXPLICIT), Edge("C", "B", None, True, EXPLICIT)]
    assert AuthorityGraph(edges).edges == tuple(edges)
    assert AuthorityGraph([("B", "A", None, False, EXPLICIT)]).edges == (edges[0],)


def test_a_full_superseder_voids_even_when_a_partial_one_is_met_first() -> None:
    graph = AuthorityGraph([Edge("P", "A", None, True, EXPLICIT), Edge("F", "A", None, False, EXPLICIT)])
    assert graph.is_superseded("A")
    assert graph.controlling({"A"}) == {"P", "F"}


def test_a_partial_edge_back_does_not_make_a_cycle_and_a_cycle_counts_from_when_it_closes() -> None:
    # B supersedes A in full; A amends B only in part: A is voided, no cycle
    graph = AuthorityGraph([Edge("B", "A", None, False, EXPLICIT), Edge("A", "B", None, True, EXPLICIT)])
    assert graph.status("A") is Status.SUPERSEDED
    # B voids A from 2005; A's own full edge back closes a cycle only in 2010
    graph = AuthorityGraph([Edge("B", "A", date(2005, 1, 1), False, EXPLICIT),
                            Edge("A", "B", date(2010, 1, 1), False, EXPLICIT)])
    assert graph.status("A", date(2007, 1, 1)) is Status.SUPERSEDED
    assert graph.status("A", date(2011, 1, 1)) is Status.UNRESOLVED


def test_the_history_answers_with_the_state_the_last_run_at_or_before_left() -> None:
    first = AuthorityGraph([], {"A": DocFacts()})
    second = AuthorityGraph([Edge("B", "A", None, False, EXPLICIT)], {"A": DocFacts(), "B": DocFacts()})
    history = History()
    assert history.known_at().docs == {} and history.recorded_ids(5) == set()  # nothing recorded yet
    history.record(10, first)
    history.record(20, second)
    assert history.known_at(5).docs == {}  # before the first run
    assert history.known_at(10) is first and history.known_at(19) is first
    assert history.known_at(20) is second and history.known_at() is second
    assert history.recorded_ids(15) == {"A"} and history.recorded_ids() == {"A", "B"}
    with pytest.raises(ValueError, match="strictly increasing"):
        history.record(20, second)
    third = AuthorityGraph([], {"C": DocFacts()})
    history.record(30, third)
    assert history.known_at() is third and history.known_at(25) is second  # the latest, not the second


def test_a_self_supersession_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="a document cannot supersede itself: 'A'"):
        AuthorityGraph([Edge("A", "A", None, False, EXPLICIT)])


def test_cycles_and_superseders_are_read_as_of_the_date_asked() -> None:
    # B voids A from 2005; A's full edge back closes a cycle only in 2010
    graph = AuthorityGraph([Edge("B", "A", date(2005, 1, 1), False, EXPLICIT),
                            Edge("A", "B", date(2010, 1, 1), False, EXPLICIT)])
    assert not graph.in_cycle("A", date(2007, 1, 1))  # voided then, on no cycle
    assert graph.in_cycle("A", date(2011, 1, 1)) and graph.in_cycle("A")
    # a cycle that closes in 2010 leaves both in force before
    late = AuthorityGraph([Edge("B", "A", date(2010, 1, 1), False, EXPLICIT),
                           Edge("A", "B", date(2010, 1, 1), False, EXPLICIT)])
    assert late.status("A", date(2007, 1, 1)) is Status.ACTIVE
    assert late.status("A", date(2010, 1, 1)) is Status.UNRESOLVED
    # an amendment counts from its date
    amended = AuthorityGraph([Edge("P", "A", date(2010, 1, 1), True, EXPLICIT)])
    assert amended.status("A", date(2007, 1, 1)) is Status.ACTIVE
    assert amended.status("A", date(2011, 1, 1)) is Status.PARTIALLY_SUPERSEDED


def release(doc_id: str, published: str, scope: dict[str, str], domain: str | None = None) -> Any:
    return rec(doc_id, published, kind="release", scope=scope, attributes={"version": "2.0.0"},
               **({"domain": domain} if domain else {}))


def advisory(doc_id: str, published: str, scope: dict[str, str], domain: str | None = None) -> Any:
    return rec(doc_id, published, kind="advisory", scope=scope, attributes={"fixed_versions": ["2.0.0"]},
               **({"domain": domain} if domain else {}))


def release_rule(**fields: Any) -> list[Any]:
    return parse_rules({"rules": [{"name": "fix", "newer_kind": "release", "older_kind": "advisory",
                                   "scope": "package", "order": "later",
                                   "match": {"newer": "version", "older": "fixed_versions", "op": "in"},
                                   **fields}]}, "test")


def test_a_rule_over_two_scope_types_reads_each_type_even_where_a_document_has_none() -> None:
    records = [advisory("ADV", "2019-01-01", {"package": "pypi:x", "ecosystem": "pypi"}),
               release("REL", "2019-07-01", {"package": "pypi:x"})]
    # 'any': one shared entity of either type links; the release has no ecosystem at all
    assert [(e.newer, e.older) for e in rule_edges(release_rule(scope=["package", "ecosystem"]), records)] == [
        ("REL", "ADV")]
    # 'all': one of every type must be shared, and the release shares no ecosystem
    rules = release_rule(scope={"all": ["package", "ecosystem"]})
    assert rule_edges(rules, records) == []
    assert unresolved_from(rules, records) == {}


def test_a_rule_without_a_domain_links_documents_of_any_domain_and_one_with_a_domain_only_its_own() -> None:
    records = [advisory("ADV", "2019-01-01", {"package": "pypi:x"}, domain="security"),
               advisory("LAW", "2019-01-01", {"package": "pypi:x"}, domain="law"),
               release("REL", "2019-07-01", {"package": "pypi:x"}, domain="security")]
    assert [(e.newer, e.older) for e in rule_edges(release_rule(), records)] == [("REL", "ADV"), ("REL", "LAW")]
    assert [(e.newer, e.older) for e in rule_edges(release_rule(domain="security"), records)] == [("REL", "ADV")]


def test_documents_published_at_the_same_instant_are_not_later_than_each_other() -> None:
    records = [advisory("ADV", "2019-01-01T10:00:00+00:00", {"package": "pypi:x"}),
               release("SAME", "2019-01-01T10:00:00+00:00", {"package": "pypi:x"}),
               release("LATER", "2019-01-01T10:00:01+00:00", {"package": "pypi:x"})]
    assert [(e.newer, e.older) for e in rule_edges(release_rule(), records)] == [("LATER", "ADV")]
