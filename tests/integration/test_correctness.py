"""Correctness and reliability of ingest and supersession against a real Neo4j: updates replace
what a record contributed, deletions re-evaluate what depended on them, a killed ingest resumes
to exactly the graph a clean run builds, and graph hazards (self-supersession, long cycles,
1,000-hop chains, 10,000-document scopes) are reported or bounded while retrieval answers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from reliability_helpers import ConstantEmbedder, record_figure

from car_graph.client import CarClient
from car_graph.extraction import EntityExtractor
from car_graph.ingest.pipeline import ingest_records
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.store import GraphStore

pytestmark = [pytest.mark.neo4j, pytest.mark.long(80)]


RULE = parse_rules({"rules": [{
    "name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
    "scope": "package", "match": {"newer": "version", "older": "fixed", "op": "in"},
}]}, "test")


def rec(**fields):
    return parse_record({"text": fields.pop("text", "some text"), **fields})


def relations(store: GraphStore) -> set[tuple[str, str, str]]:
    return {(r["newer"], r["older"], r["rule"]) for r in store.read("document_relations", domain=None)}


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


def ingest(store, extractor, records, rules=RULE, **kw):
    return ingest_records(records, store, ConstantEmbedder(), extractor, rules, progress=False, **kw)


# --------------------------------------------------------------------------- updates and deletes


def test_a_changed_record_replaces_its_edges_links_and_attributes(store, extractor) -> None:
    advisory = rec(id="A", kind="advisory", published="2020-01-01", scope={"package": "lodash"},
                   attributes={"fixed": ["1.1"], "cvss": "9.8"})
    release = rec(id="R", kind="release", published="2020-02-01", scope={"package": "lodash"},
                  attributes={"version": "1.1"})
    ingest(store, extractor, [advisory, release])
    assert relations(store) == {("R", "A", "release_fixes_advisory")}

    # the corrected advisory moves to another package and drops an attribute
    corrected = rec(id="A", kind="advisory", published="2020-01-01", scope={"package": "underscore"},
                    attributes={"fixed": ["1.1"]})
    summary = ingest(store, extractor, [corrected])
    assert summary.updated == 1
    assert relations(store) == set()
    record_figure("updates", stale_edges_left=len(relations(store)), updated=summary.updated)
    row = store.driver.execute_query(
        "MATCH (d:Document {id: 'A'}) RETURN d.attr_cvss AS cvss, "
        "COLLECT { MATCH (d)-[:IN_SCOPE]->(e) RETURN e.key } AS scope").records[0]
    assert row["cvss"] is None and row["scope"] == ["underscore"]


def test_reingesting_unchanged_input_writes_nothing(store, extractor) -> None:
    records = [rec(id=f"D{i}", kind="advisory", scope={"package": "p"}) for i in range(30)]
    ingest(store, extractor, records)
    again = ingest(store, extractor, records)
    assert again.unchanged == 30 and again.documents == 30 and again.updated == 0
    record_figure("reingest", records=30, unchanged=again.unchanged,
                  rewritten=again.documents - again.unchanged,
                  seconds=round(again.seconds, 2))


def test_deleting_a_superseder_puts_the_older_document_back_in_force(store, extractor) -> None:
    records = [
        rec(id="OLD", kind="advisory", published="2020-01-01"),
        rec(id="NEW", kind="release", published="2020-02-01", supersedes=["OLD"]),
    ]
    ingest(store, extractor, records, rules=[])
    rows = store.read("closure", anchors=[{"id": "OLD", "rank": 0, "score": 1.0}], as_of=None,
                      embedding=None, k=10)
    assert [r["doc_id"] for r in rows] == ["NEW"]
    from car_graph.ingest.pipeline import delete_documents

    summary = delete_documents(store, ["NEW", "NOPE"])
    assert summary.deleted == ["NEW"] and summary.missing == ["NOPE"]
    rows = store.read("closure", anchors=[{"id": "OLD", "rank": 0, "score": 1.0}], as_of=None,
                      embedding=None, k=10)
    assert [(r["doc_id"], r["status"]) for r in rows] == [("OLD", "active")]
    # the id comes back later: its reference is linked again
    ingest(store, extractor, [records[1]], rules=[])
    assert relations(store) == {("NEW", "OLD", "explicit")}


def test_a_reference_to_a_document_ingested_later_is_linked_then(store, extractor) -> None:
    ingest(store, extractor, [rec(id="NEW", kind="release", supersedes=["OLD"])], rules=[])
    assert relations(store) == set()
    ingest(store, extractor, [rec(id="OLD", kind="advisory")], rules=[])
    assert relations(store) == {("NEW", "OLD", "explicit")}


def test_the_report_lists_only_references_still_missing_when_the_run_ends(store, extractor) -> None:
    # NEW's reference to OLD is missing after the first batch and linked by the third; GONE's
    # reference is never resolved; LATE names two targets, one of which arrives
    records = [rec(id="NEW", kind="x", supersedes=["OLD"]),
               rec(id="LATE", kind="x", supersedes=["OLD", "NEVER"]),
               rec(id="OLD", kind="x"),
               rec(id="GONE", kind="x", supersedes=["NOWHERE"])]
    summary = ingest(store, extractor, records, rules=[], batch_size=1)
    assert summary.missing_references == ["LATE -> NEVER", "GONE -> NOWHERE"]
    assert relations(store) == {("NEW", "OLD", "explicit"), ("LATE", "OLD", "explicit")}
    # a later run that writes NEVER reports nothing missing, and links LATE to it
    summary = ingest(store, extractor, [rec(id="NEVER", kind="x")], rules=[])
    assert summary.missing_references == []
    assert ("LATE", "NEVER", "explicit") in relations(store)


# --------------------------------------------------------------------------- hazards


def test_self_supersession_is_reported_and_makes_no_edge(store, extractor) -> None:
    summary = ingest(store, extractor, [rec(id="S", kind="x", supersedes=["S"])], rules=[])
    assert summary.self_references == ["S"] and relations(store) == set()
    record_figure("self_supersession", reported=len(summary.self_references), edges=0)


def test_a_long_cycle_keeps_every_member_unresolved(store, extractor) -> None:
    n = 50
    records = [rec(id=f"C{i}", kind="x", supersedes=[f"C{(i - 1) % n}"]) for i in range(n)]
    summary = ingest(store, extractor, records, rules=[])
    assert summary.cycles == [sorted(f"C{i}" for i in range(n))]
    rows = store.read("closure", anchors=[{"id": "C0", "rank": 0, "score": 1.0}], as_of=None,
                      embedding=None, k=1000)
    assert {r["doc_id"] for r in rows} == {f"C{i}" for i in range(n)}
    assert {r["status"] for r in rows} == {"unresolved"}
    record_figure("long_cycle", members=n, frontier=len(rows))


def test_a_thousand_hop_chain_resolves_to_its_end_quickly(store, extractor) -> None:
    n = 1000
    records = [rec(id="L0", kind="x", published="2000-01-01")] + [
        rec(id=f"L{i}", kind="x", supersedes=[f"L{i - 1}"]) for i in range(1, n)
    ]
    ingest(store, extractor, records, rules=[], batch_size=500)
    started = time.perf_counter()
    rows = store.read("closure", anchors=[{"id": "L0", "rank": 0, "score": 1.0}], as_of=None,
                      embedding=None, k=10)
    elapsed = time.perf_counter() - started
    assert [r["doc_id"] for r in rows] == [f"L{n - 1}"]
    assert len(rows[0]["chain"]) == n - 1 and rows[0]["anchor_closure"] == n
    assert elapsed < 30, f"closure over a {n}-hop chain took {elapsed:.1f} s"
    record_figure("long_chain", hops=n - 1, seconds=round(elapsed, 2))


def test_a_ten_thousand_document_scope_does_not_slow_retrieval(db, store, extractor, embedder) -> None:
    records = [rec(id=f"H{i}", kind="note", text=f"note {i} about the hub", scope={"package": "hubcore"})
               for i in range(10_000)]
    records.append(rec(id="X", kind="note", text="the rate limiter drops requests under load",
                       scope={"package": "hubcore"}))
    ingest(store, extractor, records, rules=[], batch_size=2000)
    with CarClient(db, embedder=embedder, extractor=extractor) as car:
        car.retrieve_report("warm up", k=1)
        started = time.perf_counter()
        report = car.retrieve_report("Does the hubcore rate limiter still drop requests?", k=3)
        elapsed = time.perf_counter() - started
    assert "package:hubcore" in report.question_entities
    assert "package:hubcore" in report.ambiguous_scopes
    assert report.results[0].doc_id == "X"  # the semantic candidate inside the hub scope
    assert elapsed < 10, f"retrieval over a 10,000-document scope took {elapsed:.1f} s"
    record_figure("hub_scope", documents=len(records), seconds=round(elapsed, 2))


# --------------------------------------------------------------------------- overlapped stages


class SignallingEmbedder(ConstantEmbedder):
    """Signals each embedding call (the prefetch thread's work) by its first text."""

    def __init__(self) -> None:
        super().__init__()
        self.started: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def event(self, text: str) -> threading.Event:
        with self.lock:
            return self.started.setdefault(text, threading.Event())

    def embed_documents(self, texts):
        if texts:
            self.event(texts[0]).set()
        return super().embed_documents(texts)


def test_the_next_batch_is_embedded_while_this_one_is_written(db, extractor) -> None:
    embedder = SignallingEmbedder()
    overlapped: list[bool] = []

    class WaitingStore(GraphStore):
        def write_batch(self, documents, *args, **kwargs):
            if documents[0]["id"] == "B0":  # batch 1's write waits for batch 2's embedding
                overlapped.append(embedder.event("text B2").wait(timeout=20))
            return super().write_batch(documents, *args, **kwargs)

    records = [rec(id=f"B{i}", kind="x", text=f"text B{i}") for i in range(6)]
    ingest_records(records, WaitingStore(db), embedder, extractor, [], batch_size=2, progress=False)
    assert overlapped == [True]
    assert db.execute_query("MATCH (d:Document) WHERE d.pending RETURN count(d) AS n").records[0]["n"] == 0


def test_an_id_repeated_in_the_next_batch_ends_as_in_a_sequential_ingest(db, extractor) -> None:
    # A's second version arrives in the batch prepared while its first is written: the state
    # read for it predates that write, and must be read again
    records = [rec(id="A", kind="advisory", scope={"package": "p1"}, supersedes=["B"]),
               rec(id="B", kind="advisory", scope={"package": "p1"}),
               rec(id="A", kind="advisory", scope={"package": "p2"}, text="second version"),
               rec(id="C", kind="advisory", scope={"package": "p2"}, supersedes=["A"])]
    exports = []
    for overlap in (False, True):
        db.execute_query("MATCH (n) DETACH DELETE n")
        summary = ingest_records(records, GraphStore(db), ConstantEmbedder(), extractor, [],
                                 batch_size=2, progress=False, overlap=overlap)
        assert summary.updated == 1
        exports.append(_export(db))
    assert exports[0] == exports[1]
    assert ("C", "A", "explicit") in relations(GraphStore(db))


# --------------------------------------------------------------------------- crash safety


# Transaction time differs between any two runs by definition, and the history of a killed
# run rightly holds what the resumed run closed: the comparison is of the current state.
# a rules change's record (:RuleChange) is history too: a resumed run records it in another run,
# with the edges that run opened; the kept rule set names the run that recorded it
HISTORY_LABELS = ["Run", "Commit", "RunClock", "DocumentVersion", "RetiredDocument", "RuleChange"]
HISTORY_TYPES = ["CLOSED_SUPERSEDES", "VERSION_OF", "WAS_LINKED", "CHANGED"]
CLOCK_PROPERTIES = ("embedding", "recorded_from", "applied_by_run", "recorded_by_run")


def _export(driver) -> dict:
    # not the GraphVersion node: a random token per write, bookkeeping rather than content
    nodes = driver.execute_query(
        "MATCH (n) WHERE NOT n:GraphVersion AND NOT any(l IN labels(n) WHERE l IN $history) "
        "RETURN labels(n) AS labels, properties(n) AS props", history=HISTORY_LABELS).records
    rels = driver.execute_query(
        "MATCH (a)-[r]->(b) WHERE NOT type(r) IN $history "
        "RETURN type(r) AS type, properties(a) AS a, properties(b) AS b, "
        "properties(r) AS props", history=HISTORY_TYPES).records

    def key(props):
        return props.get("id") or f"{props.get('type')}:{props.get('key')}"

    def clean(props):
        return {k: (str(v) if not isinstance(v, (list, str, int, float, bool)) else v)
                for k, v in props.items() if k not in CLOCK_PROPERTIES}

    return {
        "nodes": sorted(json.dumps([sorted(r["labels"]), clean(r["props"])], sort_keys=True, default=str)
                        for r in nodes),
        "rels": sorted(json.dumps([r["type"], key(r["a"]), key(r["b"]), clean(r["props"])],
                                  sort_keys=True, default=str) for r in rels),
    }


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    lines = []
    for i in range(300):
        doc = {"id": f"ADV-{i}", "kind": "advisory", "published": "2020-01-01",
               "text": f"flaw {i} in package p{i % 30}", "scope": {"package": f"p{i % 30}"},
               "attributes": {"fixed": [f"1.{i % 7}"]}}
        lines.append(doc)
        lines.append({"id": f"REL-{i}", "kind": "release", "published": "2020-02-01",
                      "text": f"release {i}", "scope": {"package": f"p{i % 30}"},
                      "attributes": {"version": f"1.{i % 7}"},
                      **({"supersedes": [f"ADV-{i - 1}"]} if i % 5 == 0 and i else {})})
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in lines) + "\n", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text(
        "rules:\n  - {name: release_fixes_advisory, newer_kind: release, older_kind: advisory,\n"
        "     scope: package, match: {newer: version, older: fixed, op: in}}\n", encoding="utf-8")
    return corpus, rules


def test_a_killed_ingest_resumes_to_exactly_the_graph_of_a_clean_run(db, neo4j_target, tmp_path) -> None:
    corpus, rules = _corpus(tmp_path)
    env = {**os.environ, "NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password}
    command = [sys.executable, "-m", "car_graph", "ingest", str(corpus), "--rules", str(rules),
               "--batch-size", "20", "--no-progress"]

    subprocess.run(command, env=env, check=True, capture_output=True, timeout=600)
    clean = _export(db)
    db.execute_query("MATCH (n) DETACH DELETE n")

    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        written = db.execute_query("MATCH (d:Document) RETURN count(d) AS n").records[0]["n"]
        if written >= 100:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL, "the ingest finished before it could be killed"
    assert 0 < written < 600

    resumed = subprocess.run(command + ["--json"], env=env, check=True, capture_output=True,
                             text=True, timeout=600)
    summary = json.loads(resumed.stdout)
    assert summary["unchanged"] > 0  # committed, resolved batches were not redone
    resumed_export = _export(db)
    assert resumed_export == clean
    record_figure("crash_resume", documents=len(corpus.read_text().splitlines()),
                  written_before_kill=written, skipped_on_resume=summary["unchanged"],
                  nodes=len(clean["nodes"]), relationships=len(clean["rels"]), identical=True)
