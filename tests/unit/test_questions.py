"""Real-corpus benchmark builder (benchmarks/questions.py) on the real raw data, small settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from car_graph import semantics
from car_graph.metrics import SupersessionGraph
from car_graph.records import read_jsonl
from car_graph.rules import bundled_rules
from car_graph_benchmarks import links as lmod
from car_graph_benchmarks import questions as qmod

# Tests that read the raw corpora take the ``raw_corpora`` fixture (tests/corpora.py), which
# marks them ``corpora``: without the corpora they skip, and ``make unit`` leaves them out.
SAMPLE = Path(__file__).parents[2] / "car_graph/resources/sample"
SMALL = {"n_distractors": 50, "max_queries": 20}

def rule_edges(rules, records):
    """(newer, older, rule) triples of the reference semantics."""
    return {(e.newer, e.older, e.rule) for e in semantics.rule_edges(list(rules), list(records))}


def explicit_edges(records):
    return {(e.newer, e.older, e.rule) for e in semantics.explicit_edges(list(records))}



@pytest.fixture(scope="module", params=qmod.DOMAINS)
def built(request, raw_corpora):
    domain = request.param
    return domain, qmod.build_benchmark(domain, raw_corpora, **SMALL)


def _gold_graph(domain, records, raw):
    """The gold relation rebuilt here from the source links and the records' explicit edges,
    not through questions.relations / links.gold_edges."""
    ids = {r.id for r in records}
    edges = {}
    for x in lmod.source_links(domain, raw, qmod.load_domain(domain, raw, [])).links:
        if x.newer in ids and x.older in ids:
            edges[(x.newer, x.older)] = edges.get((x.newer, x.older), True) and x.partial
    for newer, older, _ in explicit_edges(records):
        ref = next(s for s in next(r for r in records if r.id == newer).supersedes
                   if s.id == older)
        edges[(newer, older)] = edges.get((newer, older), True) and ref.partial
    return SupersessionGraph((n, o, None, p) for (n, o), p in edges.items())


def _independent_graph(domain, records):
    """The rule relation rebuilt from the adapters' own helpers (rule + explicit edges, partial
    flags read off the rules), not through questions.supersession_edges."""
    rules = {r.name: r for r in bundled_rules(domain)}
    by_id = {r.id: r for r in records}
    edges = {}
    for newer, older, name in rule_edges(rules.values(), records):
        rule = rules[name]
        flag = by_id[newer].attributes.get(rule.partial_from) if rule.partial_from else None
        partial = flag if isinstance(flag, bool) else rule.partial
        edges[(newer, older)] = edges.get((newer, older), True) and partial
    for newer, older, _ in explicit_edges(records):
        ref = next(s for s in by_id[newer].supersedes if s.id == older)
        edges[(newer, older)] = edges.get((newer, older), True) and ref.partial
    return SupersessionGraph((n, o, None, p) for (n, o), p in edges.items())


def test_deterministic(built, raw_corpora):
    domain, bench = built
    again = qmod.build_benchmark(domain, raw_corpora, **SMALL)
    assert again.queries == bench.queries
    assert again.robustness == bench.robustness
    assert [d.to_json() for d in again.documents] == [d.to_json() for d in bench.documents]
    assert again.stats == bench.stats


def test_gold_is_controlling_over_source_links_not_rules(built, raw_corpora):
    domain, bench = built
    records = qmod.load_domain(domain, raw_corpora, [])
    graph = _gold_graph(domain, records, raw_corpora)
    sub = _gold_graph(domain, bench.documents, raw_corpora)
    rules = _independent_graph(domain, records)
    assert len(bench.queries) == 20
    for q in bench.queries:
        assert set(q) >= {"id", "question", "gold", "anchors", "split"}
        assert q["gold"] and q["anchors"]
        assert sorted(graph.controlling(set(q["anchors"]))) == q["gold"]
        assert sorted(sub.controlling(set(q["anchors"]))) == q["gold"]
        rule_gold = sorted(rules.controlling(set(q["anchors"])))
        assert q["info"]["rule_gold"] == (None if rule_gold == q["gold"] else rule_gold)


def test_gold_follows_the_links_where_a_rule_disagrees(raw_corpora):
    """PYSEC-2021-142 (PyYAML, CVE-2020-14343): the Debian 5.4.1-1 changelog only mentions the
    CVE's patch being dropped (its cve_ids field is empty), so the source links leave it out
    while the CVE rule, which also reads CVEs in the text, links it."""
    bench = qmod._build("security", raw_corpora, n_distractors=10, seed=13, max_queries=1,
                        include=["PYSEC-2021-142"], robustness_queries=0)
    q = next(q for q in bench.queries if q["anchors"] == ["PYSEC-2021-142"])
    assert q["gold"] == ["debian-changelog:pyyaml:5.3.1-4"]
    assert "debian-changelog:pyyaml:5.4.1-1" in q["info"]["rule_gold"]
    # the rule's extra superseder is still in the corpus, so the ingested graph is consistent
    assert "debian-changelog:pyyaml:5.4.1-1" in {d.id for d in bench.documents}


def test_every_chain_document_is_in_the_corpus(built, raw_corpora):
    domain, bench = built
    ids = {d.id for d in bench.documents}
    records = qmod.load_domain(domain, raw_corpora, [])
    graph = _gold_graph(domain, records, raw_corpora)
    rules = _independent_graph(domain, records)
    for q in bench.queries:
        assert set(q["anchors"]) | set(q["gold"]) <= ids
        assert graph.closure(set(q["anchors"])) <= ids
    # closed under superseders in both relations: nothing in the corpus is superseded by a
    # document outside it, by a source link or by a rule
    for d in ids:
        assert {e.newer for e in graph.superseders(d)} <= ids
        assert {e.newer for e in rules.superseders(d)} <= ids
    assert len(ids) == len(bench.documents)
    assert len(ids) > len({a for q in bench.queries for a in q["anchors"]})  # distractors


def test_question_overlaps_anchor_more_than_gold(built):
    _domain, bench = built
    rows = [q["info"] for q in bench.queries if not q["info"]["gold_includes_anchor"]]
    anchor = sum(r["overlap_anchor"] for r in rows) / len(rows)
    gold = sum(r["overlap_gold"] for r in rows) / len(rows)
    assert gold < anchor


def test_security_questions_quote_no_ids_or_versions(raw_corpora):
    bench = qmod.build_benchmark("security", raw_corpora, **SMALL)
    for q in bench.queries:
        assert not re.search(r"CVE-\d|GHSA-|PYSEC-|GO-\d{4}", q["question"]), q["question"]
        assert not re.search(r"\b\d+\.\d+\.\d+\b", q["question"]), q["question"]
        assert q["info"]["entity"] in q["question"]
    assert any(r["info"]["variant"] == "partial_id" for r in bench.robustness)


def test_robustness_variants(built):
    _domain, bench = built
    base = {q["id"]: q for q in bench.queries}
    typos = [r for r in bench.robustness if r["info"]["variant"] == "typo"]
    assert typos
    for r in bench.robustness:
        q = base[r["info"]["base"]]
        assert r["gold"] == q["gold"] and r["anchors"] == q["anchors"]
        assert r["question"] != q["question"]
        assert r["split"] == q["split"]
    for r in typos:
        q = base[r["info"]["base"]]
        assert qmod.one_edit(q["question"], r["question"])
        assert len(r["info"]["word"]) >= 5
        assert r["info"]["op"] in qmod.TYPO_FAMILIES[r["split"]]


def test_typo_and_one_edit():
    import random

    for seed in range(200):
        op, new = qmod.typo("Lochner", random.Random(seed))
        assert op in {"swap", "delete", "replace"}
        assert new[0] == "L" and new[-1] == "r" and qmod.one_edit("Lochner", new)
    assert qmod.one_edit("abcde", "abdce") and qmod.one_edit("abcde", "abde")
    assert not qmod.one_edit("abcde", "abcde") and not qmod.one_edit("abcde", "badce")
    with pytest.raises(ValueError):
        qmod.typo("Go", random.Random(0))


def test_flaw_phrase_strips_versions_and_ids(raw_corpora):
    records = {r.id: r for r in qmod.load_domain("security", raw_corpora, [])}
    phrase = qmod.flaw_phrase(records["PYSEC-2021-9"], ["Django", "django"])
    assert "2.2" not in phrase and "Django" not in phrase
    assert "directory traversal" in phrase


def test_cli_writes_files(tmp_path, raw_corpora):
    args = [str(tmp_path), "--domain", "law", "--raw", str(raw_corpora), "--distractors", "10",
            "--max-queries", "12"]
    assert qmod.main(args) == 0
    names = ("documents.jsonl", "queries.dev.jsonl", "queries.test.jsonl",
             "robustness.dev.jsonl", "robustness.test.jsonl", "stats.json")
    first = {n: (tmp_path / "law" / n).read_bytes() for n in names}
    assert not (tmp_path / "law" / "queries.jsonl").exists()
    for split in qmod.SPLITS:
        rows = [json.loads(line) for line in
                first[f"queries.{split}.jsonl"].decode().splitlines()]
        assert rows and all(r["split"] == split for r in rows)
        assert all(qmod.split_of(r["anchors"][0]) == split for r in rows)
    assert qmod.main(args) == 0
    assert first == {n: (tmp_path / "law" / n).read_bytes() for n in first}
    assert len(list(read_jsonl(tmp_path / "law" / "documents.jsonl"))) > 5


def _sample_questions():
    return [json.loads(line) for line in (SAMPLE / "questions.jsonl").read_text().splitlines()]


def test_sample_files_parse_and_stay_small():
    total = 0
    ids, graphs = {}, {}
    for domain in qmod.DOMAINS:
        path = SAMPLE / f"{domain}.jsonl"
        total += path.stat().st_size
        docs = list(read_jsonl(path))
        assert 50 <= len(docs) <= 400
        ids[domain] = {d.id for d in docs}
        graphs[domain] = _independent_graph(domain, docs)
        for d in docs:  # every explicit reference of an included document is included
            assert all(ref.id in ids[domain] for ref in d.supersedes)
        assert graphs[domain].edges
    assert total < 5_000_000
    rows = _sample_questions()
    assert len(rows) >= 6
    for row in rows:
        domain = row["info"]["domain"]
        assert set(row["anchors"]) | set(row["gold"]) <= ids[domain]
        # what the demo answers from the sample alone (the next test checks the same answer
        # against the full corpus)
        assert sorted(graphs[domain].controlling(set(row["anchors"]))) == row["gold"]
    assert (SAMPLE / "SOURCE.md").read_text().count("CC-BY-4.0") >= 2


def test_sample_is_closed_under_the_full_corpus_superseders(raw_corpora):
    rows = _sample_questions()
    for domain in qmod.DOMAINS:
        ids = {d.id for d in read_jsonl(SAMPLE / f"{domain}.jsonl")}
        full = _independent_graph(domain, qmod.load_domain(domain, raw_corpora, []))
        for d in ids:  # every superseder of an included document is included
            assert {e.newer for e in full.superseders(d)} <= ids
        asked = [row for row in rows if row["info"]["domain"] == domain]
        assert asked
        for row in asked:
            assert sorted(full.controlling(set(row["anchors"]))) == row["gold"]


def test_sample_regenerates_identically(tmp_path, raw_corpora):
    qmod.write_sample(raw_corpora, tmp_path)
    for name in ("security.jsonl", "law.jsonl", "drug.jsonl", "questions.jsonl", "SOURCE.md"):
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name


# --- dev/test split ------------------------------------------------------------------------------


def test_split_depends_only_on_the_anchor_id_and_is_about_forty_percent_dev():
    ids = [f"PYSEC-2021-{n}" for n in range(3000)]
    first = [qmod.split_of(i) for i in ids]
    assert first == [qmod.split_of(i) for i in reversed(ids)][::-1]
    assert set(first) == {"dev", "test"}
    assert 0.37 <= first.count("dev") / len(first) <= 0.43


def test_an_anchor_keeps_its_split_when_the_question_set_grows(raw_corpora):
    small = qmod.build_benchmark("law", raw_corpora, n_distractors=20, max_queries=15)
    large = qmod.build_benchmark("law", raw_corpora, n_distractors=20, max_queries=40)
    splits = {q["anchors"][0]: q["split"] for q in large.queries}
    assert all(splits[q["anchors"][0]] == q["split"] for q in small.queries
               if q["anchors"][0] in splits)


def test_template_typo_and_partial_id_families_are_disjoint_and_cover_everything():
    for families, size in ((qmod._SECURITY_FAMILIES, len(qmod._SECURITY_TEMPLATES)),
                           (qmod._LAW_FAMILIES, len(qmod._LAW_TEMPLATES))):
        assert not set(families["dev"]) & set(families["test"])
        assert set(families["dev"]) | set(families["test"]) == set(range(size))
    for kind, templates in (("named", qmod._DRUG_NAMED), ("class", qmod._DRUG_CLASS),
                            ("indication", qmod._DRUG_INDICATION)):
        dev, test = qmod._DRUG_FAMILIES["dev"][kind], qmod._DRUG_FAMILIES["test"][kind]
        assert not set(dev) & set(test) and set(dev) | set(test) == set(range(len(templates)))
    assert not set(qmod.TYPO_FAMILIES["dev"]) & set(qmod.TYPO_FAMILIES["test"])
    dev_forms, dev_templates = qmod._PARTIAL_ID_FAMILIES["dev"]
    test_forms, test_templates = qmod._PARTIAL_ID_FAMILIES["test"]
    assert not set(dev_forms) & set(test_forms) and not set(dev_templates) & set(test_templates)


def test_questions_use_the_families_of_their_anchors_split(built):
    domain, bench = built
    dev = {q["anchors"][0] for q in bench.queries if q["split"] == "dev"}
    test = {q["anchors"][0] for q in bench.queries if q["split"] == "test"}
    assert dev and test and not dev & test
    for q in bench.queries:
        assert q["split"] == qmod.split_of(q["anchors"][0])
        template = q["info"]["template"]
        if domain == "drug":
            kind, number = template.split(":")
            assert int(number) in qmod._DRUG_FAMILIES[q["split"]][kind]
        else:
            families = qmod._SECURITY_FAMILIES if domain == "security" else qmod._LAW_FAMILIES
            assert template in families[q["split"]]
    for r in bench.robustness:
        if r["info"]["variant"] == "partial_id":
            elided = "…" in r["info"]["reference"]
            assert elided == (r["split"] == "test")


def test_typo_keeps_to_the_allowed_edits():
    import random

    for seed in range(100):
        op, new = qmod.typo("Lochner", random.Random(seed), ("swap",))
        assert op == "swap" and sorted(new) == sorted("Lochner") and new != "Lochner"
    with pytest.raises(ValueError):
        qmod.typo("Baaaab", random.Random(0), ("swap",))  # interior letters all equal
