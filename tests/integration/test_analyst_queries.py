"""The analyst query library on a small hand-made graph whose answers can be read off it.

    scope case:x      A (2000) <- B (2005) <- C (2010)       one chain, controller C
                      D (2001)                               a second chain in the same scope
    scope case:y      E (2002) <-(in part)- F (2012)
    scope case:z      W, withdrawn 2015-06-01, nothing supersedes it
    scope case:loop   P <-> Q (explicit edges both ways: a cycle)
    package npm:lib   ADV (fixed in 4.17.12) <- REL-4.17.12 by the release rule;
                      ADV-2 (fixed in 9.0) and REL-4.17.12 share the scope, no rule decides
"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.errors import QueryParameterError, UnknownQueryError
from car_graph.records import parse_record
from car_graph.rules import parse_rules

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def doc(doc_id: str, published: str, scope: dict, text: str, **extra) -> dict:
    return {"id": doc_id, "kind": extra.pop("kind", "decision"), "published": published,
            "title": text, "text": text, "scope": scope, "domain": "test", **extra}


X, Y, Z, LOOP = {"case": "X"}, {"case": "Y"}, {"case": "Z"}, {"case": "Loop"}
PKG = {"package": "npm:lib"}
DOCS = [
    doc("A", "2000-01-01", X, "The founding decision on river water rights for farmers."),
    doc("B", "2005-01-01", X, "A later decision.", supersedes=[{"id": "A", "evidence": "B overrules A"}]),
    doc("C", "2010-01-01", X, "The newest decision.", supersedes=[{"id": "B", "evidence": "C overrules B"}]),
    doc("D", "2001-01-01", X, "An unrelated holding on fishing licences."),
    doc("E", "2002-01-01", Y, "A holding on grazing."),
    doc("F", "2012-01-01", Y, "Partly revisits grazing.",
        supersedes=[{"id": "E", "evidence": "F overrules E in part", "partial": True}]),
    doc("W", "2003-01-01", Z, "An approval later withdrawn.", attributes={"withdrawn": "2015-06-01"}),
    doc("P", "2004-01-01", LOOP, "One of two.", supersedes=[{"id": "Q", "evidence": "P says so"}]),
    doc("Q", "2004-02-01", LOOP, "The other.", supersedes=[{"id": "P", "evidence": "Q says so"}]),
    doc("ADV", "2019-01-01", PKG, "Prototype pollution in lib.", kind="advisory",
        attributes={"fixed_versions": ["4.17.12"]}),
    doc("ADV-2", "2019-02-01", PKG, "Another flaw in lib.", kind="advisory",
        attributes={"fixed_versions": ["9.0"]}),
    doc("REL-4.17.12", "2019-07-01", PKG, "lib 4.17.12 is out.", kind="release",
        attributes={"version": "4.17.12"}),
]
RULE = {"name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
        "scope": "package", "confidence": 0.9,
        "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}


@pytest.fixture
def graph(car: CarClient) -> CarClient:
    summary = car.ingest([parse_record(d) for d in DOCS], parse_rules({"rules": [RULE]}, "test"))
    assert summary.edges_by_rule == {"explicit": 5, "release_fixes_advisory": 1}
    return car


def rows(car: CarClient, name: str, **params) -> list[dict]:
    return list(car.query(name, **params).rows)


def test_chain_of_a_document_walks_to_its_controller(graph: CarClient) -> None:
    [row] = rows(graph, "chain", doc_id="A")
    assert row["controlling_id"] == "C" and row["controlling_status"] == "active"
    assert row["doc_ids"] == ["A", "B", "C"] and row["hops"] == 2
    assert row["rules"] == ["explicit", "explicit"]
    assert row["evidence"] == ["B overrules A", "C overrules B"]
    assert row["path"]["nodes"] == ["A", "B", "C"]
    assert [(r["from"], r["to"], r["rule"]) for r in row["path"]["relationships"]] == [
        ("B", "A", "explicit"), ("C", "B", "explicit")]


def test_chain_as_of_a_date_stops_at_the_controller_then(graph: CarClient) -> None:
    [row] = rows(graph, "chain", doc_id="A", as_of="2007-01-01")
    assert row["doc_ids"] == ["A", "B"]
    # an unsuperseded document is its own controller, with no hops
    [row] = rows(graph, "analyst/chain", doc_id="D")
    assert (row["controlling_id"], row["hops"]) == ("D", 0)


def test_chain_of_a_partially_superseded_document_has_two_ends(graph: CarClient) -> None:
    result = rows(graph, "chain", doc_id="E")
    assert [(r["controlling_id"], r["controlling_status"], r["hops"]) for r in result] == [
        ("E", "partially_superseded", 0), ("F", "active", 1)]


def test_controlling_documents_for_an_entity_by_name_or_key(graph: CarClient) -> None:
    result = rows(graph, "controlling_for_entity", entity_key="x")
    assert [(r["doc_id"], r["status"], r["supersedes"]) for r in result] == [
        ("C", "active", ["A", "B"]), ("D", "active", [])]
    assert {r["entity"] for r in result} == {"case:x"}
    assert rows(graph, "controlling_for_entity", entity_key="X", entity_type="package") == []
    before = rows(graph, "controlling_for_entity", entity_key="x", as_of="2006-01-01")
    assert [(r["doc_id"], r["supersedes"]) for r in before] == [("B", ["A"]), ("D", [])]
    pkg = rows(graph, "controlling_for_entity", entity_key="npm:lib", entity_type="package")
    assert {(r["doc_id"], r["status"]) for r in pkg} == {("REL-4.17.12", "active"), ("ADV-2", "unresolved")}
    assert [r["rules"] for r in pkg if r["doc_id"] == "REL-4.17.12"] == [["release_fixes_advisory"]]


def test_what_controlled_on_a_date_and_what_changed_since(graph: CarClient) -> None:
    result = rows(graph, "controlling_on_date", entity_key="x", on="2006-06-01")
    assert [(r["doc_id"], r["still_controls"]) for r in result] == [("B", False), ("D", True)]
    [b] = [r for r in result if r["doc_id"] == "B"]
    assert b["superseded_since"] == [
        {"by": "C", "title": "The newest decision.", "rule": "explicit", "effective": "2010-01-01", "partial": False}]


def cosine_ranks(db, embedding: list[float]) -> dict[str, int]:
    """Every document's rank by the cosine of its stored vector with ``embedding``, computed
    here rather than by the vector index (ties by id, as the query breaks them)."""
    records, _, _ = db.execute_query("MATCH (d:Document) RETURN d.id AS id, d.embedding AS vector")

    def cosine(vector: list[float]) -> float:
        dot = sum(x * y for x, y in zip(vector, embedding, strict=True))
        return dot / (math.sqrt(sum(x * x for x in vector)) * math.sqrt(sum(y * y for y in embedding)))

    order = sorted(records, key=lambda r: (-cosine(r["vector"]), r["id"]))
    return {r["id"]: i + 1 for i, r in enumerate(order)}


def test_stale_crowding_lists_superseded_top_matches_and_where_their_controller_ranks(
        graph: CarClient, db) -> None:
    embedding = graph.embedder.embed_query("river water rights for farmers")
    rank = cosine_ranks(db, embedding)
    assert len(rank) == len(DOCS)
    stale = {"A": ["C"], "B": ["C"], "ADV": ["REL-4.17.12"], "W": []}  # superseded or withdrawn
    result = rows(graph, "stale_crowding", embedding=embedding, k=3)
    assert result[0]["rank"] == 1 and result[0]["doc_id"] == "A"  # the best match is voided
    assert result[0]["status"] == "superseded"
    # the top 3's stale documents, each with its controllers' ranks when they are in the top 3 too
    top3 = sorted((d for d in stale if rank[d] <= 3), key=rank.get)
    assert [(r["rank"], r["doc_id"], r["controlled_by"]) for r in result] == [
        (rank[d], d, stale[d]) for d in top3]
    for r in result:
        ranks = [rank[c] if rank[c] <= 3 else None for c in stale[r["doc_id"]]]
        assert r["controller_ranks"] == ranks, r
        assert r["crowded_out"] is all(x is None for x in ranks), r
    everything = rows(graph, "stale_crowding", embedding=embedding, k=12)
    assert [(r["rank"], r["doc_id"], r["controlled_by"]) for r in everything] == [
        (rank[d], d, stale[d]) for d in sorted(stale, key=rank.get)]
    for r in everything:  # with k = all documents every controller is in the list, at its rank
        assert r["controller_ranks"] == [rank[c] for c in stale[r["doc_id"]]], r
    [a] = [r for r in everything if r["doc_id"] == "A"]
    assert a["controller_ranks"] == [rank["C"]] and a["crowded_out"] is False


def test_scopes_with_more_than_one_chain(graph: CarClient) -> None:
    result = rows(graph, "multi_chain_scopes")
    by_key = {r["entity_key"]: r for r in result}
    x = by_key["x"]
    assert (x["documents"], x["chains"], x["largest_chain"], x["kappa"]) == (4, 2, 3, 1.33)
    assert sorted(x["heads"]) == ["C", "D"]
    assert by_key["npm:lib"]["chains"] == 2  # REL-4.17.12 and the undecided ADV-2
    assert "y" not in by_key  # E and F form one chain (the partial edge leaves E in force, though)
    assert sorted(by_key["loop"]["heads"]) == ["P", "Q"]  # a cycle decides nothing
    assert rows(graph, "multi_chain_scopes", entity_type="package", min_chains=3) == []


def test_rule_audit_counts_reach_and_shows_evidence_and_confidence(graph: CarClient) -> None:
    result = {r["rule"]: r for r in rows(graph, "rule_audit", samples=10)}
    explicit, release = result["explicit"], result["release_fixes_advisory"]
    assert (explicit["edges"], explicit["partial_edges"], explicit["cycle_edges"]) == (5, 1, 2)
    assert explicit["documents_superseded"] == 5 and explicit["scope_entities"] == 3
    assert (release["edges"], release["min_confidence"], release["documents_superseded"]) == (1, 0.9, 1)
    [edge] = release["sample_edges"]
    assert (edge["newer"], edge["older"], edge["confidence"]) == ("REL-4.17.12", "ADV", 0.9)
    assert "4.17.12" in edge["evidence"]
    assert [r["rule"] for r in rows(graph, "rule_audit", rule="release_fixes_advisory")] == [
        "release_fixes_advisory"]
    assert len(rows(graph, "rule_audit", samples=1)[0]["sample_edges"]) == 1


def test_withdrawn_and_unresolved_documents_with_reasons(graph: CarClient) -> None:
    result = {r["doc_id"]: r for r in rows(graph, "withdrawn_unresolved")}
    assert set(result) == {"W", "P", "Q", "ADV-2"}
    assert (result["W"]["status"], result["W"]["withdrawn"]) == ("withdrawn", "2015-06-01")
    assert result["P"]["reason"] == "on a supersession cycle" and result["P"]["involved"] == ["Q"]
    assert result["ADV-2"]["status"] == "unresolved"
    assert result["ADV-2"]["scope"] == ["package:npm:lib"]
    # before the withdrawal took effect, W is neither withdrawn nor unresolved
    assert "W" not in {r["doc_id"] for r in rows(graph, "withdrawn_unresolved", as_of="2010-01-01")}


def test_missing_and_unknown_parameters_and_names_are_clear_errors(graph: CarClient) -> None:
    with pytest.raises(QueryParameterError, match=r"needs \$doc_id .*:param doc_id =>"):
        graph.query("chain")
    with pytest.raises(QueryParameterError, match="has no parameter doc"):
        graph.query("chain", doc="A")
    with pytest.raises(UnknownQueryError, match="nearest: chain"):
        graph.query("chian")
    with pytest.raises(UnknownQueryError):
        graph.query("../retrieve")


def test_cli_query_prints_json_csv_and_records(graph: CarClient, neo4j_target) -> None:
    env = {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}
    runner = CliRunner()
    run = runner.invoke(main, ["query", "chain", "--param", "doc_id=A", "--json"], env=env)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["query"] == "analyst/chain" and data["rows"][0]["doc_ids"] == ["A", "B", "C"]

    run = runner.invoke(main, ["query", "controlling_for_entity", "-p", "entity_key=x", "--csv"], env=env)
    assert run.exit_code == 0, run.output
    table = list(csv.DictReader(io.StringIO(run.output)))
    assert [(r["doc_id"], json.loads(r["supersedes"])) for r in table] == [("C", ["A", "B"]), ("D", [])]

    run = runner.invoke(main, ["query", "stale_crowding", "--embed",
                               "embedding=river water rights for farmers", "-p", "k=3"], env=env)
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    assert lines[1] == "-- row 1"
    assert lines[2].split() == ["rank", "1"] and lines[3].split() == ["doc_id", "A"]

    run = runner.invoke(main, ["query", "chain"], env=env)
    assert run.exit_code == 1 and "needs $doc_id" in run.output
