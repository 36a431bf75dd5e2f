"""LlamaIndex retriever (``pip install 'car-graph[llamaindex]'``).

    retriever = CarRetriever(car, k=5)
    nodes = retriever.retrieve("Is Bowers v. Hardwick still good law?")
    nodes[0].node.metadata["status"], nodes[0].node.metadata["chain"]
"""

from __future__ import annotations

from datetime import date

from car_graph.adapters.common import require, result_metadata, result_text

require("llama_index.core", "llamaindex")

from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode  # noqa: E402

from car_graph.client import CarClient  # noqa: E402


class CarRetriever(BaseRetriever):
    """Controlling documents for a query, with status, chain and as-of in node metadata."""

    def __init__(self, client: CarClient, k: int = 5, as_of: date | None = None,
                 domain: str | None = None) -> None:
        super().__init__()
        self.client, self.k, self.as_of, self.domain = client, k, as_of, domain

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        results = self.client.retrieve(query_bundle.query_str, k=self.k, as_of=self.as_of,
                                       domain=self.domain)
        return [
            NodeWithScore(
                node=TextNode(id_=r.doc_id, text=result_text(r),
                              metadata=result_metadata(r, self.as_of),
                              # the chain is for the application; the model reads the text
                              excluded_llm_metadata_keys=["chain", "score", "anchor_id"]),
                score=r.score,
            )
            for r in results
        ]
