"""The generic core names no domain: domain facts live in ingest/domains/* and rules YAML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERIC_FILES = ["car_graph/retrieval.py", "car_graph/linking.py", "car_graph/semantics.py",
                 "ingest/pipeline.py", "queries/anchors.cypher", "queries/closure.cypher",
                 "queries/apply_rule.cypher"]
# Words that belong to one of the built-in domains (identifier kinds, entity types, kinds of
# documents, ecosystems, salt words); "case" is checked in lower case only (Cypher's CASE).
DOMAIN_WORDS = re.compile(
    r"(?<![A-Za-z])(cve|ghsa|pysec|rustsec|ndc|nda|anda|bla|unii|drugs?|packages?|tickers?|employees?|"
    r"hydrochloride|sodium|django|lodash|fda|openfda|osv|security|law|advisory|advisories|"
    r"releases?|recalls?|withdrawals?|ecosystems?|pypi|npm|overrul\w*)(?![A-Za-z])",
    re.IGNORECASE,
)
CASE_WORD = re.compile(r"(?<![A-Za-z])cases?(?![A-Za-z-])")  # lower case only: not CASE


@pytest.mark.parametrize("path", GENERIC_FILES)
def test_generic_file_has_no_domain_vocabulary(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    if path == "car_graph/linking.py":
        # its module docstring explains the policy with examples; the code must not use them
        text = text.split('"""', 2)[2]
    found = sorted({m.group(0).lower() for m in DOMAIN_WORDS.finditer(text)})
    found += sorted({m.group(0) for m in CASE_WORD.finditer(text)})
    assert found == [], f"{path} names domain words: {found}"


def test_the_check_catches_a_domain_word() -> None:
    assert DOMAIN_WORDS.search("NAMED = ('drug', 'case')")
    assert DOMAIN_WORDS.search("_PARTIAL_CVE = re.compile(...)")
    assert CASE_WORD.search("types = ('case',)") and not CASE_WORD.search("CASE WHEN x")
