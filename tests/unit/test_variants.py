"""Failure-class question sets on an outside-style export (benchmarks/variants.py), real raw data."""

from __future__ import annotations

import functools
import json
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from car_graph.errors import RulesError
from car_graph.evaluation import read_queries
from car_graph.metrics import SupersessionGraph
from car_graph.records import read_jsonl
from car_graph.rules import bundled_rules
from car_graph_benchmarks import variants as vmod
from car_graph_benchmarks.phrasings import (
    CASE_TEMPLATES,
    DRUG_NAME_TEMPLATES,
    DRUG_PARTIAL_TEMPLATES,
    IDENTIFIER_TEMPLATES,
    MASKED_TEMPLATES,
    PAIR_TEMPLATES,
    PARTIAL_TEMPLATES,
    anchor_golds,
    cross_pairs,
    drug_name,
    questions,
)
from car_graph_benchmarks.questions import one_edit

# The suites read the raw corpora through the ``raw_corpora`` fixture (tests/corpora.py), which
# marks every test using them ``corpora``: without the corpora they skip, ``make unit`` leaves
# them out. The pure helpers at the end need nothing.
SMALL = {"n_distractors": 600}


@functools.cache
def _built(domain: str, raw: Path):
    return vmod.build_variants(domain, raw, **SMALL)


@pytest.fixture(scope="module", params=vmod.VARIANT_DOMAINS)
def suite(request, raw_corpora):
    return _built(request.param, raw_corpora)


@pytest.fixture(scope="module")
def security_suite(raw_corpora):
    return _built("security", raw_corpora)


@pytest.fixture(scope="module")
def drug_suite(raw_corpora):
    return _built("drug", raw_corpora)


def _rows(suite):
    return [row for rows in suite.sets.values() for row in rows]


def test_same_arguments_give_the_same_corpus_and_questions(suite, raw_corpora):
    again = vmod.build_variants(suite.domain, raw_corpora, **SMALL)
    assert again.sets == suite.sets
    assert [d.to_json() for d in again.export.documents] == \
        [d.to_json() for d in suite.export.documents]
    assert again.stats == suite.stats


def test_every_set_has_dev_and_test_questions(suite):
    for name, rows in suite.sets.items():
        splits = {r["split"] for r in rows}
        assert splits == {"dev", "test"}, name


def test_dev_and_test_share_no_anchor_in_any_set(suite):
    split_of_anchor = {}
    for row in _rows(suite):
        anchor = row["anchors"][0]
        assert split_of_anchor.setdefault(anchor, row["split"]) == row["split"], row["id"]
        assert row["split"] == vmod.anchor_split(row["info"]["source_anchor"])


def test_dev_and_test_share_no_phrasing_family(suite):
    for name, rows in suite.sets.items():
        families = defaultdict(set)
        carriers = defaultdict(set)
        for r in rows:
            families[r["split"]].add(r["family"])
            if "carrier_template" in r["info"]:
                carriers[r["split"]].add(r["info"]["carrier_template"])
        assert families["dev"] and families["test"], name
        assert not families["dev"] & families["test"], name
        assert not carriers["dev"] & carriers["test"], name
        declared = suite.stats["sets"][name]["families"]
        assert families["dev"] <= set(declared["dev"]) and families["test"] <= set(declared["test"])


def test_typo_sets_of_one_domain_split_operations_alike(suite):
    typo = suite.stats["sets"]["typo"]["families"]
    assert typo == suite.stats["sets"]["typo_long"]["families"]


def test_identifiers_appear_in_no_id_title_text_or_scope(suite):
    pattern = vmod.IDENTIFIER_PATTERNS[suite.domain]
    identifiers = {i.lower() for i in suite.export.identifiers}
    assert len(identifiers) > 100
    for d in suite.export.documents:
        scope_values = [v for keys in d.scope.values() for v in keys]
        for field in (d.id, d.title, d.text, *scope_values):
            assert not pattern.search(field), (d.id, field[:200])
            tokens = {t.lower() for t in re.findall(r"[\w-]+", field)}
            assert not tokens & identifiers, (d.id, sorted(tokens & identifiers))
        assert set(d.scope) <= {"product", "drug"}


def test_identifiers_are_kept_in_attributes(suite):
    attribute_text = json.dumps([d.attributes for d in suite.export.documents]).lower()
    kept = [i for i in suite.export.identifiers if i.lower() in attribute_text]
    assert len(kept) == len(suite.export.identifiers)
    if suite.domain == "security":
        advisories = [d for d in suite.export.documents if d.kind == "advisory"]
        with_cve = [d for d in advisories if d.attributes.get("cve", "").startswith("CVE-")]
        assert with_cve and all(d.attributes["cve"] in d.attributes["aliases"] for d in with_cve)


def test_the_controlling_release_no_longer_names_the_advisory_cve(security_suite):
    suite = security_suite
    by_id = {d.id: d for d in suite.export.documents}
    checked = 0
    for row in suite.sets["structured"]:
        cve = row["info"]["identifier"]
        for g in row["gold"]:
            assert cve.lower() not in by_id[g].text.lower()
            checked += 1
    assert checked > 100


def test_scope_names_are_plain(suite):
    for d in suite.export.documents:
        for keys in d.scope.values():
            for key in keys:
                assert not re.match(r"^(?:pypi|go|npm|crates\.io|debian|nodejs|rust):", key)
    if suite.domain == "security":
        products = {k for d in suite.export.documents for k in d.scope.get("product", ())}
        assert {"django", "go"} <= products


def test_the_export_domain_has_no_bundled_rules(suite):
    assert {d.domain for d in suite.export.documents} == {vmod.EXPORT_DOMAIN[suite.domain]}
    with pytest.raises(RulesError):
        bundled_rules(vmod.EXPORT_DOMAIN[suite.domain])


def test_gold_and_anchors_are_in_the_corpus_and_gold_follows_explicit_edges(suite):
    ids = {d.id for d in suite.export.documents}
    # the relation straight from the records' own supersedes references, no rules code at all
    graph = SupersessionGraph(
        (d.id, ref.id, ref.effective, ref.partial)
        for d in suite.export.documents for ref in d.supersedes
    )
    assert graph.edges
    for row in _rows(suite):
        assert set(row["anchors"]) | set(row["gold"]) <= ids, row["id"]
        assert sorted(graph.controlling(row["anchors"])) == row["gold"], row["id"]
    for d in suite.export.documents:
        assert all(ref.id in ids for ref in d.supersedes)


def test_typos_are_one_edit_and_spell_no_other_name(suite):
    names = {k.lower() for d in suite.export.documents for keys in d.scope.values() for k in keys}
    rows = suite.sets["typo"] + suite.sets["typo_long"]
    assert rows
    for row in rows:
        original = row["info"].get("product") or row["info"]["name"]
        typo = row["info"]["typo"]
        assert one_edit(original, typo), (original, typo)
        assert typo.lower() not in names and typo.lower() != original.lower()
        # a name opening the sentence is capitalised ("Uhrllib3: is ... patched?")
        assert re.search(rf"(?<!\w){re.escape(typo)}(?!\w)", row["question"], re.I)
        assert not re.search(rf"(?<!\w){re.escape(original)}(?!\w)", row["question"], re.I)
        length = len(original)
        assert (4 <= length <= 6) if row["set"] == "typo" else length >= 7


def test_partial_ids_are_never_a_full_identifier(suite):
    pattern = vmod.IDENTIFIER_PATTERNS[suite.domain]
    identifiers = {i.upper() for i in suite.export.identifiers}
    rows = suite.sets["partial_id"]
    assert rows
    for row in rows:
        digits = row["info"]["digits"]
        assert re.fullmatch(r"\d{4,}", digits)
        assert digits.upper() not in identifiers
        assert not pattern.search(row["question"]), row["question"]
        assert row["info"]["identifier"] not in row["question"]
        assert re.sub(r"\D", "", row["info"]["identifier"]).endswith(digits)
        assert re.search(rf"(?<!\d){digits}(?!\d)", row["question"])


def test_questions_outside_the_identifier_sets_carry_no_identifier(suite):
    pattern = vmod.IDENTIFIER_PATTERNS[suite.domain]
    identifiers = {i.lower() for i in suite.export.identifiers}
    for name, rows in suite.sets.items():
        if name in ("structured", "partial_id") or (suite.domain == "security"
                                                     and name.startswith("typo")):
            continue
        for row in rows:
            assert not pattern.search(row["question"]), row["question"]
            tokens = {t.lower() for t in re.findall(r"[\w-]+", row["question"])}
            assert not tokens & identifiers, row["question"]


def test_structured_questions_name_the_identifier_only_attributes_hold(suite):
    by_id = {d.id: d for d in suite.export.documents}
    for row in suite.sets["structured"]:
        ident = row["info"]["identifier"]
        assert ident in row["question"]
        anchor = by_id[row["anchors"][0]]
        assert ident in json.dumps(anchor.attributes)
        assert ident.lower() not in (anchor.text + anchor.title).lower()


def test_short_names_are_at_most_three_characters(suite):
    if suite.domain != "security":
        assert suite.stats["sets"]["short_name"]["questions"] == {"dev": 0, "test": 0}
        return
    rows = suite.sets["short_name"]
    assert rows and all(len(r["info"]["product"]) <= 3 for r in rows)
    assert all(re.search(rf"\b{r['info']['product']}\b", r["question"]) for r in rows)


def test_masked_indication_questions_name_no_drug(drug_suite):
    suite = drug_suite
    by_id = {d.id: d for d in suite.export.documents}
    rows = suite.sets["masked_indication"]
    assert rows
    for row in rows:
        anchor = by_id[row["anchors"][0]]
        names = [anchor.attributes.get("trademark"), anchor.attributes.get("generic_name")]
        assert any(names)
        for name in filter(None, names):
            assert name.lower() not in row["question"].lower(), row["question"]


def test_written_files_follow_the_eval_contract(suite, tmp_path):
    vmod.write_variants(suite, tmp_path)
    docs = list(read_jsonl(tmp_path / "documents.jsonl"))
    assert len(docs) == len(suite.export.documents)
    total = 0
    for name in suite.sets:
        for split in vmod.SPLITS:
            path = tmp_path / f"{name}.{split}.jsonl"
            queries = read_queries(path)
            total += len(queries)
            assert all(json.loads(line)["split"] == split for line in path.open())
    assert total == len(_rows(suite))
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["documents"] == len(docs)


# --- pure helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize("op", vmod.TYPO_OPS)
def test_each_typo_operation_makes_its_own_kind_of_edit(op):
    for seed in range(30):
        word = random.Random(seed).choice(["axios", "Django", "lodash", "Kwell", "PyYAML"])
        new = vmod.make_typo(word, op, random.Random(seed))
        assert new is not None and one_edit(word, new)
        if op == "delete":
            assert len(new) == len(word) - 1
        elif op == "insert":
            assert len(new) == len(word) + 1
        elif op == "swap":
            assert len(new) == len(word) and sorted(new) == sorted(word)
        else:
            assert sum(a != b for a, b in zip(word, new)) == 1 and len(new) == len(word)


def test_a_typo_never_spells_a_forbidden_name():
    # every deletion of "axios" but one spells a forbidden name; the generator must find it
    forbidden = {"xios", "aios", "axos", "axis"}
    assert vmod.make_typo("axios", "delete", random.Random(1), forbidden) == "axio"
    assert vmod.make_typo("ab", "swap", random.Random(1), {"ba"}) is None


def test_all_typos_lists_every_draw_make_typo_could_make():
    assert vmod.all_typos("axios", "delete", {"xios", "aios", "axos", "axis"}) == ["axio"]
    swaps = vmod.all_typos("Kwell", "swap")
    assert swaps == ["wKell", "Kewll", "Kwlel"]  # "ll" swapped is no edit
    for seed in range(20):
        assert vmod.make_typo("Kwell", "swap", random.Random(seed)) in swaps


def test_anchor_split_is_stable_and_near_forty_percent():
    ids = [f"doc-{i}" for i in range(4000)]
    dev = [i for i in ids if vmod.anchor_split(i) == "dev"]
    assert 0.37 < len(dev) / len(ids) < 0.43
    assert dev == [i for i in ids if vmod.anchor_split(i) == "dev"]


def test_family_split_never_puts_every_family_on_one_side():
    for n in range(2, 10):
        families = [f"f{i}" for i in range(n)]
        split = vmod.family_split("g", families)
        assert set(split.values()) == {"dev", "test"}
        assert split == vmod.family_split("g", list(reversed(families)))


def test_strip_identifiers_leaves_readable_text():
    text = "CVE-2021-35042: SQL injection (GHSA-xpfp-f569-q3p2). Fixed under NDA020726, sponsored."
    out = vmod.strip_identifiers(text, "security", {"NDA020726"})
    assert out == "SQL injection. Fixed, sponsored."
    assert vmod.strip_identifiers("Recall D-0379-2015, Class II; NDC 0187-0007-14.", "drug") \
        == "Recall, Class II."


def test_miss_classes_tell_wrong_sibling_from_other_scope_and_ranking():
    from car_graph_benchmarks.variant_misses import classify

    scope = {"a1": {"product:django"}, "a2": {"product:django"}, "b": {"product:go"},
             "r1": {"product:django"}}
    assert classify({"r1"}, "a1", ["r1"], ["a2"], scope, 5) == "anchor not found, wrong sibling"
    assert classify({"r1"}, "a1", ["b"], ["b"], scope, 5) == "anchor not found, other scope"
    assert classify({"r1"}, "a1", ["x", "y"], ["a1"], scope, 1) == \
        "anchor found, gold outside top k"
    assert classify({"r1"}, "a1", ["r1", "a2"], ["a1"], scope, 5) == \
        "anchor found, superseded document shown"


def test_security_verdict_sets_follow_their_definitions(security_suite):
    """flaw_shared / lure name no product of the anchor; the lure is another product's advisory
    nothing supersedes, and what also fits is another product's advisory -- read from the
    export's own records and edges, not from the builder's BM25."""
    suite = security_suite
    docs = {d.id: d for d in suite.export.documents}
    superseded = {ref.id for d in suite.export.documents for ref in d.supersedes}

    def products(doc_id: str) -> set[str]:
        return set(docs[doc_id].scope.get("product", ()))

    for name in ("flaw_shared", "lure", "flaw_shared_open", "lure_open"):
        for row in suite.sets[name]:
            (anchor,) = row["anchors"]
            words = set(re.findall(r"[\w.-]+", row["question"].lower()))
            assert not {p.lower() for p in products(anchor)} & words, row["question"]
            others = (row["info"]["also_fits"] if name.startswith("flaw_shared")
                      else [row["info"]["lure"]])
            assert others, row["id"]
            for other in others:
                assert docs[other].kind == "advisory" and not products(other) & products(anchor)
            if name.startswith("lure"):
                assert row["info"]["lure"] not in superseded, row["id"]
    # the open sets ask of advisories no other set anchors, each in force: its own gold
    anchored = {a for rows in (suite.sets["flaw_shared"], suite.sets["lure"],
                               suite.sets["paraphrase"]) for row in rows for a in row["anchors"]}
    for name in ("flaw_shared_open", "lure_open"):
        assert suite.sets[name], name
        for row in suite.sets[name]:
            assert row["gold"] == row["anchors"] and row["anchors"][0] not in superseded
            assert not set(row["anchors"]) & anchored, row["id"]
    for row in suite.sets["two_named"]:
        first, second = row["anchors"]
        assert not products(first) & products(second), row["id"]
    # each pair's products and flaws, kept for probes that ask the pair in other words, are
    # the ones its question asks about
    for row in (*suite.sets["two_named"], *suite.sets["two_named_open"]):
        asked = [*row["info"]["products"], *row["info"]["flaws"]]
        assert len(asked) == 4 and all(part and part in row["question"] for part in asked), row["id"]


def test_drug_pairs_keep_the_two_names_their_question_asks(drug_suite):
    rows = drug_suite.sets["two_named"]
    assert rows
    for row in rows:
        first, second = row["info"]["names"]
        assert first.lower() != second.lower() and first in row["question"] and second in row["question"]


def test_shared_flaw_wording_fits_a_few_documents_not_hundreds(security_suite):
    """Several documents fit a flaw_shared question, but no more than a verdict's listing could
    hold: wording hundreds of advisories fit as well names nothing a reader could find."""
    bm25 = vmod._Bm25(security_suite.export.documents)
    for name in ("flaw_shared", "flaw_shared_open"):
        assert security_suite.sets[name], name
        for row in security_suite.sets[name]:
            ranked = bm25.top(row["question"], 50)
            own = dict(ranked)[row["anchors"][0]]
            fitting = [doc for doc, score in ranked if score >= vmod.FIT_SHARE * own]
            assert 2 <= len(fitting) <= vmod.FIT_TOP, (row["question"], len(fitting))


def test_the_phrasings_probe_reads_the_drug_name_back_from_each_paraphrase_family() -> None:
    for family, template in vmod.DRUG_FAMILIES["paraphrase"].items():
        row = {"id": "drug-paraphrase-0001", "set": "paraphrase", "family": family,
               "question": template.format(t="Vioxx (Rofecoxib)", g="Vioxx (Rofecoxib)"),
               "gold": [], "anchors": []}
        assert drug_name(row) == "Vioxx (Rofecoxib)", family
        asked = questions([row])
        assert len(asked) == len(DRUG_NAME_TEMPLATES)
        assert all("Vioxx (Rofecoxib)" in q for q in asked)
    assert drug_name({"id": "security-paraphrase-0001", "set": "paraphrase", "family": "legal",
                      "question": "Is x still a legal prescription drug in the US?"}) is None


def test_the_phrasings_probe_asks_an_identifier_row_in_every_identifier_frame() -> None:
    row = {"id": "security-structured-0004", "set": "structured", "family": "need-upgrade",
           "question": "Do I need to upgrade Go because of CVE-2020-16845?", "gold": [],
           "anchors": [], "info": {"identifier": "CVE-2020-16845", "product": "Go"}}
    asked = questions([row])
    assert len(asked) == len(IDENTIFIER_TEMPLATES)
    assert all("CVE-2020-16845" in q and "Go" in q for q in asked)
    assert {r["template"] for r in asked.values()} == set(IDENTIFIER_TEMPLATES)


def test_the_phrasings_probe_asks_benchmark_rows_by_their_case_or_drug() -> None:
    case = {"id": "law-q0003", "question": "Would a court today still follow Pace v. Alabama?",
            "gold": [], "anchors": [], "info": {"domain": "law", "entity": "Pace v. Alabama"}}
    drug = {"id": "drug-q0006", "question": "Is the analgesic Aspirin still approved?",
            "gold": [], "anchors": [], "info": {"domain": "drug", "entity": "Aspirin"}}
    assert drug_name(drug) == "Aspirin" and drug_name(case) is None
    assert {r["template"] for r in questions([case]).values()} == set(CASE_TEMPLATES)
    assert all("Pace v. Alabama" in q for q in questions([case]))
    assert {r["template"] for r in questions([drug]).values()} == set(DRUG_NAME_TEMPLATES)


def test_the_phrasings_probe_asks_a_masked_row_only_with_its_own_familys_facts() -> None:
    row = {"id": "drug-masked_shared-0005", "set": "masked_shared", "family": "indicated-for",
           "question": "Is the drug indicated for convulsion still approved?", "gold": [],
           "anchors": [], "info": {"ind": "Convulsion", "cls": "Anticonvulsant", "moa": "GABA"}}
    asked = questions([row])
    assert {r["template"] for r in asked.values()} == set(MASKED_TEMPLATES[("ind",)])
    assert all("convulsion" in q and "Anticonvulsant".lower() not in q.lower() for q in asked)
    profile = questions([{**row, "family": "full-profile"}])
    assert set(profile) == {"A anticonvulsant for convulsion (gaba): still approved?",
                            "Anticonvulsant, gaba, used for convulsion. Still approved?"}


def test_the_phrasings_probe_asks_pair_rows_products_across_rows_with_each_anchors_own_gold() -> None:
    def pair(n: int, sources: tuple[str, str], products: tuple[str, str]) -> dict:
        anchors = [vmod.opaque_id("advisory", s) for s in sources]
        return {"id": f"security-two_named-{n:04d}", "set": "two_named", "split": "dev",
                "question": "...", "anchors": sorted(anchors), "gold": [f"release-{n}"],
                "info": {"source_anchors": list(sources), "products": list(products),
                         "flaws": [f"{p.lower()} flaw" for p in products]}}

    first = pair(1, ("GO-1", "PYSEC-1"), ("Go", "Django"))
    second = pair(2, ("RUSTSEC-1", "GHSA-1"), ("tokio", "lodash"))
    third = pair(3, ("GHSA-2", "GHSA-3"), ("Go", "express"))
    go, django, tokio, lodash, go2 = (vmod.opaque_id("advisory", s) for s in (
        "GO-1", "PYSEC-1", "RUSTSEC-1", "GHSA-1", "GHSA-2"))
    # each anchor's own gold from the rows asking about it alone; GHSA-3's is unknown
    singles = [{"anchors": [a], "gold": [f"fix-{a}"]} for a in (go, django, tokio, lodash, go2)]
    # an anchor two rows give different golds has none
    conflicting = {"anchors": [django], "gold": ["other"]}
    assert anchor_golds([*singles, conflicting]) == {a: frozenset({f"fix-{a}"})
                                                     for a in (go, tokio, lodash, go2)}
    # a row whose anchors are its gold (open advisories) gives each anchor itself
    assert anchor_golds([{"anchors": [go, tokio], "gold": [go, tokio]}]) == {
        go: frozenset({go}), tokio: frozenset({tokio})}
    asked = cross_pairs([first, second, third, *singles])
    # Go with lodash, Django with tokio; then tokio with express (gold unknown: skipped) and
    # lodash with Go (GHSA-2)
    expected = {(go, lodash), (django, tokio), (go2, lodash)}
    assert {tuple(r["anchors"]) for r in asked.values()} == {tuple(sorted(p)) for p in expected}
    assert len(asked) == len(expected) * len(PAIR_TEMPLATES)
    go_lodash = [r for r in asked.values() if set(r["anchors"]) == {go, lodash}]
    assert all(r["gold"] == sorted({f"fix-{go}", f"fix-{lodash}"}) for r in go_lodash)
    assert all("go flaw" in r["question"] and "lodash flaw" in r["question"] for r in go_lodash)
    assert {r["template"] for r in go_lodash} == {f"cross-{t}" for t in PAIR_TEMPLATES}
    # the same product twice is no pair: Go (GO-1) with Go (GHSA-7) is skipped
    again = pair(5, ("GHSA-6", "GHSA-7"), ("lodash", "Go"))
    known = [{"anchors": [vmod.opaque_id("advisory", s)], "gold": ["x"]} for s in ("GHSA-6", "GHSA-7")]
    assert [sorted(r["anchors"]) for r in cross_pairs([first, again, *singles, *known]).values()
            if r["template"] == "cross-colon-list"] == [
        sorted([django, vmod.opaque_id("advisory", "GHSA-6")])]


def test_the_phrasings_probe_asks_a_partial_identifier_row_in_its_domains_partial_frames() -> None:
    row = {"id": "security-partial_id-0004", "set": "partial_id", "family": "bare",
           "question": "Is Go still affected by 16845?", "gold": [], "anchors": [],
           "info": {"digits": "16845", "identifier": "CVE-2020-16845", "product": "Go"}}
    asked = questions([row])
    assert {r["template"] for r in asked.values()} == set(PARTIAL_TEMPLATES)
    assert all("16845" in q and "Go" in q and "CVE-2020" not in q for q in asked)
    drug = {**row, "id": "drug-partial_id-0003", "info": {"digits": "103362", "identifier": "BLA103362"}}
    assert {r["template"] for r in questions([drug]).values()} == set(DRUG_PARTIAL_TEMPLATES)
