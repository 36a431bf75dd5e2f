"""Transaction time beside valid time (graph_schema/README.md, "Two clocks"): what car-graph
recorded, and when. An update records the new version and closes the old one, a delete closes
instead of erasing, a rules change closes the edges it no longer makes (with the rule and the
run), and `purge` really erases closed history -- each checked on a real Neo4j by reading the
recorded history back."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from reliability_helpers import ConstantEmbedder

from car_graph.cli import main
from car_graph.evaluation import graph_embedders
from car_graph.extraction import EntityExtractor
from car_graph.ingest.pipeline import delete_documents, ingest_records, purge_history
from car_graph.records import parse_record
from car_graph.rules import parse_rules

pytestmark = [pytest.mark.neo4j]


def rule(op: str = "in"):
    return parse_rules({"rules": [{
        "name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
        "scope": "package", "match": {"newer": "version", "older": "fixed", "op": op},
    }]}, "test")


ADVISORY = {"id": "ADV-1", "kind": "advisory", "published": "2020-01-01", "text": "flaw in p",
            "scope": {"package": ["p"]}, "attributes": {"fixed": ["1.0"]}}
RELEASE = {"id": "REL-1", "kind": "release", "published": "2020-02-01", "text": "p 1.0",
           "scope": {"package": ["p"]}, "attributes": {"version": "1.0"}}


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


def ingest(store, extractor, *docs, rules=None):
    return ingest_records([parse_record(d) for d in docs], store, ConstantEmbedder(), extractor,
                          rule() if rules is None else rules, progress=False)


def history(db, doc_id: str) -> dict:
    """Test-only reads of what was recorded about one document."""
    current = db.execute_query(
        "MATCH (d:Document {id: $id}) RETURN d.recorded_from AS since, d.text AS text", id=doc_id).records
    versions = db.execute_query(
        "MATCH (v:DocumentVersion {id: $id})-[:VERSION_OF]->() "
        "RETURN v.text AS text, v.recorded_from AS since, v.recorded_until AS until, "
        "v.closed_reason AS reason, v.closed_by_run AS run, "
        "COLLECT { MATCH (v)-[w:WAS_LINKED]->(e) RETURN w.kind + ' ' + e.key } AS links "
        "ORDER BY since", id=doc_id).records
    closed = db.execute_query(
        "MATCH (n)-[c:CLOSED_SUPERSEDES]->(o) WHERE $id IN [n.id, o.id] "
        "RETURN n.id AS newer, o.id AS older, c.rule AS rule, c.recorded_from AS since, "
        "c.recorded_until AS until, c.closed_reason AS reason, c.closed_by_run AS run "
        "ORDER BY until", id=doc_id).records
    return {"current": [dict(r) for r in current], "versions": [dict(r) for r in versions],
            "closed": [dict(r) for r in closed]}


def runs(db) -> list[dict]:
    return [dict(r) for r in db.execute_query(
        "MATCH (r:Run) RETURN r.number AS number, r.at AS at, r.command AS command ORDER BY number").records]


def test_update_delete_and_rule_change_close_instead_of_erasing(db, store, extractor) -> None:
    ingest(store, extractor, ADVISORY, RELEASE)
    first = history(db, "ADV-1")
    assert first["versions"] == [] and first["closed"] == []
    edge_since = db.execute_query(
        "MATCH ()-[s:SUPERSEDES]->() RETURN s.recorded_from AS since").records[0]["since"]
    assert edge_since == first["current"][0]["since"]

    # the same input again records nothing: no run, no version
    ingest(store, extractor, ADVISORY, RELEASE)
    assert len(runs(db)) == 1

    # a corrected record: new version recorded, old one closed with its links; the rule no
    # longer links the release (fixed moved to 2.0), so the edge closes
    ingest(store, extractor, {**ADVISORY, "text": "flaw in p, corrected",
                              "attributes": {"fixed": ["2.0"]}})
    second = history(db, "ADV-1")
    assert second["current"][0]["text"] == "flaw in p, corrected"
    [old] = second["versions"]
    assert old["text"] == "flaw in p" and old["reason"] == "updated"
    assert old["since"] == first["current"][0]["since"]
    assert old["until"] == second["current"][0]["since"] > old["since"]
    assert "IN_SCOPE p" in old["links"]
    [edge] = second["closed"]
    assert (edge["newer"], edge["older"], edge["rule"]) == ("REL-1", "ADV-1", "release_fixes_advisory")
    assert edge["since"] == edge_since and edge["until"] == old["until"]
    assert edge["run"] == runs(db)[-1]["number"]
    assert db.execute_query("MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS n").records[0]["n"] == 0

    # a delete closes: the release is retired, its last version kept
    delete_documents(store, ["REL-1"])
    rel = history(db, "REL-1")
    assert rel["current"] == []
    [last] = rel["versions"]
    assert last["reason"] == "deleted" and last["text"] == "p 1.0"
    assert db.execute_query("MATCH (r:RetiredDocument {id: 'REL-1'}) RETURN count(r) AS n"
                            ).records[0]["n"] == 1
    recorded = runs(db)
    assert [r["command"] for r in recorded] == ["ingest", "ingest", "delete"]
    assert all(a["at"] < b["at"] for a, b in itertools.pairwise(recorded))

    # ingesting the id again revives the same node: its history stays its own
    ingest(store, extractor, {**RELEASE, "attributes": {"version": "2.0"}})
    revived = history(db, "REL-1")
    assert revived["current"] and len(revived["versions"]) == 1
    assert db.execute_query("MATCH (n {id: 'REL-1'}) WHERE n:Document OR n:RetiredDocument "
                            "RETURN count(n) AS n").records[0]["n"] == 1
    assert db.execute_query("MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS n").records[0]["n"] == 1

    # a rules change that no longer makes the edge closes it, with the rule and the run
    ingest(store, extractor, rules=rule("equals"))  # version "2.0" never equals ["2.0"]
    closed = [c for c in history(db, "ADV-1")["closed"] if c["reason"] == "rule changed"]
    assert len(closed) == 1 and closed[0]["rule"] == "release_fixes_advisory"
    assert closed[0]["run"] == runs(db)[-1]["number"]
    assert db.execute_query("MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS n").records[0]["n"] == 0


class OtherMachineEmbedder(ConstantEmbedder):
    def provenance(self) -> dict:
        return {"cpu": {"machine": "aarch64", "features": []}}


def test_each_ingest_run_records_its_embedder_and_a_delete_run_none(db, store, extractor) -> None:
    ingest(store, extractor, ADVISORY)
    delete_documents(store, ["ADV-1"])
    ingest(store, extractor, RELEASE)
    ingest_records([parse_record(ADVISORY)], store, OtherMachineEmbedder(), extractor, rule(),
                   progress=False)
    recorded = [(r["command"], r["embedder"] and json.loads(r["embedder"])) for r in db.execute_query(
        "MATCH (r:Run) RETURN r.command AS command, r.embedder AS embedder ORDER BY r.number").records]
    here = {"model": "constant", "variant": "custom", "dimensions": 384}
    there = {**here, "cpu": {"machine": "aarch64", "features": []}}
    assert recorded == [("ingest", here), ("delete", None), ("ingest", here), ("ingest", there)]
    assert graph_embedders(store) == [
        {"embedder": here, "runs": 2, "first_run": 1, "last_run": 3},
        {"embedder": there, "runs": 1, "first_run": 4, "last_run": 4},
    ]


def test_an_unchanged_edge_survives_an_update_with_its_recorded_time(db, store, extractor) -> None:
    ingest(store, extractor, ADVISORY, RELEASE)
    since = db.execute_query("MATCH ()-[s:SUPERSEDES]->() RETURN s.recorded_from AS t").records[0]["t"]
    ingest(store, extractor, {**ADVISORY, "text": "flaw in p, reworded"})  # same fixed version
    rows = db.execute_query("MATCH ()-[s:SUPERSEDES]->() RETURN s.recorded_from AS t").records
    assert [r["t"] for r in rows] == [since]
    assert history(db, "ADV-1")["closed"] == []


def test_purge_erases_closed_history_and_keeps_the_current_state(db, store, extractor) -> None:
    ingest(store, extractor, ADVISORY, RELEASE)
    ingest(store, extractor, {**ADVISORY, "attributes": {"fixed": ["2.0"]}})
    delete_documents(store, ["REL-1"])
    current = db.execute_query("MATCH (d:Document) RETURN d.id AS id, d.recorded_from AS t").records
    kept = db.execute_query(
        "RETURN COUNT { (:DocumentVersion) } AS versions, COUNT { ()-[:CLOSED_SUPERSEDES]->() } AS edges"
    ).records[0]
    # the update and the delete closed a version each; the delete also changed the advisory's
    # unresolved date (no later release shares its scope any more): a third version
    assert (kept["versions"], kept["edges"]) == (3, 1)

    nothing = purge_history(store, datetime(2000, 1, 1, tzinfo=UTC))
    assert (nothing.versions, nothing.edges, nothing.retired) == (0, 0, 0)

    summary = purge_history(store, datetime.now(UTC) + timedelta(days=1))
    assert (summary.versions, summary.edges, summary.retired) == (3, 1, 1)
    left = db.execute_query(
        "MATCH (n) WHERE n:DocumentVersion OR n:RetiredDocument RETURN count(n) AS n").records[0]["n"]
    assert left == 0
    assert db.execute_query("MATCH ()-[c:CLOSED_SUPERSEDES|WAS_LINKED|VERSION_OF]->() "
                            "RETURN count(c) AS n").records[0]["n"] == 0
    assert db.execute_query("MATCH (d:Document) RETURN d.id AS id, d.recorded_from AS t"
                            ).records == current


@pytest.mark.models
def test_history_command_lists_every_version_and_edge_with_both_clocks(db, store, extractor,
                                                                       neo4j_target) -> None:
    ingest(store, extractor, ADVISORY, RELEASE)
    # the fix moves to 2.0: the advisory's version closes, and the release's edge with it
    ingest(store, extractor, {**ADVISORY, "text": "flaw in p, fixed in 2.0",
                              "attributes": {"fixed": ["2.0"]}})
    delete_documents(store, ["REL-1"])
    env = {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}

    def shown(doc_id: str) -> dict:
        run = CliRunner().invoke(main, ["history", doc_id, "--json"], env=env)
        assert run.exit_code == 0, run.output
        return json.loads(run.output)

    advisory, release = shown("ADV-1"), shown("REL-1")
    recorded = history(db, "ADV-1")
    # the advisory: its closed version (oldest first), then the current one
    assert advisory["current"] is True and advisory["retired_at"] is None
    assert [(v["current"], v["closed_reason"], v["recorded_until"]) for v in advisory["versions"]] == [
        *[(False, v["reason"], v["until"].iso_format()) for v in recorded["versions"]],
        (True, None, None)]
    assert advisory["versions"][-1]["recorded_from"] == recorded["current"][0]["since"].iso_format()
    # its one edge, closed when the advisory changed: rule, evidence and both clocks as recorded
    (closed,) = recorded["closed"]
    (edge,) = advisory["edges"]
    assert (edge["direction"], edge["other_id"], edge["current"]) == ("incoming", "REL-1", False)
    assert (edge["rule"], edge["closed_reason"], edge["closed_by_run"], edge["recorded_from"],
            edge["recorded_until"]) == (closed["rule"], closed["reason"], closed["run"],
                                        closed["since"].iso_format(), closed["until"].iso_format())
    assert edge["evidence"]
    # the deleted release: retired, its last version closed by the delete, the same edge outgoing
    assert release["current"] is False and release["retired_at"]
    assert [v["closed_reason"] for v in release["versions"]] == ["deleted"]
    assert [(e["direction"], e["other_id"], e["recorded_until"]) for e in release["edges"]] == [
        ("outgoing", "ADV-1", edge["recorded_until"])]
    # an id never recorded is an error naming it
    missing = CliRunner().invoke(main, ["history", "NOPE-9"], env=env)
    assert missing.exit_code == 1 and "NOPE-9" in missing.output
    # the text form names every version's interval and the closed edge's rule and reason
    text = CliRunner().invoke(main, ["history", "ADV-1"], env=env).output
    assert f"superseded by REL-1 via {closed['rule']}" in text and closed["reason"] in text


def test_a_document_joining_a_scope_closes_its_neighbours_version(db, store, extractor) -> None:
    # A release of another package does not touch the advisory; corrected into the advisory's
    # package (a version that fixes nothing), it makes the advisory unresolved from its date
    # -- a change of the advisory's derived fact made by a batch the advisory is not in. The
    # advisory's earlier version must be closed (rederived), or a --known-at read of the
    # first run would see the later date (the property test found this).
    db.execute_query("MATCH (n) DETACH DELETE n")
    ingest(store, extractor, ADVISORY, {**RELEASE, "scope": {"package": ["q"]}, "attributes": {"version": "2.0"}})
    first_run = runs(db)[-1]
    # the instant the run's last commit closed: from then on --known-at sees all it wrote
    first_run["at"] = db.execute_query("MATCH (c:Commit {run: $run}) RETURN max(c.committed) AS at",
                                       run=first_run["number"]).records[0]["at"]
    ingest(store, extractor, {**RELEASE, "attributes": {"version": "2.0"}})
    versions = db.execute_query(
        "MATCH (v:DocumentVersion {id: 'ADV-1'}) RETURN v.unresolved_from AS unresolved_from, "
        "v.closed_reason AS reason, v.closed_by_run AS run").records
    assert [dict(v) for v in versions] == [{"unresolved_from": None, "reason": "rederived",
                                            "run": runs(db)[-1]["number"]}]
    current = db.execute_query("MATCH (d:Document {id: 'ADV-1'}) RETURN d.unresolved_from AS u").records
    assert current[0]["u"].iso_format() == RELEASE["published"]
    statuses = {}
    for name, at in (("then", first_run["at"]), ("now", None)):
        rows = store.read("closure", anchors=[{"id": "ADV-1", "rank": 0, "score": 1.0}], as_of=None,
                          known_at=at, embedding=None, k=10)
        statuses[name] = [(r["doc_id"], r["status"]) for r in rows]
    assert statuses == {"then": [("ADV-1", "active")], "now": [("ADV-1", "unresolved")]}
