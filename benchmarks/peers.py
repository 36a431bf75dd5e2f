"""The retrievers an engineer would build without car-graph, on car-graph's own graph: neo4j-graphrag's
``HybridRetriever`` (vector + fulltext on the same two indexes car's anchors use), its
``VectorCypherRetriever`` with a retrieval query that walks SUPERSEDES one hop, naively, the way
one would first try it, and -- the fair peer, the one a user would actually build -- its
``HybridCypherRetriever`` whose retrieval query walks every incoming SUPERSEDES chain from each
hit to the documents nothing supersedes (HYBRID_CLOSURE; HYBRID_CLOSURE_AS_OF the same walk
along edges in force on a date). All are called through neo4j-graphrag's own API (``search``),
with the question embeddings car uses.

Settings are neo4j-graphrag's defaults but ``top_k`` (k): the naive ranker (each source's score
divided by its best), ``effective_search_ratio`` 1. The question goes to the fulltext index with
Lucene's special characters escaped word by word (``linking.lucene_escape``): passed raw, a
question mark is a wildcard and a hyphen a NOT, and "CVE-2021-44228" or "law?" either fail to
parse or search something else -- what a user learns on the first day.

Each peer is measured twice, as car is: statement-only (the question's vector computed
beforehand, the same vector car's statement gets) and end to end (question in, embedding
computed in the call, ids out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from car_graph.linking import lucene_escape

VECTOR_INDEX = "document_embedding"
FULLTEXT_INDEX = "document_fulltext"

# One hop, naively: every hit is replaced by the documents that supersede it (if any). Partial
# edges, effective dates, chains longer than one and cycles are what car.cypher adds.
NAIVE_ONE_HOP = (
    "OPTIONAL MATCH (newer:Document)-[:SUPERSEDES]->(node) "
    "RETURN coalesce(newer, node).id AS id, score "
    "ORDER BY score DESC"
)

# The closure a user writes in ten lines: each hit is replaced by the documents at the end of
# every chain of incoming SUPERSEDES (those nothing supersedes), or kept when nothing supersedes
# it. It ignores what car.cypher adds: partial edges, withdrawals, cycles (a cycle has no end
# document, so a hit on one falls back to itself) and scope.
HYBRID_CLOSURE = """\
OPTIONAL MATCH (node)<-[:SUPERSEDES*1..]-(later:Document)
WHERE NOT EXISTS { (later)<-[:SUPERSEDES]-(:Document) }
WITH node, score, collect(DISTINCT later) AS frontier
UNWIND CASE WHEN size(frontier) = 0 THEN [node] ELSE frontier END AS controlling
RETURN controlling.id AS id, score
ORDER BY score DESC, id"""

# The same walk as of a date ($as_of, null: no cut-off): only edges in force then -- effective
# date (or, without one, the newer document's publication) on or before $as_of -- and hits
# published by then.
HYBRID_CLOSURE_AS_OF = """\
WITH node, score WHERE $as_of IS NULL OR node.published IS NULL OR node.published <= $as_of
OPTIONAL MATCH path = (node)<-[:SUPERSEDES*1..]-(later:Document)
WHERE all(s IN relationships(path) WHERE $as_of IS NULL
          OR coalesce(s.effective, startNode(s).published, $as_of) <= $as_of)
  AND NOT EXISTS { MATCH (later)<-[s:SUPERSEDES]-(newer:Document)
                   WHERE $as_of IS NULL OR coalesce(s.effective, newer.published, $as_of) <= $as_of }
WITH node, score, collect(DISTINCT later) AS frontier
UNWIND CASE WHEN size(frontier) = 0 THEN [node] ELSE frontier END AS controlling
RETURN controlling.id AS id, score
ORDER BY score DESC, id"""

PEER_LABELS = {
    "graphrag_hybrid": "neo4j-graphrag HybridRetriever (statement only)",
    "graphrag_hybrid_e2e": "neo4j-graphrag HybridRetriever end to end",
    "graphrag_vector_cypher": "neo4j-graphrag VectorCypherRetriever, SUPERSEDES one hop (statement only)",
    "graphrag_vector_cypher_e2e": "neo4j-graphrag VectorCypherRetriever, one hop, end to end",
    "graphrag_hybrid_closure": "neo4j-graphrag HybridCypherRetriever, SUPERSEDES closure (statement only)",
    "graphrag_hybrid_closure_e2e": "neo4j-graphrag HybridCypherRetriever, closure, end to end",
    "graphrag_hybrid_closure_as_of": "neo4j-graphrag HybridCypherRetriever, closure as of a date (statement only)",
}
# the retrieval query of each peer that has one, as bench.py prints it in docs/benchmarks.md
RETRIEVAL_QUERIES = {
    "graphrag_vector_cypher": NAIVE_ONE_HOP,
    "graphrag_hybrid_closure": HYBRID_CLOSURE,
    "graphrag_hybrid_closure_as_of": HYBRID_CLOSURE_AS_OF,
}


def escaped_question(question: str) -> str:
    """The question as a Lucene query a user would pass: each word escaped, OR-ed (the parser's
    default operator)."""
    return " ".join(lucene_escape(word) for word in question.split())


def _ids(records: Sequence[Any], k: int) -> list[str]:
    out: dict[str, None] = {}
    for item in records:
        doc_id = item.metadata.get("id") if item.metadata else None
        if doc_id is not None:
            out.setdefault(str(doc_id), None)
        if len(out) >= k:
            break
    return list(out)


def peer_systems(driver: Any, embedder: Any, vectors: Mapping[str, list[float]], k: int,
                 database: str | None = None, as_of: Mapping[str, date | None] | None = None,
                 ) -> dict[str, Callable[[str], list[str]]]:
    """name -> question -> ranked document ids, for every peer (PEER_LABELS' names).
    ``vectors``: the question embeddings car's statement-only runs use; ``as_of``: each
    question's date for the as-of closure (absent: no cut-off, the filter's cost alone)."""
    import warnings

    import neo4j
    from neo4j_graphrag.retrievers import HybridCypherRetriever, HybridRetriever, VectorCypherRetriever

    # each search warns that its default 'id' column will go in 2.0; these formatters read the
    # node's own id property, not that column
    warnings.filterwarnings("ignore", message="The default returned 'id' field", category=DeprecationWarning)
    from neo4j_graphrag.types import RetrieverResultItem

    def hybrid_item(record: neo4j.Record) -> RetrieverResultItem:
        node = record.get("node") or {}
        return RetrieverResultItem(content=str(node.get("id")),
                                   metadata={"id": node.get("id"), "score": record.get("score")})

    def cypher_item(record: neo4j.Record) -> RetrieverResultItem:
        return RetrieverResultItem(content=str(record.get("id")),
                                   metadata={"id": record.get("id"), "score": record.get("score")})

    hybrid = HybridRetriever(driver, VECTOR_INDEX, FULLTEXT_INDEX, return_properties=["id"],
                             result_formatter=hybrid_item, neo4j_database=database)
    one_hop = VectorCypherRetriever(driver, VECTOR_INDEX, NAIVE_ONE_HOP,
                                    result_formatter=cypher_item, neo4j_database=database)
    closure = HybridCypherRetriever(driver, VECTOR_INDEX, FULLTEXT_INDEX, HYBRID_CLOSURE,
                                    result_formatter=cypher_item, neo4j_database=database)
    closure_as_of = HybridCypherRetriever(driver, VECTOR_INDEX, FULLTEXT_INDEX, HYBRID_CLOSURE_AS_OF,
                                          result_formatter=cypher_item, neo4j_database=database)
    dates = as_of or {}

    def graphrag_hybrid(question: str) -> list[str]:
        found = hybrid.search(query_text=escaped_question(question), query_vector=vectors[question], top_k=k)
        return _ids(found.items, k)

    def graphrag_hybrid_e2e(question: str) -> list[str]:
        found = hybrid.search(query_text=escaped_question(question),
                              query_vector=embedder.embed_query(question), top_k=k)
        return _ids(found.items, k)

    def graphrag_vector_cypher(question: str) -> list[str]:
        found = one_hop.search(query_vector=vectors[question], top_k=k)
        return _ids(found.items, k)

    def graphrag_vector_cypher_e2e(question: str) -> list[str]:
        found = one_hop.search(query_vector=embedder.embed_query(question), top_k=k)
        return _ids(found.items, k)

    def graphrag_hybrid_closure(question: str) -> list[str]:
        found = closure.search(query_text=escaped_question(question), query_vector=vectors[question],
                               top_k=k)
        return _ids(found.items, k)

    def graphrag_hybrid_closure_e2e(question: str) -> list[str]:
        found = closure.search(query_text=escaped_question(question),
                               query_vector=embedder.embed_query(question), top_k=k)
        return _ids(found.items, k)

    def graphrag_hybrid_closure_as_of(question: str) -> list[str]:
        found = closure_as_of.search(query_text=escaped_question(question),
                                     query_vector=vectors[question], top_k=k,
                                     query_params={"as_of": dates.get(question)})
        return _ids(found.items, k)

    return {"graphrag_hybrid": graphrag_hybrid, "graphrag_hybrid_e2e": graphrag_hybrid_e2e,
            "graphrag_vector_cypher": graphrag_vector_cypher,
            "graphrag_vector_cypher_e2e": graphrag_vector_cypher_e2e,
            "graphrag_hybrid_closure": graphrag_hybrid_closure,
            "graphrag_hybrid_closure_e2e": graphrag_hybrid_closure_e2e,
            "graphrag_hybrid_closure_as_of": graphrag_hybrid_closure_as_of}
