"""Target resolution and the loopback guard; no server needed (drivers never connect here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import GraphDatabase

from car_graph import schema
from car_graph.connection import (
    ensure_local_target,
    is_loopback_uri,
    wipe_database,
)
from car_graph.errors import ConfigError, UnsafeTargetError
from car_graph.settings import Settings
from car_graph.target import resolve_target

REMOTE = "bolt://db.example.com:7687"


@pytest.mark.parametrize(
    "uri",
    [
        "bolt://localhost:7687",
        "bolt://LOCALHOST:7687",
        "neo4j://127.0.0.1:7687",
        "bolt://127.0.0.1",
        "bolt://127.8.9.10:7687",
        "bolt://[::1]:7687",
        "bolt://[::ffff:127.0.0.1]:7687",
        "neo4j+ssc://localhost:7687",
    ],
)
def test_loopback_uris(uri: str) -> None:
    assert is_loopback_uri(uri)


@pytest.mark.parametrize(
    "uri",
    [
        REMOTE,
        "bolt://10.0.0.5:7687",
        "bolt://0.0.0.0:7687",
        "neo4j+s://abcd1234.databases.neo4j.io",
        "bolt://localhost.example.com:7687",
        "bolt://127.0.0.1.nip.io:7687",
        "bolt://neo4j:7687",
        "bolt://[::ffff:10.0.0.1]:7687",
        "",
        "not a uri",
        "bolt://[::1:7687",
    ],
)
def test_non_loopback_uris(uri: str) -> None:
    assert not is_loopback_uri(uri)


def test_wipe_refuses_remote_before_touching_the_server() -> None:
    # The driver would fail on DNS if used; the guard must fire first.
    with GraphDatabase.driver(REMOTE, auth=("neo4j", "irrelevant")) as driver:
        with pytest.raises(UnsafeTargetError, match="not a loopback"):
            wipe_database(driver, "neo4j", REMOTE)
        with pytest.raises(UnsafeTargetError):
            schema.drop_schema(driver, "neo4j", REMOTE)
        with pytest.raises(UnsafeTargetError):
            schema.reset(driver, "neo4j", REMOTE)


def test_remote_is_allowed_only_when_asked() -> None:
    ensure_local_target(REMOTE, allow_remote=True)
    ensure_local_target("bolt://127.0.0.1:7687")
    with pytest.raises(UnsafeTargetError):
        ensure_local_target(REMOTE)


def test_uri_without_password_is_a_config_error() -> None:
    settings = Settings.from_env({}, neo4j_uri="bolt://localhost:7687")
    with pytest.raises(ConfigError, match="NEO4J_PASSWORD"):
        resolve_target(settings)


def test_explicit_uri_is_used_as_given() -> None:
    settings = Settings.from_env({"NEO4J_URI": REMOTE, "NEO4J_USER": "reader", "NEO4J_PASSWORD": "pw123456"})
    target = resolve_target(settings)
    assert (target.uri, target.user, target.password, target.managed) == (REMOTE, "reader", "pw123456", False)
    assert "pw123456" not in repr(target)


def test_managed_server_not_running_is_a_config_error(tmp_path: Path) -> None:
    settings = Settings.from_env({"CAR_GRAPH_HOME": str(tmp_path)})
    with pytest.raises(ConfigError, match="car-graph neo4j start"):
        resolve_target(settings)
