"""A real Cypher round trip: parameters in, the same values out."""

from __future__ import annotations

from datetime import date

import neo4j


def test_write_then_read_back_with_parameters(db: neo4j.Driver, neo4j_target) -> None:
    values = {"id": "rt-1", "title": "Round trip", "published": date(2024, 5, 17),
              "tags": ["a", "b"], "weight": 0.25}
    db.execute_query(
        "CREATE (d:Document {id: $id, title: $title, published: $published, tags: $tags, weight: $weight})",
        values, database_=neo4j_target.database,
    )
    records = db.execute_query(
        "MATCH (d:Document {id: $id}) RETURN d.title AS title, d.published AS published, "
        "d.tags AS tags, d.weight AS weight",
        {"id": "rt-1"}, database_=neo4j_target.database,
    ).records
    assert len(records) == 1
    row = records[0]
    assert row["title"] == "Round trip"
    assert row["published"].to_native() == date(2024, 5, 17)
    assert row["tags"] == ["a", "b"]
    assert row["weight"] == 0.25


def test_parameters_are_data_not_code(db: neo4j.Driver, neo4j_target) -> None:
    hostile = "x'}) DETACH DELETE d //"
    db.execute_query("CREATE (:Document {id: $id})", {"id": hostile}, database_=neo4j_target.database)
    count = db.execute_query(
        "MATCH (d:Document {id: $id}) RETURN count(d) AS n", {"id": hostile},
        database_=neo4j_target.database,
    ).records[0]["n"]
    assert count == 1
