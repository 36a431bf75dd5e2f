"""Where the tests find the raw corpora (``security/``, ``law/``, ``drug/``), in one place.

The corpora are not in the repository (hundreds of MB, several licences). A test that needs
them takes the ``raw_corpora`` fixture (tests/conftest.py), which gives it the ``corpora``
marker; ``-m 'not corpora'`` leaves them out.

Location, in order:

1. ``CAR_GRAPH_CORPORA``, if set -- and then only that folder, so a run can hide the corpora
   (``CAR_GRAPH_CORPORA=/nonexistent``) even where the default would find them;
2. ``shared/data/raw`` beside the checkout (``/work/main`` -> ``/work/shared``) or beside a
   folder above it (a worktree ``/work/wt/NAME`` -> ``/work/shared``).

Missing: skip with one line on a developer's machine, fail under ``CI=true`` (ci_policy).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ci_policy import unavailable

ENV = "CAR_GRAPH_CORPORA"
DOMAINS = ("security", "law", "drug")
REPO_ROOT = Path(__file__).resolve().parents[1]
HOW_TO_GET = (f"needs the raw corpora ({'/'.join(DOMAINS)}): set {ENV}=DIR "
              "or run `car-graph corpora fetch`")


def _complete(path: Path) -> bool:
    return all((path / domain).is_dir() for domain in DOMAINS)


def find_corpora(env: Mapping[str, str] | None = None, start: Path = REPO_ROOT) -> Path | None:
    """The corpora folder, or None when the setting (or, unset, the default) holds none."""
    env = os.environ if env is None else env
    if value := env.get(ENV):
        path = Path(value).expanduser().resolve()
        return path if _complete(path) else None
    for parent in start.parents:
        candidate = parent / "shared" / "data" / "raw"
        if _complete(candidate):
            return candidate
    return None


def require_corpora() -> Path:
    """The corpora folder; skips the test (fails it under CI=true) when there is none."""
    path = find_corpora()
    if path is None:
        where = f" ({ENV}={os.environ[ENV]} has no {', '.join(DOMAINS)} folders)" \
            if os.environ.get(ENV) else ""
        unavailable(HOW_TO_GET + where)
    return path
