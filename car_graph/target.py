"""Which Neo4j to talk to, decided once at the edge (CLI, ``CarClient.from_env``).

``NEO4J_URI`` (with user and password) when set, else car-graph's managed local server. This is
the one module that joins the connection layer and the server operations
(``car_graph.local_server``), so neither imports the other.
"""

from __future__ import annotations

import neo4j

from car_graph.connection import Target, open_driver
from car_graph.errors import ConfigError, ServerError
from car_graph.local_server import LocalNeo4j
from car_graph.settings import Settings

MANAGED_INSTANCE = "default"


def resolve_target(settings: Settings) -> Target:
    """``NEO4J_URI`` (with user/password) if set, else the managed instance "default"."""
    if settings.neo4j_uri:
        if settings.neo4j_password is None:
            raise ConfigError(
                f"NEO4J_URI is set to {settings.neo4j_uri} but no password was given: set "
                "NEO4J_PASSWORD (or pass --password). Unset NEO4J_URI to use the managed "
                "local server instead."
            )
        return Target(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password)
    server = LocalNeo4j(settings.home, settings.neo4j_version, MANAGED_INSTANCE)
    try:
        uri, user, password = server.connection()
    except ServerError as exc:
        raise ConfigError(
            f"no Neo4j to talk to: NEO4J_URI is unset and the managed server under "
            f"{settings.home} is not running ({exc}). Run `car-graph neo4j start`, or set "
            "NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD."
        ) from exc
    return Target(uri, user, password, managed=True)


def connect(settings: Settings) -> neo4j.Driver:
    """A verified driver for the configured server. The caller closes it."""
    return open_driver(resolve_target(settings))
