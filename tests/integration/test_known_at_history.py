"""The auditor's question, end to end: "what would car-graph have told us then?"

A hand-made history -- ingest, correct a record, delete a document, change a rule and ingest
again -- through the Python client with the real embedder. At each step the answers of
`retrieve`, `explain` and `ask` are recorded live; after the last step the same calls with
known_at set to each step's recorded time must give exactly what was recorded then. (Scores
are left out of the comparison: lexical scores use today's index statistics -- see
docs/analysts.md; ids, ranks, statuses, chains, evidence and verdicts are compared whole.)
"""

from __future__ import annotations

from typing import Any

import pytest

from car_graph.client import CarClient
from car_graph.errors import CarError
from car_graph.records import parse_record
from car_graph.rules import parse_rules

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


def rules(op: str | None):
    """The release rule: matching versions (``op``), or (None) any later release of the package."""
    rule = {"name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
            "scope": "package", "order": "later"}
    if op:
        rule["match"] = {"newer": "version", "older": "fixed_versions", "op": op}
    return parse_rules({"rules": [rule]}, "test")


DOCS = {
    "ADV-1": {"id": "ADV-1", "kind": "advisory", "published": "2020-03-01",
              "title": "Prototype pollution in lodash",
              "text": "Prototype pollution in lodash lets attackers modify object prototypes via merge.",
              "scope": {"package": "npm:lodash"}, "attributes": {"fixed_versions": ["4.17.12"]}},
    "REL-1": {"id": "REL-1", "kind": "release", "published": "2020-04-01",
              "title": "lodash 4.17.12 released",
              "text": "Version 4.17.12 of lodash is out. Changelog: build tooling, maintenance.",
              "scope": {"package": "npm:lodash"}, "attributes": {"version": "4.17.12"}},
    "ADV-2": {"id": "ADV-2", "kind": "advisory", "published": "2021-01-10",
              "title": "Regular expression denial of service in minimist",
              "text": "A crafted argument makes minimist parse slowly: regular expression denial of service.",
              "scope": {"package": "npm:minimist"}, "attributes": {"fixed_versions": ["1.2.6"]}},
    "REL-2": {"id": "REL-2", "kind": "release", "published": "2021-02-01",
              "title": "minimist 1.2.6 released",
              "text": "minimist 1.2.6 is out with parser fixes.",
              "scope": {"package": "npm:minimist"}, "attributes": {"version": "1.2.6"}},
}
QUESTIONS = ["Is lodash still vulnerable to prototype pollution?",
             "Is the minimist regular expression denial of service fixed?"]


# scores and what is computed from them alone: the fused score of each result and anchor, a
# verdict's lead (the fused-score gap to the next candidate), and how well each anchor fits the
# question's words (its fused score less the entity boosts: lexical, so today's statistics)
SCORES = ("score", "anchor_scores", "lead", "known_at", "text_fit")


def without_scores(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_scores(v) for k, v in value.items() if k not in SCORES}
    if isinstance(value, list | tuple):
        return [without_scores(v) for v in value]
    return value


def answers(car: CarClient, known_at: Any = None) -> dict[str, Any]:
    """Everything a user could have asked: retrieve and ask for each question, explain for
    every document id the history ever held (an error, as its message, is an answer too)."""
    out: dict[str, Any] = {}
    for question in QUESTIONS:
        out["retrieve", question] = without_scores(
            car.retrieve_report(question, k=3, known_at=known_at).to_json())
        out["ask", question] = without_scores(car.answer(question, k=3, known_at=known_at).to_json())
    for doc_id in DOCS:
        try:
            out["explain", doc_id] = without_scores(car.explain(doc_id, known_at=known_at).to_json())
        except CarError as exc:
            out["explain", doc_id] = type(exc).__name__
    return out


def last_run_at(car: CarClient) -> Any:
    # when the latest run's last commit closed: --known-at sees all the run wrote from then on
    # (a run commits per batch, then its rules; its own instant is when it began)
    return car.driver.execute_query("MATCH (c:Commit) RETURN max(c.committed) AS at").records[0]["at"]


def test_known_at_each_step_answers_exactly_as_that_step_did(car: CarClient) -> None:
    def ingest(docs: list[dict], op: str | None) -> None:
        car.ingest([parse_record(d) for d in docs], rules(op))

    steps = [
        ("ingest", lambda: ingest(list(DOCS.values()), "in")),
        # the advisory's fix moves to 4.17.13: the release no longer fixes it
        ("correct a record", lambda: ingest([{**DOCS["ADV-1"], "text": DOCS["ADV-1"]["text"]
                                               + " Fixed in 4.17.13, not 4.17.12.",
                                               "attributes": {"fixed_versions": ["4.17.13"]}}], "in")),
        ("delete a document", lambda: car.delete(["REL-2"])),
        # any later release of the package now supersedes its advisories: lodash's again
        ("change a rule, ingest again", lambda: ingest(
            [d for i, d in DOCS.items() if i not in ("REL-2", "ADV-1")], None)),
    ]
    live: list[tuple[str, Any, dict[str, Any]]] = []
    for name, step in steps:
        step()
        live.append((name, last_run_at(car), answers(car)))

    # the steps changed the answers (else the comparison below would prove little)
    assert len({repr(sorted(a.items(), key=repr)) for _, _, a in live}) == len(steps)
    assert live[0][2]["explain", "ADV-1"]["status"] == "superseded"
    assert live[1][2]["explain", "ADV-1"]["status"] == "unresolved"
    assert live[2][2]["explain", "REL-2"] == "UnknownDocumentError"
    assert live[3][2]["explain", "ADV-1"]["status"] == "superseded"
    times = [at for _, at, _ in live]
    assert times == sorted(set(times))

    for name, at, recorded in live:
        then = answers(car, known_at=at.to_native())
        for key, value in recorded.items():
            assert then[key] == value, (name, key)
    # the current state is the last step's
    assert answers(car) == live[-1][2]
