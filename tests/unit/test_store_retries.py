"""Which failures GraphStore retries (idempotent batches only) and what it says when Neo4j is gone."""

from __future__ import annotations

import pytest
from neo4j.exceptions import ClientError, ServiceUnavailable

from car_graph import store
from car_graph.errors import CarError, ServerUnavailableError


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    from tenacity import wait_none

    monkeypatch.setattr(store, "BATCH_WAIT", wait_none())


def test_an_idempotent_batch_is_retried_after_a_lost_connection() -> None:
    calls = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise ServiceUnavailable("connection reset")
        return "committed"

    assert store._retrying_idempotent(flaky) == "committed"
    assert len(calls) == 3


def test_retries_are_bounded_and_the_last_error_surfaces() -> None:
    calls = []

    def down() -> None:
        calls.append(1)
        raise ServiceUnavailable("connection refused")

    with pytest.raises(ServiceUnavailable):
        store._retrying_idempotent(down)
    assert len(calls) == store.BATCH_ATTEMPTS


def test_a_client_error_is_never_retried() -> None:
    calls = []

    def wrong() -> None:
        calls.append(1)
        raise ClientError("syntax error")

    with pytest.raises(ClientError):
        store._retrying_idempotent(wrong)
    assert len(calls) == 1


def test_server_unavailable_names_the_uri_and_the_command_to_start_it() -> None:
    error = ServerUnavailableError("bolt://127.0.0.1:7687", "read retrieve", "connection refused")
    assert isinstance(error, CarError)
    text = str(error)
    assert "bolt://127.0.0.1:7687" in text and "car-graph neo4j start" in text
    assert "read retrieve" in text and "connection refused" in text
