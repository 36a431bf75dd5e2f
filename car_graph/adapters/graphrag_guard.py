"""The freshness guard around any neo4j-graphrag retriever (``pip install 'car-graph[graphrag]'``):
the team keeps its retriever (a VectorRetriever over its own index, an external store's, its
own), and car-graph annotates, replaces or drops the items that are voided.

    guarded = GuardedRetriever(car, team_retriever, policy="replace")
    GraphRAG(retriever=guarded, llm=llm).search(query_text="...", retriever_config={"top_k": 5})

An item car-graph does not hold comes back with its content and metadata unchanged; the others
carry car-graph's findings in ``metadata["car_graph"]``; the result's metadata counts them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from car_graph.adapters.common import require

require("neo4j_graphrag", "graphrag")

import neo4j  # noqa: E402
from neo4j_graphrag.retrievers.base import Retriever  # noqa: E402
from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem  # noqa: E402

from car_graph.client import CarClient  # noqa: E402


class GuardedRetriever(Retriever):
    """``retriever``'s items, guarded (CarClient.guard): ``policy`` keep, annotate, replace or drop."""

    VERIFY_NEO4J_VERSION = False  # it reads no index of its own; the wrapped retriever checks

    def __init__(self, client: CarClient, retriever: Retriever, policy: str = "annotate",
                 as_of: date | None = None, id_key: str = "doc_id") -> None:
        super().__init__(client.driver, client.database)
        self.client, self.retriever = client, retriever
        self.policy, self.as_of, self.id_key = policy, as_of, id_key

    def get_search_results(self, query_text: str, top_k: int = 5, **kwargs: Any) -> RawSearchResult:
        found = self.retriever.search(query_text=query_text, top_k=top_k, **kwargs)
        items = list(found.items)
        report = self.client.guard(
            [{"text": str(i.content), "metadata": i.metadata or {}} for i in items],
            question=query_text, as_of=self.as_of, policy=self.policy, id_key=self.id_key)
        records = []
        for item, passage in report.passages():
            original = items[item.index]
            if item.action == "pass":  # not car-graph's to judge: untouched
                records.append(neo4j.Record({"content": original.content, "metadata": original.metadata}))
            else:
                records.append(neo4j.Record({"content": passage.text, "metadata": dict(passage.metadata)}))
        return RawSearchResult(records=records, metadata={
            **(found.metadata or {}), "guard": report.counts,
            "as_of": self.as_of.isoformat() if self.as_of else None})

    def get_result_formatter(self) -> Callable[[neo4j.Record], RetrieverResultItem]:
        def format_record(record: neo4j.Record) -> RetrieverResultItem:
            return RetrieverResultItem(content=record["content"], metadata=record["metadata"])

        return format_record
