"""Law corpus: the CONAN table of Supreme Court decisions overruled by later decisions.

Input: ``conan_overruled_pairs.jsonl`` (one line per (overruled, overruling) pair, split from the
Congress.gov CSV beside it). Output: one ``decision`` document per decision (domain ``law``) and
an explicit ``supersedes`` edge from each overruling decision to each decision it overrules.

Identity and ids
    A decision is identified by its citation, not its name: the table holds homonyms (three
    different *Harris v. United States*, two *James v. United States*; *Reid v. Covert* 1956 is
    overruled by *Reid v. Covert* 1957 on rehearing) and misspellings of one decision
    ("Nationall League of Cities", "Cicenia v. Lagay" / "La Gay"; *Brown v. Allen* and
    *Daniels v. Allen* are one consolidated opinion, 344 U.S. 443). Ids are
    ``scotus:<volume>-us-<page>`` (``scotus:406-us-404``) or, for slip opinions cited by docket,
    ``scotus:no-<docket>`` (``scotus:no-18-5924``). The most frequent spelling is the title; the
    other spellings are kept as ``aliases`` and as scope keys.

Text
    Name, citation, year, and the table's note on the opinion ("plurality opinion", "per
    curiam"). An overruling decision's text says what it overrules; an overruled decision's text
    never names what overrules it (the vocabulary gap the retrieval task is about).

Scope
    ``case``: the decision's own name(s); an overruling decision also carries the names of the
    decisions it overrules, so the overruled case's entity reaches its overruling decisions.

Supersession: explicit edges only (the domain's ``rules.yaml`` has no rules). A rule keyed on the shared
``case`` entity would be wrong here: two decisions that overrule the same case share its key
and would supersede each other, and homonymous case names would link unrelated decisions.
The table's rows are exact, so each becomes one edge: effective on the overruling decision's
date (slip opinions) or its year as YYYY-01-01, evidence = the table row, ``partial`` when the
table says "in part". Chains come out edge by edge (A <- B <- C gives B->A and C->B).

Data repairs (counted by :func:`law_stats`; see NAME_CORRECTIONS for fixed misspellings): the
pairs file mis-splits "Local No. 438 Construction
& General Laborers' Union v. Curry" (name "Local", citation "No. 438"); names and citations are
re-parsed from the ``*_raw`` fields whenever the split fields do not hold a valid citation.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.records import DocumentRecord, SupersedesRef, report_problem

NAME = "law"  # the ``domain`` of every record the adapter writes
PAIRS_FILE = "conan_overruled_pairs.jsonl"

_US_REPORTS = (
    r"(?P<vol>\d+)\s+U\.\s?S\.\s+(?:\((?P<nominative>\d+\s+[A-Za-z.]+)\)\s+)?(?P<page>\d+)"
)
_DOCKET = r"No\.\s+(?P<docket>\d+-\d+)\s+\(U\.S\.\s+(?P<date>[A-Za-z]+\.?\s+\d{1,2},\s*\d{4})\)"
CITATION = re.compile(rf"(?:{_US_REPORTS}|{_DOCKET})")
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7,
    "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}


# Misspellings in the table, corrected (and counted as repairs). Spelling variants that are
# real alternative captions ("National Bellas Hess, Inc. v. ...", "Daniels v. Allen") are kept
# as aliases instead.
NAME_CORRECTIONS = {
    "Nationall League of Cities v. Usery": "National League of Cities v. Usery",
}


@dataclass(frozen=True)
class Cite:
    name: str
    citation: str
    key: str  # the id suffix: 406-us-404 / no-18-5924
    year: int
    decided: date | None  # the exact date when the citation gives one (slip opinions)


def parse_case(raw: str, year: int | None = None) -> tuple[Cite, str | None]:
    """'Apodaca v. Oregon,406 U.S. 404 (1972) (plurality opinion)' -> (Cite, note)."""
    match = CITATION.search(raw)
    if not match:
        raise ValueError(f"no U.S. Reports or docket citation in {raw!r}")
    name = raw[: match.start()].strip().rstrip(",").strip()
    if not name:
        raise ValueError(f"no case name before the citation in {raw!r}")
    citation = " ".join(match.group(0).split())
    decided = None
    if match.group("vol"):
        key = f"{match.group('vol')}-us-{match.group('page')}"
    else:
        key = f"no-{match.group('docket')}"
        parts = re.match(r"([A-Za-z]+)\.?\s+(\d+),\s*(\d{4})", match.group("date"))
        assert parts is not None  # the CITATION pattern guarantees this shape
        month, day, yr = parts.groups()
        if month.casefold() not in _MONTHS:
            raise ValueError(f"unknown month in {citation!r}")
        decided = date(int(yr), _MONTHS[month.casefold()], int(day))
    rest = raw[match.end():]
    parens = re.findall(r"\(([^()]*)\)", rest)
    found_year = next((int(p) for p in parens if re.fullmatch(r"\d{4}", p.strip())), None)
    notes = [p.strip() for p in parens if not re.fullmatch(r"\d{4}", p.strip())]
    year = year or found_year or (decided.year if decided else None)
    if not year:
        raise ValueError(f"no year for {raw!r}")
    return Cite(name, citation, key, int(year), decided), ("; ".join(notes) or None)


@dataclass
class _Decision:
    key: str
    citation: str
    year: int
    decided: date | None
    names: Counter = field(default_factory=Counter)
    first_name: dict[str, int] = field(default_factory=dict)
    opinion_notes: dict[str, None] = field(default_factory=dict)
    overrules: dict[str, dict[str, Any]] = field(default_factory=dict)
    rows: set[int] = field(default_factory=set)

    def add_name(self, name: str, position: int) -> None:
        self.names[name] += 1
        self.first_name.setdefault(name, position)

    @property
    def name(self) -> str:
        return min(self.names, key=lambda n: (-self.names[n], self.first_name[n]))

    @property
    def aliases(self) -> list[str]:
        canonical = self.name
        return [n for n in sorted(self.names, key=self.first_name.__getitem__) if n != canonical]

    @property
    def id(self) -> str:
        return f"scotus:{self.key}"

    @property
    def published(self) -> date:
        return self.decided or date(self.year, 1, 1)


def _side(pair: Mapping[str, Any], side: str, repairs: list[str]) -> tuple[Cite, str | None]:
    """One side of a pair from the split fields, re-parsed from ``<side>_raw`` when needed."""
    name, citation = pair.get(f"{side}_name"), pair.get(f"{side}_citation")
    year = pair.get(f"{side}_year")
    raw = pair.get(f"{side}_raw")
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"missing {side}_raw")
    cite, note = parse_case(raw, year if isinstance(year, int) else None)
    provided_ok = (
        isinstance(name, str) and isinstance(citation, str)
        and CITATION.fullmatch(" ".join(citation.split()))
        and " ".join(citation.split()).split(" (U.S.")[0] in cite.citation
    )
    if provided_ok and isinstance(name, str):
        if name.strip() != cite.name:
            cite = Cite(name.strip(), cite.citation, cite.key, cite.year, cite.decided)
        note = pair.get("overruled_note") if side == "overruled" else note
    else:
        repairs.append(f"{side}: {name!r} / {citation!r} re-parsed from raw as {cite.name!r}, "
                       f"{cite.citation!r}")
    if cite.name in NAME_CORRECTIONS:
        repairs.append(f"{side}: name {cite.name!r} corrected to {NAME_CORRECTIONS[cite.name]!r}")
        cite = Cite(NAME_CORRECTIONS[cite.name], cite.citation, cite.key, cite.year, cite.decided)
    if isinstance(year, int) and year != cite.year:
        repairs.append(f"{side}: year {year} vs citation year {cite.year}; kept {year}")
        cite = Cite(cite.name, cite.citation, cite.key, year, cite.decided)
    return cite, note


#: repairs made by the last load_law (row, description)
LAST_REPAIRS: list[tuple[int, str]] = []


def load_law(raw_dir: Path, problems: list[InputProblem] | None) -> list[DocumentRecord]:
    """Decision documents with explicit overruling edges from ``conan_overruled_pairs.jsonl``."""
    path = Path(raw_dir) / PAIRS_FILE
    return read_conan_pairs(path, problems)


def read_conan_pairs(path: Path, problems: list[InputProblem] | None) -> list[DocumentRecord]:
    decisions: dict[str, _Decision] = {}
    LAST_REPAIRS.clear()

    def decision(cite: Cite, position: int) -> _Decision:
        d = decisions.get(cite.key)
        if d is None:
            d = decisions[cite.key] = _Decision(cite.key, cite.citation, cite.year, cite.decided)
        d.add_name(cite.name, position)
        return d

    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                pair = json.loads(line)
                if not isinstance(pair, dict):
                    raise ValueError(f"a pair is a JSON object, got {type(pair).__name__}")
                repairs: list[str] = []
                newer, _ = _side(pair, "overruling", repairs)
                older, note = _side(pair, "overruled", repairs)
                if newer.key == older.key:
                    raise ValueError(f"{newer.citation} would overrule itself")
                if newer.year < older.year:
                    raise ValueError(
                        f"overruling year {newer.year} precedes overruled year {older.year}"
                    )
            except json.JSONDecodeError as e:
                report_problem(problems, str(path), number, f"invalid JSON: {e.msg}")
                continue
            except ValueError as e:
                report_problem(problems, str(path), number, str(e))
                continue
            LAST_REPAIRS.extend((number, r) for r in repairs)
            d_new, d_old = decision(newer, number * 2), decision(older, number * 2 + 1)
            d_new.rows.add(number)
            d_old.rows.add(number)
            partial = bool(note and re.search(r"\bin part\b", note, re.IGNORECASE))
            if note and not partial:
                d_old.opinion_notes[note] = None  # describes the overruled opinion itself
            order = pair.get("order")
            evidence = (
                f"Congress.gov Constitution Annotated, Table of Supreme Court Decisions Overruled "
                f"by Subsequent Decisions, row {order}: {pair['overruling_raw'].strip()} overruled "
                f"{pair['overruled_raw'].strip()}"
            )
            edge = d_new.overrules.get(d_old.key)
            if edge is None:
                d_new.overrules[d_old.key] = {"partial": partial, "evidence": evidence}
            else:  # the same pair twice: whole if either row says whole
                edge["partial"] = edge["partial"] and partial
                edge["evidence"] += f"; {evidence}"
    return [_record(d, decisions) for d in decisions.values()]


def _record(d: _Decision, decisions: Mapping[str, _Decision]) -> DocumentRecord:
    cited = d.citation if d.decided else f"{d.citation} ({d.year})"  # a docket cite has its date
    parts = [f"{d.name}, {cited}. A decision of the Supreme Court of the United States."]
    if d.aliases:
        parts.append("Also cited as " + "; ".join(d.aliases) + ".")
    if d.opinion_notes:
        parts.append("The opinion is cited as: " + "; ".join(d.opinion_notes) + ".")
    overruled_names: list[str] = []
    supersedes = []
    for key, edge in d.overrules.items():
        old = decisions[key]
        overruled_names.extend([old.name, *old.aliases])
        how = "in part" if edge["partial"] else ""
        old_cited = old.citation if old.decided else f"{old.citation} ({old.year})"
        parts.append(f"{d.name} overruled{(' ' + how) if how else ''} {old.name}, {old_cited}.")
        supersedes.append(
            SupersedesRef(
                id=old.id,
                effective=d.published,
                evidence=edge["evidence"],
                partial=edge["partial"],
            )
        )
    names = [d.name, *d.aliases]
    attributes: dict[str, Any] = {
        "court": "Supreme Court of the United States",
        "citation": d.citation,
        "year": d.year,
        "date_precision": "day" if d.decided else "year",
        "aliases": d.aliases,
        "overrules": [decisions[k].id for k in d.overrules],
        "source": PAIRS_FILE,
        "source_lines": sorted(d.rows),
    }
    return DocumentRecord(
        id=d.id,
        text=" ".join(parts),
        title=d.name,
        domain=NAME,
        kind="decision",
        published=d.published,
        date_precision="day" if d.decided else "year",
        scope={"case": tuple(dict.fromkeys(names + overruled_names))},
        supersedes=tuple(supersedes),
        attributes=attributes,
    )


def law_stats(records: list[DocumentRecord]) -> dict[str, Any]:
    ids = {r.id for r in records}
    edges = [(r.id, s.id, s.partial) for r in records for s in r.supersedes]
    overruled = {o for _, o, _ in edges}
    overruling = {n for n, _, _ in edges}
    in_degree = Counter(o for _, o, _ in edges)
    return {
        "decisions": len(records),
        "explicit_edges": len(edges),
        "partial_edges": sum(1 for *_, p in edges if p),
        "overruled_decisions": len(overruled),
        "overruling_decisions": len(overruling),
        "chain_links (both overruled and overruling)": len(overruled & overruling),
        "overruled_by_several": sum(1 for n in in_degree.values() if n > 1),
        "dangling_edges": sum(1 for _, o, _ in edges if o not in ids),
        "decisions_with_name_variants": sum(1 for r in records if r.attributes.get("aliases")),
        "repairs": len(LAST_REPAIRS),
        "day_precision_dates": sum(1 for r in records if r.attributes["date_precision"] == "day"),
    }


__all__ = ["NAME", "PAIRS_FILE", "law_stats", "load_law", "parse_case", "read_conan_pairs"]
