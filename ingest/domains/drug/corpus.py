"""Drug adapter: FDA new-molecular-entity approvals, market withdrawals and openFDA recalls.

Documents (domain ``drug``)
---------------------------
=============  ====================================  ================================================
kind           source                                id
=============  ====================================  ================================================
approval       fda_nmes_1827-2016_ncats.tsv          ``fda-approval:<application>:<generic slug>``
                                                     (``fda-approval:NDA022250:dalfampridine``);
                                                     without an application number
                                                     ``fda-approval:<year>:<generic>:<trademark>``
withdrawal     withdrawn_drugs_ncats.tsv             ``withdrawal:<generic slug>:<year or undated>:``
                                                     ``<country slug>`` (one per table row)
recall         openFDA drug enforcement (zip/JSON)   ``recall:<recall_number>`` (``recall:D-0901-2023``)
=============  ====================================  ================================================

Scope keys: ``drug`` = generic name in lower case (the NME table's "Generic Name", the withdrawn
table's ``generic_name``, openFDA ``generic_name``); ``unii``; ``fda_application`` = application
numbers as openFDA writes them (``NDA022250``, ``BLA125057``, ``ANDA076543``: type + six digits;
the NME table's "22-250" becomes ``NDA022250``); ``ndc`` = product-level NDC in the 11-digit
(5-4-2) HIPAA layout without the package segment, ``LLLLL-PPPP``, so a package NDC, a product NDC
and an NDC in any 4-4-2 / 5-3-2 / 5-4-1 spelling meet on one key.

Decisions, documented:

* One withdrawal document per row of the withdrawn table. The table already has one row per
  (drug, set of countries, year); a row lists its countries joined by '|' and they stay one
  document (one source statement), with ``markets`` (the countries) as a list attribute. The 82 rows from the
  FDA list (21 CFR 216.24) are US withdrawals without a date: ``published`` is empty.
* Approval text describes the drug (trademark, generic name, sponsor, year, and the class,
  mechanism and indication columns of the withdrawn table when the drug matches by UNII or
  name). It never says the drug was withdrawn; the withdrawn table's ``description`` column is
  not used because it only holds the 21 CFR withdrawal statement ("All drug products
  containing ...").
* A recall is partial (``partial`` attribute True: the approval stays in force for the other
  lots) unless its code_info / product description / reason recalls every lot: "all lots",
  "all unexpired lots", "all lots within expiry", "all remaining lots", "all products" and the
  like ("all other lots" does not count, nor "all lots" narrowed by what follows: "all lots
  filled 08/26/2019", "all lots with Use by Date ...", "all codes distributed prior to ...").
* The NME table is the only approval source: it has one NDA/BLA per molecule and no NDCs, so a
  recall links to an approval only when openFDA gives the innovator's NDA/BLA number.
  :func:`recall_link_report` counts why the others do not link.

The NME file is Mac Roman encoded (non-breaking spaces as byte 0xCA); dates are MM-DD-YY with
the century taken from the Year column.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.keys import normalize_key
from car_graph.ingest.records import DocumentRecord, report_problem
from car_graph.ingest.rules import Rule

DOMAIN = "drug"
NME_FILE = "fda_nmes_1827-2016_ncats.tsv"
WITHDRAWN_FILE = "withdrawn_drugs_ncats.tsv"
ENFORCEMENT_FILE = "openfda_drug_enforcement_2023-08-05.json.zip"
RECALL_TEXT_LIMIT = 1500

NME_COLUMNS = ("Year", "Trademark", "Generic Name", "UNII", "Date [text]", "App Type",
               "NDA/BLA No.", "Sponsor", "Ref")
WITHDRAWN_COLUMNS = ("generic_name", "unii", "country_withdrawn", "year_withdrawn",
                     "reason_withdrawn", "source")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "x"


def drug_key(name: str) -> str:
    """A generic name as a readable scope key: white space collapsed, lower case."""
    return " ".join(name.replace("\xa0", " ").split()).lower()


def _clean(value: str | None) -> str:
    return " ".join((value or "").replace("\xa0", " ").split())


# --- identifiers ---------------------------------------------------------------------------------

_APP = re.compile(r"^\s*(NDA|ANDA|BLA)\s*0*(\d{1,6})\s*$", re.IGNORECASE)


def application_number(app_type: str, number: str) -> str | None:
    """('NDA', '22-250') -> 'NDA022250'; openFDA spellings ('ANDA076543') pass through."""
    text = _clean(number)
    match = _APP.match(text.replace("-", ""))
    if match:
        return f"{match.group(1).upper()}{int(match.group(2)):06d}"
    digits = re.sub(r"\D", "", text)
    if not digits or len(digits) > 6:
        return None
    kind = _clean(app_type).upper() or "NDA"
    if kind not in ("NDA", "ANDA", "BLA"):
        return None
    return f"{kind}{int(digits):06d}"


# hyphenated NDCs: (labeler, product[, package]) segment lengths FDA uses
_NDC_LAYOUTS = {(4, 4, 2), (5, 3, 2), (5, 4, 1), (5, 4, 2)}
_NDC_PRODUCT_LAYOUTS = {(4, 4), (5, 3), (5, 4)}
NDC_IN_TEXT = re.compile(r"\bNDC\s*(?:#|No\.?|Number|Numbers|s)?\s*[:#]?\s*((?:\d[\d\- ]{7,13}\d))",
                         re.IGNORECASE)


def normalize_ndc(value: str) -> str | None:
    """Product-level NDC 'LLLLL-PPPP' from any FDA layout; None if ambiguous or malformed.

    '68391-847-47' -> '68391-0847'; '0363-0495-66' -> '00363-0495'; '68391-847' -> '68391-0847';
    '55513007430' (11 digits, 5-4-2) -> '55513-0074'. Ten digits without hyphens could be any
    of three layouts and are rejected.
    """
    text = _clean(value).replace(" ", "-")
    text = re.sub(r"-+", "-", text).strip("-")
    parts = text.split("-")
    if not all(p.isdigit() for p in parts):
        return None
    lengths = tuple(len(p) for p in parts)
    if len(parts) == 1 and lengths[0] == 11:
        parts, lengths = [text[:5], text[5:9], text[9:]], (5, 4, 2)
    if (len(parts) == 3 and lengths in _NDC_LAYOUTS) or (
        len(parts) == 2 and lengths in _NDC_PRODUCT_LAYOUTS
    ):
        return f"{int(parts[0]):05d}-{int(parts[1]):04d}"
    return None


def ndcs_in_text(text: str) -> tuple[list[str], int]:
    """(normalised product NDCs named after 'NDC' in free text, count of unusable ones)."""
    found: dict[str, None] = {}
    bad = 0
    for match in NDC_IN_TEXT.finditer(text or ""):
        candidate = match.group(1).strip()
        # a run like '60505-2901-03 30' is an NDC followed by a count: try the NDC-shaped prefix
        ndc = normalize_ndc(candidate)
        if ndc is None:
            head = re.match(r"\d+-\s?\d+-\d+|\d{11}", candidate)
            ndc = normalize_ndc(head.group(0)) if head else None
        if ndc:
            found[ndc] = None
        else:
            bad += 1
    return list(found), bad


# --- NME approvals -------------------------------------------------------------------------------


def _read_tsv(path: Path, encoding: str) -> list[list[str]]:
    text = path.read_bytes().decode(encoding)
    return list(csv.reader(io.StringIO(text, newline=""), delimiter="\t"))


def _nme_date(year: int, text: str) -> date | None:
    match = re.fullmatch(r"(\d{1,2})-(\d{1,2})-(\d{2})", _clean(text))
    if not match:
        return None
    month, day, yy = map(int, match.groups())
    if year % 100 != yy:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _withdrawn_rows(path: Path, problems: list[InputProblem] | None) -> list[tuple[int, dict]]:
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


def _drug_descriptions(withdrawn: list[tuple[int, dict]]) -> dict[tuple[str, str], dict]:
    """class / moa / indication per ('unii', UNII) and ('drug', name) from the withdrawn table."""
    info: dict[tuple[str, str], dict] = {}
    for _, row in withdrawn:
        facts = {k: _clean(row.get(k)) for k in ("class", "moa", "indication")}
        if not any(facts.values()):
            continue
        for key in (("unii", _clean(row["unii"]).upper()), ("drug", drug_key(row["generic_name"]))):
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
        cells = dict(zip(NME_COLUMNS, (_clean(c) for c in row)))
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
                domain=DOMAIN,
                kind="approval",
                published=approved or date(year, 1, 1),
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
    rows = rows if rows is not None else _withdrawn_rows(path, problems)
    records: list[DocumentRecord] = []
    seen: set[str] = set()
    for number, row in rows:
        generic = _clean(row.get("generic_name"))
        if not generic:
            report_problem(problems, str(path), number, "withdrawn row without generic_name")
            continue
        countries = [
            c for c in (_clean(x) for x in (row.get("country_withdrawn") or "").split("|")) if c
        ]
        year_text = _clean(row.get("year_withdrawn"))
        published = None
        if _clean(row.get("date_withdrawn")):
            try:
                published = date.fromisoformat(_clean(row["date_withdrawn"])[:10])
            except ValueError:
                report_problem(problems, str(path), number,
                         f"date_withdrawn {row['date_withdrawn']!r} is not YYYY-MM-DD")
                continue
        elif year_text:
            if not re.fullmatch(r"\d{4}", year_text):
                report_problem(problems, str(path), number, f"year_withdrawn {year_text!r} is not a year")
                continue
            published = date(int(year_text), 1, 1)
        source_url = _clean(row.get("source"))
        source = CFR_SOURCE if "216.24" in source_url else ONAKPOYA_SOURCE
        unii = _clean(row.get("unii")).upper()
        reason = _clean(row.get("reason_withdrawn"))
        where = ", ".join(countries) or "an unnamed market"
        when = f" in {year_text}" if year_text else ""
        parts = [f"{generic} was withdrawn from the market in {where}{when}."]
        if reason:
            parts.append(f"Reason for withdrawal: {reason.replace('|', '; ')}.")
        if source == CFR_SOURCE:
            statement = _clean(row.get("description"))
            parts.append(
                (statement + " " if statement else "")
                + "Listed in 21 CFR 216.24 among drugs withdrawn or removed from the market for "
                "reasons of safety or effectiveness; they may not be compounded."
            )
        if _clean(row.get("year_remarketed")):
            parts.append(f"Remarketed in {_clean(row['year_remarketed'])}.")
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
                domain=DOMAIN,
                kind="withdrawal",
                published=published,
                scope=scope,
                attributes={
                    "generic_name": generic,
                    "unii": unii,
                    "markets": countries,
                    # the US regulation listing the drug as withdrawn for safety/effectiveness
                    "cfr_markets": ["US"] if source == CFR_SOURCE else [],
                    "year_withdrawn": int(year_text) if year_text else None,
                    "reason_withdrawn": reason,
                    "year_launched": _clean(row.get("year_launched")),
                    "year_remarketed": _clean(row.get("year_remarketed")),
                    "withdrawal_source": source,
                    "source": WITHDRAWN_FILE,
                    "source_line": number,
                },
            )
        )
    return records


# --- recalls (openFDA drug enforcement) ----------------------------------------------------------

_WHOLE_PRODUCT = re.compile(
    r"\ball\s+(?:(?:un-?expired|remaining|affected|manufactured|distributed|sterile|compounded|"
    r"drug|of\s+the)\s+)*(?:lots?|batch(?:es)?|units|products?|codes|lot\s+numbers)\b",
    re.IGNORECASE,
)


# "all lots" followed by one of these is a restricted set of lots ("all lots filled 08/26/2019",
# "all lots with Use by Date of ...", "all codes distributed prior to ..."): still partial
_RESTRICTED = re.compile(
    r"\s*,?\s*(?:(?:of\s+the\s+following|with|filled|repackaged|relabell?ed|labell?ed|"
    r"distributed|manufactured|dispensed|from|between|prior|produced|made|having|that|which|"
    r"expiring|exp|expiration|compounded\s+(?:on|between|from|prior|after|before|during)|sold|"
    r"shipped|packaged|released|dated|beginning|starting|through|up\s+to|before|after|during|"
    r"listed|below|in\s+the\s+following|bearing|ending|including)\b|[:#(])",
    re.IGNORECASE,
)


def recall_is_partial(record: Mapping[str, Any]) -> bool:
    """True unless the recall covers every lot of the product (see module docstring)."""
    text = " ".join(
        str(record.get(k) or "") for k in ("code_info", "more_code_info", "product_description",
                                           "reason_for_recall")
    )
    for match in _WHOLE_PRODUCT.finditer(text):
        if not _RESTRICTED.match(text, match.end()):
            return False
    return True


def yyyymmdd(value: Any) -> date | None:
    """openFDA's compact dates ('20230726'); None when absent or impossible."""
    if isinstance(value, str) and re.fullmatch(r"\d{8}", value):
        try:
            return date(int(value[:4]), int(value[4:6]), int(value[6:]))
        except ValueError:
            return None
    return None


def recall_to_record(obj: Any) -> DocumentRecord:
    """One openFDA enforcement result -> a ``recall`` record; ValueError says why not."""
    if not isinstance(obj, dict):
        raise ValueError(f"an enforcement result is a JSON object, got {type(obj).__name__}")
    number = _clean(obj.get("recall_number"))
    if not number:
        raise ValueError("enforcement result without recall_number")
    reason = _clean(obj.get("reason_for_recall"))
    product = _clean(obj.get("product_description"))
    if not reason and not product:
        raise ValueError(f"{number}: neither reason_for_recall nor product_description")
    openfda = obj.get("openfda") if isinstance(obj.get("openfda"), dict) else {}
    applications = [a for a in (application_number("", x) or _clean(x).upper()
                                for x in openfda.get("application_number") or []) if a]
    ndcs: dict[str, None] = {}
    for value in list(openfda.get("product_ndc") or []) + list(openfda.get("package_ndc") or []):
        ndc = normalize_ndc(str(value))
        if ndc:
            ndcs[ndc] = None
    text_ndcs, bad_ndcs = ndcs_in_text(product)
    for ndc in text_ndcs:
        ndcs[ndc] = None
    generics = [drug_key(g) for g in openfda.get("generic_name") or [] if _clean(g)]
    uniis = [_clean(u).upper() for u in openfda.get("unii") or [] if _clean(u)]
    scope: dict[str, tuple[str, ...]] = {}
    for etype, keys in (("fda_application", applications), ("ndc", list(ndcs)),
                        ("drug", generics), ("unii", uniis)):
        if keys:
            scope[etype] = tuple(dict.fromkeys(keys))
    classification = _clean(obj.get("classification"))
    partial = recall_is_partial(obj)
    parts = [f"Reason for recall: {reason}" if reason else "",
             f"Product: {product}" if product else "",
             f"Recall {number}, {classification}, status {_clean(obj.get('status'))}; recalling "
             f"firm {_clean(obj.get('recalling_firm'))}."]
    text = "\n".join(p for p in parts if p)
    if len(text) > RECALL_TEXT_LIMIT:
        text = text[: RECALL_TEXT_LIMIT - 6].rstrip() + " [...]"
    published = yyyymmdd(obj.get("report_date")) or yyyymmdd(obj.get("recall_initiation_date"))
    short = product if len(product) <= 90 else product[:87].rstrip() + "..."
    return DocumentRecord(
        id=f"recall:{number}",
        text=text,
        title=f"Recall {number} ({classification}): {short}",
        domain=DOMAIN,
        kind="recall",
        published=published,
        scope=scope,
        attributes={
            "recall_number": number,
            "event_id": _clean(obj.get("event_id")),
            "classification": classification,
            "status": _clean(obj.get("status")),
            "partial": partial,
            "recalling_firm": _clean(obj.get("recalling_firm")),
            "voluntary_mandated": _clean(obj.get("voluntary_mandated")),
            "product_quantity": _clean(obj.get("product_quantity")),
            "code_info": _clean(obj.get("code_info"))[:500],
            "recall_initiation_date": _clean(obj.get("recall_initiation_date")),
            "report_date": _clean(obj.get("report_date")),
            "termination_date": _clean(obj.get("termination_date")),
            "application_numbers": list(dict.fromkeys(applications)),
            "ndcs": list(ndcs),
            "unparsed_ndcs": bad_ndcs,
            "has_openfda": bool(openfda),
            "source": ENFORCEMENT_FILE,
        },
    )


def _enforcement_results(path: Path) -> tuple[str, Any]:
    path = Path(path)
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith(".json")]
            if not names:
                raise ValueError("zip holds no .json file")
            with archive.open(names[0]) as handle:
                return f"{path}!{names[0]}", json.load(handle)
    with open(path, encoding="utf-8") as handle:
        return str(path), json.load(handle)


def iter_enforcement(
    path: Path, problems: list[InputProblem] | None = None, max_records: int | None = None
) -> Iterator[DocumentRecord]:
    try:
        source, data = _enforcement_results(path)
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        report_problem(problems, str(path), 0, f"cannot read openFDA enforcement file: {e}")
        return
    results = data.get("results") if isinstance(data, dict) else data
    if not isinstance(results, list):
        report_problem(problems, source, 0, "no 'results' list (openFDA download / API response)")
        return
    seen: set[str] = set()
    for position, obj in enumerate(results, start=1):
        if max_records is not None and len(seen) >= max_records:
            return
        try:
            record = recall_to_record(obj)
        except ValueError as e:
            # 'line' is the 1-based position in the results array
            report_problem(problems, source, position, str(e))
            continue
        if record.id in seen:
            report_problem(problems, source, position, f"duplicate recall {record.id!r}")
            continue
        seen.add(record.id)
        yield record


def read_openfda_enforcement(
    path: Path, problems: list[InputProblem] | None = None, max_records: int | None = None
) -> list[DocumentRecord]:
    """Recall records from an openFDA drug enforcement download (.zip) or JSON with ``results``.

    Problems are located by the result's 1-based position in the ``results`` array.
    """
    return list(iter_enforcement(path, problems, max_records))


# --- loading and reporting -----------------------------------------------------------------------


def load_drug(
    raw_dir: Path, problems: list[InputProblem], max_recalls: int | None = None
) -> list[DocumentRecord]:
    raw_dir = Path(raw_dir)
    withdrawn_path = raw_dir / WITHDRAWN_FILE
    withdrawn = _withdrawn_rows(withdrawn_path, problems) if withdrawn_path.exists() else []
    records: list[DocumentRecord] = []
    if (raw_dir / NME_FILE).exists():
        records += read_nme_approvals(raw_dir / NME_FILE, problems, _drug_descriptions(withdrawn))
    if withdrawn_path.exists():
        records += read_withdrawals(withdrawn_path, problems, withdrawn)
    if (raw_dir / ENFORCEMENT_FILE).exists():
        records += read_openfda_enforcement(raw_dir / ENFORCEMENT_FILE, problems, max_recalls)
    return records


def recall_link_report(records: Iterable[DocumentRecord]) -> dict[str, int]:
    """Why recalls do or do not link to an approval (by fda_application or ndc).

    Each recall is counted once, under the first reason that applies:
    ``linked``, ``no_openfda_block``, ``openfda_without_application_number``,
    ``application_not_nda_or_bla`` (ANDA generics, OTC monograph 'part3xx', 'M...'; the NME
    table lists only innovator NDAs/BLAs), ``nda_bla_not_in_nme_table`` (an NDA/BLA for a
    product that is not a new molecular entity, or approved after the 2016 table).
    ``ndc_only_links`` counts recalls linked by NDC alone (the NME table has no NDCs, so 0 here).
    """
    records = list(records)
    approvals = [r for r in records if r.kind == "approval"]
    app_keys = {normalize_key(k) for r in approvals for k in r.scope.get("fda_application", ())}
    ndc_keys = {normalize_key(k) for r in approvals for k in r.scope.get("ndc", ())}
    report: Counter = Counter()
    for r in records:
        if r.kind != "recall":
            continue
        apps = [normalize_key(k) for k in r.scope.get("fda_application", ())]
        ndcs = [normalize_key(k) for k in r.scope.get("ndc", ())]
        report["recalls"] += 1
        report["with_ndc"] += bool(ndcs)
        if any(a in app_keys for a in apps):
            report["linked"] += 1
        elif any(n in ndc_keys for n in ndcs):
            report["linked"] += 1
            report["ndc_only_links"] += 1
        elif not r.attributes.get("has_openfda"):
            report["no_openfda_block"] += 1
        elif not apps:
            report["openfda_without_application_number"] += 1
        elif not any(a.startswith(("nda", "bla")) for a in apps):
            report["application_not_nda_or_bla"] += 1
        else:
            report["nda_bla_not_in_nme_table"] += 1
    report.setdefault("ndc_only_links", 0)
    return dict(report)


def drug_stats(records: list[DocumentRecord], rules: list[Rule]) -> dict[str, Any]:
    from car_graph.semantics import rule_edges

    kinds = Counter(r.kind for r in records)
    edges = [(e.newer, e.older, e.rule) for e in rule_edges(rules, records)]
    per_rule = Counter(rule for *_, rule in edges)
    by_id = {r.id: r for r in records}
    voided = {o for n, o, rule in edges if by_id[n].kind == "withdrawal"}
    linked_withdrawals = {n for n, o, rule in edges if by_id[n].kind == "withdrawal"}
    recalled = {o for n, o, rule in edges if by_id[n].kind == "recall"}
    withdrawals = [r for r in records if r.kind == "withdrawal"]
    return {
        "documents": dict(kinds),
        "edges_per_rule": dict(per_rule),
        "approvals_voided_by_withdrawal": len(voided),
        "withdrawals_linked_to_an_approval": len(linked_withdrawals),
        "withdrawals_undated": sum(1 for r in withdrawals if r.published is None),
        "approvals_with_a_recall": len(recalled),
        "recalls_partial": sum(
            1 for r in records if r.kind == "recall" and r.attributes["partial"]
        ),
        "recall_links": recall_link_report(records),
    }


__all__ = [
    "DOMAIN",
    "application_number",
    "drug_stats",
    "load_drug",
    "normalize_ndc",
    "read_nme_approvals",
    "read_openfda_enforcement",
    "read_withdrawals",
    "recall_is_partial",
    "recall_link_report",
    "recall_to_record",
]
