"""What the drug adapters share: the domain's name on records, the source files, keys of drug
names, FDA application numbers and NDCs."""

from __future__ import annotations

import re

NAME = "drug"  # the ``domain`` of every record the adapters write
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


def clean(value: str | None) -> str:
    return " ".join((value or "").replace("\xa0", " ").split())


# --- identifiers ---------------------------------------------------------------------------------

_APP = re.compile(r"^\s*(NDA|ANDA|BLA)\s*0*(\d{1,6})\s*$", re.IGNORECASE)


def application_number(app_type: str, number: str) -> str | None:
    """('NDA', '22-250') -> 'NDA022250'; openFDA spellings ('ANDA076543') pass through."""
    text = clean(number)
    match = _APP.match(text.replace("-", ""))
    if match:
        return f"{match.group(1).upper()}{int(match.group(2)):06d}"
    digits = re.sub(r"\D", "", text)
    if not digits or len(digits) > 6:
        return None
    kind = clean(app_type).upper() or "NDA"
    if kind not in ("NDA", "ANDA", "BLA"):
        return None
    return f"{kind}{int(digits):06d}"


# hyphenated NDCs: (labeler, product[, package]) segment lengths FDA uses
_NDC_LAYOUTS = {(4, 4, 2), (5, 3, 2), (5, 4, 1), (5, 4, 2)}
_NDC_PRODUCT_LAYOUTS = {(4, 4), (5, 3), (5, 4)}
_NDC_LABEL = re.compile(r"^\s*NDC\s*(?:#|No\.?|Numbers?|s)?\s*[:#]?\s*", re.IGNORECASE)
NDC_IN_TEXT = re.compile(r"\bNDC\s*(?:#|No\.?|Number|Numbers|s)?\s*[:#]?\s*((?:\d[\d\- ]{7,13}\d))",
                         re.IGNORECASE)


def normalize_ndc(value: str) -> str | None:
    """Product-level NDC 'LLLLL-PPPP' from any FDA layout; None if ambiguous or malformed.

    '68391-847-47' -> '68391-0847'; '0363-0495-66' -> '00363-0495'; '68391-847' -> '68391-0847';
    '55513007430' (11 digits, 5-4-2) -> '55513-0074'; a leading label ('NDC 0002-3227',
    'NDC No. ...') is dropped and spaces separate like hyphens ('0002 3227 30'). Ten digits
    without hyphens could be any of three layouts and are rejected. The one NDC key of the
    drug domain: records (openfda) and the identifier pattern (entities) both use it.
    """
    text = _NDC_LABEL.sub("", clean(value)).replace(" ", "-")
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
