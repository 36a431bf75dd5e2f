"""Managed Neo4j instances that boot in a background thread while the tests that need no server
run first (tests/conftest.py orders them so). A JVM boot and first database creation cost about
35 s on a 2-core machine; started at the end of collection, that time is spent beside the pure
tests instead of before the first integration test. The fixtures that own an instance collect
it with ``take``; ``discard_all`` stops whatever a session started but never used (``-x``, ``-k``)."""

from __future__ import annotations

import os
import shutil
import threading

from ci_policy import unavailable

from car_graph.errors import ServerError
from car_graph.local_server import LocalNeo4j
from car_graph.settings import Settings

# Neo4j plans a statement again for each size bucket of a list parameter (1, 2-10, 11-100,
# 101+ elements), and car-graph's lists vary (a batch's ids, a rule's kinds and scope types, a
# question's anchors). A plan costs 0.2-1.5 s on this machine, and the semantics property test
# alone makes hundreds of them: 169 s against 122 s for 100 of its graphs, run back to back.
# A plan never changes an answer, so the test servers plan without size hints. The product's own
# server keeps Neo4j's default: an internal setting that another version may not know would stop
# it from starting.
TEST_SERVER_SETTINGS = {"internal.cypher.use_parameter_size": "false"}


class EarlyStart:
    def __init__(self, instance: str, timeout: float) -> None:
        settings = Settings.from_env()
        self.server = LocalNeo4j(settings.home, settings.neo4j_version, instance,
                                 extra_settings=TEST_SERVER_SETTINGS)
        self.timeout = timeout
        self.error: ServerError | None = None
        self.discarded = False
        self.thread = threading.Thread(target=self._start, name=f"start {instance}", daemon=True)
        self.thread.start()

    def _start(self) -> None:
        try:
            self.server.start(timeout=self.timeout, progress=lambda _msg: None)
        except ServerError as exc:  # reported by take(), in the test that needs the server
            self.error = exc

    def take(self, what: str) -> LocalNeo4j:
        """The running server, or skip/fail (under CI) the requesting test with the reason."""
        self.thread.join()
        if self.error is not None:
            unavailable(f"{what}: {self.error}")
        return self.server

    def discard(self) -> None:
        """Stop the instance and delete its folder (data, logs, password); idempotent."""
        if self.discarded:
            return
        self.discarded = True
        self.thread.join()
        try:
            # its data is deleted next, so no checkpoint to wait for: SIGKILL at once
            self.server.stop(timeout=0, progress=lambda _msg: None)
        finally:
            shutil.rmtree(self.server.instance_dir, ignore_errors=True)


_STARTED: dict[str, EarlyStart] = {}
SESSION_TIMEOUT = 180
OUTAGE_TIMEOUT = 240  # it also restarts, after tests that stopped it


def session_instance() -> str:
    """The session's own server (per pytest process, so concurrent runs never share one)."""
    return f"test-{os.getpid()}"


def outage_instance() -> str:
    """The server the outage tests stop and start."""
    return f"test-outage-{os.getpid()}"


def start_early(instance: str, timeout: float) -> None:
    if instance not in _STARTED:
        _STARTED[instance] = EarlyStart(instance, timeout)


def take(instance: str, timeout: float, what: str) -> EarlyStart:
    """The instance's start, begun now if collection did not begin it."""
    start_early(instance, timeout)
    started = _STARTED[instance]
    started.take(what)
    return started


def discard_all() -> None:
    for started in _STARTED.values():
        started.discard()
