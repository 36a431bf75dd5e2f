"""The generic core names no domain: domain facts live in ingest/domains/<name>/ (one folder per
domain: declarations, adapters, rules YAML) and in users' YAML files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from car_graph.domains import DomainRegistry, discover_domains

ROOT = Path(__file__).resolve().parents[2]
GENERIC_FILES = ["car_graph/retrieval.py", "car_graph/linking.py", "car_graph/semantics.py",
                 "car_graph/domains.py", "car_graph/extraction.py", "car_graph/keys.py",
                 "ingest/pipeline.py", "ingest/sources.py",
                 "queries/anchors.cypher", "queries/closure.cypher", "queries/apply_rule.cypher"]
# Their module docstrings explain the policy with examples; the code must not use them.
DOCSTRING_EXAMPLES = {"car_graph/linking.py", "car_graph/domains.py", "car_graph/extraction.py"}
# Words a generic file may use for another meaning than a domain's.
OTHER_MEANINGS = {"car_graph/extraction.py": {"law"}}  # spaCy's statistical LAW entity label
# Words that belong to one of the built-in domains (identifier kinds, entity types, kinds of
# documents, ecosystems, salt words); "case" is checked in lower case only (Cypher's CASE).
DOMAIN_WORDS = re.compile(
    r"(?<![A-Za-z])(cve|ghsa|pysec|rustsec|ndc|nda|anda|bla|unii|drugs?|packages?|tickers?|employees?|"
    r"hydrochloride|sodium|django|lodash|fda|openfda|osv|security|law|advisory|advisories|"
    r"releases?|recalls?|withdrawals?|ecosystems?|pypi|npm|overrul\w*)(?![A-Za-z])",
    re.IGNORECASE,
)
# lower case only: not CASE; not the YAML key case_insensitive
CASE_WORD = re.compile(r"(?<![A-Za-z])cases?(?![A-Za-z_-])")
BUILTIN = ROOT / "ingest" / "domains"


@pytest.mark.parametrize("path", GENERIC_FILES)
def test_generic_file_has_no_domain_vocabulary(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    if path in DOCSTRING_EXAMPLES:
        text = text.split('"""', 2)[2]
    found = sorted({m.group(0).lower() for m in DOMAIN_WORDS.finditer(text)} - OTHER_MEANINGS.get(path, set()))
    found += sorted({m.group(0) for m in CASE_WORD.finditer(text)})
    assert found == [], f"{path} names domain words: {found}"


def test_the_check_catches_a_domain_word() -> None:
    assert DOMAIN_WORDS.search("NAMED = ('drug', 'case')")
    assert DOMAIN_WORDS.search("_PARTIAL_CVE = re.compile(...)")
    assert CASE_WORD.search("types = ('case',)") and not CASE_WORD.search("CASE WHEN x")
    assert not CASE_WORD.search("'case_insensitive'")


def _core_python_files() -> list[Path]:
    """Every Python file outside the domain folders: car_graph/ and ingest/'s own modules."""
    return sorted([*ROOT.glob("car_graph/**/*.py"), *(ROOT / "ingest").glob("*.py")])


def _string_constants(path: Path) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_no_core_module_names_a_built_in_domain() -> None:
    # the names come from the folders, so a fourth domain is checked without editing this test
    names = {p.name for p in BUILTIN.iterdir() if (p / "__init__.py").is_file()}
    assert names, "no built-in domain folder found"
    allowed = {("car_graph/extraction.py", "law")}  # spaCy's LAW label, lower-cased
    found = {(str(p.relative_to(ROOT)), s) for p in _core_python_files()
             for s in _string_constants(p) & names} - allowed
    assert found == set(), f"core modules name built-in domains: {sorted(found)}"


def test_the_literal_check_catches_a_listed_domain(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('DOMAINS = ("security", "law", "drug")\n"""security"""\n', encoding="utf-8")
    assert _string_constants(module) >= {"security", "law", "drug"}


def test_the_registry_finds_every_domain_folder_and_nothing_else() -> None:
    folders = sorted(p.name for p in BUILTIN.iterdir() if (p / "__init__.py").is_file())
    assert [d.name for d in discover_domains(group=None)] == folders  # folder-name order
    assert set(folders) <= set(DomainRegistry.installed().names)  # (plus any entry-point ones)
    assert [p.name for p in BUILTIN.glob("*.py")] == ["__init__.py"]  # no domain module outside a folder


@pytest.mark.parametrize("folder", sorted(p.name for p in BUILTIN.iterdir() if (p / "__init__.py").is_file()))
def test_each_domain_folder_holds_its_rules(folder: str) -> None:
    domain = DomainRegistry.installed().get(folder)
    assert domain is not None and domain.rules is not None
    assert Path(str(domain.rules)) == BUILTIN / folder / "rules.yaml"
    assert domain.rules.is_file()
