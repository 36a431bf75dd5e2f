"""Entity keys: one normalisation shared by adapters, the spaCy extractor and question parsing.

An entity is identified by (type, key). Types are plain identifiers (``package``, ``cve``,
``case``, ``drug``, ``ndc``, ``fda_application`` ...). Keys are case-folded with white space
collapsed, so "Lochner v.  New York" and "lochner v. new york" are one case. Package keys carry
their ecosystem ("pypi:django") because the same name means different software in two
ecosystems; the entity's ``name`` keeps the bare, human form ("django") for matching questions.
"""

from __future__ import annotations


def normalize_key(value: str) -> str:
    return " ".join(value.split()).casefold()


def package_key(ecosystem: str, name: str) -> str:
    return normalize_key(f"{ecosystem}:{name}")
