"""The corpus's names cached per graph version (car_graph.linking.NameIndex): questions link
exactly the entities the per-question look-ups link, and a write by another client -- an
ingest or a delete -- is seen at the next question, never answered from a stale copy."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.retrieval import RetrievalSettings, Retriever

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

SAMPLE = resources.files("car_graph") / "resources" / "sample"


def sample_records(domains: tuple[str, ...] = ("security", "law", "drug")) -> list:
    return [parse_record(json.loads(line)) for name in domains
            for line in (SAMPLE / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def typo(word: str) -> str:
    """Swap two interior letters (one edit for Lucene and for the linker)."""
    return word[:2] + word[3] + word[2] + word[4:] if len(word) >= 5 else word


def canonical(entities: list[dict]) -> list[tuple]:
    return sorted(tuple(sorted(e.items())) for e in entities)


def test_cached_names_link_what_the_lookups_link_on_the_sample_corpus(demo_graph: CarClient) -> None:
    car = demo_graph  # the sample corpus as `car-graph demo` loads it; only read here
    cached = Retriever(car.store, car.embedder, car.extractor)
    assert cached.linker.names is None, "one question alone never reads every name"
    cached.load_names()
    looked_up = Retriever(car.store, car.embedder, car.extractor, RetrievalSettings(cache_names=False))
    names = sorted({e.name for e in cached.linker.names.entities if e.name})
    assert len(names) > 50, "the sample corpus scopes and names many entities"
    questions = [json.loads(line)["question"] for line in (SAMPLE / "questions.jsonl").read_text().splitlines()]
    for name in names:
        questions += [f"Is {name} still affected?", f"What replaced {typo(name)}?",
                      f"Has {name.split()[0]} been withdrawn by {name.upper()[:3]}?"]
    # identifiers, partial identifiers (bare, elided, beside a name) from the documents' ids
    for record in sample_records()[::3]:
        digits = re.findall(r"\d{4,}", record.id)
        scope = next(iter(record.scope.values()), ())
        questions += [f"Is {record.id} still in force?"]
        if digits:
            questions += [f"Which one ends in {digits[-1]}?", f"{record.id[:4]}-...{digits[-1][-3:]} still open?"]
            if scope:
                questions.append(f"Is {scope[0]} still affected by {digits[-1]}?")
    linked_somewhere = 0
    for question in questions:
        expected = canonical(looked_up.link_entities(question))
        assert canonical(cached.link_entities(question)) == expected, question
        linked_somewhere += bool(expected)
    assert linked_somewhere > len(names), "most generated questions link something"


def advisory(doc_id: str, product: str) -> dict:
    return {"id": doc_id, "kind": "advisory", "domain": "advisories", "published": "2025-01-10",
            "title": f"Crash in {product}", "text": f"Crafted headers crash {product} servers.",
            "scope": {"product": product}}


def test_another_clients_ingest_and_delete_reach_a_long_lived_client_at_its_next_question(
    car: CarClient, db, embedder, extractor,
) -> None:
    car.ingest([parse_record(advisory("ADV-1", "lodash"))], rules=[])
    reader = CarClient(db, embedder=embedder, extractor=extractor)  # e.g. an MCP server
    question = "Does the header crash still affect quokkajs?"
    assert "product:quokkajs" not in reader.retrieve_report(question).question_entities
    assert "product:lodash" in reader.retrieve_report("Is lodash still crashed?").question_entities
    names = reader.retriever.linker.names
    assert names is not None and {e.key for e in names.entities} == {"lodash"}  # cached from here on
    before = reader.retriever.version

    car.ingest([parse_record(advisory("ADV-2", "quokkajs"))], rules=[])  # another writer
    # the cached names do not know quokkajs; car's snapshot carries the new version, so the
    # question is analysed again against the graph as it is
    report = reader.retrieve_report(question)
    assert "product:quokkajs" in report.question_entities
    assert report.ids[0] == "ADV-2"
    assert reader.retriever.version != before
    again = reader.retrieve_report("Is quokkajs still crashed by headers?")
    assert "product:quokkajs" in again.question_entities
    names = reader.retriever.linker.names
    assert names is not None and {e.key for e in names.entities} == {"lodash", "quokkajs"}

    car.delete(["ADV-2"])
    assert "product:quokkajs" not in reader.retrieve_report(question).question_entities


def test_cached_names_are_not_read_inside_an_identifier(car: CarClient) -> None:
    # a product named like an identifier's prefix ("cve-rs") is not what "CVE-..." names: the
    # cached-name path must blank the identifier before reading names, as the look-up path does
    car.ingest(sample_records(("security",)))
    car.ingest([parse_record(advisory("ADV-CVE-RS", "cve-rs"))], rules=[])
    cached = Retriever(car.store, car.embedder, car.extractor)
    cached.load_names()
    looked_up = Retriever(car.store, car.embedder, car.extractor, RetrievalSettings(cache_names=False))
    question = "Has CVE-2023-24540 been fixed in Go?"
    linked = cached.link_entities(question)
    assert canonical(linked) == canonical(looked_up.link_entities(question))
    keys = {f"{e['type']}:{e['key']}" for e in linked}
    assert "product:cve-rs" not in keys
    assert any(k.endswith("cve-2023-24540") for k in keys), keys
    # named on its own, the crate still links
    assert any(e["key"] == "cve-rs" for e in cached.link_entities("Is cve-rs still unsound?"))
