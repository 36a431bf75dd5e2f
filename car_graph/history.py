"""Which recorded state a ``--known-at`` read is answered from (docs/history.md).

A run commits in several transactions (one per batch, then its rules): each of its commits is
visible to ``--known-at`` from the instant it closed (queries/end_commit.cypher), and a read is
pinned to the transaction time of the last commit closed by the instant asked for
(queries/known_at_pin.cypher). So the past never changes after the fact: what a reader saw at
an instant is what ``--known-at`` that instant answers, however late an in-flight run commits.

An instant later than the last commit is answered as of that commit (a later one may still
come: the answer is not stamped with an instant the graph has not reached); ``run:N`` names
the state run N left; an instant before a purge's cut-off is answered with a note saying
what was erased, or refused (``strict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from car_graph.errors import HistoryPurgedError, UnknownRunError
from car_graph.store import GraphStore
from car_graph.types import KnownAt, RunRef, parse_known_at


@dataclass(frozen=True)
class KnownAtPin:
    """A known-at value resolved against the graph's commits."""

    asked: datetime | RunRef        # what the caller gave (parsed)
    instant: datetime               # the transaction time the read uses
    shown: datetime                 # the instant the answer is stamped with
    note: str | None = None         # what the reader must know about it (None: nothing)


def _native(value: Any) -> datetime:
    return value.to_native() if hasattr(value, "to_native") else value


def pin_known_at(store: GraphStore, value: KnownAt, *, strict: bool = False) -> KnownAtPin | None:
    """``value`` (a date, a datetime, ISO text or ``run:N``) as the commit point it reads; None
    for None (the current graph). Raises ValueError for a value no surface accepts,
    UnknownRunError for a run with no closed commit, and (``strict``) HistoryPurgedError."""
    asked = parse_known_at(value)
    if asked is None:
        return None
    run = asked.number if isinstance(asked, RunRef) else None
    row = store.read("known_at_pin", known_at=None if isinstance(asked, RunRef) else asked,
                     run=run)[0]
    pinned, last = row["pinned"], row["last"]
    notes: list[str] = []
    if isinstance(asked, RunRef):
        if pinned is None:
            raise UnknownRunError(asked.number, row["last_run"])
        instant = shown = _native(pinned)
    elif pinned is None:
        # no commit closed by then: the graph before its first commit (a graph written before
        # commits were kept has none: the instant itself, as recorded_from / recorded_until say)
        shown = asked
        instant = asked if row["first"] is None else min(
            asked, _native(row["first"]) - timedelta(microseconds=1))
    else:
        instant = _native(pinned)
        shown = asked
        if row["last_committed"] is not None and asked > _native(row["last_committed"]) \
                and pinned == last:
            # the graph has not reached this instant: a later commit may still come
            shown = instant
            notes.append(f"{asked.isoformat()} is later than the last commit (run "
                         f"{row['last_run']}, {shown.isoformat()}): answered as known then")
    for purge in row["purged"]:
        at = _native(purge["at"]).isoformat()
        why = f" ({purge['reason']})" if purge["reason"] else ""
        if purge["documents"]:
            notes.append(f"the history of {len(purge['documents'])} document(s) was purged at "
                         f"{at} by run {purge['run']}{why}: what they were then is not known")
        else:
            notes.append(f"history closed before {_native(purge['cutoff']).isoformat()} was "
                         f"purged by run {purge['run']}{why}: what was erased is missing here")
    note = "; ".join(notes) or None
    if strict and row["purged"]:
        raise HistoryPurgedError(note or "history was purged")
    return KnownAtPin(asked, instant, shown, note)


@dataclass(frozen=True)
class RunInfo:
    """One recorded run, as `car-graph runs` lists it (queries/runs.cypher)."""

    run: int
    command: str
    source: str | None
    started: datetime
    committed: datetime | None     # when its last commit closed (None: never closed)
    commits: int
    counts: dict[str, int]         # added, updated, deleted; a purge's versions, edges, retired
    cutoff: datetime | None = None
    documents: tuple[str, ...] = ()
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run, "kind": self.command, "source": self.source,
                "started": self.started.isoformat(),
                "committed": self.committed.isoformat() if self.committed else None,
                "commits": self.commits, "counts": self.counts,
                "cutoff": self.cutoff.isoformat() if self.cutoff else None,
                "documents": list(self.documents), "reason": self.reason}


def list_runs(store: GraphStore) -> list[RunInfo]:
    """Every recorded run, oldest first."""
    out = []
    for row in store.read("runs"):
        counts = {key: int(row[key]) for key in ("added", "updated", "deleted", "versions",
                                                 "edges", "retired") if row[key] is not None}
        out.append(RunInfo(
            int(row["run"]), row["command"],
            row["source"] or ("mcp" if row["client"] else None),
            _native(row["started"]),
            _native(row["committed"]) if row["committed"] is not None else None,
            int(row["commits"]), counts,
            _native(row["cutoff"]) if row["cutoff"] is not None else None,
            tuple(row["documents"] or ()), row["reason"]))
    return out
