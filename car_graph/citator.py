"""The citator: every authority a text cites, with its status as of a date (``CarClient.check``,
``car-graph check FILE``).

A mention is what the graph's domains know how to read: an identifier of a declared pattern that
identifies documents (a CVE, an advisory id, a U.S. Reports citation, an application number),
or a name the graph holds, written out in full (a case name). Each is resolved to the documents
it cites -- an identifier to the documents it identifies (or whose id it is), a name to the
documents it names whose title is that name -- and each document's status and controlling
documents, with their chains, come from one closure.cypher statement for the whole text
(``guard.standings``). A mention citing several documents (a CVE two advisories carry, two
decisions of one name) lists them all; its status is theirs when they agree, else ``mixed``.
Mentions the graph cannot resolve to a document are left out: they cite nothing it holds.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from car_graph.domains import DomainRegistry
from car_graph.guard import normalise, standings
from car_graph.linking import EntityLinker, written_spans
from car_graph.store import GraphStore
from car_graph.types import Result, Status

MIXED = "mixed"
NOT_FOUND = "not_found"  # the cited document is not published by the date


@dataclass(frozen=True)
class CitedDocument:
    doc_id: str
    title: str
    status: str  # a Status value, or not_found
    controlling: tuple[Result, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "title": self.title, "status": self.status,
                "controlling": [{"doc_id": c.doc_id, "title": c.title, "status": str(c.status),
                                 "chain": [{"from_id": h.from_id, "to_id": h.to_id, "rule": h.rule,
                                            "effective": h.effective.isoformat() if h.effective else None,
                                            "partial": h.partial} for h in c.chain]}
                                for c in self.controlling if c.doc_id != self.doc_id]}


@dataclass(frozen=True)
class Mention:
    """One mention in the text: where (offsets into the text; line and column from 1), what it
    says, which entity it is, the documents it cites and their status."""

    start: int
    end: int
    line: int
    column: int
    text: str
    type: str
    key: str
    documents: tuple[CitedDocument, ...]

    @property
    def status(self) -> str:
        statuses = {d.status for d in self.documents}
        return statuses.pop() if len(statuses) == 1 else MIXED

    @property
    def statuses(self) -> frozenset[str]:
        return frozenset(d.status for d in self.documents)

    def controlling(self) -> list[Result]:
        """The documents controlling the cited ones, other than themselves."""
        cited = {d.doc_id for d in self.documents}
        seen: dict[str, Result] = {}
        for d in self.documents:
            for c in d.controlling:
                if c.doc_id not in cited:
                    seen.setdefault(c.doc_id, c)
        return list(seen.values())

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "line": self.line, "column": self.column,
                "text": self.text, "type": self.type, "key": self.key, "status": self.status,
                "documents": [d.to_json() for d in self.documents]}


@dataclass(frozen=True)
class CheckReport:
    as_of: date | None
    mentions: tuple[Mention, ...]

    def failing(self, statuses: Iterable[str]) -> list[Mention]:
        """The mentions citing a document of one of ``statuses`` (a CI gate's failures)."""
        wanted = set(statuses)
        return [m for m in self.mentions if m.statuses & wanted]

    def to_json(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for m in self.mentions:
            counts[m.status] = counts.get(m.status, 0) + 1
        return {"as_of": self.as_of.isoformat() if self.as_of else None,
                "mentions": [m.to_json() for m in self.mentions], "counts": counts}

    def table(self) -> str:
        """line:col, mention, status, controlling document, chain: one row per mention."""
        if not self.mentions:
            return "no mention of a document the graph holds"
        rows = [("LINE", "MENTION", "STATUS", "CONTROLLING", "CHAIN")]
        for m in self.mentions:
            controlling = m.controlling()
            rows.append((f"{m.line}:{m.column}", m.text, m.status,
                         ", ".join(c.doc_id for c in controlling) or "-",
                         "; ".join(" -> ".join([c.chain[0].from_id, *(h.to_id for h in c.chain)])
                                   + f" ({', '.join(h.rule for h in c.chain)})"
                                   for c in controlling if c.chain) or "-"))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4]
                         for r in rows)

    def sarif(self, path: str, fail_on: Iterable[str] = ()) -> dict[str, Any]:
        """SARIF 2.1.0: one result per mention that is not in force (error for ``fail_on``)."""
        failing = set(fail_on)
        results = []
        for m in self.mentions:
            if m.statuses <= {Status.ACTIVE.value}:
                continue
            controlling = ", ".join(f"{c.title} [{c.doc_id}]" for c in m.controlling())
            results.append({
                "ruleId": f"car-graph/{m.status}",
                "level": "error" if m.statuses & failing else "warning",
                "message": {"text": f"{m.text} cites "
                            + ", ".join(f"{d.title} [{d.doc_id}] ({d.status})" for d in m.documents)
                            + (f"; controlling: {controlling}" if controlling else "")},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": path},
                    "region": {"startLine": m.line, "startColumn": m.column,
                               "endColumn": m.column + (m.end - m.start)}}}],
            })
        return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
                "runs": [{"tool": {"driver": {"name": "car-graph check",
                                              "informationUri": "https://github.com/car-graph"}},
                          "results": results}]}


@dataclass(frozen=True)
class _Found:
    start: int
    end: int
    type: str
    key: str
    name: bool


def identifier_mentions(text: str, registry: DomainRegistry) -> list[_Found]:
    """Every match of an identifier pattern that identifies documents, each occurrence."""
    found = []
    for spec in registry.identifier_specs:
        if not spec.identifies_documents:
            continue
        for m in spec.regex.finditer(text):
            start, end = m.start(spec.group), m.end(spec.group)
            key = spec.key_of(text[start:end])
            if key:
                found.append(_Found(start, end, spec.type, key, False))
    return found


def name_mentions(text: str, linker: EntityLinker, lines: Sequence[tuple[int, str]]) -> list[_Found]:
    """The graph's names each line writes out in full (``linking``: the linker reads the
    line as it reads a question; only a name written as spelled counts, never a typo's reading)."""
    found = []
    for offset, line in lines:
        for entity in linker.link(line):
            if entity.how != "name":
                continue
            for start, end in written_spans(entity.key, line):
                found.append(_Found(offset + start, offset + end, entity.type, entity.key, True))
    return found


def check(store: GraphStore, linker: EntityLinker, registry: DomainRegistry, text: str,
          as_of: date | None = None, known_at: datetime | None = None) -> CheckReport:
    """See the module docstring."""
    lines, offset = [], 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    found = identifier_mentions(text, registry) + name_mentions(text, linker, lines)
    # one mention per span: an identifier beats a name read over it, the longer span the shorter
    found.sort(key=lambda f: (f.start, -(f.end - f.start), f.name))
    kept: list[_Found] = []
    for f in found:
        if not kept or f.start >= kept[-1].end:
            kept.append(f)
    cited = _cited(store, kept, text)
    statuses = standings(store, sorted({d for ds in cited.values() for d, _ in ds}), as_of, known_at)
    starts = [o for o, _ in lines]
    mentions = []
    for i, f in enumerate(kept):
        if not cited.get(i):
            continue
        docs = tuple(CitedDocument(d, title, str(statuses[d].status) if d in statuses else NOT_FOUND,
                                   statuses[d].controlling if d in statuses else ())
                     for d, title in cited[i])
        row = _line_of(starts, f.start)
        mentions.append(Mention(f.start, f.end, row + 1, f.start - starts[row] + 1,
                                text[f.start:f.end], f.type, f.key, docs))
    return CheckReport(as_of, tuple(mentions))


def _cited(store: GraphStore, found: Sequence[_Found], text: str) -> dict[int, list[tuple[str, str]]]:
    """mention index -> [(doc_id, title)] it cites (one statement for all)."""
    if not found:
        return {}
    rows = store.read("citator_documents", mentions=[
        {"mention": i, "type": f.type, "key": f.key, "name": f.name,
         "ids": sorted({text[f.start:f.end], text[f.start:f.end].upper(), f.key})}
        for i, f in enumerate(found)])
    cited: dict[int, dict[str, str]] = {}
    for row in rows:
        f = found[row["mention"]]
        title = row["title"] or ""
        if f.name and normalise(title) != normalise(f.key):
            continue  # names the document's scope, is not its name (an overruled case's)
        cited.setdefault(row["mention"], {})[row["doc_id"]] = title
    return {i: sorted(docs.items()) for i, docs in cited.items()}


def _line_of(starts: Sequence[int], offset: int) -> int:
    return max(0, bisect.bisect_right(starts, offset) - 1)

