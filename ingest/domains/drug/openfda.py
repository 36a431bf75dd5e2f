"""Recalls from openFDA's drug enforcement reports (``car-graph ingest --format
openfda-enforcement``): one result -> one ``recall`` record, partial unless it recalls every lot."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.drug.common import (
    ENFORCEMENT_FILE,
    NAME,
    RECALL_TEXT_LIMIT,
    application_number,
    clean,
    drug_key,
    ndcs_in_text,
    normalize_ndc,
)
from car_graph.records import DocumentRecord, report_problem

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
    """True unless the recall covers every lot of the product (see corpus.py's docstring)."""
    text = " ".join(
        str(record.get(k) or "") for k in ("code_info", "more_code_info", "product_description",
                                           "reason_for_recall")
    )
    return all(_RESTRICTED.match(text, match.end()) for match in _WHOLE_PRODUCT.finditer(text))


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
    number = clean(obj.get("recall_number"))
    if not number:
        raise ValueError("enforcement result without recall_number")
    reason = clean(obj.get("reason_for_recall"))
    product = clean(obj.get("product_description"))
    if not reason and not product:
        raise ValueError(f"{number}: neither reason_for_recall nor product_description")
    raw_openfda = obj.get("openfda")
    openfda: dict[str, Any] = raw_openfda if isinstance(raw_openfda, dict) else {}
    applications = [a for a in (application_number("", x) or clean(x).upper()
                                for x in openfda.get("application_number") or []) if a]
    ndcs: dict[str, None] = {}
    for value in list(openfda.get("product_ndc") or []) + list(openfda.get("package_ndc") or []):
        ndc = normalize_ndc(str(value))
        if ndc:
            ndcs[ndc] = None
    text_ndcs, bad_ndcs = ndcs_in_text(product)
    for ndc in text_ndcs:
        ndcs[ndc] = None
    generics = [drug_key(g) for g in openfda.get("generic_name") or [] if clean(g)]
    uniis = [clean(u).upper() for u in openfda.get("unii") or [] if clean(u)]
    scope: dict[str, tuple[str, ...]] = {}
    for etype, keys in (("fda_application", applications), ("ndc", list(ndcs)),
                        ("drug", generics), ("unii", uniis)):
        if keys:
            scope[etype] = tuple(dict.fromkeys(keys))
    classification = clean(obj.get("classification"))
    partial = recall_is_partial(obj)
    parts = [f"Reason for recall: {reason}" if reason else "",
             f"Product: {product}" if product else "",
             f"Recall {number}, {classification}, status {clean(obj.get('status'))}; recalling "
             f"firm {clean(obj.get('recalling_firm'))}."]
    text = "\n".join(p for p in parts if p)
    if len(text) > RECALL_TEXT_LIMIT:
        text = text[: RECALL_TEXT_LIMIT - 6].rstrip() + " [...]"
    published = yyyymmdd(obj.get("report_date")) or yyyymmdd(obj.get("recall_initiation_date"))
    short = product if len(product) <= 90 else product[:87].rstrip() + "..."
    return DocumentRecord(
        id=f"recall:{number}",
        text=text,
        title=f"Recall {number} ({classification}): {short}",
        domain=NAME,
        kind="recall",
        published=published,
        scope=scope,
        attributes={
            "recall_number": number,
            "event_id": clean(obj.get("event_id")),
            "classification": classification,
            "status": clean(obj.get("status")),
            "partial": partial,
            "recalling_firm": clean(obj.get("recalling_firm")),
            "voluntary_mandated": clean(obj.get("voluntary_mandated")),
            "product_quantity": clean(obj.get("product_quantity")),
            "code_info": clean(obj.get("code_info"))[:500],
            "recall_initiation_date": clean(obj.get("recall_initiation_date")),
            "report_date": clean(obj.get("report_date")),
            "termination_date": clean(obj.get("termination_date")),
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
