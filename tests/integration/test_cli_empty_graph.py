"""On an empty graph the CLI says how to load documents instead of answering "nothing"."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from car_graph.cli import main

pytestmark = [pytest.mark.neo4j, pytest.mark.models]


@pytest.fixture
def env(db, neo4j_target) -> dict[str, str]:  # db: wiped, schema applied
    return {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
            "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}


@pytest.mark.parametrize("args", [["ask", "Is X still in force?"], ["retrieve", "Is X still in force?"],
                                  ["explain", "DOC-1"], ["stats"]])
def test_empty_graph_names_the_ingest_and_demo_commands(env, args) -> None:
    run = CliRunner().invoke(main, args, env=env)
    assert run.exit_code == 1
    assert "the graph holds no documents yet" in run.output
    assert "car-graph ingest FILE.jsonl" in run.output and "car-graph demo" in run.output
