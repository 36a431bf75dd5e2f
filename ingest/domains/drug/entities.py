"""The drug domain's entities: NDC product codes and FDA application numbers (identifiers),
drug names (names whose salt and dosage-form words qualify without identifying).

Keys are the drug adapters' (common.py): a package NDC, a product NDC and any 4-4-2 / 5-3-2 /
5-4-1 / 5-4-2 spelling meet on one product-level key; "NDA 21-436", "NDA021436" and "N021436"
meet on "nda021436".
"""

from __future__ import annotations

import re

from car_graph.domains import IdentifierSpec, NameSpec
from car_graph.keys import normalize_key

from .common import normalize_ndc

# NDC segment lengths FDA uses: (labeler, product, package) and product-only (labeler, product)
_NDC_HYPHEN = r"\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2}"
_APPLICATION_PARTS = re.compile(
    r"^(ANDA|NDA|BLA|A|N|B)\s*(?:#|No\.?|Number|:)?\s*(\d{2}-\d{3,4}|\d{4,6})$", re.IGNORECASE
)
_APPLICATION_PREFIX = {"a": "anda", "n": "nda", "b": "bla"}

# Words that qualify a drug name without identifying it: a question about "fenfluramine" names
# the scope entity "fenfluramine hydrochloride"; "tablets" does not distinguish two drugs.
SALTS = frozenset({
    "hydrochloride", "hcl", "sodium", "potassium", "calcium", "magnesium", "acetate", "sulfate",
    "maleate", "tartrate", "citrate", "phosphate", "mesylate", "besylate", "fumarate",
    "succinate", "bromide", "chloride", "hydrobromide", "dihydrochloride", "monohydrate",
    "anhydrous", "disodium", "bitartrate", "hyclate", "propionate", "valerate",
})
DOSAGE_FORMS = frozenset({
    "tablet", "tablets", "capsule", "capsules", "injection", "injectable", "solution", "suspension",
    "cream", "ointment", "gel", "patch", "extended", "release", "delayed", "oral", "topical",
    "usp", "er", "xr", "sr",
})


def normalize_application(text: str) -> str | None:
    """FDA application key: lowercase type + 6-digit number (``nda021436``), or None.

    Accepts "NDA 021436", "NDA021436", "NDA #021436", "NDA No. 21436", "NDA 21-436", any case, and
    the Orange Book one-letter form ("N021436", "A076543", "B125057").
    """
    m = _APPLICATION_PARTS.match(" ".join(text.split()))
    if not m:
        return None
    digits = m.group(2).replace("-", "")
    if len(digits) > 6:
        return None
    prefix = m.group(1).lower()
    return f"{_APPLICATION_PREFIX.get(prefix, prefix)}{digits.zfill(6)}"


def _application_key(text: str) -> str | None:
    return normalize_application(text) or normalize_key(text)


# scheme_words: what a question calls the scheme ("the NDC on the box", "its NDA"), no drug's name
IDENTIFIERS = (
    IdentifierSpec("ndc", rf"(?<![\w-])(?:{_NDC_HYPHEN})(?![\w-])", key=normalize_ndc,
                   scheme_words=frozenset({"ndc"})),
    # after an "NDC" label also 11 bare digits and product-only forms ("NDC 0002-3227")
    IdentifierSpec(
        "ndc",
        r"\bNDC\s*(?:#|No\.?|Numbers?|s)?\s*[:#]?\s*"
        r"(\d{4,5}[- ]\d{3,4}(?:[- ]\d{1,2})?|\d{10,11})(?![\w-])",
        group=1, key=normalize_ndc,
    ),
    IdentifierSpec(
        "fda_application",
        r"\b(?:ANDA|NDA|BLA)\s*(?:#|No\.?|Number|:)?\s*(?:\d{6}|\d{2}-\d{3}|\d{5})(?![\w-])",
        key=_application_key, partial=True, scheme_words=frozenset({"nda", "anda", "bla"}),
    ),
)
NAMES = (
    NameSpec("drug", qualifiers=SALTS | DOSAGE_FORMS, mentions=True),
    # brands are no scope (a withdrawal names the molecule), but people ask by brand
    NameSpec("brand", qualifiers=SALTS | DOSAGE_FORMS),
)
IDENTIFIER_ATTRIBUTES = {"application_number": "fda_application", "unii": "unii"}
# the spellings openFDA, Drugs@FDA and the NME list use for a product's brand
NAME_ATTRIBUTES = {"trademark": "brand", "brand_name": "brand", "brand_names": "brand",
                   "proprietary_name": "brand", "trade_name": "brand"}
