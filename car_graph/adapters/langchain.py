"""LangChain retriever (``pip install 'car-graph[langchain]'``).

    retriever = CarRetriever(client=car, k=5)
    docs = retriever.invoke("Is Bowers v. Hardwick still good law?")
    docs[0].metadata["status"], docs[0].metadata["chain"]
"""

from __future__ import annotations

from datetime import date
from typing import Any

from car_graph.adapters.common import require, result_metadata, result_text

require("langchain_core", "langchain")

from langchain_core.callbacks import CallbackManagerForRetrieverRun  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from pydantic import ConfigDict  # noqa: E402

from car_graph.client import CarClient  # noqa: E402


class CarRetriever(BaseRetriever):
    """Controlling documents for a query, with status, chain and as-of in metadata."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: CarClient
    k: int = 5
    as_of: date | None = None
    domain: str | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        as_of = kwargs.get("as_of", self.as_of)
        results = self.client.retrieve(query, k=kwargs.get("k", self.k), as_of=as_of, domain=self.domain)
        return [Document(page_content=result_text(r), metadata=result_metadata(r, as_of), id=r.doc_id)
                for r in results]
