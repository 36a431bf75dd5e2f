"""EntityExtractor and the retrieval query helpers, on real spaCy (blank English, no model)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from car_graph.extraction import EntityExtractor, EntityMention, find_identifiers
from car_graph.ingest.domains.drug.entities import normalize_application, normalize_ndc
from car_graph.ingest.domains.security.ecosystems import package_key
from car_graph.linking import fulltext_query, fuzzy_query, lucene_escape, question_terms

# The stack.md section 4 sample: 15 entities the default tokenizer alone only finds 11 of.
SAMPLE = (
    "Log4Shell (CVE-2021-44228, GHSA-jfh8-c2jp-5v3q) is fixed in log4j-core@2.17.1; also bump "
    "lodash@4.17.21 and @babel/core@7.24.0. Roe v. Wade, 410 U.S. 113, was overruled by Dobbs v. "
    "Jackson Women's Health Organization, 597 U.S. 215, which also overruled Planned Parenthood v. "
    "Casey. NDC 12345-678-90 and 0002-3227-30 are listed under NDA 021436, ANDA 076543 and "
    "BLA 125057."
)
SAMPLE_EXPECTED = {
    ("cve", "cve-2021-44228", "CVE-2021-44228"),
    ("ghsa", "ghsa-jfh8-c2jp-5v3q", "GHSA-jfh8-c2jp-5v3q"),
    ("package_version", "log4j-core@2.17.1", "log4j-core@2.17.1"),
    ("package_version", "lodash@4.17.21", "lodash@4.17.21"),
    ("package_version", "@babel/core@7.24.0", "@babel/core@7.24.0"),
    ("case", "roe v. wade", "Roe v. Wade"),
    ("case", "dobbs v. jackson women's health organization", "Dobbs v. Jackson Women's Health Organization"),
    ("case", "planned parenthood v. casey", "Planned Parenthood v. Casey"),
    ("us_reports", "410 u.s. 113", "410 U.S. 113"),
    ("us_reports", "597 u.s. 215", "597 U.S. 215"),
    ("ndc", "12345-0678", "12345-678-90"),  # product-level key, as the drug adapter's
    ("ndc", "00002-3227", "0002-3227-30"),
    ("fda_application", "nda021436", "NDA 021436"),
    ("fda_application", "anda076543", "ANDA 076543"),
    ("fda_application", "bla125057", "BLA 125057"),
}


@pytest.fixture(scope="module")
def extractor() -> EntityExtractor:
    return EntityExtractor(use_statistical=False)


def triples(mentions: list[EntityMention]) -> set[tuple[str, str, str]]:
    return {(m.type, m.key, m.name) for m in mentions}


def test_import_does_not_load_spacy() -> None:
    code = "import sys, car_graph.extraction, car_graph.linking; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_stack_sample_all_15_entities(extractor: EntityExtractor) -> None:
    mentions = extractor.extract(SAMPLE)
    assert triples(mentions) == SAMPLE_EXPECTED
    assert len(mentions) == 15
    for m in mentions:  # offsets point at the surface text
        assert SAMPLE[m.start : m.end] == m.name
    assert [m.start for m in mentions] == sorted(m.start for m in mentions)


def test_identifiers_are_single_tokens_and_never_fragments(extractor: EntityExtractor) -> None:
    doc = extractor.nlp(SAMPLE)
    tokens = {t.text for t in doc}
    for ident in ("CVE-2021-44228", "GHSA-jfh8-c2jp-5v3q", "log4j-core@2.17.1", "@babel/core@7.24.0",
                  "12345-678-90", "0002-3227-30"):
        assert ident in tokens
    assert "CVE-2021" not in tokens and "core@2.17.1" not in tokens
    # no partial mention inside an identifier: the version of a package@version is not separate
    assert not any(m.type == "version" for m in extractor.extract(SAMPLE))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see PYSEC-2021-1 and GO-2022-0001", {("pysec", "pysec-2021-1"), ("go_vuln", "go-2022-0001")}),
        ("RUSTSEC-2021-0001 (ghsa-jfh8-c2jp-5v3q)", {("rustsec", "rustsec-2021-0001"), ("ghsa", "ghsa-jfh8-c2jp-5v3q")}),
        ("https://nvd.nist.gov/vuln/detail/CVE-2021-44228.", {("cve", "cve-2021-44228")}),
        ("pin django==4.2.1", {("package_version", "django@4.2.1")}),
        ("golang.org/x/net@v0.17.0 is out", {("package_version", "golang.org/x/net@0.17.0")}),
        ("upgrade to 4.17.12, v1.2.3 or 1.21rc2.", {("version", "4.17.12"), ("version", "1.2.3"), ("version", "1.21rc2")}),
        ("versions 2.0.0-beta.1 and 1.0.dev3", {("version", "2.0.0-beta.1"), ("version", "1.0.dev3")}),
        ("affects 2.0.0-2.14.1, fixed in 2.15.0", {("version", "2.0.0"), ("version", "2.14.1"), ("version", "2.15.0")}),
    ],
)
def test_security_identifiers(extractor: EntityExtractor, text: str, expected: set) -> None:
    assert {(m.type, m.key) for m in extractor.extract(text)} == expected


def test_identifier_inside_a_url_token_is_cut_out(extractor: EntityExtractor) -> None:
    text = "https://nvd.nist.gov/vuln/detail/CVE-2021-44228"
    [m] = extractor.extract(text)
    assert m.name == "CVE-2021-44228" and text[m.start : m.end] == m.name
    assert "CVE-2021-44228" in [t.text for t in extractor.nlp(text)]  # the URL token was split


def test_case_names_with_possessive_and_connectors(extractor: EntityExtractor) -> None:
    text = (
        "Whole Woman's Health v. Hellerstedt was decided after Brown v. Board of Education of "
        "Topeka; Roe v. Wade's central holding was discussed in Lochner v. New York."
    )
    keys = {m.key for m in extractor.extract(text) if m.type == "case"}
    assert keys == {
        "whole woman's health v. hellerstedt",
        "brown v. board of education of topeka",
        "roe v. wade",  # trailing possessive dropped
        "lochner v. new york",
    }


def test_case_lead_in_words_are_not_parties(extractor: EntityExtractor) -> None:
    names = {m.name for m in extractor.extract("In Roe v. Wade, and following Miranda v. Arizona.")}
    assert names == {"Roe v. Wade", "Miranda v. Arizona"}


def test_us_reports_forms(extractor: EntityExtractor) -> None:
    keys = {m.key for m in extractor.extract("Roe, 410 U.S. 113; Dobbs, 597 US 215; slip 600 U.S. ___")}
    assert keys == {"410 u.s. 113", "597 u.s. 215", "600 u.s. ___"}


@pytest.mark.parametrize(
    "form",
    ["0002-3227-30", "00002-3227-30", "00002322730", "NDC 00002322730", "ndc: 00002-3227-30",
     "0002 3227 30", "NDC 0002-3227", "00002-3227-1"],
)
def test_normalize_ndc_same_key(form: str) -> None:
    assert normalize_ndc(form) == "00002-3227"


def test_normalize_ndc_segmentations() -> None:
    assert normalize_ndc("12345-678-90") == "12345-0678"  # 5-3-2
    assert normalize_ndc("12345-6789-1") == "12345-6789"  # 5-4-1
    assert normalize_ndc("1234-5678-90") == "01234-5678"  # 4-4-2
    assert normalize_ndc("0002322730") is None  # 10 bare digits: three possible layouts
    assert normalize_ndc("1234-567-8") is None  # 8 digits
    assert normalize_ndc("hello") is None


def test_ndc_forms_in_text_share_one_key(extractor: EntityExtractor) -> None:
    text = "Packages 0002-3227-30, 00002-3227-30, NDC 00002322730 and NDC 0002-3227 are one product."
    mentions = extractor.extract(text)
    assert [(m.type, m.key) for m in mentions] == [("ndc", "00002-3227")]  # deduplicated
    # bare digit runs need the "NDC" label (a phone number is no NDC); 10 bare digits are ambiguous
    assert extractor.extract("call 5551234567 or 555-123-4567, order 00002322730") == []
    assert extractor.extract("NDC 0002322730") == []


@pytest.mark.parametrize(
    "form", ["NDA 021436", "NDA021436", "nda 021436", "NDA #021436", "NDA No. 21436", "NDA 21-436", "N021436"]
)
def test_normalize_application_same_key(form: str) -> None:
    assert normalize_application(form) == "nda021436"


def test_application_forms_in_text(extractor: EntityExtractor) -> None:
    mentions = extractor.extract("Approved as NDA021436 (NDA 021436); generic ANDA 076543; BLA 125057.")
    assert [m.key for m in mentions] == ["nda021436", "anda076543", "bla125057"]
    assert mentions[0].name == "NDA021436"
    assert normalize_application("A076543") == "anda076543"
    assert normalize_application("IND 12345678") is None
    assert normalize_application("NDA 1234567") is None


def test_add_names_case_insensitive() -> None:
    extractor = EntityExtractor(use_statistical=False)  # own instance: names are added in place
    assert extractor.add_names("drug", ["Fen-Phen", "dexfenfluramine", "fen-phen", "the"]) == 2
    mentions = extractor.extract("FEN-PHEN combined fenfluramine with phentermine; Dexfenfluramine too.")
    assert triples(mentions) == {
        ("drug", "fen-phen", "FEN-PHEN"),
        ("drug", "dexfenfluramine", "Dexfenfluramine"),
    }
    assert extractor.extract("The drug was withdrawn.") == []  # stop-word names are skipped


def test_add_names_with_keys_and_case_preference() -> None:
    extractor = EntityExtractor(use_statistical=False)
    extractor.add_names("package", [("Requests", package_key("pypi", "requests")),
                                    ("requests", package_key("npm", "requests"))])
    extractor.add_names("case", ["Roe v. Wade"])
    mentions = extractor.extract("Reaffirming Roe v. Wade, the requests library broke.")
    assert {(m.type, m.key) for m in mentions} == {
        ("case", "roe v. wade"),  # the known name beats the pattern guess "Reaffirming Roe v. Wade"
        ("package", "pypi:requests"),
        ("package", "npm:requests"),
    }
    with pytest.raises(ValueError):
        extractor.add_names("bad type", ["x"])


def test_add_names_twenty_thousand_is_fast() -> None:
    extractor = EntityExtractor(use_statistical=False)
    names = [f"compound-{i}-hydrochloride" for i in range(20_000)]
    t0 = time.perf_counter()
    assert extractor.add_names("drug", names) == 20_000
    elapsed = time.perf_counter() - t0
    print(f"add_names: 20,000 names in {elapsed:.2f} s")
    assert elapsed < 30  # quadratic insertion took minutes; generous for a loaded CI machine
    [m] = extractor.extract("Patients on COMPOUND-19999-HYDROCHLORIDE improved.")
    assert (m.type, m.key) == ("drug", "compound-19999-hydrochloride")


@pytest.mark.parametrize(
    "text",
    [
        "The quick brown fox jumps over the lazy dog.",
        "It was 3.5 miles away in 2021, on page 12, at 10:30.",
        "Email bob@example.com for details.",
        "",
    ],
)
def test_no_entities_in_plain_text(extractor: EntityExtractor, text: str) -> None:
    assert extractor.extract(text) == []


def test_dedupe_per_type_and_key(extractor: EntityExtractor) -> None:
    mentions = extractor.extract("CVE-2021-44228 and cve-2021-44228 and CVE-2021-44228 again")
    assert [(m.type, m.key, m.start) for m in mentions] == [("cve", "cve-2021-44228", 0)]


def test_find_identifiers_without_spacy() -> None:
    assert find_identifiers("fixed in lodash@4.17.21.") == [(9, 23, "package_version", "lodash@4.17.21")]
    assert find_identifiers("no ids here") == []


def test_extract_many_matches_extract(extractor: EntityExtractor) -> None:
    texts = [SAMPLE, "", "plain words", "NDA 021436"]
    assert extractor.extract_many(texts, batch_size=2) == [extractor.extract(t) for t in texts]


def test_extract_many_throughput(extractor: EntityExtractor) -> None:
    templates = [
        "Log4Shell CVE-2021-44228 is fixed in log4j-core@2.17.1 ({i}).",
        "Roe v. Wade, 410 U.S. 113, was overruled in case {i}.",
        "Label {i}: NDC 0002-3227-30 under NDA 021436.",
        "The patient reported mild symptoms after dose {i} of the drug.",
    ]
    texts = [templates[i % 4].format(i=i) for i in range(2_000)]
    t0 = time.perf_counter()
    results = extractor.extract_many(texts)
    elapsed = time.perf_counter() - t0
    print(f"extract_many: {len(texts) / elapsed:,.0f} docs/s ({len(texts)} docs in {elapsed:.2f} s)")
    assert elapsed < 30  # quadratic insertion took minutes; generous for a loaded CI machine
    assert sum(map(len, results)) == 500 * 2 + 500 * 2 + 500 * 2


def test_statistical_required_but_missing_raises() -> None:
    from car_graph.errors import ConfigError

    with pytest.raises(ConfigError):
        EntityExtractor(use_statistical=True, models=("car_graph_no_such_model",))


# ----------------------------------------------------------------------------- query helpers


def test_lucene_escape_every_special_character() -> None:
    specials = '+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /'
    for token in specials.split():
        escaped = lucene_escape(token)
        assert escaped == "".join("\\" + c for c in token), token
    assert lucene_escape("log4j-core@2.17.1") == "log4j\\-core@2.17.1"
    assert lucene_escape("a:b/c") == "a\\:b\\/c"
    assert lucene_escape('say "hi"') == 'say\\ \\"hi\\"'
    assert lucene_escape("AND") == "\\AND" and lucene_escape("and") == "and"
    assert lucene_escape("") == ""


def test_fuzzy_query() -> None:
    assert fuzzy_query(["lochner", "new", "york"]) == "lochner~1 OR new OR york~1"
    assert fuzzy_query(["lochner", "york"], max_edits=2, min_len=5) == "lochner~2 OR york"
    assert fuzzy_query(["log4j-core", "2021", "44228"]) == "log4j\\-core OR 2021 OR 44228"
    assert fuzzy_query([]) == ""
    assert fuzzy_query(["", "  "]) == ""
    assert fuzzy_query(["york", "york"]) == "york~1"
    assert fuzzy_query("lochner") == "lochner~1"  # a lone string is one term, not characters
    with pytest.raises(ValueError):
        fuzzy_query(["x"], max_edits=3)


def test_question_terms_drop_stop_words() -> None:
    assert question_terms("What did the court hold in Lochner v. New York?") == [
        "court", "hold", "lochner", "new", "york",
    ]
    assert question_terms("Is CVE-2021-44228 fixed in log4j-core?") == [
        "cve", "2021", "44228", "fixed", "log4j", "core",
    ]
    assert question_terms("Which of these is it, and why?") == []
    assert question_terms("Fen-Phen FEN-PHEN fen phen") == ["fen", "phen"]


def test_fulltext_query() -> None:
    assert fulltext_query("Which drugs replaced fen-phen?") == "drugs OR replaced OR fen OR phen"
    assert fulltext_query("What is it?") == ""
    assert fulltext_query("") == ""
