"""The sources' own links (benchmarks/links.py) on small hand-made raw files, and rule
precision/recall on a hand-made case: every expected link can be read off the records here."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from car_graph.ingest.domains.drug.corpus import load_drug
from car_graph.ingest.domains.security.corpus import load_security
from car_graph.records import DocumentRecord, SupersedesRef
from car_graph_benchmarks.links import (
    RuleEdge,
    SourceLink,
    gold_edges,
    law_links,
    render_precision_recall,
    rule_precision_recall,
    security_links,
    source_links,
)


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _osv(osv_id: str, aliases: list[str], *affected: tuple[str, str, list[str]]) -> dict:
    return {
        "id": osv_id, "aliases": aliases, "summary": f"flaw {osv_id}", "published": "2021-01-01",
        "affected": [
            {"package": {"ecosystem": eco, "name": name},
             "ranges": [{"type": "ECOSYSTEM",
                         "events": [{"introduced": "0"}, *({"fixed": f} for f in fixed)]}]}
            for eco, name, fixed in affected
        ],
    }


def _security_raw(tmp_path: Path) -> Path:
    _write(tmp_path / "pypa_advisories.jsonl", [
        # fixed in 3.2.5 (a release note exists) and 3.1.99 (no such release)
        _osv("PYSEC-1", ["CVE-2021-0001"], ("PyPI", "Django", ["3.2.5", "3.1.99"])),
        # one CVE shared by two packages: the Django release names it, and so does a Debian
        # python-urllib3 changelog; each links only to the advisory of its own package
        _osv("PYSEC-2", ["CVE-2021-0002"], ("PyPI", "Django", [])),
        _osv("PYSEC-3", ["CVE-2021-0002"], ("PyPI", "urllib3", [])),
        # a package no release document covers: neither linked nor counted as unmatched
        _osv("PYSEC-4", [], ("PyPI", "left-pad", ["1.0.1"])),
    ])
    _write(tmp_path / "govulndb_osv.jsonl", [
        {**_osv("GO-1", [], ("Go", "stdlib", [])),
         "affected": [{"package": {"ecosystem": "Go", "name": "stdlib"},
                       "ranges": [{"type": "SEMVER", "events": [
                           {"introduced": "0"}, {"fixed": "1.20.0"}, {"introduced": "1.21.0"},
                           {"fixed": "1.21.3"}]}]}]},
    ])
    _write(tmp_path / "django_release_notes.jsonl", [
        {"version": "3.2.5", "title": "Django 3.2.5", "release_date": "July 1, 2021",
         "cve_ids": ["CVE-2021-0001"], "text": "Django 3.2.5 fixes a security issue.", "file": "x"},
        {"version": "3.2.6", "title": "Django 3.2.6", "release_date": "August 2, 2021",
         "cve_ids": ["CVE-2021-0002"], "text": "Django 3.2.6 fixes CVE-2021-0002.", "file": "y"},
        {"version": "security", "title": "Archive", "cve_ids": ["CVE-2021-0001"],
         "text": "All CVEs.", "file": "security.txt"},
    ])
    _write(tmp_path / "go_release_history.jsonl", [
        {"version": "go1.20", "date": "2023-02-01"},
        {"version": "go1.21.3", "date": "2023-10-10", "security": {"packages": ["net/http"]}},
    ])
    _write(tmp_path / "debian_changelogs.jsonl", [
        {"source": "python-urllib3", "binary_package": "python3-urllib3", "version": "1.26-1",
         "distribution": "bookworm", "date": "Mon, 01 Mar 2021 10:00:00 +0000",
         "text": "  * Fix CVE-2021-0002.", "cve_ids": ["CVE-2021-0002"]},
    ])
    return tmp_path


def test_security_links_from_fixed_versions_and_aliases(tmp_path: Path) -> None:
    found = security_links(_security_raw(tmp_path))
    pairs = {(x.newer, x.older, x.source) for x in found.links}
    assert pairs == {
        ("django-release:3.2.5", "PYSEC-1", "osv_fixed"),
        ("django-release:3.2.5", "PYSEC-1", "osv_alias"),
        ("django-release:3.2.6", "PYSEC-2", "osv_alias"),
        ("debian-changelog:python-urllib3:1.26-1", "PYSEC-3", "osv_alias"),
        ("go-release:go1.20", "GO-1", "osv_fixed"),  # Go names 1.20.0 "go1.20"
        ("go-release:go1.21.3", "GO-1", "osv_fixed"),
    }
    # the fixed version that names no release is counted, not linked
    assert found.unlinked["osv_fixed: no release of that version"] == 1
    assert "3.1.99" in found.unlinked_examples["osv_fixed: no release of that version"][0]
    # the shared CVE: the Debian urllib3 entry does not link the Django advisory
    assert found.unlinked["osv_alias: same CVE, different package"] == 1
    assert all(x.evidence and not x.partial for x in found.links)
    go = next(x for x in found.links if x.newer == "go-release:go1.21.3")
    assert go.effective == date(2023, 10, 10) and "fixed 1.21.3" in go.evidence
    debian = next(x for x in found.links if x.newer.startswith("debian-changelog:"))
    assert debian.effective == date(2021, 3, 1) and "CVE-2021-0002" in debian.evidence
    assert {x.effective for x in found.links if x.newer == "django-release:3.2.5"} == {
        date(2021, 7, 1)}


def test_security_link_ids_are_the_adapters_ids(tmp_path: Path) -> None:
    raw = _security_raw(tmp_path)
    ids = {r.id for r in load_security(raw, [])}
    found = security_links(raw)
    assert found.pairs()
    assert {n for n, _ in found.pairs()} | {o for _, o in found.pairs()} <= ids


def test_law_links_are_the_table_pairs_with_the_in_part_flag(tmp_path: Path) -> None:
    _write(tmp_path / "conan_overruled_pairs.jsonl", [
        {"order": 1, "overruling_raw": "Brown v. Board,347 U.S. 483 (1954)",
         "overruled_raw": "Plessy v. Ferguson,163 U.S. 537 (1896)", "overruling_year": 1954,
         "overruled_note": None},
        {"order": 2, "overruling_raw": "Ramos v. Louisiana,No. 18-5924 (U.S. Apr. 20, 2020)",
         "overruled_raw": "Apodaca v. Oregon,406 U.S. 404 (1972) (in part)",
         "overruling_year": 2020, "overruled_note": "in part"},
        {"order": 3, "overruling_raw": "no citation here", "overruled_raw": "nor here"},
    ])
    found = law_links(tmp_path)
    assert [(x.newer, x.older, x.partial, x.effective) for x in found.links] == [
        ("scotus:347-us-483", "scotus:163-us-537", False, date(1954, 1, 1)),
        ("scotus:no-18-5924", "scotus:406-us-404", True, date(2020, 1, 1)),
    ]
    assert sum(found.unlinked.values()) == 1


def _drug_raw(tmp_path: Path) -> Path:
    nme = ["Year\tTrademark\tGeneric Name\tUNII\tDate [text]\tApp Type\tNDA/BLA No.\tSponsor\tRef",
           "1995\tAlpha\talphazine\tUNII0000A1\t01-02-95\tNDA\t20-001\tX\tDrugs@FDA",
           "2000\tBeta\tbetamab\t\t03-04-00\tBLA\t125001\tY\tDrugs@FDA",
           "1990\tGamma\tgammacillin\t\t05-06-90\tNDA\t19-002\tZ\tDrugs@FDA"]
    (tmp_path / "fda_nmes_1827-2016_ncats.tsv").write_bytes("\n".join(nme).encode("mac_roman"))
    cols = ["status", "generic_name", "brand_name", "synonym", "form", "class", "moa",
            "indication", "description", "year_launched", "date_launched", "country_launched",
            "URL", "year_adr_report", "year_withdrawn", "date_withdrawn", "country_withdrawn",
            "reason_withdrawn", "year_remarketed", "unii", "smiles", "source"]

    def row(**cells: str) -> str:
        return "\t".join(cells.get(c, "") for c in cols)

    withdrawn = ["\t".join(cols),
                 # by UNII (the name differs): withdrawn after the approval
                 row(generic_name="alphazine hydrochloride", unii="UNII0000A1",
                     year_withdrawn="1999", country_withdrawn="France", source="onakpoya"),
                 # by name, but withdrawn abroad before the US approval: not a link
                 row(generic_name="Betamab", year_withdrawn="1998", country_withdrawn="UK",
                     source="onakpoya"),
                 # 21 CFR 216.24: undated US withdrawal, links whatever the dates
                 row(generic_name="gammacillin", country_withdrawn="US",
                     source="https://www.ecfr.gov/.../216.24"),
                 row(generic_name="nothing-matches", year_withdrawn="2001", source="onakpoya")]
    (tmp_path / "withdrawn_drugs_ncats.tsv").write_text("\n".join(withdrawn), encoding="utf-8")
    recalls = {"results": [
        {"recall_number": "D-0001-2020", "report_date": "20200102", "classification": "Class II",
         "reason_for_recall": "Subpotent", "product_description": "Beta injection",
         "code_info": "Lot 123", "openfda": {"application_number": ["BLA125001"]}},
        {"recall_number": "D-0002-2020", "report_date": "20200103", "classification": "Class I",
         "reason_for_recall": "Contamination", "product_description": "Alpha tablets",
         "code_info": "All lots", "openfda": {"application_number": ["NDA020001"]}},
        {"recall_number": "D-0003-2020", "report_date": "20200104", "classification": "Class II",
         "reason_for_recall": "Label mix-up", "product_description": "Generic alpha",
         "code_info": "Lot 9", "openfda": {"application_number": ["ANDA070001"]}},
    ]}
    (tmp_path / "openfda_drug_enforcement_sample.json").write_text(json.dumps(recalls))
    return tmp_path


def test_drug_links_join_withdrawals_and_recalls_by_the_sources_keys(tmp_path: Path) -> None:
    raw = _drug_raw(tmp_path)
    records = load_drug(raw, [])
    by_line = {(r.kind, r.attributes.get("source_line")): r.id for r in records}
    found = source_links("drug", raw, records)
    alpha, beta, gamma = (by_line[("approval", n)] for n in (2, 3, 4))
    got = {(x.newer.split(":")[0], x.older, x.source, x.partial) for x in found.links}
    assert got == {
        ("withdrawal", alpha, "withdrawal_unii", False),
        ("withdrawal", gamma, "withdrawal_name", False),
        ("recall", beta, "recall_application", True),  # one lot
        ("recall", alpha, "recall_application", False),  # all lots
    }
    assert found.unlinked["withdrawal_name: withdrawn before the US approval"] == 1
    assert found.unlinked["withdrawal: no NME approval with that UNII or name"] == 1
    assert found.unlinked["recall_application: not an NME NDA/BLA"] == 1
    recall = next(x for x in found.links if x.newer == "recall:D-0001-2020")
    assert recall.effective == date(2020, 1, 2)


def test_gold_edges_keep_links_between_loaded_documents_and_explicit_edges() -> None:
    records = [
        DocumentRecord(id="a", text="a", domain="t"),
        DocumentRecord(id="b", text="b", domain="t",
                       supersedes=(SupersedesRef(id="a", partial=True),)),
        DocumentRecord(id="c", text="c", domain="t"),
    ]
    links = [SourceLink("c", "a", "s", "e", partial=True),
             SourceLink("b", "a", "s", "e", partial=False),  # full beats the explicit partial
             SourceLink("z", "a", "s", "e")]  # z is not a document
    edges = {(e.newer, e.older): e.partial for e in gold_edges(links, records)}
    assert edges == {("b", "a"): False, ("c", "a"): True}


def test_rule_precision_and_recall_on_a_hand_made_case() -> None:
    """Links: r1->a1, r2->a2, r3->a3 (release -> advisory), w1->ap1 (withdrawal -> approval).
    Rule fixes: r1->a1 (TP), r2->a2 (TP), r2->a9 (FP). Rule cve: r1->a1 (TP), r3->a9 (FP).
    Rule withdraw: nothing. all rules: {r1a1, r2a2, r2a9, r3a9}: 2 TP of 4, recall 2/4."""
    links = [SourceLink("django-release:1", "A1", "osv_fixed", ""),
             SourceLink("django-release:2", "A2", "osv_fixed", ""),
             SourceLink("django-release:3", "A3", "osv_alias", ""),
             SourceLink("withdrawal:w", "fda-approval:1", "withdrawal_unii", "")]
    edges = [RuleEdge("django-release:1", "A1", "fixes"),
             RuleEdge("django-release:2", "A2", "fixes", partial=True),
             RuleEdge("django-release:2", "A9", "fixes"),
             RuleEdge("django-release:1", "A1", "cve"),
             RuleEdge("django-release:3", "A9", "cve")]
    rows = {r.rule: r for r in rule_precision_recall("security", edges, links,
                                                     rules=["fixes", "cve"])}
    fixes, cve, every = rows["fixes"], rows["cve"], rows["all rules"]
    assert (fixes.edges, fixes.relevant, fixes.true_positives) == (3, 3, 2)
    assert fixes.precision == 2 / 3 and fixes.recall == 2 / 3
    assert fixes.false_positives == (("django-release:2", "A9"),)
    assert fixes.false_negatives == (("django-release:3", "A3"),)
    assert fixes.partial_disagreements == 1  # r2->a2 is partial, the link is not
    assert (cve.precision, cve.recall) == (0.5, 1 / 3)
    assert (every.edges, every.relevant, every.true_positives) == (4, 4, 2)
    assert every.recall == 0.5
    assert ("withdrawal:w", "fda-approval:1") in every.false_negatives
    text = "\n".join(render_precision_recall(list(rows.values())))
    assert "| security | fixes | 3 | 3 | 2 | 0.667 | 0.667 | 1 |" in text
    assert "1 false positives of 3" in text


def test_a_rule_without_edges_has_no_precision_and_zero_recall() -> None:
    links = [SourceLink("withdrawal:w", "fda-approval:1", "withdrawal_unii", "")]
    rows = rule_precision_recall("drug", [], links, rules=["withdrawal_voids_approval_unii"])
    rule = rows[0]
    assert rule.edges == 0 and rule.precision is None and rule.relevant == 1
    assert rule.recall == 0.0


def test_a_users_rules_are_measured_with_the_records_kinds() -> None:
    # a rules file of a domain car-graph does not bundle: kinds come from the records, and a
    # rule that made no edge is reported (no kinds known, so no links charged to it)
    kinds = {"B1": "blackout", "P1": "preclearance", "L1": "lift"}
    links = [SourceLink("B1", "P1", "intended_blackout", ""), SourceLink("L1", "B1", "intended_lift", "")]
    rows = {r.rule: r for r in rule_precision_recall(
        "compliance", [RuleEdge("B1", "P1", "blackout_voids")], links, kinds,
        ["blackout_voids", "lift_ends"], kind_of=kinds.get)}
    assert (rows["blackout_voids"].relevant, rows["blackout_voids"].recall) == (1, 1.0)
    assert rows["lift_ends"].edges == 0 and rows["lift_ends"].relevant == 0
    assert rows["all rules"].recall == 0.5


def test_documents_restrict_the_links_to_a_corpus() -> None:
    links = [SourceLink("django-release:1", "A1", "osv_fixed", ""),
             SourceLink("django-release:2", "A2", "osv_fixed", "")]
    rows = rule_precision_recall("security", [RuleEdge("django-release:1", "A1", "fixes")],
                                 links, documents={"django-release:1", "A1"})
    assert rows[0].recall == 1.0 and rows[0].relevant == 1
