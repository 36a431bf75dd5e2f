"""Entity linking against a real Neo4j: identifiers kept only in structured fields, look-alike
identifiers, bare partial identifiers, short case-sensitive names, typos in short names, and a
domain declared in YAML alone. Each graph is small enough to read the right answer off it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from car_graph.client import CarClient
from car_graph.extraction import EntityExtractor
from car_graph.linking import LinkingSettings
from car_graph.records import parse_record
from car_graph.retrieval import RetrievalSettings, Retriever
from car_graph.rules import load_domain_file
from car_graph.verdict import VerdictKind

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def records(*objs):
    return [parse_record(o) for o in objs]


def advisory(doc_id: str, cve: str, product: str, text: str) -> dict:
    return {"id": doc_id, "kind": "advisory", "domain": "advisories", "published": "2025-01-10",
            "title": f"Server-side request forgery in {product}", "text": text,
            "scope": {"product": product}, "attributes": {"cve": cve}}


AXIOS_TEXT = ("A crafted absolute URL passed to the HTTP client makes it send requests to internal "
              "hosts, bypassing the configured base URL.")
CORPUS = [
    advisory("ADV-1", "CVE-2025-62718", "axios", AXIOS_TEXT),
    advisory("ADV-2", "CVE-2025-62717", "axios", AXIOS_TEXT.replace("internal", "private")),
    advisory("ADV-3", "CVE-2025-62716", "axios", AXIOS_TEXT.replace("hosts", "services")),
    advisory("ADV-4", "CVE-2024-11111", "lodash", "Prototype pollution through merge of crafted objects."),
    advisory("ADV-5", "CVE-2024-22222", "hapi", "Crafted cookie headers crash the server process."),
    {"id": "REL-1", "kind": "release", "domain": "advisories", "published": "2025-01-20",
     "title": "v1.12.0", "text": "Maintenance release: dependency bumps, typings, and a fix for URL handling.",
     "scope": {"product": "axios"}, "supersedes": ["ADV-1"]},
]


@pytest.fixture
def security_graph(car: CarClient) -> CarClient:
    car.ingest(records(*CORPUS), rules=[])
    return car


def entities(car: CarClient, question: str) -> set[str]:
    return set(car.retrieve_report(question, k=3).question_entities)


def catalog_domain(tmp_path: Path):
    """A user domain from YAML alone: molecules are scope, a brand in ``sold_as`` names the
    document, a withdrawal voids the earlier approval of its molecule."""
    rules_file = tmp_path / "catalog.yaml"
    rules_file.write_text(
        "domain: catalog\n"
        "names: [molecule, brand]\n"
        "name_attributes: {sold_as: brand}\n"
        "rules:\n"
        "  - {name: withdrawal_voids_approval, newer_kind: withdrawal, older_kind: approval,"
        " scope: molecule, order: later}\n",
        encoding="utf-8",
    )
    return load_domain_file(rules_file)


def test_identifier_kept_only_in_attributes_finds_its_document(security_graph: CarClient) -> None:
    report = security_graph.retrieve_report("Is axios still affected by CVE-2025-62718?", k=3)
    assert "cve:cve-2025-62718" in report.question_entities
    assert report.results[0].doc_id == "REL-1"
    assert report.results[0].chain[0].from_id == "ADV-1"


def test_look_alike_identifiers_are_not_linked(security_graph: CarClient) -> None:
    linked = entities(security_graph, "Is axios still affected by CVE-2025-62718?")
    assert not {"cve:cve-2025-62717", "cve:cve-2025-62716"} & linked


def test_bare_partial_identifier_links_the_one_identifier_it_ends(security_graph: CarClient) -> None:
    report = security_graph.retrieve_report("Is axios still affected by 62718?", k=3)
    assert "cve:cve-2025-62718" in report.question_entities
    assert not any(e.startswith("cve:") and e != "cve:cve-2025-62718" for e in report.question_entities)
    assert report.results[0].doc_id == "REL-1"


def test_partial_identifier_matching_too_many_links_none_unless_a_name_narrows_it(car: CarClient) -> None:
    tails = [advisory(f"T-{i}", f"CVE-202{i}-{i}0001", product, f"Flaw number {i} in {product}.")
             for i, product in enumerate(["axios", "lodash", "vite", "chalk"], start=1)]
    car.ingest(records(*tails), rules=[])
    # four identifiers end in 0001: the digits alone are a guess, not a link
    assert not any(e.startswith("cve:") for e in entities(car, "Which advisory ends in 0001?"))
    # the name the question also gives leaves one
    linked = entities(car, "Is lodash affected by the one ending 0001?")
    assert {e for e in linked if e.startswith("cve:")} == {"cve:cve-2022-20001"}


def test_a_named_product_decides_which_identifier_its_digits_end(car: CarClient) -> None:
    # Two other products hold identifiers whose whole last group is 5042; Go's own advisory is
    # CVE-2023-45042. Asked about Go, the digits name Go's identifier, not the closer-looking ones.
    car.ingest(records(
        advisory("G-1", "CVE-2023-45042", "go", "Crafted archives exhaust memory in the zip reader."),
        advisory("O-1", "CVE-2024-5042", "lodash", "Prototype pollution through zipObjectDeep."),
        advisory("O-2", "CVE-2021-5042", "vite", "Path traversal in the dev server."),
    ), rules=[])
    linked = entities(car, "Is Go still affected by 5042?")
    assert "product:go" in linked  # a capitalised short name, stored in lower case
    assert {e for e in linked if e.startswith("cve:")} == {"cve:cve-2023-45042"}
    # without a name, the digits alone keep preferring whole-group matches
    assert {e for e in entities(car, "Which advisory ends in 5042?") if e.startswith("cve:")} == {
        "cve:cve-2024-5042", "cve:cve-2021-5042"}
    # both read from the one number the question writes: one mention's readings
    report = car.retrieve_report("Which advisory ends in 5042?", k=3)
    assert [set(g) for g in report.question_readings] == [{"cve:cve-2024-5042", "cve:cve-2021-5042"}]


def test_one_character_typo_in_a_five_letter_name_links_it(security_graph: CarClient) -> None:
    assert "product:axios" in entities(security_graph, "Is axois still vulnerable to SSRF?")
    # ... and the retrieval says where the question writes it, for the verdict's quote rules
    report = security_graph.retrieve_report("Is axois still vulnerable to SSRF?", k=3)
    assert dict(report.question_spellings) == {"product:axios": ("axois",)}
    assert security_graph.retrieve_report("Is axios still vulnerable?", k=3).question_spellings == ()


def test_one_character_deletion_in_a_four_letter_name_links_it(security_graph: CarClient) -> None:
    # the question word has three letters: too short to be a name of its own, not too short
    # to be a typo of one
    assert "product:hapi" in entities(security_graph, "Is hpi still crashed by cookie headers?")


def test_short_tickers_link_only_as_written(car: CarClient) -> None:
    def event(doc_id: str, employee: str, ticker: str, kind: str, day: int, text: str) -> dict:
        return {"id": doc_id, "kind": kind, "domain": "compliance", "published": f"2024-01-{day:02d}",
                "text": text, "scope": {"employee": employee, "ticker": ticker}}

    car.ingest(records(
        event("E1", "EMP060-Evans", "GS", "pre_clearance_approved", 3, "Pre-clearance approved for the trade."),
        event("E2", "EMP060-Evans", "C", "pre_clearance_approved", 4, "Pre-clearance approved for the trade."),
        event("E3", "EMP017-Chen", "GS", "pre_clearance_approved", 5, "Pre-clearance approved for the trade."),
    ), rules=[])
    linked = entities(car, "Can EMP060-Evans still trade GS?")
    assert {"ticker:gs", "employee:emp060-evans"} <= linked
    assert "ticker:c" not in linked
    report = car.retrieve_report("Can EMP060-Evans still trade GS?", k=3)
    assert report.results[0].doc_id == "E1"  # the only document holding both named entities
    assert "ticker:c" in entities(car, "A blackout hit C yesterday; can EMP060-Evans trade C?")
    assert "ticker:gs" not in entities(car, "What are the gs limits?")  # lowercase is a word


def test_the_document_holding_both_named_entities_outranks_better_worded_ones_holding_one(
    car: CarClient,
) -> None:
    # Rosa Hayes's trade confirmations repeat the question's words; her approval for PM holds
    # both named entities but shares few words: it must still be the anchor.
    def event(doc_id: str, ticker: str, kind: str, day: int, text: str) -> dict:
        return {"id": doc_id, "kind": kind, "domain": "compliance", "published": f"2024-02-{day:02d}",
                "text": text, "scope": {"employee": "Rosa Hayes", "ticker": ticker}}

    car.ingest(records(
        event("T1", "AXP", "trade_executed", 3, "Rosa Hayes is allowed to trade: she sold 300 AXP, still allowed."),
        event("T2", "LH", "trade_executed", 4, "Rosa Hayes still trades: allowed trade of 750 LH executed."),
        event("T3", "KO", "trade_executed", 5, "Trade allowed and executed for Rosa Hayes: 100 KO."),
        event("P1", "PM", "pre_clearance_approved", 6,
              "Request PCR-2024-55252 to buy 250 shares of Philip Morris International approved."),
    ), rules=[])
    report = car.retrieve_report("Is Rosa Hayes still allowed to trade PM?", k=3)
    assert {"employee:rosa hayes", "ticker:pm"} <= set(report.question_entities)
    assert report.anchors[0] == "P1"


def test_a_domain_declared_in_yaml_alone_links_its_identifiers_and_names(
    db, embedder, tmp_path: Path
) -> None:
    rules_file = tmp_path / "tickets.yaml"
    rules_file.write_text(
        "domain: tickets\n"
        "identifiers:\n"
        "  - {type: ticket, pattern: 'TCK-\\d{4,}', case_insensitive: true, partial: true}\n"
        "names:\n"
        "  - {type: team, qualifiers: [squad]}\n"
        "rules:\n"
        "  - {name: fix_closes_ticket, newer_kind: fix, older_kind: ticket, scope: team, order: later}\n",
        encoding="utf-8",
    )
    domain, rules = load_domain_file(rules_file)
    assert domain is not None and [r.name for r in rules] == ["fix_closes_ticket"]
    docs = records(
        {"id": "T-1", "kind": "ticket", "domain": "tickets", "published": "2024-02-01",
         "text": "Checkout page times out under load.", "scope": {"team": "Payments Squad"},
         "attributes": {"ref": "TCK-20931"}},
        {"id": "T-2", "kind": "ticket", "domain": "tickets", "published": "2024-02-02",
         "text": "Search results are stale after reindexing.", "scope": {"team": "Discovery"},
         "attributes": {"ref": "TCK-20932"}},
        {"id": "F-1", "kind": "fix", "domain": "tickets", "published": "2024-02-09",
         "text": "Raised the pool size and added a circuit breaker.", "scope": {"team": "Payments Squad"}},
    )
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as car:
        car.ingest(docs, rules, domain=domain)
    # a new client (a new process would be the same): the domain comes back from the graph
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as fresh:
        report = fresh.retrieve_report("Is tck-20931 still open?", k=2)
        assert "ticket:tck-20931" in report.question_entities
        assert report.results[0].doc_id == "F-1" and report.results[0].chain[0].from_id == "T-1"
        assert "ticket:tck-20931" in fresh.retrieve_report("what happened to 20931", k=2).question_entities
        # the name type: a one-edit typo, the qualifier word not needed
        assert "team:payments squad" in fresh.retrieve_report(
            "Is the Paymnets checkout timeout fixed?", k=2).question_entities


def test_a_misspelt_brand_from_a_name_attribute_links_its_approval_and_reaches_the_withdrawal(
    db, embedder, tmp_path: Path
) -> None:
    # The brand is no scope entity (the withdrawal names only the molecule) and the English
    # analyzer stems "Nizoral" in the text out of reach of a fuzzy word match: only the declared
    # name attribute makes "Nizaoral" (one transposed letter) find the approval.
    domain, rules = catalog_domain(tmp_path)
    before = replace(domain, name_attributes={})
    docs = records(
        {"id": "A-1", "kind": "approval", "domain": "catalog", "published": "1981-06-01",
         "text": "Nizoral (ketoconazole) was approved as an oral antifungal.",
         "scope": {"molecule": "ketoconazole"}, "attributes": {"sold_as": "Nizoral"}},
        {"id": "A-2", "kind": "approval", "domain": "catalog", "published": "1996-05-01",
         "text": "Lamisil (terbinafine) was approved as an oral antifungal.",
         "scope": {"molecule": "terbinafine"}, "attributes": {"sold_as": "Lamisil"}},
        {"id": "W-1", "kind": "withdrawal", "domain": "catalog", "published": "2013-07-26",
         "text": "Oral tablets of this antifungal were taken off the market for liver injury.",
         "scope": {"molecule": "ketoconazole"}},
    )
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as car:
        car.ingest(docs, rules, domain=before)
        assert "brand:nizoral" not in car.retrieve_report("Is Nizaoral still available?", k=2).question_entities
        # the same records under a domain that now declares the attribute: written again, linked
        assert car.ingest(docs, rules, domain=domain).unchanged == 0
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as fresh:
        report = fresh.retrieve_report("Is Nizaoral still available?", k=2)
        assert "brand:nizoral" in report.question_entities
        assert report.results[0].doc_id == "W-1" and report.results[0].chain[0].from_id == "A-1"


def test_a_typo_with_two_readings_links_both_and_the_question_decides(db, embedder, tmp_path: Path) -> None:
    # "Tovan" is one edit from the brand Povan (a letter replaced) and from Trovan (one deleted):
    # neither reading is certain, so both link at half weight and both frontiers come back --
    # Povan's approval, still in force, and the withdrawal that voids Trovan's.
    domain, rules = catalog_domain(tmp_path)

    def approval(doc_id: str, brand: str, molecule: str, year: int) -> dict:
        return {"id": doc_id, "kind": "approval", "domain": "catalog", "published": f"{year}-01-01",
                "text": f"{brand} ({molecule}) was approved in {year} as a new molecular entity.",
                "scope": {"molecule": molecule}, "attributes": {"sold_as": brand}}

    docs = records(
        approval("A-POVAN", "Povan", "pyrvinium pamoate", 1959),
        approval("A-TROVAN", "Trovan", "alatrofloxacin mesylate", 1997),
        approval("A-TOLANATE", "Tolanate", "inositol hexanitrate", 1951),
        approval("A-TOVIAZ", "Toviaz", "fesoterodine fumarate", 2008),
        approval("A-LAMISIL", "Lamisil", "terbinafine", 1996),
        {"id": "W-TROVAN", "kind": "withdrawal", "domain": "catalog", "published": "2001-06-01",
         "text": "All drug products containing alatrofloxacin mesylate were withdrawn from the US market.",
         "scope": {"molecule": "alatrofloxacin mesylate"}},
    )
    with CarClient(db, embedder=embedder, extractor=EntityExtractor(use_statistical=False)) as car:
        car.ingest(docs, rules, domain=domain)
        report = car.retrieve_report("Can I still buy Tovan in the US?", k=3)
        verdict = car.answer("Can I still buy Tovan in the US?", k=3)
    assert {"brand:povan", "brand:trovan"} <= set(report.question_entities)
    # the two are readings of one word the question writes: one mention, so one verdict whose
    # candidates they are -- not two subjects, one of them "in force"
    assert [set(g) for g in report.question_readings] == [{"brand:povan", "brand:trovan"}]
    assert verdict.kind is VerdictKind.AMBIGUOUS
    assert {c.subject_id for c in verdict.candidates} >= {"A-POVAN", "A-TROVAN"}
    top = [r.doc_id for r in report.results]
    assert "W-TROVAN" in top and "A-POVAN" in top
    withdrawal = next(r for r in report.results if r.doc_id == "W-TROVAN")
    assert withdrawal.chain[0].from_id == "A-TROVAN"


def test_every_fulltext_hit_adds_lexical_score_when_the_index_runs_out_of_hits(car: CarClient) -> None:
    # Three documents hold the rare word, fewer than the candidates taken per source: every other
    # document scores 0 lexically, so even the weakest of the three must gain from the match
    # (min-max over the hits alone would rank the last hit as no match at all).
    car.ingest(records(*CORPUS,
        advisory("ADV-6", "CVE-2024-33333", "zorblat", "Zorblat zorblat zorblat parser overflow in zorblat."),
        advisory("ADV-7", "CVE-2024-44444", "zorblat", "The zorblat parser mishandles long headers."),
        advisory("ADV-8", "CVE-2024-55555", "qux", "A plugin for zorblat leaks memory on reload."),
    ), rules=[])
    retriever = car.retriever
    params = retriever._common("zorblat", 5, None, None) | {"entities": []}
    with_words = retriever._anchor_parameters(params)
    fused = {r["doc_id"]: r["score"] for r in car.store.read("anchors", **with_words)}
    dense_only = {r["doc_id"]: r["score"] for r in car.store.read("anchors", **with_words | {"fulltext": ""})}
    lexical = {doc: fused[doc] - dense_only[doc] for doc in fused}
    assert {doc for doc, gain in lexical.items() if gain > 1e-9} == {"ADV-6", "ADV-7", "ADV-8"}
    assert max(lexical.values()) == pytest.approx(1.0)


def test_a_document_writing_the_questions_words_side_by_side_gains_over_one_holding_them_apart(
        car: CarClient) -> None:
    # LABEL-WORDS holds each word more often, in a shorter text: on single words it wins
    car.ingest(records(*CORPUS,
        advisory("LABEL-PHRASE", "CVE-2024-66666", "gelco", "An injection for adult men with "
                 "testosterone deficiency, given every two weeks at a hospital outpatient clinic."),
        advisory("LABEL-WORDS", "CVE-2024-77777", "andrix", "Testosterone gel. Raises testosterone. "
                 "Treats deficiency."),
    ), rules=[])
    question = "Prescribed for testosterone deficiency?"

    def lexical_gain(pairs: bool) -> dict[str, float]:
        settings = RetrievalSettings(linking=LinkingSettings(term_pairs=pairs))
        retriever = Retriever(car.store, car.embedder, car.extractor, settings)
        params = retriever._common(question, 5, None, None) | {"entities": []}
        with_words = retriever._anchor_parameters(params)
        fused = {r["doc_id"]: r["score"] for r in car.store.read("anchors", **with_words)}
        dense = {r["doc_id"]: r["score"] for r in car.store.read("anchors", **with_words | {"fulltext": ""})}
        return {doc: fused[doc] - dense[doc] for doc in ("LABEL-PHRASE", "LABEL-WORDS")}

    apart = lexical_gain(pairs=False)
    assert apart["LABEL-WORDS"] > apart["LABEL-PHRASE"]
    together = lexical_gain(pairs=True)
    assert together["LABEL-PHRASE"] > together["LABEL-WORDS"]


def linkers(car: CarClient) -> list[Callable[[str], set[str]]]:
    """The entities ("type:key") a question links, asked of the graph per question and through
    the name cache: both must link the same."""
    found = []
    for cache_names in (False, True):
        retriever = Retriever(car.store, car.embedder, car.extractor,
                              RetrievalSettings(cache_names=cache_names))
        if cache_names:
            retriever.load_names()

        def linked(question: str, retriever: Retriever = retriever) -> set[str]:
            return {f"{e['type']}:{e['key']}" for e in retriever.link_entities(question)}

        found.append(linked)
    return found


def test_names_made_of_words_the_corpus_uses_as_ordinary_words_do_not_link_on_them_alone(
        car: CarClient) -> None:
    # "memory" and "RSA" are ordinary words of these advisories (four documents of other
    # products each), while vm-memory and rsa scope one advisory each
    car.ingest(records(
        advisory("VM-1", "CVE-2025-10001", "vm-memory", "Out-of-bounds access in guest address translation."),
        advisory("RSA-1", "CVE-2025-10002", "rsa", "Timing side channel in PKCS#1 v1.5 padding checks."),
        advisory("DJ-1", "CVE-2025-10003", "django", "Crafted headers exhaust memory in the Django test server."),
        advisory("ZX-1", "CVE-2025-10004", "zorblax", "Path traversal in the archive extractor."),
        advisory("D-1", "CVE-2025-10005", "D", "Out-of-bounds read in the order book parser."),
        advisory("ZN-1", "CVE-2025-10006", "zip_next", "The crate has been renamed."),
        *[advisory(f"OTHER-{i}", f"CVE-2025-2000{i}", f"lib{i}",
                   f"Uncontrolled memory allocation when verifying RSA signatures, variant {i}; "
                   f"also reachable through Zorblax under plan D; the next zip archive "
                   f"fails too.") for i in range(4)],
    ), rules=[])
    for linked in linkers(car):
        assert "product:vm-memory" not in linked("Uncontrolled Memory allocation in the parser")
        assert "product:rsa" not in linked("Is the RSA decryption API still vulnerable?")
        # the whole name written as the corpus spells it, and names the corpus uses only as names
        assert "product:vm-memory" in linked("Is vm-memory still affected by the translation bug?")
        assert "product:django" in linked("Does Django still exhaust memory on crafted headers?")
        # a rare word other documents repeat is still its name, not an ordinary English word
        assert "product:zorblax" in linked("Is Zorblax still open to path traversal?")
        # "D" is an ordinary word of four other advisories too, but a short name written exactly
        # as the corpus spells it is that name ("RSA" above is not how it spells rsa)
        assert "product:d" in linked("Is D still affected by the order book bug?")
        # a crate named by one index token of two ordinary words links when written whole
        # (the index cannot find it by "zip" or "next"), and not on those words apart
        assert "product:zip_next" in linked("Has the crate zip_next been renamed?")
        assert "product:zip_next" not in linked("Is the next zip archive renamed?")


def test_a_word_an_identifier_scheme_is_called_by_links_no_name_made_of_it_alone(car: CarClient) -> None:
    # the crate cve-rs: "rs" is too short to count, so its one significant word is "cve", which
    # every question about "the CVE" writes; the security domain declares it a scheme word
    car.ingest(records(
        advisory("CR-1", "CVE-2025-30001", "cve-rs", "Memory vulnerabilities in safe code."),
        advisory("MA-1", "CVE-2025-30002", "marshal", "Unsafe use of the marshal module."),
    ), rules=[])
    for linked in linkers(car):
        assert "product:cve-rs" not in linked("Was the CVE about the marshal module resolved?")
        assert "product:cve-rs" not in linked("Are there CVEs for this?")
        # the name written whole is the name
        assert "product:cve-rs" in linked("Is cve-rs still unmaintained?")
        assert "product:marshal" in linked("Was the CVE about the marshal module resolved?")


def test_a_longer_relative_of_a_name_the_question_spells_out_links_only_when_its_own_words_are_written(
        car: CarClient) -> None:
    # "fs" and "v2" are too short to count: tokio-fs and the module's /v2 path have the same
    # significant words as tokio and the module, which the questions spell out
    module = "github.com/example/server"
    car.ingest(records(
        advisory("TK-1", "CVE-2025-40001", "tokio", "A data race in the runtime."),
        advisory("TF-1", "CVE-2025-40002", "tokio-fs", "The crate is unmaintained."),
        advisory("EX-1", "CVE-2025-40003", module, "Path traversal in the static handler."),
        advisory("EX-2", "CVE-2025-40004", f"{module}/v2", "Path traversal in the static handler."),
    ), rules=[])
    for linked in linkers(car):
        assert linked("Was it part of the Tokio 0.1 ecosystem, superseded since?") == {"product:tokio"}
        assert linked("Is tokio-fs still unmaintained?") == {"product:tokio-fs"}
        assert "product:tokio-fs" in linked("Is tokio fs still unmaintained?")
        assert linked(f"Is the path traversal in {module} fixed?") == {f"product:{module}"}
        assert f"product:{module}/v2" in linked(f"Is the path traversal in {module}/v2 fixed?")


def test_an_acronym_links_the_documents_whose_titles_define_it_not_those_using_it(car: CarClient) -> None:
    def memo(doc_id: str, title: str, text: str, year: int, supersedes: tuple[str, ...] = ()) -> dict:
        return {"id": doc_id, "kind": "memo", "domain": "standards", "published": f"{year}-06-01",
                "title": title, "text": text, "supersedes": list(supersedes)}

    lure = ("PPP extensions keep PPP peers up-to-date and current; the PPP specification is "
            "unchanged and not obsoleted. PPP PPP PPP.")
    car.ingest(records(
        memo("PPP-1", "The Point-to-Point Protocol (PPP)", "This memo specifies a framing method.", 1992),
        memo("PPP-2", "The Point-to-Point Protocol (PPP)", "This memo specifies a framing method.", 1994,
             ("PPP-1",)),
        memo("LCP", "PPP LCP Extensions", lure, 1995),
        memo("ETH", "PPP over Ethernet", lure, 1996),
        memo("TLS-10", "The Transport Layer Security (TLS) Protocol Version 1.0", "Version 1.0.", 1999),
        memo("TLS-12", "The Transport Layer Security (TLS) Protocol Version 1.2", "Version 1.2.", 2008),
        memo("RID-1", "Real-time Inter-network Defense (RID)", "Incident data exchange.", 2010),
        memo("NOTE", "Operational notes", "Getting rid of stale state; rid rid rid.", 2011),
    ), rules=[])
    for cache_names in (False, True):
        retriever = Retriever(car.store, car.embedder, car.extractor,
                              RetrievalSettings(cache_names=cache_names))
        if cache_names:
            retriever.load_names()
        linked = retriever.linker.link("Is the PPP specification still current?")
        (ppp,) = [e for e in linked if e.how == "defined"]
        assert (ppp.key, ppp.documents) == ("ppp", ("PPP-1", "PPP-2"))
        (tls,) = [e for e in retriever.linker.link("Has TLS 1.0 been obsoleted?") if e.how == "defined"]
        assert (tls.key, tls.documents) == ("tls 1.0", ("TLS-10",))
        assert not [e for e in retriever.linker.link("Is it worth getting rid of it?") if e.how == "defined"]
    report = car.retrieve_report("Is the PPP specification still current?", k=3)
    assert report.results[0].doc_id == "PPP-2"  # the defining title's current edition, not a sibling
    assert car.retrieve_report("Is the RID specification current?", k=3).results[0].doc_id == "RID-1"


def decision(doc_id: str, case: str, year: int, **extra) -> dict:
    return {"id": doc_id, "kind": "decision", "domain": "law", "published": f"{year}-01-01",
            "title": case, "text": f"{case}, decided {year}.", "scope": {"case": case}, **extra}


def test_a_case_named_only_inside_a_longer_case_name_is_not_linked(car: CarClient) -> None:
    # "In re Moore" has one significant word; the question's "Moore" is part of another case's
    # name, so the verdict is about that one case, not "multiple"
    car.ingest(records(
        decision("209-us-490", "In re Moore", 1908),
        decision("260-us-653", "Lee v. Chesapeake & Ohio Railway Co.", 1923, supersedes=["209-us-490"]),
        decision("312-us-630", "Moore v. Illinois Central Railroad Co.", 1941),
        decision("406-us-320", "Andrews v. Louisville & Nashville Railroad Co.", 1972,
                 supersedes=["312-us-630"]),
    ), rules=[])
    question = "Can I still rely on Moore v. Illinois Central Railroad Co.?"
    assert entities(car, question) == {"case:moore v. illinois central railroad co."}
    verdict = car.answer(question)
    assert verdict.decisive and verdict.subject_id == "312-us-630", verdict.to_json()
    assert [c.doc_id for c in verdict.controlling] == ["406-us-320"]
    # written whole, or alone, it is still a name the question gives
    assert entities(car, "Are In re Moore and Moore v. Illinois Central Railroad Co. good law?") == {
        "case:in re moore", "case:moore v. illinois central railroad co."}
    assert entities(car, "Is Moore still good law?") == {"case:in re moore"}


def test_a_question_writing_out_two_identifiers_gets_a_verdict_for_each(security_graph: CarClient) -> None:
    # two CVEs of one product: the words "cve" they share make them no single mention
    verdict = security_graph.answer("Are CVE-2025-62718 and CVE-2025-62717 fixed yet?")
    assert verdict.kind is VerdictKind.MULTIPLE, verdict.to_json()
    by_subject = {s.subject_id: s for s in verdict.subjects}
    assert set(by_subject) == {"ADV-1", "ADV-2"}
    assert by_subject["ADV-1"].kind is VerdictKind.SUPERSEDED
    assert [c.doc_id for c in by_subject["ADV-1"].controlling] == ["REL-1"]
    assert by_subject["ADV-2"].kind is VerdictKind.IN_FORCE
    # one of them written out: one subject
    one = security_graph.answer("Is CVE-2025-62718 fixed yet?")
    assert one.decisive and one.subject_id == "ADV-1", one.to_json()


def test_a_case_name_links_only_with_its_words_in_its_order(car: CarClient) -> None:
    # "Brown v. United States" and "United States v. Brown" are two cases; the question names the
    # one it writes, and the other's better fit on the same words does not outweigh that name
    car.ingest(records(
        decision("359-us-41", "Brown v. United States", 1959),
        decision("382-us-162", "Harris v. United States", 1965, supersedes=["359-us-41"]),
        decision("381-us-437", "United States v. Brown", 1965),
    ), rules=[])
    question = "Would a court today still follow Brown v. United States?"
    assert entities(car, question) == {"case:brown v. united states"}
    verdict = car.answer(question)
    assert verdict.decisive and verdict.subject_id == "359-us-41", verdict.to_json()
    assert [c.doc_id for c in verdict.controlling] == ["382-us-162"]
    assert entities(car, "Is United States v. Brown still good law?") == {"case:united states v. brown"}
