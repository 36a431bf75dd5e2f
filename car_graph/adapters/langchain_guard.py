"""The freshness guard as a LangChain document compressor (``pip install 'car-graph[langchain]'``):
keep the team's retriever, and let car-graph annotate, replace or drop what it returned that is
voided. Use it wherever LangChain takes a ``BaseDocumentCompressor``, e.g. (from
``langchain-classic``; ``langchain.retrievers`` before LangChain 1.0)

    from langchain_classic.retrievers import ContextualCompressionRetriever
    guarded = ContextualCompressionRetriever(
        base_compressor=CarGuardCompressor(client=car, policy="replace"),
        base_retriever=vector_store.as_retriever(k=5))

or directly: ``CarGuardCompressor(client=car).compress_documents(docs, query)``. A document car-
graph does not hold comes back as the same object; the others carry car-graph's findings in
``metadata["car_graph"]`` (CarClient.guard).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from car_graph.adapters.common import require

require("langchain_core", "langchain")

from langchain_core.callbacks import Callbacks  # noqa: E402
from langchain_core.documents import BaseDocumentCompressor, Document  # noqa: E402
from pydantic import ConfigDict  # noqa: E402

from car_graph.client import CarClient  # noqa: E402


class CarGuardCompressor(BaseDocumentCompressor):
    """Guards retrieved documents (CarClient.guard): ``policy`` keep, annotate, replace or drop."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: CarClient
    policy: str = "annotate"
    as_of: date | None = None
    id_key: str = "doc_id"

    def compress_documents(self, documents: Sequence[Document], query: str,
                           callbacks: Callbacks | None = None, **kwargs: Any) -> Sequence[Document]:
        documents = list(documents)
        report = self.client.guard(
            [{"text": d.page_content, "metadata": d.metadata} for d in documents], question=query,
            as_of=kwargs.get("as_of", self.as_of), policy=self.policy, id_key=self.id_key)
        out: list[Document] = []
        for item, passage in report.passages():
            if item.action == "pass":
                out.append(documents[item.index])  # not car-graph's to judge: untouched
            elif passage.replaces is not None:
                out.append(Document(page_content=passage.text, metadata=dict(passage.metadata),
                                    id=passage.doc_id))
            else:
                out.append(Document(page_content=passage.text, metadata=dict(passage.metadata),
                                    id=documents[item.index].id))
        return out
