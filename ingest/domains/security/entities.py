"""The security domain's entities: advisory ids, package@version pins, versions, packages.

Package scope keys carry their ecosystem ("pypi:django"); people write the bare name, so the
display form drops the prefix. CVE and GHSA aliases are identifiers of an advisory wherever a
record carries them (``aliases``, ``cve``).
"""

from __future__ import annotations

import re

from car_graph.domains import IdentifierSpec, NameSpec, after_colon
from car_graph.keys import normalize_key

# Advisory ids: a URL path before them is fine (".../detail/CVE-2021-44228"); glued words are not.
_LID = r"(?<![\w-])"
_RID = r"(?![\w@-]|\.\w)"
# Versions/packages: not glued to a word, path, scope or name ("log4j-core-2.17.1") on the left;
# a digit-hyphen before is fine (the "2.14.1" of the range "2.0.0-2.14.1").
_L = r"(?<![\w@/.:])(?<![^\d\s]-)"
_R = r"(?![\w@]|-[^\d\s]|\.\w)"

# A version: numeric release, then a PEP 440 or SemVer pre/dev/post part, then SemVer build data.
# A SemVer pre-release is "-beta.1", "-SNAPSHOT" or "-1", never "-2.14.1" (that is a range).
_PRE = (
    r"(?:[-.]?(?:alpha|beta|preview|pre|rc|dev|post|a|b)\.?\d*(?![\w])"
    r"|-(?:[A-Za-z][0-9A-Za-z]*(?:\.[0-9A-Za-z]+)*|\d+(?![.\d])))"
)
_BUILD = r"(?:\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)"
VERSION = rf"[vV]?\d+(?:\.\d+)*{_PRE}?{_BUILD}?"
# A bare version must look like one: three or more components, or a "v" prefix with two, or two
# with a pre-release tag ("1.21rc2"). "3.5" alone is a number, not a version.
_BARE_VERSION = (
    rf"(?:[vV]?\d+\.\d+\.\d+(?:\.\d+)*{_PRE}?{_BUILD}?"
    rf"|[vV]\d+\.\d+{_PRE}?{_BUILD}?"
    rf"|\d+\.\d+[-.]?(?:alpha|beta|preview|pre|rc|dev|post|a|b)\.?\d*{_BUILD}?)"
)
PKG_NAME = r"(?:@[\w.-]+/)?\w(?:[\w.\-/:]*\w)?"

_PKG_VERSION_PARTS = re.compile(rf"^({PKG_NAME})(?:@|==)({VERSION})$")


def version_key(text: str) -> str:
    """"v1.2.3" and "1.2.3" are one version; the rules' schemes canonicalise further."""
    key = normalize_key(text)
    return key[1:] if key[:1] == "v" and key[1:2].isdigit() else key


def package_version_key(text: str) -> str | None:
    m = _PKG_VERSION_PARTS.match(text)
    if not m:
        return normalize_key(text)
    return f"{normalize_key(m.group(1))}@{version_key(m.group(2))}"


# scheme_words: what a question calls the scheme ("Was the CVE about ... resolved?"), never a
# product's name written bare (the crate cve-rs)
IDENTIFIERS = (
    IdentifierSpec("cve", rf"{_LID}(?i:CVE-\d{{4}}-\d{{4,7}}){_RID}", partial=True,
                   scheme_words=frozenset({"cve", "cves"})),
    IdentifierSpec("ghsa", rf"{_LID}(?i:GHSA(?:-[23456789cfghjmpqrvwx]{{4}}){{3}}){_RID}",
                   scheme_words=frozenset({"ghsa"})),
    IdentifierSpec("pysec", rf"{_LID}(?i:PYSEC-\d{{4}}-\d{{1,7}}){_RID}", partial=True,
                   scheme_words=frozenset({"pysec"})),
    IdentifierSpec("go_vuln", rf"{_LID}(?i:GO-\d{{4}}-\d{{4,7}}){_RID}", partial=True),
    IdentifierSpec("rustsec", rf"{_LID}(?i:RUSTSEC-\d{{4}}-\d{{4,7}}){_RID}", partial=True,
                   scheme_words=frozenset({"rustsec"})),
    IdentifierSpec("package_version", rf"{_L}{PKG_NAME}(?:@|==){VERSION}{_R}",
                   key=package_version_key, identifies_documents=False),
    IdentifierSpec("version", rf"{_L}{_BARE_VERSION}{_R}", key=version_key,
                   identifies_documents=False),
)
NAMES = (NameSpec("package", display=after_colon, display_name="after_colon"),)
IDENTIFIER_ATTRIBUTES = {"aliases": None, "cve": "cve", "cve_ids": "cve", "ghsa": "ghsa"}
