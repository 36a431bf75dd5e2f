"""Typed results. Field names match the RETURN columns of the Cypher that produces them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"                    # a full superseder is effective
    PARTIALLY_SUPERSEDED = "partially_superseded"  # only partial superseders (in part, lot recall)
    WITHDRAWN = "withdrawn"                      # withdrawn, and nothing supersedes it
    UNRESOLVED = "unresolved"                    # same scope as a possible superseder, no rule decided


@dataclass(frozen=True)
class Hop:
    """One SUPERSEDES edge walked from the anchor towards the controlling document."""

    from_id: str        # the older document
    to_id: str          # the document that supersedes it
    rule: str
    effective: date | None
    evidence: str | None
    partial: bool = False

    def how(self) -> str:
        """"via RULE[ on DATE][ (in part)]": how this edge supersedes, as the CLI prints it."""
        when = f" on {self.effective}" if self.effective else ""
        return f"via {self.rule}{when}{' (in part)' if self.partial else ''}"


@dataclass(frozen=True)
class Result:
    """One controlling document, with the anchor it was reached from and the chain between them."""

    doc_id: str
    title: str
    kind: str | None
    domain: str | None
    published: date | None
    status: Status
    score: float
    anchor_id: str
    chain: tuple[Hop, ...] = ()
    text: str = ""

    @property
    def is_anchor(self) -> bool:
        return not self.chain


@dataclass(frozen=True)
class Retrieval:
    """A ranked answer plus what the query learned along the way."""

    question: str
    as_of: date | None
    results: tuple[Result, ...]
    anchors: tuple[str, ...]           # fused anchor ids, best first
    suppressed: int                    # superseded anchors replaced by their controlling documents
    ambiguous_scopes: tuple[str, ...]  # anchor scopes holding more than one chain (kappa > 1)
    question_entities: tuple[str, ...] = ()
    # the fused score of each of ``anchors`` (same order); empty when unknown (hand-made
    # retrievals): the verdict then trusts the top anchor as before
    anchor_scores: tuple[float, ...] = ()
    # the linked entities of the question each of ``anchors`` holds (scoped to, identified or
    # named by; same order); empty when the question links none or the retrieval is hand-made
    anchor_held: tuple[tuple[str, ...], ...] = ()
    # how well each of ``anchors`` fits the question's words alone: its fused score without the
    # boosts of the linked entities it holds (dense + lexical, each in [0, 1]; same order). A
    # document that only carries a name the question uses, and fits nothing else it says, is not
    # singled out by that name. Empty when unknown.
    anchor_text_scores: tuple[float, ...] = ()
    # the question's entities linked as identifiers (or partial identifiers), a subset of
    # ``question_entities``: what singles a document out however little of its text matches
    question_identifiers: tuple[str, ...] = ()
    # the closures the same statement walked for the anchors a verdict may name (asked for with
    # ``readings``): what ``explain`` would say of each, best anchor first. Not in to_json.
    readings: tuple[Explanation, ...] = ()

    @property
    def ids(self) -> list[str]:
        return [r.doc_id for r in self.results]

    def to_json(self) -> dict[str, Any]:
        """The shape of ``car-graph retrieve --json`` (without the verdict), a contract."""
        return {
            "question": self.question,
            "as_of": self.as_of,
            "anchors": list(self.anchors),
            "suppressed": self.suppressed,
            "ambiguous_scopes": list(self.ambiguous_scopes),
            "question_entities": list(self.question_entities),
            "anchor_scores": [round(x, 6) for x in self.anchor_scores],
            "results": [
                {**asdict(r), "status": str(r.status), "chain": [asdict(h) for h in r.chain]}
                for r in self.results
            ],
        }


@dataclass(frozen=True)
class Explanation:
    """Where one document stands: its status and every chain to its controlling documents."""

    doc_id: str
    title: str
    status: Status
    as_of: date | None
    controlling: tuple[Result, ...]
    superseded_by: tuple[Hop, ...]
    supersedes: tuple[Hop, ...]
    scope: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The shape of ``car-graph explain --json``, a contract."""
        data = asdict(self)
        data["status"] = str(self.status)
        return data
