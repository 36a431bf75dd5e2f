"""Shared fixtures: one real Neo4j per test session, never a mock.

Server choice, in order:

1. ``NEO4J_URI`` (+ ``NEO4J_USER``/``NEO4J_PASSWORD``): an already-running server.
2. Docker, if an engine answers: testcontainers ``neo4j:5.26-community``.
3. car-graph's managed ``LocalNeo4j`` under ``Settings.from_env().home`` (jars from Maven
   Central), as a per-session instance ``test-<pid>`` on free loopback ports, stopped and
   deleted at session end. Per-session rather than one shared "test" instance, so two
   concurrent pytest runs neither wipe each other's data nor stop each other's server.

No server at all: ``pytest.fail`` when ``CI=true`` (a skipped integration suite must never look
green in CI), ``pytest.skip`` otherwise.

The raw corpora (``raw_corpora``, tests/corpora.py) follow the same policy: a test that takes
the fixture or carries the ``corpora`` marker skips with one line without them, fails under CI.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import early_servers
import neo4j
import pytest
from ci_policy import unavailable
from corpora import require_corpora
from outcome_counts import summary_line

from car_graph import schema
from car_graph.connection import new_driver, wipe_database
from car_graph.errors import SchemaMismatchError, ServerError
from car_graph.local_server import LocalNeo4j, pid_alive
from car_graph.settings import Settings

TEST_DIMENSIONS = 384
SERVER_FIXTURES = {"neo4j_target", "driver", "db", "local_server"}
DEMO_FIXTURE = "demo_graph"
OUTAGE_FIXTURE = "outage_server"
BOOTED_FIXTURES = SERVER_FIXTURES | {OUTAGE_FIXTURE}
CORPORA_FIXTURE = "raw_corpora"


@dataclass(frozen=True)
class Neo4jTarget:
    """The server this session talks to. ``server`` is set when it is a managed LocalNeo4j."""

    uri: str
    user: str
    password: str = field(repr=False)
    source: str  # "env", "docker" or "local"
    database: str
    server: LocalNeo4j | None = None


@pytest.hookimpl(tryfirst=True)  # marks its xdist groups before xdist's hook reads them
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that uses a server fixture carries the ``neo4j`` marker (-m 'not neo4j'), and
    every test that uses the raw corpora (directly or through another fixture) ``corpora``.

    The tests that need no server run first (in parallel runs, the ``long`` modules before all,
    longest first, so that the workers finish together). The tests on the session's demo graph run last and
    together (in their collected order): it is ingested once, and no test that wipes the
    database runs between them.

    Under pytest-xdist (``make test`` runs two workers, each with its own Neo4j) a work unit is
    a module, so a module's fixtures and the graph they build are used by one worker without a
    wipe in between; the demo-graph tests form one unit, and so do the outage tests (one
    worker boots the server they stop and start)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if SERVER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.neo4j)
        if CORPORA_FIXTURE in fixtures:
            item.add_marker(pytest.mark.corpora)

    parallel = _xdist_worker()

    # the tests that need no server first, while the session's servers boot (early_servers.py);
    # in parallel runs the long modules before all, longest first (the workers finish together)
    def order(item: pytest.Item) -> tuple[bool, float, int]:
        fixtures = set(getattr(item, "fixturenames", ()))
        needs = 2 if DEMO_FIXTURE in fixtures else 1 if BOOTED_FIXTURES & fixtures else 0
        long = item.get_closest_marker("long")
        if parallel:
            unit = ("demo-graph" if needs == 2 else "outage-server" if OUTAGE_FIXTURE in fixtures
                    else item.nodeid.split("::", 1)[0])
            item.add_marker(pytest.mark.xdist_group(unit))
        return needs == 2, -float(long.args[0]) if parallel and long else 0.0, needs
    items.sort(key=order)  # stable: collected order within each group


def _xdist_worker() -> bool:
    """Whether this process is a pytest-xdist worker (whose options say dist=no)."""
    return bool(os.environ.get("PYTEST_XDIST_WORKER"))


def pytest_configure(config: pytest.Config) -> None:
    workers = getattr(config.option, "numprocesses", None)
    if os.environ.get("NEO4J_URI") and workers not in (None, 0):
        raise pytest.UsageError("NEO4J_URI names one server, which parallel workers would wipe "
                                "under each other: run with -n 0 (make test TEST_WORKERS=0)")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Begin booting the managed servers the selected tests will need (none for ``make unit``)."""
    if getattr(session.config.option, "loadgroup", False) and any("@" not in i.nodeid for i in session.items):
        # xdist puts a test's group into its node id; when it cannot, it distributes the tests
        # one by one, and a module's graph could be wiped between its tests
        pytest.exit("pytest-xdist's --dist loadgroup ignored the tests' groups on this pytest "
                    "(pytest-dev/pytest-xdist#1386): install the pytest pyproject.toml names", 2)
    fixtures = set().union(*(getattr(item, "fixturenames", ()) for item in session.items))
    if SERVER_FIXTURES & fixtures and not os.environ.get("NEO4J_URI") and not _docker_engine():
        _sweep_stale_test_instances(Settings.from_env())
        early_servers.start_early(early_servers.session_instance(), early_servers.SESSION_TIMEOUT)
    # under xdist, each worker collects every test but only one runs the outage unit: it boots
    # that server when its first test asks (early_servers.take)
    if OUTAGE_FIXTURE in fixtures and not _xdist_worker():
        early_servers.start_early(early_servers.outage_instance(), early_servers.OUTAGE_TIMEOUT)


def pytest_sessionfinish(session: pytest.Session) -> None:
    early_servers.discard_all()  # started but never taken (-x stopped first, or none was used)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line beside pytest's closing line (left as it is: CI reads it): behaviour tests and
    the per-file catalogue checks counted apart (tests/outcome_counts.py)."""
    if line := summary_line(terminalreporter.stats):
        terminalreporter.write_line(line)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A ``corpora`` test skips (fails under CI) before its fixtures build anything, with the
    same one line whether it takes ``raw_corpora`` or only carries the marker."""
    if item.get_closest_marker("corpora") is not None:
        require_corpora()


@pytest.fixture(scope="session")
def raw_corpora() -> Path:
    """The folder holding the raw corpora ``security/``, ``law/``, ``drug/`` (tests/corpora.py)."""
    return require_corpora()


def _docker_engine() -> bool:
    try:
        import docker
        from docker.errors import DockerException
    except ImportError:
        return False
    try:
        return bool(docker.from_env().ping())
    except DockerException:  # no socket, engine down, or permission denied: "no engine"
        return False


def start_local(instance: str) -> LocalNeo4j:
    """Start a managed server instance on free loopback ports, or skip/fail if impossible."""
    settings = Settings.from_env()
    server = LocalNeo4j(settings.home, settings.neo4j_version, instance,
                        extra_settings=early_servers.TEST_SERVER_SETTINGS)
    try:
        server.start(timeout=180)
    except ServerError as exc:
        unavailable(f"no Neo4j: NEO4J_URI unset, no Docker engine, and the local server failed: {exc}")
    return server


def discard_local(server: LocalNeo4j) -> None:
    """Stop a session's server and delete its instance directory (data, logs, password)."""
    try:
        server.stop(progress=lambda _msg: None)
    finally:
        shutil.rmtree(server.instance_dir, ignore_errors=True)


def _sweep_stale_test_instances(settings: Settings) -> None:
    """Remove ``test-*`` instances left by sessions that were killed before their teardown."""
    root = settings.home / "instances"
    if not root.is_dir():
        return
    for path in root.glob("test-*"):
        if not path.is_dir():
            continue
        owner = path.name.rsplit("-", 1)[-1]
        if owner.isdigit() and pid_alive(int(owner)):
            continue  # its pytest session is still alive (maybe still starting the server)
        server = LocalNeo4j(settings.home, settings.neo4j_version, path.name)
        if not server.status().running:
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def neo4j_target() -> Iterator[Neo4jTarget]:
    settings = Settings.from_env()
    if uri := os.environ.get("NEO4J_URI"):
        user = os.environ.get("NEO4J_USER") or os.environ.get("NEO4J_USERNAME") or "neo4j"
        password = os.environ.get("NEO4J_PASSWORD")
        if password is None:
            unavailable("NEO4J_URI is set but NEO4J_PASSWORD is not")
        yield Neo4jTarget(uri, user, password or "", "env", settings.database)
        return

    if _docker_engine():
        from testcontainers.community.neo4j import Neo4jContainer

        container = Neo4jContainer("neo4j:5.26-community", password=secrets.token_urlsafe(16))
        container.with_env("NEO4J_server_memory_heap_max__size", "1g")
        container.with_env("NEO4J_server_memory_pagecache_size", "512m")
        with container:
            yield Neo4jTarget(container.get_connection_url(), container.username,
                              container.password, "docker", "neo4j")
        return

    _sweep_stale_test_instances(settings)  # no-op when collection did it and began the boot
    started = early_servers.take(
        early_servers.session_instance(), early_servers.SESSION_TIMEOUT,
        "no Neo4j: NEO4J_URI unset, no Docker engine, and the local server failed")
    try:
        uri, user, password = started.server.connection()
        yield Neo4jTarget(uri, user, password, "local", settings.database, started.server)
    finally:
        started.discard()


@pytest.fixture(scope="session")
def driver(neo4j_target: Neo4jTarget) -> Iterator[neo4j.Driver]:
    # made as car-graph makes drivers (its notification policy), so tests see what users see
    with new_driver(neo4j_target.uri, neo4j_target.user, neo4j_target.password) as drv:
        drv.verify_connectivity()
        yield drv


@pytest.fixture
def db(driver: neo4j.Driver, neo4j_target: Neo4jTarget) -> neo4j.Driver:
    """An empty database with car-graph's schema (vector dimension 384)."""
    allow_remote = os.environ.get("CAR_ALLOW_REMOTE_WIPE") == "1"
    wipe_database(driver, neo4j_target.database, neo4j_target.uri, allow_remote=allow_remote)
    try:
        schema.apply(driver, neo4j_target.database, TEST_DIMENSIONS)
    except SchemaMismatchError:
        # A previous test (or run) left another dimension: reset to the known state.
        schema.drop_schema(driver, neo4j_target.database, neo4j_target.uri, allow_remote=allow_remote)
        schema.apply(driver, neo4j_target.database, TEST_DIMENSIONS)
    return driver


@pytest.fixture(scope="session")
def local_server(neo4j_target: Neo4jTarget) -> Iterator[LocalNeo4j]:
    """The managed server: the session's own if it is local, else a dedicated instance."""
    if neo4j_target.server is not None:
        yield neo4j_target.server
        return
    server = start_local(f"test-local-{os.getpid()}")
    try:
        yield server
    finally:
        discard_local(server)
