"""neo4j-graphrag retriever (``pip install 'car-graph[graphrag]'``), usable wherever the
library takes a ``Retriever`` (e.g. ``neo4j_graphrag.generation.GraphRAG``).

    retriever = CarRetriever(car)
    result = retriever.search(query_text="Is Bowers v. Hardwick still good law?", top_k=5)
    result.items[0].metadata["status"], result.items[0].metadata["chain"]
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from car_graph.adapters.common import require, result_metadata, result_text

require("neo4j_graphrag", "graphrag")

import neo4j  # noqa: E402
from neo4j_graphrag.retrievers.base import Retriever  # noqa: E402
from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem  # noqa: E402

from car_graph.client import CarClient  # noqa: E402


class CarRetriever(Retriever):
    """CAR as a neo4j-graphrag Retriever: items are the controlling documents."""

    def __init__(self, client: CarClient, as_of: date | None = None, domain: str | None = None) -> None:
        super().__init__(client.driver, client.database)
        self.client, self.as_of, self.domain = client, as_of, domain

    def get_search_results(self, query_text: str, top_k: int = 5,
                           as_of: date | None = None) -> RawSearchResult:
        as_of = as_of or self.as_of
        results = self.client.retrieve(query_text, k=top_k, as_of=as_of, domain=self.domain)
        # Retriever.search formats neo4j Records; each carries one result's text and metadata.
        records = [neo4j.Record({"text": result_text(r), "metadata": result_metadata(r, as_of)})
                   for r in results]
        return RawSearchResult(records=records, metadata={"as_of": as_of.isoformat() if as_of else None})

    def get_result_formatter(self) -> Callable[[neo4j.Record], RetrieverResultItem]:
        def format_record(record: neo4j.Record) -> RetrieverResultItem:
            metadata: dict[str, Any] = record["metadata"]
            return RetrieverResultItem(content=record["text"], metadata=metadata)

        return format_record
