"""Shared by the verdict tests: hand-made drug-label records (an approval naming an indication,
and a withdrawal superseding it), as the built-in drug domain writes them."""

from __future__ import annotations


def approval(doc_id: str, drug: str, year: int, indication: str | None) -> dict:
    facts = f" Indication: {indication}." if indication else ""
    return {"id": doc_id, "kind": "approval", "domain": "drug-labels", "published": f"{year}-01-01",
            "title": f"{drug.title()} approved {year}",
            "text": f"{drug.title()} was approved by the US Food and Drug Administration in {year} "
                    f"as a new molecular entity.{facts}",
            "scope": {"drug": drug}}


def withdrawal(doc_id: str, drug: str, year: int, of: str) -> dict:
    return {"id": doc_id, "kind": "withdrawal", "domain": "drug-labels",
            "published": f"{year}-01-01", "title": f"{drug.title()} withdrawn ({year})",
            "text": f"{drug.title()} was withdrawn from the market in {year}. Reason: liver.",
            "scope": {"drug": drug}, "supersedes": [{"id": of, "effective": f"{year}-01-01"}]}
