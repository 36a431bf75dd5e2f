"""The auditor's analyst query, queries/analyst/changed_between.cypher: which answers differ
between the graph as known at two instants, and what was recorded or closed in between.

A hand-made history through the real pipeline -- ingest, correct a record, add a document that
extends a chain, delete a document, change a rule -- with the reference of every step computed
by car_graph/semantics.py from the records and rules as they then stood (semantics.History).
For every pair of recorded instants (and the instant before the first run) and two as-of
dates, the rows must be exactly the documents whose reference status or controlling documents
differ between the two states, with both answers; each row's edge changes must be exactly the
reference edges recorded or closed between the two states into a document of the row's
closures, each with the run that made the change.
"""

from __future__ import annotations

import itertools
from datetime import date, timedelta
from typing import Any

import pytest
from neo4j.time import DateTime
from reliability_helpers import ConstantEmbedder

from car_graph import analyst, cypher
from car_graph.extraction import EntityExtractor
from car_graph.ingest.pipeline import delete_documents, ingest_records
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.semantics import AuthorityGraph, History, authority_graph
from car_graph.store import GraphStore

pytestmark = [pytest.mark.neo4j]


def release_rule(op: str | None):
    """A release supersedes its package's advisories: matching versions (``op``), or (None)
    any later release of the package."""
    rule = {"name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
            "scope": "package", "order": "later"}
    if op:
        rule["match"] = {"newer": "version", "older": "fixed", "op": op}
    return parse_rules({"rules": [rule]}, "test")


DOCS = {
    "ADV-1": {"id": "ADV-1", "kind": "advisory", "published": "2020-01-01", "text": "flaw in p",
              "scope": {"package": ["p"]}, "attributes": {"fixed": ["1.0"]}},
    "REL-1": {"id": "REL-1", "kind": "release", "published": "2020-02-01", "text": "p 1.0",
              "scope": {"package": ["p"]}, "attributes": {"version": "1.0"}},
    "ADV-2": {"id": "ADV-2", "kind": "advisory", "published": "2020-03-01", "text": "flaw in q",
              "scope": {"package": ["q"]}, "attributes": {"fixed": ["2.0"]}},
    "REL-2": {"id": "REL-2", "kind": "release", "published": "2020-04-01", "text": "q 2.0",
              "scope": {"package": ["q"]}, "attributes": {"version": "2.0"}},
    "LAW-A": {"id": "LAW-A", "kind": "decision", "published": "2001-01-01", "text": "A holds",
              "scope": {"case": ["x"]}},
    "LAW-B": {"id": "LAW-B", "kind": "decision", "published": "2005-01-01", "text": "B overrules A",
              "scope": {"case": ["x"]}, "supersedes": [{"id": "LAW-A"}]},
}
LAW_C = {"id": "LAW-C", "kind": "decision", "published": "2010-01-01", "text": "C overrules B",
         "scope": {"case": ["x"]}, "supersedes": [{"id": "LAW-B"}]}
AS_OF = [None, date(2008, 1, 1)]


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


def last_run_at(db: Any) -> Any:
    # when the latest run's last commit closed (a run commits per batch, then its rules)
    return db.execute_query("MATCH (c:Commit) RETURN max(c.committed) AS at").records[0]["at"]


step_runs: list[int] = []  # the run each step of build_history made, in order


def build_history(db: Any, store: GraphStore, extractor: EntityExtractor) -> History:
    """Each step through the real pipeline; the reference state after it from the records
    and rules as they then stand."""
    current = dict(DOCS)
    rules = release_rule("in")

    def ingest(*docs: dict) -> None:
        ingest_records([parse_record(d) for d in docs], store, ConstantEmbedder(), extractor,
                       rules, progress=False)

    def correct() -> None:   # the fix moves to 1.1: REL-1 no longer supersedes ADV-1
        current["ADV-1"] = {**DOCS["ADV-1"], "text": "flaw in p, fixed in 1.1",
                            "attributes": {"fixed": ["1.1"]}}
        ingest(current["ADV-1"])

    def extend() -> None:    # C overrules B: A's and B's controlling document becomes C
        current["LAW-C"] = LAW_C
        ingest(LAW_C)

    def delete() -> None:
        del current["REL-2"]
        delete_documents(store, ["REL-2"])

    def change_rule() -> None:   # any later release now supersedes: ADV-1 is superseded again
        nonlocal rules
        rules = release_rule(None)
        ingest(*current.values())

    history = History()
    for step in (lambda: ingest(*DOCS.values()), correct, extend, delete, change_rule):
        step()
        state = authority_graph([parse_record(d) for d in current.values()], rules)
        history.record(last_run_at(db), state)
        step_runs.append(db.execute_query("MATCH (r:Run) RETURN max(r.number) AS n").records[0]["n"])
    return history


def answer(state: AuthorityGraph, doc_id: str, as_of: date | None) -> tuple[str | None, list[str]]:
    """What explain said of the document in that state: its status and controlling documents
    (None and none when it was not recorded)."""
    if doc_id not in state.docs:
        return None, []
    return str(state.status(doc_id, as_of)), sorted(state.controlling({doc_id}, as_of))


def edge_changes(history: History, start: Any, end: Any) -> set[tuple[str, str, str, str, Any]]:
    """(what, newer, older, rule, run) for each reference edge recorded or closed by a run
    after ``start`` and up to ``end`` (a step's instant is when its run's last commit closed)."""
    found = set()
    previous = history.known_at(start)
    for (at, state), run in zip(history.states, step_runs, strict=True):
        if start < at <= end:
            before = {(e.newer, e.older, e.rule) for e in previous.edges}
            after = {(e.newer, e.older, e.rule) for e in state.edges}
            found |= {("edge recorded", *key, run) for key in after - before}
            found |= {("edge closed", *key, run) for key in before - after}
        if at <= end:
            previous = state
    return found


def test_changed_between_lists_exactly_the_answers_that_differ(db, extractor) -> None:
    db.execute_query("MATCH (n) DETACH DELETE n")
    store = GraphStore(db)
    step_runs.clear()
    history = build_history(db, store, extractor)
    times = [at for at, _ in history.states]
    # just before the first run began (times are when each run's last commit closed)
    first_run = db.execute_query("MATCH (r:Run) RETURN min(r.at) AS at").records[0]["at"]
    before = DateTime.from_native(first_run.to_native() - timedelta(microseconds=1))
    instants = [before, *times]
    # the run that wrote at each instant: its commits' (a run commits per batch, then its rules)
    runs = {r["at"]: r["run"] for r in db.execute_query("MATCH (c:Commit) RETURN c.at AS at, c.run AS run").records}
    name = "analyst/changed_between"

    def work(tx: Any) -> dict[Any, list[dict]]:
        return {(i, j, as_of): [r.data() for r in tx.run(cypher.statement(name), analyst.bind(
                    name, {"known_from": instants[i], "known_to": instants[j], "as_of": as_of}))]
                for i, j in itertools.combinations(range(len(instants)), 2) for as_of in AS_OF}

    got = store.in_read_transaction(work)
    differing = 0
    for (i, j, as_of), rows in got.items():
        start, end = instants[i], instants[j]
        first, second = history.known_at(start), history.known_at(end)
        ids = set(first.docs) | set(second.docs)
        expected = {d: (answer(first, d, as_of), answer(second, d, as_of)) for d in sorted(ids)
                    if answer(first, d, as_of) != answer(second, d, as_of)}
        where = ("changed between", i, j, as_of)
        assert {r["doc_id"]: ((r["status_from"], r["controlling_from"]),
                              (r["status_to"], r["controlling_to"])) for r in rows} == expected, where
        assert [r["doc_id"] for r in rows] == sorted(expected), where
        changes = edge_changes(history, start, end)
        for row in rows:
            reached = set()
            for state in (first, second):
                if row["doc_id"] in state.docs:
                    reached |= state.closure({row["doc_id"]}, as_of)
            assert {(c["what"], c["newer"], c["older"], c["rule"], c["run"]) for c in row["changes"]
                    if c["what"].startswith("edge")} == {c for c in changes if c[2] in reached}, (*where, row["doc_id"])
            for change in row["changes"]:
                assert start < change["at"] <= end and change["run"] == runs[change["at"]], (*where, change)
                if change["what"].startswith("version"):
                    assert change["doc_id"] in reached, (*where, change)
            assert [c["at"] for c in row["changes"]] == sorted(c["at"] for c in row["changes"]), where
        differing += len(rows)
    # the history changed answers at every step (else the comparison would prove little)
    for i in range(1, len(instants)):
        assert got[i - 1, i, None], ("no answer changed at step", i)
    assert differing > 0

    # dates as a user types them: a day stands for its end (--known-at), here in Cypher alone
    today = times[-1].to_native().date().isoformat()
    assert store.in_read_transaction(lambda tx: [r.data() for r in tx.run(
        cypher.statement(name), {"known_from": "2000-01-01", "known_to": today, "as_of": None})]) == got[0, len(times), None]
