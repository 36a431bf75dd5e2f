"""The NCATS tables: FDA new-molecular-entity approvals and market withdrawals (one document per
row; the withdrawn table also describes the drugs the approvals name)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.drug.common import (
    NAME,
    NME_COLUMNS,
    NME_FILE,
    WITHDRAWN_COLUMNS,
    WITHDRAWN_FILE,
    application_number,
    clean,
    drug_key,
    slug,
)
from car_graph.records import DocumentRecord, report_problem

# --- NME approvals -------------------------------------------------------------------------------


def _read_tsv(path: Path, encoding: str) -> list[list[str]]:
    text = path.read_bytes().decode(encoding)
    return list(csv.reader(io.StringIO(text, newline=""), delimiter="\t"))


def _nme_date(year: int, text: str) -> date | None:
    match = re.fullmatch(r"(\d{1,2})-(\d{1,2})-(\d{2})", clean(text))
    if not match:
        return None
    month, day, yy = map(int, match.groups())
    if year % 100 != yy:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def withdrawn_rows(path: Path, problems: list[InputProblem] | None) -> list[tuple[int, dict]]:
    rows = _read_tsv(path, "utf-8")
    if not rows or not set(WITHDRAWN_COLUMNS) <= set(rows[0]):
        report_problem(problems, str(path), 1, f"header lacks columns {WITHDRAWN_COLUMNS}")
        return []
    header = rows[0]
    out = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            report_problem(problems, str(path), number,
                     f"{len(row)} fields where the header has {len(header)}")
            continue
        out.append((number, dict(zip(header, row))))
    return out


def drug_descriptions(withdrawn: list[tuple[int, dict]]) -> dict[tuple[str, str], dict]:
    """class / moa / indication per ('unii', UNII) and ('drug', name) from the withdrawn table."""
    info: dict[tuple[str, str], dict] = {}
    for _, row in withdrawn:
        facts = {k: clean(row.get(k)) for k in ("class", "moa", "indication")}
        if not any(facts.values()):
            continue
        for key in (("unii", clean(row["unii"]).upper()), ("drug", drug_key(row["generic_name"]))):
            if key[1]:
                info.setdefault(key, facts)
    return info


def read_nme_approvals(
    path: Path,
    problems: list[InputProblem] | None,
    descriptions: Mapping[tuple[str, str], dict] | None = None,
) -> list[DocumentRecord]:
    rows = _read_tsv(path, "mac_roman")
    if not rows or tuple(rows[0][: len(NME_COLUMNS)]) != NME_COLUMNS:
        report_problem(problems, str(path), 1, f"header is not {NME_COLUMNS}")
        return []
    descriptions = descriptions or {}
    records: list[DocumentRecord] = []
    seen: set[str] = set()
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(NME_COLUMNS, (clean(c) for c in row)))
        try:
            year = int(cells.get("Year", ""))
        except ValueError:
            report_problem(problems, str(path), number, f"Year {cells.get('Year')!r} is not a year")
            continue
        generic, trademark = cells.get("Generic Name", ""), cells.get("Trademark", "")
        if not generic and not trademark:
            report_problem(problems, str(path), number, "row names no drug")
            continue
        generic = generic or trademark
        unii = cells.get("UNII", "").upper()
        app_type, app_no = cells.get("App Type", ""), cells.get("NDA/BLA No.", "")
        application = application_number(app_type, app_no) if app_no else None
        approved = _nme_date(year, cells.get("Date [text]", ""))
        base = (f"fda-approval:{application}:{slug(generic)}" if application
                else f"fda-approval:{year}:{slug(generic)}:{slug(trademark or generic)}")
        doc_id, n = base, 1
        while doc_id in seen:
            n += 1
            doc_id = f"{base}-{n}"
        seen.add(doc_id)
        sponsor = cells.get("Sponsor", "")
        parts = [
            f"{trademark or generic} ({generic}) was approved by the US Food and Drug "
            f"Administration in {year} as a new molecular entity"
            + (f" under {application}" if application else "")
            + (f", sponsored by {sponsor}" if sponsor else "") + "."
        ]
        facts = descriptions.get(("unii", unii)) if unii else None
        facts = facts or descriptions.get(("drug", drug_key(generic)))
        if facts:
            if facts.get("class"):
                parts.append(f"Class: {facts['class']}.")
            if facts.get("moa"):
                parts.append(f"Mechanism of action: {facts['moa']}.")
            if facts.get("indication"):
                parts.append(f"Indication: {facts['indication'].replace('|', '; ')}.")
        scope: dict[str, tuple[str, ...]] = {"drug": (drug_key(generic),)}
        if unii:
            scope["unii"] = (unii,)
        if application:
            scope["fda_application"] = (application,)
        attributes: dict[str, Any] = {
            "trademark": trademark,
            "generic_name": generic,
            "unii": unii,
            "application_number": application or "",
            "application_type": app_type or (application[:3] if application else ""),
            "sponsor": sponsor,
            "year": year,
            "date_precision": "day" if approved else "year",
            "markets": ["US"],
            "reference": cells.get("Ref", ""),
            "source": NME_FILE,
            "source_line": number,
        }
        records.append(
            DocumentRecord(
                id=doc_id,
                text=" ".join(parts),
                title=f"{trademark or generic} ({generic}) approved {year}",
                domain=NAME,
                kind="approval",
                published=approved or date(year, 1, 1),
                date_precision="day" if approved else "year",
                scope=scope,
                attributes=attributes,
            )
        )
    return records


# --- withdrawals ---------------------------------------------------------------------------------

CFR_SOURCE = "21 CFR 216.24"
ONAKPOYA_SOURCE = "Onakpoya et al. 2016, BMC Medicine 14:10"


def read_withdrawals(
    path: Path, problems: list[InputProblem] | None, rows: list[tuple[int, dict]] | None = None
) -> list[DocumentRecord]:
    rows = rows if rows is not None else withdrawn_rows(path, problems)
    records: list[DocumentRecord] = []
    seen: set[str] = set()
    for number, row in rows:
        generic = clean(row.get("generic_name"))
        if not generic:
            report_problem(problems, str(path), number, "withdrawn row without generic_name")
            continue
        countries = [
            c for c in (clean(x) for x in (row.get("country_withdrawn") or "").split("|")) if c
        ]
        year_text = clean(row.get("year_withdrawn"))
        published = None
        if clean(row.get("date_withdrawn")):
            try:
                published = date.fromisoformat(clean(row["date_withdrawn"])[:10])
            except ValueError:
                report_problem(problems, str(path), number,
                         f"date_withdrawn {row['date_withdrawn']!r} is not YYYY-MM-DD")
                continue
        elif year_text:
            if not re.fullmatch(r"\d{4}", year_text):
                report_problem(problems, str(path), number, f"year_withdrawn {year_text!r} is not a year")
                continue
            published = date(int(year_text), 1, 1)
        source_url = clean(row.get("source"))
        source = CFR_SOURCE if "216.24" in source_url else ONAKPOYA_SOURCE
        unii = clean(row.get("unii")).upper()
        reason = clean(row.get("reason_withdrawn"))
        where = ", ".join(countries) or "an unnamed market"
        when = f" in {year_text}" if year_text else ""
        parts = [f"{generic} was withdrawn from the market in {where}{when}."]
        if reason:
            parts.append(f"Reason for withdrawal: {reason.replace('|', '; ')}.")
        if source == CFR_SOURCE:
            statement = clean(row.get("description"))
            parts.append(
                (statement + " " if statement else "")
                + "Listed in 21 CFR 216.24 among drugs withdrawn or removed from the market for "
                "reasons of safety or effectiveness; they may not be compounded."
            )
        if clean(row.get("year_remarketed")):
            parts.append(f"Remarketed in {clean(row['year_remarketed'])}.")
        base = f"withdrawal:{slug(generic)}:{year_text or 'undated'}:{slug('-'.join(countries))}"
        doc_id, n = base, 1
        while doc_id in seen:
            n += 1
            doc_id = f"{base}-{n}"
        seen.add(doc_id)
        scope: dict[str, tuple[str, ...]] = {"drug": (drug_key(generic),)}
        if unii:
            scope["unii"] = (unii,)
        records.append(
            DocumentRecord(
                id=doc_id,
                text=" ".join(parts),
                title=f"{generic} withdrawn ({where}{when})",
                domain=NAME,
                kind="withdrawal",
                published=published,
                # most rows give the year alone (a dated row, its day)
                date_precision="year" if published and not clean(row.get("date_withdrawn")) else "day",
                scope=scope,
                attributes={
                    "generic_name": generic,
                    "unii": unii,
                    "markets": countries,
                    # the US regulation listing the drug as withdrawn for safety/effectiveness
                    "cfr_markets": ["US"] if source == CFR_SOURCE else [],
                    "year_withdrawn": int(year_text) if year_text else None,
                    "reason_withdrawn": reason,
                    "year_launched": clean(row.get("year_launched")),
                    "year_remarketed": clean(row.get("year_remarketed")),
                    "withdrawal_source": source,
                    "source": WITHDRAWN_FILE,
                    "source_line": number,
                },
            )
        )
    return records
