"""graph_schema/ against a real server: idempotent, refuses dimension mismatch, indexes work."""

from __future__ import annotations

import neo4j
import pytest
from neo4j.exceptions import ConstraintError

from car_graph import schema
from car_graph.errors import SchemaMismatchError

DIMS = 384


def _vector(hot: int, dims: int = DIMS) -> list[float]:
    vector = [0.01] * dims
    vector[hot] = 1.0
    return vector


def test_apply_twice_changes_nothing(db: neo4j.Driver, neo4j_target) -> None:
    before = schema.describe(db, neo4j_target.database)
    report = schema.apply(db, neo4j_target.database, DIMS)
    after = schema.describe(db, neo4j_target.database)
    assert after == before
    assert report.created == ()
    assert len(report.applied) == len(schema.statements())
    names = {o.name for o in after}
    assert set(schema.managed_names()) <= names


def test_describe_reports_types_and_options(db: neo4j.Driver, neo4j_target) -> None:
    objects = {(o.kind, o.name): o for o in schema.describe(db, neo4j_target.database)}
    vector = objects[("index", "document_embedding")]
    assert vector.type == "VECTOR"
    assert vector.labels == ("Document",) and vector.properties == ("embedding",)
    assert vector.options["indexConfig"]["vector.dimensions"] == DIMS
    assert vector.options["indexConfig"]["vector.similarity_function"].lower() == "cosine"
    fulltext = objects[("index", "document_fulltext")]
    assert fulltext.type == "FULLTEXT" and fulltext.properties == ("title", "text")
    assert fulltext.options["indexConfig"]["fulltext.analyzer"] == "english"
    entity = objects[("index", "entity_names")]
    assert entity.options["indexConfig"]["fulltext.analyzer"] == "standard-no-stop-words"
    key = objects[("constraint", "entity_type_key")]
    assert key.type == "UNIQUENESS" and key.properties == ("type", "key")


def test_mismatched_dimension_raises_and_keeps_index(db: neo4j.Driver, neo4j_target) -> None:
    before = schema.describe(db, neo4j_target.database)
    with pytest.raises(SchemaMismatchError) as info:
        schema.apply(db, neo4j_target.database, 512)
    assert (info.value.index, info.value.expected, info.value.found) == ("document_embedding", 512, DIMS)
    assert schema.describe(db, neo4j_target.database) == before


def test_unique_document_id(db: neo4j.Driver, neo4j_target) -> None:
    db.execute_query("CREATE (:Document {id: $id})", {"id": "dup"}, database_=neo4j_target.database)
    with pytest.raises(ConstraintError):
        db.execute_query("CREATE (:Document {id: $id})", {"id": "dup"}, database_=neo4j_target.database)


def test_vector_and_fulltext_queries(db: neo4j.Driver, neo4j_target) -> None:
    docs = [
        {"id": "d1", "title": "Data retention regulation", "text": "Records must be kept seven years.",
         "embedding": _vector(1)},
        {"id": "d2", "title": "Retention guidance amended", "text": "This guidance supersedes d1.",
         "embedding": _vector(2)},
        {"id": "d3", "title": "Unrelated memo", "text": "Parking arrangements.", "embedding": _vector(3)},
    ]
    database = neo4j_target.database
    db.execute_query(
        "UNWIND $rows AS row CREATE (d:Document {id: row.id, title: row.title, text: row.text}) "
        "WITH d, row CALL db.create.setNodeVectorProperty(d, 'embedding', row.embedding)",
        {"rows": docs}, database_=database,
    )
    db.execute_query(
        "UNWIND $rows AS row CREATE (:Entity {type: row.type, key: row.key, name: row.name})",
        {"rows": [{"type": "org", "key": "acme", "name": "Acme Corporation"},
                  {"type": "org", "key": "globex", "name": "Globex"}]},
        database_=database,
    )
    db.execute_query("CALL db.awaitIndexes(60)", database_=database)

    nearest = db.execute_query(
        "CALL db.index.vector.queryNodes('document_embedding', 2, $vector) YIELD node, score "
        "RETURN node.id AS id, score",
        {"vector": _vector(2)}, database_=database,
    ).records
    assert nearest[0]["id"] == "d2"
    assert nearest[0]["score"] > nearest[1]["score"]

    lexical = db.execute_query(
        "CALL db.index.fulltext.queryNodes('document_fulltext', $q) YIELD node, score "
        "RETURN node.id AS id ORDER BY score DESC",
        {"q": "retention"}, database_=database,
    ).records
    assert {r["id"] for r in lexical} == {"d1", "d2"}

    stemmed = db.execute_query(
        "CALL db.index.fulltext.queryNodes('document_fulltext', $q) YIELD node "
        "RETURN node.id AS id",
        {"q": "regulations"}, database_=database,  # english analyzer: regulations ~ regulation
    ).records
    assert [r["id"] for r in stemmed] == ["d1"]

    fuzzy = db.execute_query(
        "CALL db.index.fulltext.queryNodes('entity_names', $q) YIELD node "
        "RETURN node.key AS key",
        {"q": "acmr~1"}, database_=database,  # one typo away from "acme"
    ).records
    assert [r["key"] for r in fuzzy] == ["acme"]


def test_reset_drops_only_our_schema_and_data(db: neo4j.Driver, neo4j_target) -> None:
    database = neo4j_target.database
    db.execute_query("CREATE (:Document {id: 'x'})-[:MENTIONS]->(:Entity {type: 't', key: 'k'})",
                     database_=database)
    report = schema.reset(db, database, neo4j_target.uri, allow_remote=True)
    assert report.nodes_deleted == 2
    assert set(report.dropped) == set(schema.managed_names())
    remaining = schema.describe(db, database)
    assert not {o.name for o in remaining} & set(schema.managed_names())
    assert {o.type for o in remaining} <= {"LOOKUP"}  # built-in token indexes stay
    schema.apply(db, database, DIMS)  # leave the usual state behind
