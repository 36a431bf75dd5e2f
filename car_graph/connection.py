"""Opening a driver for a Neo4j target, and the guarded destructive operations.

Which server to talk to (``NEO4J_URI`` or the managed local one) is decided at the edge, in
``car_graph.target``: this layer never imports the server operations.

Why the guards: ``wipe_database`` and ``schema.drop_schema`` delete everything in a database.
They are meant for a developer's or a test run's own server, so they refuse any URI that does
not point at loopback unless the caller opts in explicitly (tests: ``CAR_ALLOW_REMOTE_WIPE=1``).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from car_graph import cypher
from car_graph.errors import ConfigError, UnsafeTargetError

WIPE_BATCH_SIZE = 10_000


@dataclass(frozen=True)
class Target:
    """Where to connect. ``managed`` is True for car-graph's own local server."""

    uri: str
    user: str
    password: str = field(repr=False)
    managed: bool = False


# Which server notifications reach the user (the driver logs each one on "neo4j.notifications",
# WARNING level, with the whole statement). Policy:
# * UNRECOGNIZED is off: our statements deliberately read optional properties, labels and
#   relationship types (maybe_cycle, unresolved_from, SUPERSEDES) that a fresh or cycle-free graph
#   lacks; "property does not exist" on every retrieval says nothing a user can act on.
# * Below WARNING is off: INFORMATION notices (performance hints such as a cartesian product,
#   planner HINTs) are for whoever edits queries/*.cypher; they see them with EXPLAIN/PROFILE
#   in Neo4j Browser or cypher-shell.
# * Everything else at WARNING stays on and is logged: DEPRECATION (a statement will break on
#   the next Neo4j), UNSUPPORTED, SECURITY, and the rest -- each is something to act on.
NOTIFICATION_CONFIG: dict[str, Any] = {
    "notifications_min_severity": neo4j.NotificationMinimumSeverity.WARNING,
    "notifications_disabled_classifications": [
        neo4j.NotificationDisabledClassification.UNRECOGNIZED,
    ],
}


def new_driver(uri: str, user: str, password: str, **config: Any) -> neo4j.Driver:
    """The one place car-graph creates drivers, so they all share the notification policy."""
    return GraphDatabase.driver(uri, auth=(user, password), **{**NOTIFICATION_CONFIG, **config})


def open_driver(target: Target, *, verify: bool = True) -> neo4j.Driver:
    """A driver for ``target``; with ``verify``, connection problems become ConfigError now
    rather than a stack trace at the first query."""
    driver = new_driver(target.uri, target.user, target.password)
    if verify:
        try:
            driver.verify_connectivity()
        except AuthError as exc:
            driver.close()
            raise ConfigError(f"Neo4j at {target.uri} rejected user {target.user!r}: {exc}") from exc
        except (DriverError, Neo4jError, OSError) as exc:
            driver.close()
            hint = (" The managed server is not answering: see `car-graph neo4j status`, start it "
                    "with `car-graph neo4j start`." if target.managed
                    else " Start that server (car-graph's own local one: `car-graph neo4j start`)."
                         " Check NEO4J_URI, or unset it to use the managed local server.")
            raise ConfigError(f"cannot reach Neo4j at {target.uri}: {exc}.{hint}") from exc
    return driver


def is_loopback_uri(uri: str) -> bool:
    """True if the URI's host is ``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    try:
        host = urlsplit(uri).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def ensure_local_target(uri: str, allow_remote: bool = False, action: str = "wipe") -> None:
    """Raise UnsafeTargetError unless ``uri`` is loopback or the caller opted in."""
    if not allow_remote and not is_loopback_uri(uri):
        raise UnsafeTargetError(
            f"refusing to {action} {uri}: it is not a loopback server. Destructive operations "
            "only run against localhost (tests may set CAR_ALLOW_REMOTE_WIPE=1)."
        )


def wipe_database(driver: neo4j.Driver, database: str, uri: str, allow_remote: bool = False) -> int:
    """Delete every node and relationship; return how many nodes were deleted.

    Data only: indexes and constraints stay, because ``schema.apply`` is idempotent and tests
    re-apply it cheaply. Dropping schema is ``schema.drop_schema`` (used by ``reset``), which
    only drops names from car-graph's own graph_schema/ allow-list. The delete runs as an
    auto-commit query in batches (CALL ... IN TRANSACTIONS), so a large graph does not need
    one huge transaction.
    """
    ensure_local_target(uri, allow_remote, "wipe")
    with driver.session(database=database) as session:
        summary = session.run(cypher.load("wipe_nodes"), batch_size=WIPE_BATCH_SIZE).consume()
    return summary.counters.nodes_deleted
