"""One supersession semantics on every surface, through the real CLI.

    A <- B        B supersedes A
    B <-> C       B and C supersede each other (a cycle) ...
    C <- D        ... with an exit: D supersedes C

car_graph/semantics.py: D supersedes C, C supersedes B, B supersedes A, and nothing D reaches
leads back to it, so A, B and C are voided and D is the only controlling document. retrieve,
explain and the analyst chain query must all say so (before the fragments, the chain query
also listed B, as unresolved). Without D the cycle has no exit: B and C stay on the frontier,
both unresolved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.records import parse_record
from car_graph.semantics import authority_graph

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

RECORDS = [
    {"id": "A", "title": "Groundwater permits in the Mesa valley",
     "text": "Groundwater permits in the Mesa valley: the original allocation rules for wells."},
    {"id": "B", "title": "Revised permit schedule", "text": "A revised schedule of fees.",
     "supersedes": [{"id": "A"}, {"id": "C"}]},
    {"id": "C", "title": "Competing permit schedule", "text": "A competing schedule of fees.",
     "supersedes": [{"id": "B"}]},
    {"id": "D", "title": "Consolidated permit code", "text": "The consolidated code replacing both schedules.",
     "supersedes": [{"id": "C"}]},
]
QUESTION = "Groundwater permits in the Mesa valley: allocation rules for wells"


@pytest.fixture
def env(db, neo4j_target) -> dict[str, str]:  # db: wiped, schema applied
    return {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
            "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}


def cli(env: dict[str, str], *args: str) -> dict:
    run = CliRunner().invoke(main, [*args, "--json"], env=env)
    assert run.exit_code == 0, run.output
    return json.loads(run.output)


def surfaces(env: dict[str, str]) -> dict[str, set[tuple[str, str]]]:
    """(controlling document, status) as retrieve, explain and the chain query report them."""
    retrieved = cli(env, "retrieve", "-k", "10", QUESTION)
    assert retrieved["anchors"][0] == "A", retrieved["anchors"]  # the question is about A
    explained = cli(env, "explain", "A")
    chain = cli(env, "query", "chain", "--param", "doc_id=A")
    return {
        "retrieve": {(r["doc_id"], r["status"]) for r in retrieved["results"]},
        "explain": {(c["doc_id"], c["status"]) for c in explained["controlling"]},
        "chain": {(r["controlling_id"], r["controlling_status"]) for r in chain["rows"]},
    }


def test_a_cycle_with_an_exit_is_voided_on_every_surface(env, tmp_path: Path) -> None:
    path = tmp_path / "cycle.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    summary = cli(env, "ingest", str(path))
    assert summary["edges_by_rule"] == {"explicit": 4}

    reference = authority_graph([parse_record(r) for r in RECORDS])
    assert reference.controlling({"A"}) == {"D"}
    assert surfaces(env) == {name: {("D", "active")} for name in ("retrieve", "explain", "chain")}
    # B and C are voided by what lies beyond the exit, not left unresolved
    for doc in "BC":
        assert cli(env, "explain", doc)["status"] == "superseded"
    assert cli(env, "query", "withdrawn_unresolved")["rows"] == []

    # without the exit the cycle stays on the frontier, reported unresolved everywhere
    cli(env, "delete", "D")
    without_exit = authority_graph([parse_record(r) for r in RECORDS if r["id"] != "D"])
    assert without_exit.controlling({"A"}) == {"B", "C"}
    assert surfaces(env) == {name: {("B", "unresolved"), ("C", "unresolved")}
                             for name in ("retrieve", "explain", "chain")}
    unresolved = cli(env, "query", "withdrawn_unresolved")["rows"]
    assert {(r["doc_id"], r["reason"], tuple(r["involved"])) for r in unresolved} == {
        ("B", "on a supersession cycle", ("C",)), ("C", "on a supersession cycle", ("B",))}
