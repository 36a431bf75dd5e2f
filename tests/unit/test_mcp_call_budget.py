"""The MCP server's deadline machinery without a database: a call's budget, the read/write lock
that lets reads run side by side, and how a deadline is reported (retryable)."""

from __future__ import annotations

import threading
import time

import pytest
from neo4j.exceptions import Neo4jError

from car_graph.errors import DeadlineExceededError
from car_graph.mcp_server import (
    CallBudget,
    ReadWriteLock,
    describe_failure,
    error_result,
    stopped_by_budget,
)


def server_error(code: str) -> Neo4jError:
    """An error as the driver makes it from a server's FAILURE message."""
    return Neo4jError._hydrate_neo4j(code=code, message="stopped")


def test_a_budget_gives_what_is_left_and_refuses_once_spent() -> None:
    budget = CallBudget(0.3)
    assert 0.2 < budget.check() <= 0.3
    assert budget.timeout(0.05) == 0.05 and budget.timeout(None) <= 0.3  # a shorter limit wins
    time.sleep(0.35)
    with pytest.raises(DeadlineExceededError, match=r"deadline of 0\.3 s"):
        budget.check()


def test_a_stopped_budget_refuses_at_once_and_says_who_stopped_it() -> None:
    budget = CallBudget(30)
    budget.stop(by_client=True)
    with pytest.raises(DeadlineExceededError, match="cancelled by its client"):
        budget.check()


def test_neo4j_stopping_a_transaction_is_the_budgets_only_when_the_budget_is_spent() -> None:
    timed_out = server_error("Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration")
    assert not stopped_by_budget(timed_out, CallBudget(30))  # --cypher-timeout, not the deadline
    spent = CallBudget(30)
    spent.stop(by_client=False)
    assert stopped_by_budget(timed_out, spent)
    syntax = server_error("Neo.ClientError.Statement.SyntaxError")
    assert not stopped_by_budget(syntax, spent)


def test_a_deadline_is_a_retryable_tool_error() -> None:
    result = error_result(describe_failure(DeadlineExceededError(30)))
    assert result.is_error and result.structured_content["retryable"] is True
    assert result.content[0].text.startswith("Error (retryable): the call ran past its deadline of 30 s")


def test_reads_share_the_lock_and_a_write_waits_for_them() -> None:
    lock = ReadWriteLock()
    inside, events = threading.Barrier(2), []

    def read(name: str) -> None:
        with lock.reading(CallBudget(5)):
            inside.wait(timeout=5)  # both readers are in at once, or this times out
            events.append(f"{name} read")
            time.sleep(0.2)

    def write() -> None:
        time.sleep(0.05)
        with lock.writing(CallBudget(5)):
            events.append("write")

    threads = [threading.Thread(target=read, args=(n,)) for n in ("a", "b")] + [threading.Thread(target=write)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(events[:2]) == ["a read", "b read"] and events[2] == "write"


def test_a_read_waiting_behind_a_write_gives_up_at_its_deadline() -> None:
    lock = ReadWriteLock()
    with lock.writing(CallBudget(5)):
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError), lock.reading(CallBudget(0.2)):
            pass
        assert time.monotonic() - started < 1
    with lock.reading(CallBudget(1)):  # the lock is free again
        pass
