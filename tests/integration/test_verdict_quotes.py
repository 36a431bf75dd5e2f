"""A question that quotes a document singles it out only when the quote is that document's own:
a passage many documents of its kind and scope hold (a project's boilerplate title) names none of
them, against a real Neo4j (quote_sharers.cypher and ``CarClient.answer``)."""

from __future__ import annotations

import pytest

from car_graph.client import CarClient
from car_graph.quoting import MAX_QUOTE_SHARERS
from car_graph.records import parse_record

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

BOILERPLATE = "TensorFlow is an end-to-end open source platform for machine learning"
FLAWS = ["a heap overflow in the ragged tensor kernel", "a null dereference in sparse matmul",
         "a division by zero in the convolution shape check", "an out-of-bounds read in gather",
         "an integer overflow in the reshape op", "a use after free in the session close path",
         "a check failure in the quantize op"]


def advisory(doc_id: str, product: str, title: str, text: str, **extra) -> dict:
    return {"id": doc_id, "kind": "advisory", "domain": "advisories", "published": "2024-03-01",
            "title": title, "text": text, "scope": {"product": product}, **extra}


def test_a_boilerplate_title_many_advisories_share_is_no_quote_of_one_of_them(car: CarClient) -> None:
    assert len(FLAWS) > MAX_QUOTE_SHARERS + 1
    car.ingest([parse_record(r) for r in (
        *[advisory(f"TF-{i}", "tensorflow", BOILERPLATE, f"Affected versions have {flaw}.")
          for i, flaw in enumerate(FLAWS)],
        # the same title in the chain of TF-0 (an advisory re-published over it) and on a release:
        # neither is another reading of the quote
        advisory("TF-0b", "tensorflow", BOILERPLATE, "Re-issued: affected versions have "
                 f"{FLAWS[0]}.", supersedes=["TF-0"]),
        {"id": "TF-REL", "kind": "release", "domain": "advisories", "published": "2024-05-01",
         "title": BOILERPLATE, "text": "Release 2.16.1 with security fixes.",
         "scope": {"product": "tensorflow"}},
        # a title of its own, which one other advisory of the product repeats
        advisory("PT-1", "pytorch", "Remote code execution through torch.load with weights_only",
                 "Loading a crafted checkpoint runs arbitrary code."),
        advisory("PT-2", "pytorch", "Remote code execution through torch.load with weights_only",
                 "The fix for PT-1 was incomplete for legacy archives."),
    )], rules=[])
    # the six other advisories of TF-0's product; not its re-issue (its chain), not the release
    assert car.retriever.quote_sharers("TF-0", BOILERPLATE) == len(FLAWS) - 1
    assert car.retriever.quote_sharers("TF-4", FLAWS[4]) == 0
    # TF-0's flaw is also TF-0b's, but TF-0b is in TF-0's chain: of TF-3, both hold it
    assert car.retriever.quote_sharers("TF-0", FLAWS[0]) == 0
    assert car.retriever.quote_sharers("TF-3", FLAWS[0]) == 2
    # a passage as the document writes it: "torch.load" and "weights_only" are one index token each
    assert car.retriever.quote_sharers(
        "PT-1", "Remote code execution through torch.load with weights_only") == 1

    # through CarClient.answer: a question quoting a sentence only one of them holds singles
    # that one out (its sharers are counted, and there are none)
    own = car.answer(f"Is the tensorflow flaw where affected versions have {FLAWS[4]} fixed?")
    assert own.decisive and own.subject_id == "TF-4", own.to_json()


def test_a_question_naming_several_products_also_asks_about_one_it_quotes_without_naming(
        car: CarClient) -> None:
    # the third product is named by no name the question links: only its sentence, quoted
    dask = ("single machine Dask clusters started with LocalCluster would mistakenly configure "
            "their workers to listen on external interfaces")
    car.ingest([parse_record(r) for r in (
        advisory("YAML-1", "pyyaml", "Arbitrary code execution in full_load",
                 "The full_load loader of pyyaml constructs arbitrary Python objects."),
        advisory("LXML-1", "lxml", "Cleaner keeps javascript URLs",
                 "The lxml html cleaner does not remove javascript URLs that use escaping."),
        advisory("DASK-1", "distributed", "Workers listen on external interfaces",
                 f"In affected versions {dask}."),
    )], rules=[])
    question = ("Status check: the full_load loader constructs arbitrary Python objects in pyyaml; "
                "the html cleaner does not remove javascript URLs that use escaping in lxml; "
                f"{dask}. Which are still open?")
    verdict = car.answer(question)
    assert verdict.to_json()["verdict"] == "multiple", verdict.to_json()
    by_subject = {s.subject_id: s for s in verdict.subjects}
    assert set(by_subject) == {"YAML-1", "LXML-1", "DASK-1"}, verdict.to_json()
    assert by_subject["DASK-1"].singled_out_by == "text quoted in the question"
