"""The smoke version of `make verdicts`: a slice of the security export's dev verdict sets, and
drug questions asked of that graph, through the same code as the full run.

The full run (every dev set and probe of both domains, ~2,700 documents each) is `make
verdicts`; this keeps its code path and the NOT_FOUND policy honest on every commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph import schema
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph.reading import weights
from car_graph_benchmarks import verdicts

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.long(120)]


def test_verdict_sets_run_end_to_end_and_foreign_questions_are_never_decisive(
        car: CarClient, neo4j_target, raw_corpora: Path, tmp_path: Path) -> None:
    def reset() -> None:
        wipe_database(car.driver, neo4j_target.database, neo4j_target.uri)
        schema.apply(car.driver, neo4j_target.database, 384)

    drug = verdicts.committed_questions("drug", "dev")[:12]
    lines: list[dict] = []
    rows = verdicts.run(car, reset, raw_corpora, domains=("security",), per_set=3, probes=False,
                        n_distractors=100, cache=tmp_path, foreign_questions={"drug": drug},
                        dump=lines.append)
    by_name = {r.name: r for r in rows}
    assert {"structured", "paraphrase", "partial_id", "foreign:drug"} <= set(by_name)
    own = [r for r in rows if not r.name.startswith("foreign:")]
    assert sum(r.scores.n for r in own) == len([x for x in lines if not x["foreign"]])
    # the policy: nothing stale, and a question about a drug is never answered about an advisory
    assert all(r.scores.stale == 0 for r in rows), verdicts.table(rows)
    foreign = by_name["foreign:drug"]
    assert foreign.scores.n == len(drug) and foreign.scores.decisive == 0, verdicts.table(rows)
    assert weights().min_share > 0, "the bundled weights set a NOT_FOUND threshold"
    assert foreign.scores.not_found_rate >= 0.75, verdicts.table(rows)
    # a decisive verdict is right (the dev sets' decisive precision is >= 0.99)
    assert all(r.scores.decisive_right == r.scores.decisive for r in own), verdicts.table(rows)
    # every line carries the evidence the fit reads
    assert all({"share", "linked", "decisive", "set"} <= set(x) for x in lines)

    # the fit reads those lines and never loses an answer a fit set gave
    fitted = verdicts.fit(lines)
    assert 0.0 <= fitted.min_share <= 1.0 and not fitted.fit_lost
