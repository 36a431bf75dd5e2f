"""Injection and access (issue 9, item 6) and noise.

* Cypher-injection strings go through every entry point (question text for retrieve and eval,
  ids for explain, scope keys, attribute names and values, rule-file values, CLI options); the
  graph is unchanged where the path only reads, and where it writes the strings are stored as
  data next to an untouched graph.
* Read paths run in READ transactions: a write statement sent through them fails on the server.
* Credentials never appear in logs, CLI output or graph properties.
* A retrieval against a graph without cycles logs nothing at WARNING (server notifications are
  filtered where drivers are made).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from click.testing import CliRunner
from neo4j.exceptions import ClientError
from reliability_helpers import HashEmbedder, record_figure, snapshot

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.connection import Target, open_driver
from car_graph.errors import ConfigError, NotFoundError, RulesError, UnknownDomainError
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.store import GraphStore

pytestmark = [pytest.mark.neo4j]

HOSTILE = [
    "'}) MATCH (n) DETACH DELETE n //",
    "\"}) MATCH (n) DETACH DELETE n //",
    "x` DETACH DELETE n //",
    "`Document`) DETACH DELETE d RETURN 1 //",
    "$embedding $k $as_of {k: 1}",
    "\u2019}) MATCH (n) DETACH DELETE n \u201d //",
    "+(a) -b && c || !d (e) {f} [g TO h] ^2 ~ * ? : \\ / \"",
    "CALL db.clearQueryCaches(); MATCH (n) DELETE n",
    "1 OR 1=1; DROP CONSTRAINT document_id",
    "lodash\u0000",  # rejected as a record value, harmless as a question
]

BASE = [
    {"id": "ADV-1", "kind": "advisory", "published": "2020-03-01", "domain": "sec",
     "title": "Prototype pollution in lodash", "scope": {"package": "npm:lodash"},
     "text": "Prototype pollution in lodash lets attackers modify object prototypes."},
    {"id": "REL-2", "kind": "release", "published": "2020-04-01", "domain": "sec",
     "title": "lodash 4.17.12", "scope": {"package": "npm:lodash"},
     "text": "lodash 4.17.12 fixes prototype pollution.", "supersedes": ["ADV-1"]},
]


def _cli(target, *args: str, password: str | None = None) -> list[str]:
    return ["--uri", target.uri, "--user", target.user, "--password",
            target.password if password is None else password,
            "--database", target.database, *args]


@pytest.fixture
def base_graph(db, neo4j_target, extractor) -> CarClient:
    car = CarClient(db, neo4j_target.database, embedder=HashEmbedder(), extractor=extractor,
                    uri=neo4j_target.uri)
    car.ingest([parse_record(o) for o in BASE], rules=[])
    return car


def test_hostile_strings_through_read_entry_points_leave_the_graph_unchanged(
    base_graph: CarClient, neo4j_target, tmp_path: Path
) -> None:
    car = base_graph
    before = snapshot(car.driver, neo4j_target.database)
    assert before.nodes > 0
    calls = 0
    for text in HOSTILE:
        car.retrieve_report(text, k=3)
        car.retrieve_report(f"lodash prototype pollution {text}", k=3)
        # as a domain, a string the graph holds no documents of is refused before any statement
        for question in (text, f"lodash prototype pollution {text}"):
            with pytest.raises(UnknownDomainError):
                car.retrieve_report(question, k=3, domain=text)
        calls += 4
        for system in ("bm25", "dense", "hybrid"):
            car.retriever.search(system, text, k=3)
            with pytest.raises(UnknownDomainError):
                car.retriever.search(system, text, k=3, domain=text)
            calls += 2
        with pytest.raises(NotFoundError):
            car.explain(text)
        calls += 1
    queries = tmp_path / "queries.jsonl"
    queries.write_text("".join(
        json.dumps({"id": f"q{i}", "question": text, "gold": ["ADV-1", text]}) + "\n"
        for i, text in enumerate(HOSTILE)))
    report = car.evaluate(queries, k=3)
    calls += len(HOSTILE)
    assert report.n == len(HOSTILE)
    with pytest.raises(UnknownDomainError):
        car.evaluate(queries, k=3, domain=HOSTILE[0])

    runner = CliRunner()
    for text in HOSTILE[:2]:  # each CLI call loads the model: two strings keep CI time down
        for args in (["retrieve", text, "--json"], ["retrieve", "lodash", "--domain", text],
                     ["explain", text], ["eval", str(queries), "--domain", text,
                                         "--systems", "bm25"]):
            out = runner.invoke(main, _cli(neo4j_target, *args))
            assert "Traceback" not in out.output
            refused = args[0] == "explain" or "--domain" in args
            assert out.exit_code == (1 if refused else 0), out.output
            if "--domain" in args:
                assert "no domain" in out.output
            calls += 1
    base = ["--uri", neo4j_target.uri, "--user", neo4j_target.user,
            "--password", neo4j_target.password]
    for text in HOSTILE[:2]:
        bad_db = runner.invoke(main, [*base, "--database", text, "retrieve", "lodash"])
        assert bad_db.exit_code == 1 and "Traceback" not in bad_db.output, bad_db.output
        bad_date = runner.invoke(main, _cli(neo4j_target, "retrieve", "lodash", "--as-of", text))
        assert bad_date.exit_code == 2  # click refuses it before anything runs
        calls += 2
    after = snapshot(car.driver, neo4j_target.database)
    assert after == before
    record_figure("injection_reads", strings=len(HOSTILE), calls=calls, nodes=after.nodes,
                  relationships=after.relationships, digest_unchanged=after.digest == before.digest)


def test_hostile_strings_in_records_and_rules_are_stored_as_data(
    base_graph: CarClient, neo4j_target
) -> None:
    car = base_graph
    before = snapshot(car.driver, neo4j_target.database)
    storable = [t for t in HOSTILE if "\u0000" not in t]
    records = [
        parse_record({
            "id": f"evil-{i}-{text}", "title": text, "text": f"{text} lodash", "kind": "note",
            "domain": text, "scope": {"package": [text, "npm:lodash"]},
            "supersedes": [text], "attributes": {"comment": text, "tags": [text, "x"]},
        })
        for i, text in enumerate(storable)
    ]
    bad_names = 0
    for text in HOSTILE:
        with pytest.raises(ValueError):  # hostile attribute names never become property names
            parse_record({"id": "x", "text": "t", "attributes": {text: 1}})
        bad_names += 1
    # a versioning scheme must be a known one: a hostile string there is refused, not run
    with pytest.raises(RulesError, match="versioning"):
        parse_rules({"rules": [{
            "name": "r", "newer_kind": "note", "older_kind": "note", "scope": "package",
            "match": {"newer": "comment", "older": "comment", "op": "equals",
                      "versioning": storable[2]}}]}, "hostile.yaml")
    rules = parse_rules({"domain": storable[0], "rules": [{
        "name": "note_replaces_note", "newer_kind": "note", "older_kind": "note",
        "scope": "package", "description": storable[1],
        "match": {"newer": "comment", "older": "comment", "op": "equals"},
    }]}, "hostile.yaml")
    summary = car.ingest(records, rules=rules)
    assert summary.documents == len(storable)

    after = snapshot(car.driver, neo4j_target.database)
    assert set(before.node_rows) <= set(after.node_rows)  # the base graph is untouched
    assert set(before.relationship_rows) <= set(after.relationship_rows)
    stored = car.driver.execute_query(
        "MATCH (d:Document) WHERE d.id STARTS WITH 'evil-' "
        "RETURN d.id AS id, d.title AS title, d.attr_comment AS comment, d.domain AS domain",
        database_=neo4j_target.database).records
    assert {(r["id"], r["title"], r["comment"], r["domain"]) for r in stored} == {
        (f"evil-{i}-{t}", t, t, t) for i, t in enumerate(storable)}
    keys = {r["key"] for r in car.driver.execute_query(
        "MATCH (e:Entity {type: 'package'}) RETURN e.key AS key",
        database_=neo4j_target.database).records}
    assert {t.strip().lower() for t in storable} <= {k.lower() for k in keys}
    explained = car.explain(records[0].id)
    assert explained.title == storable[0]
    record_figure("injection_writes", records=len(records), attribute_names_refused=bad_names,
                  nodes_before=before.nodes, nodes_after=after.nodes)


def test_a_write_through_the_read_path_fails_on_the_server(db, neo4j_target) -> None:
    store = GraphStore(db, neo4j_target.database, neo4j_target.uri)
    before = snapshot(db, neo4j_target.database)
    with pytest.raises(ClientError) as caught:
        store.read("upsert_domain", domain="intruder", spec="{}")
    assert "AccessMode" in (caught.value.code or "") or "read" in str(caught.value).lower()
    assert snapshot(db, neo4j_target.database) == before
    store.write("upsert_domain", domain="allowed", spec="{}")  # the write path does write
    assert snapshot(db, neo4j_target.database).nodes == before.nodes + 1


def test_retrieval_and_explain_never_use_the_write_path(base_graph: CarClient) -> None:
    def refuse(*_args, **_kwargs):
        raise AssertionError("a read path called a write method")

    base_graph.store.write = refuse  # type: ignore[method-assign]
    base_graph.store.write_batch = refuse  # type: ignore[method-assign]
    assert base_graph.retrieve("is lodash vulnerable to prototype pollution?", k=2)
    assert base_graph.explain("ADV-1").doc_id == "ADV-1"
    base_graph.retriever.search("bm25", "lodash", k=2)
    base_graph.retriever.search("dense", "lodash", k=2)


def test_credentials_never_reach_logs_output_or_graph(
    db, neo4j_target, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    wrong = "Wr0ng-pa55word-" + "q7" * 8
    caplog.set_level(logging.DEBUG)  # the driver's own debug log included
    with pytest.raises(ConfigError) as caught:
        open_driver(Target(neo4j_target.uri, neo4j_target.user, wrong))
    assert neo4j_target.uri in str(caught.value)
    runner = CliRunner()
    failed = runner.invoke(main, _cli(neo4j_target, "retrieve", "lodash", password=wrong))
    assert failed.exit_code == 1 and "rejected user" in failed.output

    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(o) + "\n" for o in BASE))
    ok = runner.invoke(main, _cli(neo4j_target, "ingest", str(docs), "--no-progress"))
    assert ok.exit_code == 0, ok.output
    ran = runner.invoke(main, _cli(neo4j_target, "retrieve", "lodash prototype", "--json"))
    assert ran.exit_code == 0
    status = runner.invoke(main, _cli(neo4j_target, "neo4j", "status"))

    texts = {
        "log records": "\n".join(r.getMessage() for r in caplog.records),
        "error": str(caught.value) + repr(caught.value),
        "failed CLI": failed.output, "ingest CLI": ok.output, "retrieve CLI": ran.output,
        "status CLI": status.output,
        "graph": "\n".join(snapshot(db, neo4j_target.database).node_rows),
    }
    assert len(caplog.records) > 0  # the check looked at real log output
    for secret in (wrong, neo4j_target.password):
        for where, text in texts.items():
            assert secret not in text, f"a password leaked into {where}"
    record_figure("credentials", places_checked=len(texts), log_records=len(caplog.records))


def test_retrieval_on_a_graph_without_cycles_logs_nothing_at_warning(
    neo4j_target, db, extractor, caplog: pytest.LogCaptureFixture
) -> None:
    target = Target(neo4j_target.uri, neo4j_target.user, neo4j_target.password)
    with open_driver(target) as driver:  # the edge where car-graph makes drivers
        car = CarClient(driver, neo4j_target.database, embedder=HashEmbedder(),
                        extractor=extractor, uri=target.uri)
        car.ingest([parse_record(o) for o in BASE], rules=[])
        caplog.clear()
        caplog.set_level(logging.INFO)
        for _ in range(3):
            car.retrieve_report("is lodash vulnerable to prototype pollution?", k=3)
            car.explain("ADV-1")
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not warnings, [r.getMessage()[:200] for r in warnings]

        # The filter, not the absence of notices, is what keeps the log quiet: a statement
        # reading a property no node has is flagged by the server, and only the unfiltered
        # driver logs it. (Test-only statement text; no input in it.)
        probe = "MATCH (d:Document) RETURN d.no_such_property_anywhere AS x LIMIT 1"
        caplog.clear()
        driver.execute_query(probe, database_=neo4j_target.database)
        filtered = [r for r in caplog.records if r.levelno >= logging.WARNING]
        from neo4j import GraphDatabase

        with GraphDatabase.driver(target.uri, auth=(target.user, target.password)) as raw:
            caplog.clear()
            raw.execute_query(probe, database_=neo4j_target.database)
            unfiltered = [r for r in caplog.records if r.name.startswith("neo4j.notifications")
                          and r.levelno >= logging.WARNING]
    assert not filtered
    assert unfiltered, "expected the unfiltered driver to log the server's notification"
    record_figure("notifications", filtered_warnings=0, unfiltered_warnings=len(unfiltered))
