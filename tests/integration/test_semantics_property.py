"""The Cypher against the one reference semantics (car_graph/semantics.py), on random graphs.

Hypothesis draws small corpora -- kinds, dates (ties included), scope keys that differ only by
case, attributes of every stored type, explicit references (to themselves and to absent
documents too; chains, branches, partial edges, cycles with and without an exit, dated edges),
withdrawals -- and random rules (conflicting rules on one pair, partial and full, 'later' and
'any', every match op). Each corpus is ingested once into the real Neo4j; then, on that graph:

* the SUPERSEDES edges read back equal the reference's;
* closure.cypher, for every document as anchor at four as-of dates: controlling documents and
  their statuses; and for every document at once, as anchors in a drawn rank order (some with
  readings), walked once per supersession component: the same controlling documents, each from
  its best-ranked anchor with that anchor's chain length and closure size, and each reading the
  anchor's own controlling documents;
* every analyst query that reports a status or a controlling document -- chain (every document,
  the same four dates), controlling_for_entity and controlling_on_date (an entity and dates
  drawn from the graph), stale_crowding and withdrawn_unresolved (four dates, a domain drawn
  from the graph) -- and label_status (as of today), all against the same reference.

All reads of one graph run in one read transaction, so a graph costs one ingest and one round of
queries. CAR_PROPERTY_EXAMPLES sets the number of graphs (CI runs 500).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_helpers import ConstantEmbedder, first_plans_kept, record_figure

from car_graph import analyst, cypher
from car_graph.extraction import EntityExtractor
from car_graph.ingest.pipeline import delete_documents, ingest_records
from car_graph.keys import normalize_key
from car_graph.records import parse_published, parse_record
from car_graph.retrieval import to_date
from car_graph.rules import parse_rules
from car_graph.semantics import AuthorityGraph, Edge, History, authority_graph
from car_graph.store import GraphStore

pytestmark = [pytest.mark.neo4j, pytest.mark.long(420)]

EXAMPLES = int(os.environ.get("CAR_PROPERTY_EXAMPLES", "500" if os.environ.get("CI") else "60"))
DAY0 = date(2019, 12, 29)  # DATES straddle a month and a year (dates written coarser)
DATES = [DAY0 + timedelta(days=i) for i in range(6)]
KINDS = ["a", "b", "c"]


def written(day: date) -> st.SearchStrategy[str]:
    """A publication date as a record writes it: mostly the day, sometimes only its month or
    its year (DATES straddle a month's end, so the two precisions order differently)."""
    return st.sampled_from([day.isoformat(), day.isoformat(), day.isoformat()[:7], day.isoformat()[:4]])
SCOPE_TYPES = ["t1", "t2"]


AS_OF = [None, DATES[1], DATES[3], DATES[5]]
STALE = ("superseded", "withdrawn")
KNOWN_AT_ANALYST = ("chain", "withdrawn_unresolved", "stale_crowding", "controlling_for_entity",
                    "controlling_on_date")


STATS = {"graphs": 0, "edges": 0, "closures": 0, "multi_anchor_closures": 0, "rules": 0, "analyst_queries": 0,
         "history_steps": 0, "known_at_closures": 0, "known_at_analyst_queries": 0}


scalars = st.one_of(st.integers(0, 2), st.sampled_from(["x", "y"]), st.booleans(), st.just(1.0))
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.none())


@st.composite
def rule_sets(draw):
    rules = []
    for i in range(draw(st.integers(0, 3))):
        rule = {
            "name": f"r{i}",
            "newer_kind": draw(st.sampled_from(KINDS)),
            "older_kind": draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2, unique=True)),
            "scope": draw(st.lists(st.sampled_from(SCOPE_TYPES), min_size=1, max_size=2, unique=True)),
            "order": draw(st.sampled_from(["any", "later", "previous"])),
            "partial": draw(st.booleans()),
        }
        if draw(st.booleans()):
            rule["match"] = {"newer": draw(st.sampled_from(["p", "q"])),
                             "older": draw(st.sampled_from(["p", "q"])),
                             "op": draw(st.sampled_from(["in", "intersects", "equals"]))}
        if draw(st.booleans()):
            rule["partial_from"] = "flag"
        if draw(st.booleans()):
            rule["domain"] = "x"
        rules.append(rule)
    return rules


@st.composite
def changes(draw, docs: list[dict]):
    """One step of a history after the first ingest: a corrected record (its date, kind,
    scope, attributes or references changed), a new record, a deleted one, or a rules change
    (every record ingested again under the new rules)."""
    ids = [d["id"] for d in docs]
    step = draw(st.sampled_from(["update", "update", "add", "delete", "rules"] if ids else ["add", "rules"]))
    if step == "rules":
        return ("rules", draw(rule_sets()))
    if step == "delete":
        return ("delete", draw(st.sampled_from(ids)))
    if step == "add":
        base = {"id": f"d{len(ids) + 10}", "text": "added", "kind": draw(st.sampled_from(KINDS)),
                "scope": {}, "attributes": {}, "supersedes": []}
    else:
        base = dict(draw(st.sampled_from(docs)))
    doc = {**base, "text": base["text"] + " (corrected)"}
    field = draw(st.sampled_from(["published", "kind", "scope", "attributes", "supersedes"]))
    if field == "published" or step == "add":
        published = draw(st.one_of(st.none(), st.sampled_from(DATES)))
        doc.pop("published", None)
        if published:
            doc["published"] = draw(written(published))
    if field == "kind":
        doc["kind"] = draw(st.sampled_from(KINDS))
    if field == "scope" or step == "add":
        doc["scope"] = {t: draw(st.lists(st.sampled_from(["k1", "k2"]), min_size=1, max_size=2, unique=True))
                        for t in draw(st.lists(st.sampled_from(SCOPE_TYPES), max_size=2, unique=True))}
    if field == "attributes":
        attributes = {"p": draw(values), "q": draw(values), "flag": draw(st.one_of(st.booleans(), st.none()))}
        if draw(st.integers(0, 3)) == 0:
            attributes["withdrawn"] = draw(st.sampled_from(DATES)).isoformat()
        doc["attributes"] = {k: v for k, v in attributes.items() if v is not None}
    if field == "supersedes":
        doc["supersedes"] = [{"id": r, "partial": draw(st.booleans())}
                             for r in draw(st.lists(st.sampled_from(ids or ["missing"]), max_size=2))]
    return ("ingest", doc)


@st.composite
def corpora(draw):
    n = draw(st.integers(2, 7))
    ids = [f"d{i}" for i in range(n)]
    docs = []
    for doc_id in ids:
        doc = {"id": doc_id, "text": f"document {doc_id}", "kind": draw(st.sampled_from(KINDS))}
        published = draw(st.one_of(st.none(), st.sampled_from(DATES)))
        if published:
            doc["published"] = draw(written(published))
        if draw(st.booleans()):
            doc["domain"] = "x"
        scope = {}
        for etype in SCOPE_TYPES:
            keys = draw(st.lists(st.sampled_from(["k1", "K1", "k2"]), max_size=2, unique=True))
            if keys:
                scope[etype] = keys
        doc["scope"] = scope
        attributes = {"p": draw(values), "q": draw(values), "flag": draw(st.one_of(st.booleans(), st.none()))}
        if draw(st.integers(0, 5)) == 0:
            attributes["withdrawn"] = draw(st.sampled_from(DATES)).isoformat()
        doc["attributes"] = {k: v for k, v in attributes.items() if v is not None}
        refs = draw(st.lists(st.sampled_from([*ids, "missing"]), max_size=2))
        doc["supersedes"] = [
            {"id": r, "partial": draw(st.booleans()),
             **({"effective": draw(st.sampled_from(DATES)).isoformat()} if draw(st.booleans()) else {})}
            for r in refs
        ]
        docs.append(doc)
    if draw(st.booleans()):
        # a cycle of full references (random references make one only now and then), and
        # maybe an exit out of it: a document outside superseding a member in full
        members = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=min(3, n), unique=True))
        pairs = list(zip(members, members[1:] + members[:1]))
        outside = [i for i in ids if i not in members]
        if outside and draw(st.booleans()):
            pairs.append((draw(st.sampled_from(outside)), draw(st.sampled_from(members))))
        for newer, older in pairs:
            effective = draw(st.one_of(st.none(), st.sampled_from(DATES)))
            docs[ids.index(newer)]["supersedes"].append(
                {"id": older, "partial": False, **({"effective": effective.isoformat()} if effective else {})})
    rules = draw(rule_sets())
    return docs, rules


def graph_edges(store: GraphStore, known_at: Any = None) -> set[tuple]:
    return {
        (r["newer"], r["older"], r["rule"], bool(r["partial"]), to_date(r["effective"]))
        for r in store.read("document_relations", domain=None, known_at=known_at)
    }


def reference_edges(edges: tuple[Edge, ...]) -> set[tuple]:
    return {(e.newer, e.older, e.rule, e.partial, e.effective) for e in edges}


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


# --------------------------------------------------------------------------- reference answers


def in_scope(docs: list[dict], etype: str, key: str) -> list[str]:
    return [d["id"] for d in docs
            if key in {normalize_key(k) for k in d["scope"].get(etype, [])}]


def visible_in(reference: AuthorityGraph, ids: list[str], as_of: date | None,
               domain: str | None = None, domains: dict[str, str | None] | None = None) -> list[str]:
    return [d for d in ids if reference.visible(d, as_of)
            and (domain is None or (domains or {}).get(d) == domain)]


# --------------------------------------------------------------------------- the queries


@pytest.fixture(scope="module", autouse=True)
def keep_first_plans() -> Iterator[None]:
    with first_plans_kept():  # each graph replaces the last (reliability_helpers.KEEP_PLAN)
        yield


def run(tx: Any, name: str, **params: Any) -> list[dict]:
    """A catalogue statement in the graph's one read transaction; analyst parameters are bound
    as `car-graph query` binds them (unknown or missing ones fail)."""
    if name.startswith("analyst/"):
        params = analyst.bind(name, params)
    # the form the product runs for these parameters: current when known_at is null
    statement = cypher.statement(name, history=cypher.reads_history(name, params))
    # dict(record), not record.data(): data() copies every node of chain's paths into dicts,
    # 384-float embeddings included, which no check reads (a tenth of this test's client CPU)
    return [dict(record) for record in tx.run(statement, params)]


def dates_of(docs: list[dict]) -> list[date]:
    """Every date the corpus itself carries: publication, withdrawal and edge dates."""
    found = set()
    for doc in docs:
        if doc.get("published"):
            found.add(parse_published(doc["published"])[0])
        for text in (doc["attributes"].get("withdrawn"),
                     *(ref.get("effective") for ref in doc["supersedes"])):
            if text:
                found.add(date.fromisoformat(text))
    return sorted(found)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(corpus=corpora(), data=st.data())
def test_cypher_equals_the_reference_semantics(db, extractor, corpus, data) -> None:
    docs, raw_rules = corpus
    db.execute_query("MATCH (n) DETACH DELETE n")
    store = GraphStore(db)
    records = [parse_record(d) for d in docs]
    rules = parse_rules({"rules": raw_rules}, "property") if raw_rules else []
    ingest_records(records, store, ConstantEmbedder(), extractor, rules, progress=False)
    reference = authority_graph(records, rules)

    assert graph_edges(store) == reference_edges(reference.edges)

    # parameters drawn from the graph: one of its scope entities (by a key as a record spells
    # it, so case-insensitive matching is exercised), whether to name its type, dates it holds
    entities = sorted({(etype, key) for d in docs for etype, keys in d["scope"].items() for key in keys})
    entity = data.draw(st.sampled_from(entities)) if entities else None
    entity_type = data.draw(st.sampled_from([None, entity[0]])) if entity else None
    own_dates = dates_of(docs)
    entity_as_of = [None, data.draw(st.sampled_from(own_dates))] if own_dates else [None]
    on = data.draw(st.sampled_from(own_dates)) if own_dates else DATES[2]
    domain = data.draw(st.sampled_from([None, "x"]))
    # every document an anchor at once, ranked in a drawn order, some of them with a reading
    ranked = data.draw(st.permutations([r.id for r in records]))
    readers = data.draw(st.sets(st.sampled_from(ranked), max_size=2)) if ranked else set()
    many = [{"id": doc_id, "rank": rank, "score": 1.0 - rank / 100,
             **({"reading": 1000} if doc_id in readers else {})} for rank, doc_id in enumerate(ranked)]

    def work(tx: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for as_of in AS_OF:
            out["many", as_of] = run(tx, "closure", anchors=many, as_of=as_of, known_at=None,
                                     embedding=None, k=1000)
            for record in records:
                out["closure", record.id, as_of] = run(
                    tx, "closure", anchors=[{"id": record.id, "rank": 0, "score": 1.0}],
                    as_of=as_of, known_at=None, embedding=None, k=1000)
                out["chain", record.id, as_of] = run(tx, "analyst/chain", doc_id=record.id, as_of=as_of)
            out["withdrawn_unresolved", as_of] = run(
                tx, "analyst/withdrawn_unresolved", as_of=as_of, domain=domain)
            # the hits stale_crowding ranks: the same index query as the dense baseline
            out["hits", as_of] = run(tx, "search_vector", embedding=ConstantEmbedder().embed_query(""),
                                     k=len(records), candidates=len(records), as_of=as_of, domain=domain)
            out["stale_crowding", as_of] = run(
                tx, "analyst/stale_crowding", embedding=ConstantEmbedder().embed_query(""),
                k=len(records), as_of=as_of, domain=domain)
        if entity:
            for as_of in entity_as_of:
                out["controlling_for_entity", as_of] = run(
                    tx, "analyst/controlling_for_entity", entity_key=entity[1],
                    entity_type=entity_type, as_of=as_of)
            out["controlling_on_date"] = run(tx, "analyst/controlling_on_date", entity_key=entity[1],
                                             entity_type=entity_type, on=on)
        return out

    got = store.in_read_transaction(work)

    for as_of in AS_OF:
        for record in records:
            controlling = reference.controlling({record.id}, as_of)
            expected = {d: str(reference.status(d, as_of)) for d in controlling}
            rows = got["closure", record.id, as_of]
            assert {r["doc_id"]: r["status"] for r in rows} == expected, ("closure", record.id, as_of)
            check_chain(reference, record.id, as_of, got["chain", record.id, as_of], expected)
        check_many_anchors(reference, ranked, readers, as_of, got["many", as_of])
        check_withdrawn_unresolved(reference, docs, as_of, domain, got["withdrawn_unresolved", as_of])
        check_stale_crowding(reference, as_of, got["hits", as_of], got["stale_crowding", as_of])
    if entity:
        for as_of in entity_as_of:
            check_controlling_for_entity(reference, docs, entity, entity_type, as_of,
                                         got["controlling_for_entity", as_of])
        check_controlling_on_date(reference, docs, entity, entity_type, on, got["controlling_on_date"])
    check_label_status(db, store, reference)
    histories = check_history(db, store, extractor, docs, raw_rules, reference, data,
                              entity, entity_type, on, domain)

    STATS["graphs"] += 1
    STATS["edges"] += len(reference.edges)
    STATS["closures"] += len(AS_OF) * len(records)
    STATS["multi_anchor_closures"] += len(AS_OF)
    STATS["rules"] += len(rules)
    STATS["analyst_queries"] += len(got) - len(AS_OF) * (len(records) + 1) + 1
    STATS["history_steps"] += histories["steps"]
    STATS["known_at_closures"] += histories["closures"]
    STATS["known_at_analyst_queries"] += histories["analyst_queries"]
    record_figure("semantics_property", **STATS)


def check_many_anchors(reference: AuthorityGraph, ranked: list[str], readers: set[str],
                       as_of: date | None, rows: list[dict]) -> None:
    """closure.cypher with many anchors (one walk per component) against the reference: the
    controlling documents of all of them, each from its best-ranked anchor reaching it, with
    that anchor's chain length and closure size; each reading its anchor's own closure."""
    rows = [r for r in rows if r["doc_id"] is not None]
    expected = {d: str(reference.status(d, as_of)) for d in reference.controlling(ranked, as_of)}
    assert {r["doc_id"]: r["status"] for r in rows} == expected, ("many", as_of)
    for row in rows:
        best = next(a for a in ranked if reference.visible(a, as_of)
                    and row["doc_id"] in reference.controlling({a}, as_of))
        assert row["anchor_id"] == best, ("many: best anchor", row["doc_id"], as_of)
        assert len(row["chain"]) == reference.chain_length(best, row["doc_id"], as_of), (
            "many: chain", row["doc_id"], as_of)
        assert row["anchor_closure"] == len(reference.closure({best}, as_of)), (
            "many: closure size", best, as_of)
    readings = {r["doc_id"]: r for r in (rows[0]["readings"] or [])} if rows else {}
    assert set(readings) == {a for a in readers if reference.visible(a, as_of)}, ("many: readings", as_of)
    for doc_id, reading in readings.items():
        assert {c["doc_id"] for c in reading["controlling"]} == reference.controlling({doc_id}, as_of), (
            "many: reading", doc_id, as_of)


# --------------------------------------------------------------------------- two clocks


def last_run_at(db: Any) -> Any:
    """The instant the latest recorded run's last commit closed: from then on --known-at sees
    all it wrote (a run commits per batch, then its rules; test-only read)."""
    return db.execute_query("MATCH (c:Commit) RETURN max(c.committed) AS at").records[0]["at"]


def check_history(db: Any, store: GraphStore, extractor: EntityExtractor, docs: list[dict],
                  raw_rules: list[dict], reference: AuthorityGraph, data: Any,
                  entity: tuple[str, str] | None, entity_type: str | None, on: date,
                  domain: str | None) -> dict[str, int]:
    """After the first ingest, a random history -- corrected records, new ones, deletions,
    rules changes -- each through the real pipeline; the reference of every state is
    authority_graph of the records and rules as they then stood (semantics.History). Then,
    at every recorded instant (and just before the first), in one read transaction: the edges
    and every document's controlling documents and statuses (closure.cypher) at two as-of
    dates, and explain.cypher's superseders, as known then; the analyst queries that report
    statuses or controlling documents (chain, withdrawn_unresolved, stale_crowding,
    controlling_for_entity, controlling_on_date) as known then, against that state with the
    records as they then stood; and the current state at the end."""
    history = History()
    history.record(last_run_at(db), reference)
    records_then = [list(docs)]   # the records as they stood at each recorded state
    current = {d["id"]: d for d in docs}
    rules_now = raw_rules
    ever = set(current)
    # at least one change: every graph's history holds an update, addition, delete or rules change
    steps = data.draw(st.integers(1, 3))
    for _ in range(steps):
        kind, change = data.draw(changes(list(current.values())))
        parsed = parse_rules({"rules": rules_now}, "property") if rules_now else []
        if kind == "delete":
            del current[change]
            delete_documents(store, [change])
        elif kind == "rules":
            rules_now = change
            parsed = parse_rules({"rules": rules_now}, "property") if rules_now else []
            ingest_records([parse_record(d) for d in current.values()], store, ConstantEmbedder(),
                           extractor, parsed, progress=False)
        else:
            current[change["id"]] = change
            ever.add(change["id"])
            ingest_records([parse_record(change)], store, ConstantEmbedder(), extractor, parsed,
                           progress=False)
        state = authority_graph([parse_record(d) for d in current.values()], parsed)
        at = last_run_at(db)
        if at > history.states[-1][0]:
            history.record(at, state)
            records_then.append(list(current.values()))
        else:  # nothing recorded: nothing may have changed
            assert reference_edges(state.edges) == reference_edges(history.known_at().edges), kind
    final = history.known_at()
    assert graph_edges(store) == reference_edges(final.edges), "current state after the history"

    times = [at for at, _ in history.states]
    # just before the first run began: a time is when a run's last commit closed, and its earlier
    # commits (one per batch) were visible before that
    first_run = db.execute_query("MATCH (r:Run) RETURN min(r.at) AS at").records[0]["at"]
    before = first_run.to_native() - timedelta(microseconds=1)
    ids = sorted(ever)

    def work(tx: Any) -> dict[Any, Any]:
        out: dict[Any, Any] = {"before": run(tx, "document_relations", domain=None, known_at=before)}
        for i, at in enumerate(times):
            out["edges", i] = run(tx, "document_relations", domain=None, known_at=at)
            for doc_id in ids:
                out["explain", i, doc_id] = run(tx, "explain", doc_id=doc_id, as_of=None, known_at=at)
                for as_of in (None, DATES[3]):
                    # with its reading (the whole closure answer judges), known then too
                    out["closure", i, doc_id, as_of] = run(
                        tx, "closure",
                        anchors=[{"id": doc_id, "rank": 0, "score": 1.0, "reading": 1000}],
                        as_of=as_of, known_at=at, embedding=None, k=1000)
                    out["chain", i, doc_id, as_of] = run(tx, "analyst/chain", doc_id=doc_id,
                                                         as_of=as_of, known_at=at)
            for as_of in (None, DATES[3]):
                out["withdrawn_unresolved", i, as_of] = run(
                    tx, "analyst/withdrawn_unresolved", as_of=as_of, domain=domain, known_at=at)
                out["stale_crowding", i, as_of] = run(
                    tx, "analyst/stale_crowding", embedding=ConstantEmbedder().embed_query(""),
                    k=len(ids) * (len(times) + 1), as_of=as_of, domain=domain, known_at=at)
                if entity:
                    out["controlling_for_entity", i, as_of] = run(
                        tx, "analyst/controlling_for_entity", entity_key=entity[1],
                        entity_type=entity_type, as_of=as_of, known_at=at)
            if entity:
                out["controlling_on_date", i] = run(
                    tx, "analyst/controlling_on_date", entity_key=entity[1],
                    entity_type=entity_type, on=on, known_at=at)
        return out

    got = store.in_read_transaction(work)
    assert got["before"] == [], "nothing is known before the first run"
    closures = 0
    for i, (at, state) in enumerate(history.states):
        edges = {(r["newer"], r["older"], r["rule"], bool(r["partial"]), to_date(r["effective"]))
                 for r in got["edges", i]}
        assert edges == reference_edges(state.edges), ("edges known at step", i)
        assert history.known_at(at) is state
        for doc_id in ids:
            where = ("known at step", i, doc_id)
            recorded = doc_id in state.docs
            rows = got["explain", i, doc_id]
            assert len(rows) == (1 if recorded else 0), where
            if recorded:
                assert {(h["to_id"], h["rule"]) for h in rows[0]["superseded_by"]} == {
                    (e.newer, e.rule) for e in state.superseders(doc_id)}, where
            for as_of in (None, DATES[3]):
                controlling = state.controlling({doc_id}, as_of) if recorded else set()
                expected = {d: str(state.status(d, as_of)) for d in controlling}
                got_rows = got["closure", i, doc_id, as_of]
                assert {r["doc_id"]: r["status"] for r in got_rows} == expected, (*where, as_of)
                if got_rows:
                    # the reading says what explain said then, and the same controlling documents
                    (reading,) = got_rows[0]["readings"]
                    assert {c["doc_id"]: c["status"] for c in reading["controlling"]} == expected, (
                        "reading", *where, as_of)
                    assert (reading["title"], sorted(reading["scope"])) == (
                        rows[0]["title"], sorted(rows[0]["scope"])), ("reading", *where)
                    if as_of is None:
                        assert sorted(map(repr, reading["superseded_by"])) == sorted(
                            map(repr, rows[0]["superseded_by"])), ("reading", *where)
                closures += 1
                chain = got["chain", i, doc_id, as_of]
                if recorded:
                    check_chain(state, doc_id, as_of, chain, expected)
                else:
                    assert chain == [], ("chain", *where, as_of)
        # the analyst queries as known then, against the state and the records then
        then = records_then[i]
        for as_of in (None, DATES[3]):
            check_withdrawn_unresolved(state, then, as_of, domain, got["withdrawn_unresolved", i, as_of])
            # every embedding is the same: the matches rank by document id
            domains = {d["id"]: d.get("domain") for d in then}
            hits = [{"doc_id": d} for d in sorted(visible_in(state, sorted(state.docs), as_of, domain, domains))]
            check_stale_crowding(state, as_of, hits, got["stale_crowding", i, as_of])
            if entity:
                check_controlling_for_entity(state, then, entity, entity_type, as_of,
                                             got["controlling_for_entity", i, as_of])
        if entity:
            check_controlling_on_date(state, then, entity, entity_type, on, got["controlling_on_date", i])
    analyst_queries = sum(1 for key in got if key[0] in KNOWN_AT_ANALYST)
    return {"steps": steps, "closures": closures, "analyst_queries": analyst_queries}


# --------------------------------------------------------------------------- the comparisons


def check_chain(reference: AuthorityGraph, doc_id: str, as_of: date | None, rows: list[dict],
                expected: dict[str, str]) -> None:
    """chain: one row per controlling document, with its status and the chain from the document
    to it (``AuthorityGraph.chain_length``: along full edges when they lead there), each hop an
    edge in force."""
    where = ("chain", doc_id, as_of)
    assert {r["controlling_id"]: r["controlling_status"] for r in rows} == expected, where
    assert len(rows) == len(expected), where
    for row in rows:
        ids = row["doc_ids"]
        assert ids[0] == doc_id and ids[-1] == row["controlling_id"], where
        assert row["hops"] == len(ids) - 1 == reference.chain_length(doc_id, ids[-1], as_of), where
        for older, newer, rule in zip(ids[:-1], ids[1:], row["rules"], strict=True):
            assert any(e.newer == newer and e.rule == rule for e in reference.superseders(older, as_of)), where


def check_controlling_for_entity(reference: AuthorityGraph, docs: list[dict], entity: tuple[str, str],
                                 entity_type: str | None, as_of: date | None, rows: list[dict]) -> None:
    """controlling_for_entity: the scope's documents visible and not voided, their statuses,
    what each supersedes (transitively, along edges in force) and the rules of its own edges."""
    key = normalize_key(entity[1])
    expected = {}
    for etype in sorted({t for d in docs for t in d["scope"]}):
        if entity_type not in (None, etype):
            continue
        for doc in visible_in(reference, in_scope(docs, etype, key), as_of):
            if reference.is_superseded(doc, as_of):
                continue
            supersedes = sorted(o for o in reference.docs if o != doc
                                and reference.reaches(o, doc, as_of))
            rules = sorted({e.rule for e in reference.edges
                            if e.newer == doc and reference.in_force(e, as_of)})
            expected[f"{etype}:{key}", doc] = (str(reference.status(doc, as_of)), supersedes, rules)
    got = {(r["entity"], r["doc_id"]): (r["status"], r["supersedes"], r["rules"]) for r in rows}
    assert got == expected and len(rows) == len(expected), ("controlling_for_entity", entity, entity_type, as_of)


def check_controlling_on_date(reference: AuthorityGraph, docs: list[dict], entity: tuple[str, str],
                              entity_type: str | None, on: date, rows: list[dict]) -> None:
    """controlling_on_date: the scope's documents visible and not voided on the date, whether
    each is still not voided (no cut-off), and the supersessions not yet in force on the date."""
    key = normalize_key(entity[1])
    expected = {}
    for etype in sorted({t for d in docs for t in d["scope"]}):
        if entity_type not in (None, etype):
            continue
        for doc in visible_in(reference, in_scope(docs, etype, key), on):
            if reference.is_superseded(doc, on):
                continue
            since = sorted((e.newer, e.rule, e.effective, e.partial) for e in reference.edges
                           if e.older == doc and not reference.in_force(e, on))
            expected[f"{etype}:{key}", doc] = (not reference.is_superseded(doc), since)
    got = {
        (r["entity"], r["doc_id"]): (r["still_controls"], sorted(
            (c["by"], c["rule"], to_date(c["effective"]), c["partial"]) for c in r["superseded_since"]))
        for r in rows
    }
    assert got == expected and len(rows) == len(expected), ("controlling_on_date", entity, entity_type, on)


def check_stale_crowding(reference: AuthorityGraph, as_of: date | None, hits: list[dict],
                         rows: list[dict]) -> None:
    """stale_crowding: the superseded or withdrawn hits, in rank order, each with its
    controlling documents (but itself) and their ranks among the hits."""
    ranks = {h["doc_id"]: i + 1 for i, h in enumerate(hits)}
    expected = []
    for doc_id, rank in ranks.items():
        status = str(reference.status(doc_id, as_of))
        if status in STALE:
            controllers = sorted(reference.controlling({doc_id}, as_of) - {doc_id})
            expected.append((rank, doc_id, status, controllers, [ranks.get(c) for c in controllers],
                             all(c not in ranks for c in controllers)))
    got = [(r["rank"], r["doc_id"], r["status"], r["controlled_by"], r["controller_ranks"],
            r["crowded_out"]) for r in rows]
    assert got == expected, ("stale_crowding", as_of)


def check_withdrawn_unresolved(reference: AuthorityGraph, docs: list[dict], as_of: date | None,
                               domain: str | None, rows: list[dict]) -> None:
    """withdrawn_unresolved: the visible documents whose status is withdrawn or unresolved, the
    cycle ones with the documents superseding them in full."""
    domains = {d["id"]: d.get("domain") for d in docs}
    expected = {}
    for doc in visible_in(reference, [d["id"] for d in docs], as_of, domain, domains):
        status = str(reference.status(doc, as_of))
        if status not in ("withdrawn", "unresolved"):
            continue
        on_cycle = status == "unresolved" and reference.in_cycle(doc, as_of)
        involved = sorted({e.newer for e in reference.superseders(doc, as_of) if not e.partial}) if on_cycle else []
        expected[doc] = (status, on_cycle, involved)
    got = {r["doc_id"]: (r["status"], r["reason"] == "on a supersession cycle", r["involved"]) for r in rows}
    assert got == expected and len(rows) == len(expected), ("withdrawn_unresolved", as_of, domain)


def check_label_status(db: Any, store: GraphStore, reference: AuthorityGraph) -> None:
    """label_status: one status label per document, its status today."""
    labels = {"active": "Active", "superseded": "Superseded", "withdrawn": "Withdrawn",
              "partially_superseded": "PartiallySuperseded", "unresolved": "Unresolved"}
    counts = {r["status"]: r["documents"] for r in store.write("label_status")}
    today = date.today()
    expected = {doc: str(reference.status(doc, today)) for doc in reference.docs}
    records, _, _ = db.execute_query("MATCH (d:Document) RETURN d.id AS id, labels(d) AS labels")
    got = {r["id"]: sorted(set(r["labels"]) & set(labels.values())) for r in records}
    assert got == {doc: [labels[status]] for doc, status in expected.items()}
    assert counts == {s: sum(1 for x in expected.values() if x == s) for s in set(expected.values())}


def test_the_property_test_reads_the_statement_it_claims() -> None:
    # the comparison above is only meaningful while closure.cypher is the retrieval's statement
    assert "ANY SHORTEST" in cypher.text("closure")
    assert cypher.includes("car") == [("graph_version", {}), ("anchors", {}),
                                      ("closure", {"anchors": "anchors"})]
