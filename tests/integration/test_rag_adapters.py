"""The RAG framework adapters through each framework's own API, against the real Neo4j.

The graph: an advisory on lib (fixed in 4.17.12) and the release 4.17.12 that fixes it, linked
by the release rule. A question about the advisory must come back as the release (the
controlling document) with the chain in metadata; as of a date before the release, the
advisory itself is what controls.
"""

from __future__ import annotations

from datetime import date

import pytest

from car_graph.client import CarClient

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTION = "Is lib still vulnerable to prototype pollution?"
BEFORE_RELEASE = date(2020, 3, 15)


@pytest.fixture
def graph(lib_graph: CarClient) -> CarClient:  # conftest.py: ADV-1 superseded by REL-4.17.12
    return lib_graph


def assert_controlling(metadata: dict, as_of: str | None = None) -> None:
    assert metadata["doc_id"] == "REL-4.17.12"
    assert metadata["status"] == "active"
    assert metadata["anchor_id"] == "ADV-1" and metadata["superseded_anchor"] is True
    [hop] = metadata["chain"]
    assert (hop["from_id"], hop["to_id"], hop["rule"], hop["effective"]) == (
        "ADV-1", "REL-4.17.12", "release_fixes_advisory", "2020-04-01")
    assert "4.17.12 in fixed_versions" in hop["evidence"]
    assert metadata["as_of"] == as_of


def test_langchain_retriever_returns_the_controlling_document(graph: CarClient) -> None:
    from langchain_core.retrievers import BaseRetriever

    from car_graph.adapters.langchain import CarRetriever

    retriever = CarRetriever(client=graph, k=2)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke(QUESTION)
    assert docs[0].id == "REL-4.17.12"
    assert docs[0].page_content.startswith("lib 4.17.12 released\nVersion 4.17.12 is out.")
    assert_controlling(docs[0].metadata)
    assert "ADV-1" not in [d.id for d in docs]  # the superseded anchor is replaced
    before = CarRetriever(client=graph, k=2, as_of=BEFORE_RELEASE).invoke(QUESTION)
    assert before[0].id == "ADV-1" and before[0].metadata["chain"] == []
    assert before[0].metadata["as_of"] == "2020-03-15"


def test_llamaindex_retriever_returns_the_controlling_document(graph: CarClient) -> None:
    from llama_index.core.retrievers import BaseRetriever

    from car_graph.adapters.llamaindex import CarRetriever

    retriever = CarRetriever(graph, k=2)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve(QUESTION)
    assert nodes[0].node.node_id == "REL-4.17.12" and nodes[0].score > 0
    assert_controlling(nodes[0].node.metadata)
    # the chain stays out of what the model is shown; the text and status go in
    shown = nodes[0].node.get_content(metadata_mode="llm")
    assert "status: active" in shown and "release_fixes_advisory" not in shown
    before = CarRetriever(graph, k=2, as_of=BEFORE_RELEASE).retrieve(QUESTION)
    assert before[0].node.node_id == "ADV-1"


def test_graphrag_retriever_returns_the_controlling_document(graph: CarClient) -> None:
    from neo4j_graphrag.retrievers.base import Retriever

    from car_graph.adapters.graphrag import CarRetriever

    retriever = CarRetriever(graph)
    assert isinstance(retriever, Retriever)
    result = retriever.search(query_text=QUESTION, top_k=2)
    assert result.items[0].content.startswith("lib 4.17.12 released")
    assert_controlling(result.items[0].metadata)
    assert result.metadata["__retriever"] == "CarRetriever"
    before = retriever.search(query_text=QUESTION, top_k=2, as_of=BEFORE_RELEASE)
    assert before.items[0].metadata["doc_id"] == "ADV-1"
    assert before.metadata["as_of"] == "2020-03-15"


def test_graphrag_pipeline_answers_from_the_controlling_document(graph: CarClient) -> None:
    """GraphRAG (retrieve, then prompt an LLM) with a recording stand-in for the model."""
    from neo4j_graphrag.generation import GraphRAG
    from neo4j_graphrag.llm import LLMInterface, LLMResponse

    from car_graph.adapters.graphrag import CarRetriever

    class RecordingLLM(LLMInterface):
        prompts: list[str] = []

        def invoke(self, input, message_history=None, system_instruction=None):
            self.prompts.append(input)
            return LLMResponse(content="Fixed in lib 4.17.12.")

        async def ainvoke(self, input, message_history=None, system_instruction=None):
            return self.invoke(input)

    llm = RecordingLLM(model_name="recording")
    answer = GraphRAG(retriever=CarRetriever(graph), llm=llm).search(
        query_text=QUESTION, retriever_config={"top_k": 1}, return_context=True)
    assert answer.answer == "Fixed in lib 4.17.12."
    assert_controlling(answer.retriever_result.items[0].metadata)
    assert "lib 4.17.12 released" in llm.prompts[0] and "Prototype pollution in lib lets" not in llm.prompts[0]
