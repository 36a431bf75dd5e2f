"""Drug corpus: FDA new-molecular-entity approvals, market withdrawals and openFDA recalls.

Documents (domain ``drug``)
---------------------------
=============  ====================================  ================================================
kind           source                                id
=============  ====================================  ================================================
approval       fda_nmes_1827-2016_ncats.tsv          ``fda-approval:<application>:<generic slug>``
                                                     (``fda-approval:NDA022250:dalfampridine``);
                                                     without an application number
                                                     ``fda-approval:<year>:<generic>:<trademark>``
withdrawal     withdrawn_drugs_ncats.tsv             ``withdrawal:<generic slug>:<year or undated>:``
                                                     ``<country slug>`` (one per table row)
recall         openFDA drug enforcement (zip/JSON)   ``recall:<recall_number>`` (``recall:D-0901-2023``)
=============  ====================================  ================================================

Scope keys: ``drug`` = generic name in lower case (the NME table's "Generic Name", the withdrawn
table's ``generic_name``, openFDA ``generic_name``); ``unii``; ``fda_application`` = application
numbers as openFDA writes them (``NDA022250``, ``BLA125057``, ``ANDA076543``: type + six digits;
the NME table's "22-250" becomes ``NDA022250``); ``ndc`` = product-level NDC in the 11-digit
(5-4-2) HIPAA layout without the package segment, ``LLLLL-PPPP``, so a package NDC, a product NDC
and an NDC in any 4-4-2 / 5-3-2 / 5-4-1 spelling meet on one key.

Decisions, documented:

* One withdrawal document per row of the withdrawn table. The table already has one row per
  (drug, set of countries, year); a row lists its countries joined by '|' and they stay one
  document (one source statement), with ``markets`` (the countries) as a list attribute. The 82 rows from the
  FDA list (21 CFR 216.24) are US withdrawals without a date: ``published`` is empty.
* Approval text describes the drug (trademark, generic name, sponsor, year, and the class,
  mechanism and indication columns of the withdrawn table when the drug matches by UNII or
  name). It never says the drug was withdrawn; the withdrawn table's ``description`` column is
  not used because it only holds the 21 CFR withdrawal statement ("All drug products
  containing ...").
* A recall is partial (``partial`` attribute True: the approval stays in force for the other
  lots) unless its code_info / product description / reason recalls every lot: "all lots",
  "all unexpired lots", "all lots within expiry", "all remaining lots", "all products" and the
  like ("all other lots" does not count, nor "all lots" narrowed by what follows: "all lots
  filled 08/26/2019", "all lots with Use by Date ...", "all codes distributed prior to ...").
* The NME table is the only approval source: it has one NDA/BLA per molecule and no NDCs, so a
  recall links to an approval only when openFDA gives the innovator's NDA/BLA number.
  :func:`recall_link_report` counts why the others do not link.

The NME file is Mac Roman encoded (non-breaking spaces as byte 0xCA); dates are MM-DD-YY with
the century taken from the Year column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from car_graph.errors import InputProblem
from car_graph.ingest.domains.drug.common import ENFORCEMENT_FILE, NME_FILE, WITHDRAWN_FILE
from car_graph.ingest.domains.drug.openfda import read_openfda_enforcement
from car_graph.ingest.domains.drug.tables import (
    drug_descriptions,
    read_nme_approvals,
    read_withdrawals,
    withdrawn_rows,
)
from car_graph.keys import normalize_key
from car_graph.records import DocumentRecord
from car_graph.rules import Rule
from car_graph.semantics import rule_edges

# --- loading and reporting -----------------------------------------------------------------------


def load_drug(
    raw_dir: Path, problems: list[InputProblem], max_recalls: int | None = None
) -> list[DocumentRecord]:
    raw_dir = Path(raw_dir)
    withdrawn_path = raw_dir / WITHDRAWN_FILE
    withdrawn = withdrawn_rows(withdrawn_path, problems) if withdrawn_path.exists() else []
    records: list[DocumentRecord] = []
    if (raw_dir / NME_FILE).exists():
        records += read_nme_approvals(raw_dir / NME_FILE, problems, drug_descriptions(withdrawn))
    if withdrawn_path.exists():
        records += read_withdrawals(withdrawn_path, problems, withdrawn)
    if (raw_dir / ENFORCEMENT_FILE).exists():
        records += read_openfda_enforcement(raw_dir / ENFORCEMENT_FILE, problems, max_recalls)
    return records


def recall_link_report(records: Iterable[DocumentRecord]) -> dict[str, int]:
    """Why recalls do or do not link to an approval (by fda_application or ndc).

    Each recall is counted once, under the first reason that applies:
    ``linked``, ``no_openfda_block``, ``openfda_without_application_number``,
    ``application_not_nda_or_bla`` (ANDA generics, OTC monograph 'part3xx', 'M...'; the NME
    table lists only innovator NDAs/BLAs), ``nda_bla_not_in_nme_table`` (an NDA/BLA for a
    product that is not a new molecular entity, or approved after the 2016 table).
    ``ndc_only_links`` counts recalls linked by NDC alone (the NME table has no NDCs, so 0 here).
    """
    records = list(records)
    approvals = [r for r in records if r.kind == "approval"]
    app_keys = {normalize_key(k) for r in approvals for k in r.scope.get("fda_application", ())}
    ndc_keys = {normalize_key(k) for r in approvals for k in r.scope.get("ndc", ())}
    report: Counter = Counter()
    for r in records:
        if r.kind != "recall":
            continue
        apps = [normalize_key(k) for k in r.scope.get("fda_application", ())]
        ndcs = [normalize_key(k) for k in r.scope.get("ndc", ())]
        report["recalls"] += 1
        report["with_ndc"] += bool(ndcs)
        if any(a in app_keys for a in apps):
            report["linked"] += 1
        elif any(n in ndc_keys for n in ndcs):
            report["linked"] += 1
            report["ndc_only_links"] += 1
        elif not r.attributes.get("has_openfda"):
            report["no_openfda_block"] += 1
        elif not apps:
            report["openfda_without_application_number"] += 1
        elif not any(a.startswith(("nda", "bla")) for a in apps):
            report["application_not_nda_or_bla"] += 1
        else:
            report["nda_bla_not_in_nme_table"] += 1
    report.setdefault("ndc_only_links", 0)
    return dict(report)


def drug_stats(records: list[DocumentRecord], rules: list[Rule]) -> dict[str, Any]:
    kinds = Counter(r.kind for r in records)
    edges = [(e.newer, e.older, e.rule) for e in rule_edges(rules, records)]
    per_rule = Counter(rule for *_, rule in edges)
    by_id = {r.id: r for r in records}
    voided = {o for n, o, rule in edges if by_id[n].kind == "withdrawal"}
    linked_withdrawals = {n for n, o, rule in edges if by_id[n].kind == "withdrawal"}
    recalled = {o for n, o, rule in edges if by_id[n].kind == "recall"}
    withdrawals = [r for r in records if r.kind == "withdrawal"]
    return {
        "documents": dict(kinds),
        "edges_per_rule": dict(per_rule),
        "approvals_voided_by_withdrawal": len(voided),
        "withdrawals_linked_to_an_approval": len(linked_withdrawals),
        "withdrawals_undated": sum(1 for r in withdrawals if r.published is None),
        "approvals_with_a_recall": len(recalled),
        "recalls_partial": sum(
            1 for r in records if r.kind == "recall" and r.attributes["partial"]
        ),
        "recall_links": recall_link_report(records),
    }


__all__ = ["drug_stats", "load_drug", "recall_link_report"]
