"""Shared integration fixtures: the models (loaded once per session, read-only), the bundled
demo graph (ingested once per session: tests/conftest.py runs its tests last, together, so no
other test wipes it in between) and the one dedicated Neo4j that outage tests stop and start."""

from __future__ import annotations

import os
from collections.abc import Iterator

import early_servers
import neo4j
import pytest
from reliability_helpers import HashEmbedder

from car_graph import schema
from car_graph.client import CarClient
from car_graph.connection import Target, open_driver, wipe_database
from car_graph.demo import run_demo
from car_graph.embedding import create_embedder
from car_graph.extraction import EntityExtractor
from car_graph.local_server import LocalNeo4j
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.store import GraphStore


@pytest.fixture(scope="session")
def embedder():
    """The default embedder, as users get it (and as the CLI in a subprocess makes it)."""
    return create_embedder()


@pytest.fixture(scope="session")
def extractor():
    return EntityExtractor(use_statistical=False)


@pytest.fixture
def store(db) -> GraphStore:
    """A GraphStore on the session server's database (tests that write through the store)."""
    return GraphStore(db)


@pytest.fixture(scope="session")
def demo_graph(driver, neo4j_target, embedder, extractor) -> Iterator[CarClient]:
    """The bundled sample ingested as `car-graph demo` does. Its tests only read it, or put back
    what they add."""
    wipe_database(driver, neo4j_target.database, neo4j_target.uri,
                  allow_remote=os.environ.get("CAR_ALLOW_REMOTE_WIPE") == "1")
    schema.apply(driver, neo4j_target.database, embedder.dimensions)
    with CarClient(driver, neo4j_target.database, embedder=embedder, extractor=extractor,
                   uri=neo4j_target.uri) as car:
        run_demo(car, k=1, say=lambda _line: None)
        yield car


@pytest.fixture
def car(db, embedder, extractor) -> Iterator[CarClient]:
    """A client on a wiped database with the schema applied (the ``db`` fixture)."""
    with CarClient(db, embedder=embedder, extractor=extractor) as client:
        yield client


@pytest.fixture(scope="session")
def outage_server() -> Iterator[LocalNeo4j]:
    """A Neo4j of the outage tests' own (the MCP server's and the ingest's), which they stop and
    start; one per session, as each start costs a JVM's boot (begun at collection's end,
    tests/early_servers.py)."""
    started = early_servers.take(early_servers.outage_instance(), early_servers.OUTAGE_TIMEOUT,
                                 "could not start a dedicated Neo4j")
    try:
        yield started.server
    finally:
        started.discard()


@pytest.fixture
def outage(outage_server: LocalNeo4j) -> Iterator[tuple[LocalNeo4j, Target, neo4j.Driver]]:
    """The outage server running, wiped, with the schema for HashEmbedder vectors."""
    outage_server.start(timeout=240, progress=lambda _m: None)  # after a test that stopped it
    uri, user, password = outage_server.connection()
    target = Target(uri, user, password)
    with open_driver(target) as driver:
        wipe_database(driver, "neo4j", uri)
        schema.apply(driver, "neo4j", HashEmbedder.dimensions)
        yield outage_server, target, driver


@pytest.fixture
def lib_advisory() -> dict:
    """An advisory on lib, fixed in 4.17.12 (the stale document of lib_graph), as a record."""
    return {
        "id": "ADV-1", "kind": "advisory", "published": "2020-03-01",
        "title": "Prototype pollution in lib",
        "text": "Prototype pollution in lib lets attackers modify object prototypes via merge.",
        "scope": {"package": "npm:lib"}, "attributes": {"fixed_versions": ["4.17.12"]},
    }


@pytest.fixture
def lib_graph(car: CarClient, lib_advisory: dict) -> CarClient:
    """The smallest graph with a stale document and what controls it (the guard's and the RAG
    adapters' tests): lib_advisory, and the release 4.17.12 that fixes it by the release rule."""
    release = {
        "id": "REL-4.17.12", "kind": "release", "published": "2020-04-01",
        "title": "lib 4.17.12 released", "text": "Version 4.17.12 is out. Changelog: maintenance.",
        "scope": {"package": "npm:lib"}, "attributes": {"version": "4.17.12"},
    }
    rule = {"name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
            "scope": "package", "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}
    car.ingest([parse_record(lib_advisory), parse_record(release)], parse_rules({"rules": [rule]}, "t"))
    return car
