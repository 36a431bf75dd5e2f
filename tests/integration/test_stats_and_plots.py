"""`car-graph stats` and the --plot PNGs on a small hand-made graph.

    scope case:x      A (2000) <- B (2005) <- C (2010)   one chain head, C, of 2 hops
                      D (2001)                           in the scope, on no chain
    scope case:y      E (2002) <-(in part)- F (2012)     head F, 1 hop
    scope case:loop   P <-> Q                            a cycle: its edges decide nothing
    package npm:lib   ADV <- REL by the release rule     head REL, 1 hop

So: chain lengths {1 hop: 2 heads, 2 hops: 1 head}, 7 documents on chains (A B C E F ADV REL);
scope sizes case {2 documents: 2 scopes (y, loop), 4: 1 (x)} and package {2: 1}; edges explicit 5
(A-B, B-C, E-F, P-Q, Q-P), release_fixes_advisory 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.records import parse_record
from car_graph.rules import parse_rules
from car_graph.stats import graph_stats

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def doc(doc_id: str, published: str, scope: dict, text: str, **extra) -> dict:
    return {"id": doc_id, "kind": extra.pop("kind", "decision"), "published": published,
            "title": text, "text": text, "scope": scope, "domain": "test", **extra}


X, Y, LOOP, PKG = {"case": "X"}, {"case": "Y"}, {"case": "Loop"}, {"package": "npm:lib"}
DOCS = [
    doc("A", "2000-01-01", X, "The founding decision on river water rights for farmers."),
    doc("B", "2005-01-01", X, "A later decision on river water.", supersedes=[{"id": "A", "evidence": "B overrules A"}]),
    doc("C", "2010-01-01", X, "The newest decision on river water.", supersedes=[{"id": "B", "evidence": "C overrules B"}]),
    doc("D", "2001-01-01", X, "An unrelated holding on fishing licences."),
    doc("E", "2002-01-01", Y, "A holding on grazing."),
    doc("F", "2012-01-01", Y, "Partly revisits grazing.",
        supersedes=[{"id": "E", "evidence": "F overrules E in part", "partial": True}]),
    doc("P", "2004-01-01", LOOP, "One of two.", supersedes=[{"id": "Q", "evidence": "P says so"}]),
    doc("Q", "2004-02-01", LOOP, "The other.", supersedes=[{"id": "P", "evidence": "Q says so"}]),
    doc("ADV", "2019-01-01", PKG, "Prototype pollution in lib.", kind="advisory",
        attributes={"fixed_versions": ["4.17.12"]}),
    doc("REL", "2019-07-01", PKG, "lib 4.17.12 is out.", kind="release", attributes={"version": "4.17.12"}),
]
RULE = {"name": "release_fixes_advisory", "newer_kind": "release", "older_kind": "advisory",
        "scope": "package", "confidence": 0.9,
        "match": {"newer": "version", "older": "fixed_versions", "op": "in"}}


@pytest.fixture
def graph(car: CarClient) -> CarClient:
    summary = car.ingest([parse_record(d) for d in DOCS], parse_rules({"rules": [RULE]}, "test"))
    assert summary.edges_by_rule == {"explicit": 5, "release_fixes_advisory": 1}
    return car


@pytest.fixture
def env(neo4j_target) -> dict[str, str]:
    return {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
            "NEO4J_PASSWORD": neo4j_target.password, "NEO4J_DATABASE": neo4j_target.database}


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG that matplotlib can read back."""
    from matplotlib.image import imread

    assert path.read_bytes()[:8] == PNG_MAGIC
    pixels = imread(path)
    return pixels.shape[1], pixels.shape[0]


def test_stats_count_chains_scopes_and_rules(graph: CarClient) -> None:
    stats = graph_stats(graph.store)
    assert stats.chain_lengths == {1: 2, 2: 1}
    assert stats.documents_in_chains == 7
    assert stats.scope_sizes == {"case": {2: 2, 4: 1}, "package": {2: 1}}
    assert stats.edges_by_rule == {"explicit": 5, "release_fixes_advisory": 1}
    assert (stats.documents, stats.supersedes) == (10, 6)


def test_cli_stats_prints_json_and_draws_a_png(graph: CarClient, env, tmp_path: Path) -> None:
    runner = CliRunner()
    run = runner.invoke(main, ["stats", "--json"], env=env)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["chain_lengths"] == {"1": 2, "2": 1} and data["chains"] == 3
    assert data["scope_sizes"] == {"case": {"2": 2, "4": 1}, "package": {"2": 1}}

    plot = tmp_path / "out" / "stats.png"
    run = runner.invoke(main, ["stats", "--plot", str(plot)], env=env)
    assert run.exit_code == 0, run.output
    assert "length 2: 1 chain(s)" in run.output and "release_fixes_advisory: 1" in run.output
    assert png_size(plot) == (1800, 504)  # 15 x 4.2 inches at 120 dpi


def test_cli_eval_plot_draws_tca_at_k_from_one_run(graph: CarClient, env, tmp_path: Path) -> None:
    queries = tmp_path / "queries.jsonl"
    queries.write_text("\n".join(json.dumps(q) for q in [
        {"id": "q1", "question": "Who holds river water rights for farmers?", "gold": ["C"]},
        {"id": "q2", "question": "Is prototype pollution in lib fixed?", "gold": ["REL"]},
    ]) + "\n", encoding="utf-8")
    plot = tmp_path / "tca.png"
    run = CliRunner().invoke(main, ["eval", str(queries), "-k", "3", "--systems", "dense,car",
                                    "--plot", str(plot), "--json"], env=env)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["depth"] == 20 and set(data["tca_at_k"]) == {"dense", "car"}
    for system, curve in data["tca_at_k"].items():
        assert len(curve) == 20
        assert curve[2] == pytest.approx(data["systems"][system]["tca"], abs=1e-4)  # TCA@3
    assert png_size(plot) == (660, 480)  # 5.5 x 4 inches at 120 dpi


def test_cli_browser_serves_the_guide_of_the_question_until_interrupted(
        graph: CarClient, env, monkeypatch) -> None:
    """`car-graph browser --question … --serve-guide`: the verdict's subject becomes the guide's
    document, the printed steps end with the `:guide` line, and Ctrl-C closes the server."""
    import urllib.request

    from car_graph import browser, cli

    served: list[tuple[str, str]] = []  # (url, page) fetched while the command waits, then closed
    servers: list[browser.GuideServer] = []
    real_server = browser.GuideServer

    class Recording(real_server):  # type: ignore[misc, valid-type]
        def close(self) -> None:
            served.append(("closed", ""))
            super().close()

    def make_server(*args, **kwargs):
        servers.append(Recording(*args, **kwargs))
        return servers[-1]

    def fetch_then_ctrl_c() -> None:
        url = servers[-1].url
        with urllib.request.urlopen(url.replace("localhost", "127.0.0.1")) as answer:
            served.append((url, answer.read().decode()))

    monkeypatch.setattr(browser, "GuideServer", make_server)
    monkeypatch.setattr(cli, "_wait_for_ctrl_c", fetch_then_ctrl_c)
    run = CliRunner().invoke(main, ["browser", "--question", "Is prototype pollution in lib fixed?",
                                    "--serve-guide", "--no-labels"], env=env)
    assert run.exit_code == 0, run.output
    (url, page), closed = served
    assert f":guide {url}" in run.output and closed == ("closed", "")
    assert "is about <code>ADV</code>" in page
    assert browser.params_command("ADV") in page.replace("&quot;", '"')
