import json
import shutil
import zipfile
from datetime import date
from pathlib import Path

import pytest

from car_graph import semantics
from car_graph.ingest.domains.drug import common, corpus, openfda
from car_graph.records import parse_record
from car_graph.rules import load_rules

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "drug"
SAMPLE = FIXTURES / "openfda_drug_enforcement_sample.json"
RULES = Path(corpus.__file__).parent / "rules.yaml"

def rule_edges(rules, records):
    """(newer, older, rule) triples of the reference semantics."""
    return {(e.newer, e.older, e.rule) for e in semantics.rule_edges(list(rules), list(records))}


def explicit_edges(records):
    return {(e.newer, e.older, e.rule) for e in semantics.explicit_edges(list(records))}



@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    raw = tmp_path_factory.mktemp("drug")
    for name in (common.NME_FILE, common.WITHDRAWN_FILE):
        shutil.copy(FIXTURES / name, raw / name)
    with zipfile.ZipFile(raw / common.ENFORCEMENT_FILE, "w") as archive:  # the bulk file's layout
        archive.write(SAMPLE, "drug-enforcement-0001-of-0001.json")
    problems = []
    records = corpus.load_drug(raw, problems)
    return {r.id: r for r in records}, problems


def test_identifiers():
    assert common.application_number("NDA", "22-250") == "NDA022250"
    assert common.application_number("NDA", "4-054\xa0\xa0 ") == "NDA004054"
    assert common.application_number("BLA", "125-057") == "BLA125057"
    assert common.application_number("", "ANDA076543") == "ANDA076543"
    assert common.application_number("", "") is None
    assert common.normalize_ndc("68391-847-47") == "68391-0847"
    assert common.normalize_ndc("0363-0495-66") == "00363-0495"
    assert common.normalize_ndc("11822-3644-3") == "11822-3644"
    assert common.normalize_ndc("17478-0040-01") == "17478-0040"
    assert common.normalize_ndc("55513007430") == "55513-0074"
    assert common.normalize_ndc("68391-847") == "68391-0847"
    assert common.normalize_ndc("6131435502") is None  # 10 digits: layout unknown
    assert common.normalize_ndc("336000-261-10") is None
    assert common.ndcs_in_text("... NDC 60505-2901-03 30 tablets; NDC# 0363-0495-66")[0] == [
        "60505-2901", "00363-0495"]


def test_bad_rows_are_reported(loaded):
    _docs, problems = loaded
    reasons = {Path(p.source.split("!")[0]).name: p for p in problems}
    assert set(reasons) == {common.NME_FILE, common.WITHDRAWN_FILE, common.ENFORCEMENT_FILE}
    assert reasons[common.NME_FILE].line == 9 and "19x9" in reasons[common.NME_FILE].reason
    assert reasons[common.WITHDRAWN_FILE].line == 7
    assert reasons[common.ENFORCEMENT_FILE].line == 4
    assert "recall_number" in reasons[common.ENFORCEMENT_FILE].reason
    assert len(problems) == 3


def test_approvals(loaded):
    docs, _ = loaded
    vioxx = docs["fda-approval:NDA021042:rofecoxib"]
    assert vioxx.title == "Vioxx (Rofecoxib) approved 1999"
    assert vioxx.published == date(1999, 5, 20)
    assert vioxx.scope == {"drug": ("rofecoxib",), "unii": ("0QTW8Z7MCR",),
                           "fda_application": ("NDA021042",)}
    assert "COX-2 inhibitor" in vioxx.text and "Osteoarthritis" in vioxx.text
    assert "withdraw" not in vioxx.text.lower()
    # Mac Roman no-break spaces in "4-054": two products on one NDA, two documents
    assert {"fda-approval:NDA004054:sulfadiazine",
            "fda-approval:NDA004054:sulfadiazine-sodium"} <= set(docs)
    assert "fda-approval:1941:sulfaguanidine:sulfaguanidine" in docs
    assert docs["fda-approval:1941:sulfaguanidine:sulfaguanidine"].published == date(1941, 1, 1)


def test_withdrawals(loaded):
    docs, _ = loaded
    w = docs["withdrawal:rofecoxib:2004:worldwide"]
    assert w.kind == "withdrawal" and w.published == date(2004, 1, 1)
    # the table gives the year alone: the record says so, and writes only the year
    assert w.date_precision == "year" and w.to_json()["published"] == "2004"
    assert w.scope == {"drug": ("rofecoxib",), "unii": ("0QTW8Z7MCR",)}
    assert "Cardiotoxicity" in w.text
    cfr = docs["withdrawal:rofecoxib:undated:us"]
    assert cfr.published is None and cfr.attributes["cfr_markets"] == ["US"]
    assert cfr.date_precision == "day"  # no date at all: nothing to be coarse about
    assert "21 CFR 216.24" in cfr.text


def test_recalls(loaded):
    docs, _ = loaded
    r = docs["recall:D-0591-2021"]
    assert r.kind == "recall" and r.scope["fda_application"] == ("NDA205836",)
    assert r.attributes["partial"] is True and r.attributes["classification"]
    ndc = docs["recall:D-0901-2023"]
    assert ndc.scope["ndc"] == ("68391-0847",)
    assert ndc.scope["drug"] == ("fexofenadine hydrochloride",)
    whole = [d for d in docs.values() if d.kind == "recall" and not d.attributes["has_openfda"]]
    assert len(whole) == 1 and whole[0].attributes["partial"] is False  # "All lots within expiry"
    assert len(ndc.text) <= common.RECALL_TEXT_LIMIT


def test_rules_link_withdrawals_and_recalls(loaded):
    docs, _ = loaded
    rules = load_rules(RULES)
    assert {r.name for r in rules} == {
        "withdrawal_voids_approval_unii", "withdrawal_voids_approval_drug",
        "cfr_withdrawal_voids_us_approval", "recall_of_approved_product"}
    recall_rule = next(r for r in rules if r.name == "recall_of_approved_product")
    assert recall_rule.partial_from == "partial"
    e = rule_edges(rules, docs.values())
    vioxx, hismanal = "fda-approval:NDA021042:rofecoxib", "fda-approval:NDA019402:astemizole"
    assert ("withdrawal:rofecoxib:2004:worldwide", vioxx, "withdrawal_voids_approval_unii") in e
    assert ("withdrawal:rofecoxib:undated:us", vioxx, "cfr_withdrawal_voids_us_approval") in e
    assert ("withdrawal:astemizole:undated:us", hismanal, "cfr_withdrawal_voids_us_approval") in e
    # the dated row's single year (1987) precedes the 1988 US approval: not linked by 'later'
    assert not any(n.startswith("withdrawal:astemizole:1987") for n, _, _ in e)
    assert ("recall:D-0591-2021", "fda-approval:NDA205836:brivaracetam",
            "recall_of_approved_product") in e
    report = corpus.recall_link_report(docs.values())
    assert report == {"recalls": 3, "with_ndc": 2, "linked": 1, "application_not_nda_or_bla": 1,
                      "no_openfda_block": 1, "ndc_only_links": 0}


def test_read_openfda_enforcement_json_and_round_trip(loaded):
    problems = []
    records = openfda.read_openfda_enforcement(SAMPLE, problems)
    assert len(records) == 3 and len(problems) == 1
    assert len(openfda.read_openfda_enforcement(SAMPLE, [], max_records=1)) == 1
    docs, _ = loaded
    for record in docs.values():
        assert parse_record(json.loads(json.dumps(record.to_json()))) == record


@pytest.mark.parametrize(
    ("code_info", "partial"),
    [
        ("All lots within expiry", False),
        ("All unexpired lots", False),
        ("All Lots  Ciclopirox Topical Solution 8%", False),
        ("Lot #: 20016AF, Exp 12/22", True),
        ("All other lots are not affected", True),
        ("All lots filled 08/26/2019 and dispensed 08/26-29/2019", True),
        ("All lots with Use by Date of 5/22/2016 to 8/31/2016", True),
        ("all codes distributed prior to and including 05/23/2013", True),
    ],
)
def test_recall_partial_reading(code_info, partial):
    assert openfda.recall_is_partial({"code_info": code_info}) is partial
