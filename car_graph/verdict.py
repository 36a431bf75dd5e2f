"""Verdicts for RAG: is the document a question is about still in force, and if not, what
controls it -- plus a compact, citation-bearing context block for an LLM prompt.

Pure logic over the typed results of retrieval (``Retrieval``) and of the subject's closure
(``Explanation``); ``CarClient.answer`` runs the two queries and calls ``decide``. Nothing here
touches the database or a model, so every branch is unit-tested on hand-made objects.

The subject is the anchor of the top-ranked result: the document the question semantically
matched best after CAR's fused ranking (a superseded anchor's result is its controlling
document, reached from that anchor). The verdict then reads the subject's own status and its
chains, as of the requested date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from typing import Any

from car_graph.types import Explanation, Hop, Result, Retrieval, Status


class VerdictKind(StrEnum):
    IN_FORCE = "in_force"
    SUPERSEDED = "superseded"
    PARTIALLY_SUPERSEDED = "partially_superseded"
    WITHDRAWN = "withdrawn"
    UNRESOLVED = "unresolved"
    NOT_FOUND = "not_found"


_KIND_BY_STATUS = {
    Status.ACTIVE: VerdictKind.IN_FORCE,
    Status.SUPERSEDED: VerdictKind.SUPERSEDED,
    Status.PARTIALLY_SUPERSEDED: VerdictKind.PARTIALLY_SUPERSEDED,
    Status.WITHDRAWN: VerdictKind.WITHDRAWN,
    Status.UNRESOLVED: VerdictKind.UNRESOLVED,
}

# Prompt text, kept short: the model is told where authority lies, the sources say why.
DEFAULT_INSTRUCTIONS = (
    "Answer the question from the sources below. A document marked SUPERSEDED or WITHDRAWN is no "
    "longer in force: answer from the document that controls it and say so. Cite sources as [n]."
)
EXCERPT_CHARS = 300
EVIDENCE_CHARS = 240


@dataclass(frozen=True)
class Source:
    """One numbered document of the context block."""

    number: int
    doc_id: str
    title: str
    status: str
    published: date | None = None
    kind: str | None = None
    role: str = "retrieved"   # subject | controlling | retrieved
    chain: tuple[Hop, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Verdict:
    """Where the document a question is about stands, and what controls it."""

    question: str
    as_of: date | None
    kind: VerdictKind
    subject_id: str | None = None
    subject_title: str = ""
    superseded_by: tuple[Hop, ...] = ()     # the subject's direct superseders in force on as_of
    controlling: tuple[Result, ...] = ()    # end of every chain from the subject (itself if in force)
    retrieval: Retrieval | None = None
    scope: tuple[str, ...] = ()
    ambiguous_scopes: tuple[str, ...] = ()
    llm_answer: str | None = None
    notes: tuple[str, ...] = ()

    # -- one-line summary ------------------------------------------------------------------
    @property
    def summary(self) -> str:
        if self.kind is VerdictKind.NOT_FOUND or self.subject_id is None:
            return f"No document found for: {self.question}"
        subject = _name(self.subject_id, self.subject_title)
        when = f" as of {self.as_of}" if self.as_of else ""
        others = [c for c in self.controlling if c.doc_id != self.subject_id]
        by = "; ".join(_name(c.doc_id, c.title) for c in others)
        if self.kind is VerdictKind.IN_FORCE:
            return f"{subject} is in force{when}."
        if self.kind is VerdictKind.SUPERSEDED:
            direct = [f"{_name(h.to_id, self._title(h.to_id))} (rule {h.rule}, effective "
                      f"{h.effective or 'undated'})" for h in self.superseded_by]
            direct_ids = {h.to_id for h in self.superseded_by}
            further = [_name(c.doc_id, c.title) for c in others if c.doc_id not in direct_ids]
            controls = f"; now controlled by {'; '.join(further)}" if further and direct else ""
            return f"{subject} is superseded{when} by {' and '.join(direct) or by}{controls}."
        if self.kind is VerdictKind.PARTIALLY_SUPERSEDED:
            parts = ", ".join(_name(h.to_id, self._title(h.to_id)) for h in self.superseded_by)
            return f"{subject} is partially superseded{when} (in part by {parts or by}); the rest stays in force."
        if self.kind is VerdictKind.WITHDRAWN:
            return f"{subject} is withdrawn{when} and nothing supersedes it."
        return (f"{subject} is unresolved{when}: a later document of its scope may supersede it "
                "but no rule decided (or it sits on a supersession cycle).")

    def _title(self, doc_id: str) -> str:
        for result in self._known_results():
            if result.doc_id == doc_id:
                return result.title
        return ""

    def _known_results(self) -> Iterable[Result]:
        yield from self.controlling
        if self.retrieval is not None:
            yield from self.retrieval.results

    # -- prompt context --------------------------------------------------------------------
    def sources(self, limit: int | None = None) -> list[Source]:
        """The subject, its controlling documents, then the other retrieved results, numbered."""
        texts = {r.doc_id: r.text for r in self._known_results() if r.text}
        seen: dict[str, Source] = {}

        def add(doc_id: str, **kwargs: Any) -> None:
            if doc_id not in seen:
                seen[doc_id] = Source(number=len(seen) + 1, doc_id=doc_id,
                                      text=texts.get(doc_id, ""), **kwargs)

        if self.subject_id is not None:
            subject_status = _subject_status(self.kind)
            add(self.subject_id, title=self.subject_title, status=subject_status, role="subject")
        for result in self.controlling:
            add(result.doc_id, title=result.title, status=str(result.status),
                published=result.published, kind=result.kind, role="controlling",
                chain=result.chain)
        if self.retrieval is not None:
            for result in self.retrieval.results:
                add(result.doc_id, title=result.title, status=str(result.status),
                    published=result.published, kind=result.kind, chain=result.chain)
        ordered = list(seen.values())
        return ordered if limit is None else ordered[:limit]

    def context(self, limit: int | None = 8, excerpt_chars: int = EXCERPT_CHARS) -> str:
        """A compact block for an LLM prompt: the verdict, then numbered sources with status,
        date and the chain (rule, effective date, evidence) from the subject to each."""
        sources = self.sources(limit)
        number = {s.doc_id: s.number for s in sources}
        lines = [f"Question: {self.question}"]
        if self.as_of:
            lines.append(f"As of: {self.as_of}")
        lines.append(f"Verdict: {self.kind.value.upper().replace('_', ' ')}. {self.summary}")
        if self.ambiguous_scopes:
            lines.append("Caution: several independent chains share the scope "
                         f"{', '.join(self.ambiguous_scopes[:3])}; more than one document may control.")
        if not sources:
            return "\n".join(lines)
        lines.append("Sources:")
        for source in sources:
            meta = ", ".join(x for x in (source.kind, str(source.published) if source.published else None) if x)
            meta = f" ({meta})" if meta else ""
            role = {"subject": " [asked about]", "controlling": " [CONTROLLING]"}.get(source.role, "")
            lines.append(f"[{source.number}] {source.doc_id}: {source.title}{meta}; "
                         f"status {source.status.upper()}{role}")
            for hop in source.chain:
                older = f"[{number[hop.from_id]}]" if hop.from_id in number else hop.from_id
                part = " in part" if hop.partial else ""
                lines.append(f"    {older} superseded{part} by [{source.number}] under rule {hop.rule}, "
                             f"effective {hop.effective or 'undated'}"
                             + (f"; evidence: {_clip(hop.evidence, EVIDENCE_CHARS)}" if hop.evidence else ""))
            if source.text and excerpt_chars > 0:
                lines.append(f"    excerpt: {_clip(source.text, excerpt_chars)}")
        return "\n".join(lines)

    def prompt(self, instructions: str = DEFAULT_INSTRUCTIONS, limit: int | None = 8) -> str:
        return f"{instructions}\n\n{self.context(limit)}\n\nAnswer:"

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "verdict": self.kind.value,
            "summary": self.summary,
            "subject": ({"doc_id": self.subject_id, "title": self.subject_title,
                         "scope": list(self.scope)} if self.subject_id else None),
            "superseded_by": [_hop_json(h) for h in self.superseded_by],
            "controlling": [
                {"doc_id": r.doc_id, "title": r.title, "kind": r.kind, "domain": r.domain,
                 "published": r.published.isoformat() if r.published else None,
                 "status": str(r.status), "chain": [_hop_json(h) for h in r.chain]}
                for r in self.controlling
            ],
            "ambiguous_scopes": list(self.ambiguous_scopes),
            "notes": list(self.notes),
            "sources": [
                {"n": s.number, "doc_id": s.doc_id, "title": s.title, "status": s.status,
                 "role": s.role} for s in self.sources()
            ],
            "llm_answer": self.llm_answer,
        }


def subject_of(retrieval: Retrieval) -> str | None:
    """The document the question is about: the anchor of the top-ranked result."""
    return retrieval.results[0].anchor_id if retrieval.results else None


def in_force_on(hop: Hop, as_of: date | None) -> bool:
    return as_of is None or hop.effective is None or hop.effective <= as_of


def decide(retrieval: Retrieval, explanation: Explanation | None) -> Verdict:
    """The verdict for ``retrieval``'s subject, given the subject's ``explanation`` (None when
    retrieval found nothing)."""
    if explanation is None or not retrieval.results:
        return Verdict(question=retrieval.question, as_of=retrieval.as_of,
                       kind=VerdictKind.NOT_FOUND, retrieval=retrieval)
    kind = _KIND_BY_STATUS[explanation.status]
    hops = [h for h in explanation.superseded_by if in_force_on(h, retrieval.as_of)]
    if kind is VerdictKind.SUPERSEDED:
        hops = [h for h in hops if not h.partial]
    elif kind is VerdictKind.PARTIALLY_SUPERSEDED:
        hops = [h for h in hops if h.partial]
    else:
        hops = []
    # Controlling documents first by how directly they control (shorter chains), then newest.
    controlling = tuple(sorted(
        explanation.controlling,
        key=lambda r: (len(r.chain), -(r.published.toordinal() if r.published else 0), r.doc_id),
    ))
    notes = []
    if len(controlling) > 1 and kind is VerdictKind.SUPERSEDED:
        notes.append(f"{len(controlling)} documents control it (several chains)")
    statuses = {c.doc_id: c.status for c in controlling if c.doc_id != explanation.doc_id}
    for doc_id, status in statuses.items():
        if status is not Status.ACTIVE:
            notes.append(f"controlling document {doc_id} is itself {status}")
    return Verdict(
        question=retrieval.question,
        as_of=retrieval.as_of,
        kind=kind,
        subject_id=explanation.doc_id,
        subject_title=explanation.title,
        # dated superseders first, in the order they took effect
        superseded_by=tuple(sorted(hops, key=lambda h: (h.effective is None, h.effective or date.min, h.to_id))),
        controlling=controlling,
        retrieval=retrieval,
        scope=explanation.scope,
        # only the subject's own scopes: other anchors' kappa says nothing about this verdict
        ambiguous_scopes=tuple(s for s in retrieval.ambiguous_scopes if s in explanation.scope),
        notes=tuple(notes),
    )


def with_llm(verdict: Verdict, llm: Callable[[str], str],
             instructions: str = DEFAULT_INSTRUCTIONS) -> Verdict:
    """The optional hook: ask ``llm`` (prompt -> text) and keep its answer beside the verdict."""
    return replace(verdict, llm_answer=llm(verdict.prompt(instructions)))


def _subject_status(kind: VerdictKind) -> str:
    return Status.ACTIVE.value if kind is VerdictKind.IN_FORCE else kind.value


def _name(doc_id: str, title: str) -> str:
    return f"{title} [{doc_id}]" if title else doc_id


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _hop_json(hop: Hop) -> dict[str, Any]:
    return {"from_id": hop.from_id, "to_id": hop.to_id, "rule": hop.rule,
            "effective": hop.effective.isoformat() if hop.effective else None,
            "evidence": hop.evidence, "partial": hop.partial}
