"""PROFILE the per-batch ingest statements on a graph loaded from a scale corpus.

    python -m car_graph_benchmarks.profile_supersession --instance bench [--batch 256]

Takes one batch of release-line ids (``rel-`` prefix, a 250-version component) and one of
advisory ids (``adv-``) from the running managed instance, and prints wall time, total dbHits and
the plan of each statement the pipeline runs per batch (docs/benchmarks-findings.md).
The statement texts are the catalogue's own; only the PROFILE keyword is prepended. The write
statements run in a transaction that is rolled back.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from typing import Any

from car_graph import cypher

STATEMENTS = ("document_state", "link_explicit", "cycle_candidates", "supersession_component",
              "reset_unresolved")
WRITES = frozenset({"link_explicit", "reset_unresolved"})
ID_QUERY = "id_prefix_sample"  # queries/id_prefix_sample.cypher


def total_hits(node: dict[str, Any]) -> int:
    return int(node.get("dbHits", 0)) + sum(total_hits(c) for c in node.get("children", []))


def plan_lines(node: dict[str, Any], depth: int = 0) -> list[str]:
    details = str(node.get("args", {}).get("Details", ""))[:100].replace("\n", " ")
    lines = [f"{'  ' * depth}{node['operatorType']} rows={node.get('rows')} dbHits={node.get('dbHits')} {details}"]
    for child in node.get("children", []):
        lines += plan_lines(child, depth + 1)
    return lines


def profile(driver: Any, name: str, ids: list[str]) -> tuple[float, Any]:
    text = cypher.statement(name, profile=True)
    # the component walk starts from one document (the pipeline walks each component once)
    params: dict[str, Any] = {"id": ids[0]} if name == "supersession_component" else {"ids": ids}
    with driver.session() as session:
        started = time.perf_counter()
        if name in WRITES:
            with session.begin_transaction() as tx:
                summary = tx.run(text, params).consume()
                tx.rollback()
        else:
            summary = session.run(text, params).consume()
        return time.perf_counter() - started, summary.profile


def main(argv: list[str] | None = None) -> int:
    from neo4j import GraphDatabase

    from car_graph.local_server import LocalNeo4j
    from car_graph.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instance", default="bench")
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    settings = Settings.from_env()
    uri, user, password = LocalNeo4j(settings.home, settings.neo4j_version, args.instance).connection()
    with GraphDatabase.driver(uri, auth=(user, password)) as driver:
        for label, prefix in (("release-line batch", "rel-"), ("advisory batch", "adv-")):
            records, _, _ = driver.execute_query(cypher.statement(ID_QUERY), prefix=prefix, limit=args.batch)
            ids = [r["id"] for r in records]
            for name in STATEMENTS:
                seconds, plan = profile(driver, name, ids)
                print(f"== {label} ({len(ids)} ids): {name}: {seconds * 1000:.0f} ms wall, "
                      f"total dbHits {total_hits(plan)}")
                if name == "supersession_component":
                    print("\n".join(plan_lines(plan)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
