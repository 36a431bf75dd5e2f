"""What every framework adapter puts in a retrieved document's metadata."""

from __future__ import annotations

from datetime import date
from typing import Any

from car_graph.errors import MissingExtraError
from car_graph.types import Result


def require(module: str, extra: str) -> None:
    """Import check with an install hint, so a missing extra fails with what to run."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(module, extra) from exc


def result_metadata(result: Result, as_of: date | None) -> dict[str, Any]:
    """JSON-able metadata: who controls, its status, the chain that led there, as of when."""
    return {
        "doc_id": result.doc_id,
        "title": result.title,
        "status": str(result.status),
        "kind": result.kind,
        "domain": result.domain,
        "published": result.published.isoformat() if result.published else None,
        "score": result.score,
        "anchor_id": result.anchor_id,
        "superseded_anchor": bool(result.chain),
        "chain": [
            {"from_id": h.from_id, "to_id": h.to_id, "rule": h.rule,
             "effective": h.effective.isoformat() if h.effective else None,
             "evidence": h.evidence, "partial": h.partial}
            for h in result.chain
        ],
        "as_of": as_of.isoformat() if as_of else None,
    }


def result_text(result: Result) -> str:
    """The passage a model reads: the title, then the text."""
    if result.text and not result.text.startswith(result.title):
        return f"{result.title}\n{result.text}" if result.title else result.text
    return result.text or result.title
