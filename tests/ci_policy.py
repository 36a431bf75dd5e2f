"""What a test does when something it needs is missing: fail under CI (a vanished integration
test must never look green there), skip on a developer's machine. Imported by the conftest,
tests/corpora.py (the raw corpora) and by tests that need more than the shared server (a browser, a server of their own)."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)
