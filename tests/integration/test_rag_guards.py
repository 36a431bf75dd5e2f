"""The freshness guard through each framework's own extension point, fed by the team's own
in-memory vector store (the framework's, not car-graph's), against the real Neo4j.

car-graph holds an advisory on lib and the release that supersedes it. The team's store holds
the advisory's text (no car-graph id: matched by text), a chunk the team keyed by car-graph id,
and a page car-graph has never seen. Through each framework's chain the advisory comes out
annotated or replaced by the release, and the unknown page comes out unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from car_graph.client import CarClient

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

QUESTION = "Is lib vulnerable to prototype pollution via merge?"
# the team's corpus: (text, metadata)
TEAM = [  # the first: conftest.py's lib_advisory, word for word
    ("Prototype pollution in lib\n"
     "Prototype pollution in lib lets attackers modify object prototypes via merge.", {"source": "advisories"}),
    ("Prototype pollution via merge: a blog post about lib and how merge works on prototypes.",
     {"source": "blog"}),
]


@pytest.fixture
def graph(lib_graph: CarClient, lib_advisory: dict) -> CarClient:  # ADV-1 superseded by REL-4.17.12
    assert TEAM[0][0] == f"{lib_advisory['title']}\n{lib_advisory['text']}"
    return lib_graph


def test_langchain_compression_retriever_over_an_in_memory_store_replaces_the_stale_document(
    graph: CarClient, embedder: Any
) -> None:
    from langchain_classic.retrievers import ContextualCompressionRetriever
    from langchain_core.documents import BaseDocumentCompressor, Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    from car_graph.adapters.langchain_guard import CarGuardCompressor

    class TeamEmbeddings(Embeddings):  # the team's embedding model, whatever it is
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return embedder.embed_documents(texts)

        def embed_query(self, text: str) -> list[float]:
            return embedder.embed_query(text)

    store = InMemoryVectorStore(TeamEmbeddings())
    store.add_documents([Document(page_content=t, metadata=m) for t, m in TEAM])
    retriever = store.as_retriever(search_kwargs={"k": 2})
    found = retriever.invoke(QUESTION)
    assert {d.metadata["source"] for d in found} == {"advisories", "blog"}

    compressor = CarGuardCompressor(client=graph, policy="replace")
    assert isinstance(compressor, BaseDocumentCompressor)
    # LangChain's own chain: the base retriever's documents, then the compressor
    guarded = ContextualCompressionRetriever(base_compressor=compressor,
                                             base_retriever=retriever).invoke(QUESTION)
    by_source = {d.metadata.get("source"): d for d in guarded}
    assert by_source["blog"] == next(d for d in found if d.metadata["source"] == "blog")
    assert "advisories" not in by_source
    [release] = [d for d in guarded if d.id == "REL-4.17.12"]
    assert release.page_content.startswith("lib 4.17.12 released")
    assert release.metadata["car_graph"]["replaces"] == "ADV-1"
    assert release.metadata["car_graph"]["chain"][0]["rule"] == "release_fixes_advisory"

    annotated = ContextualCompressionRetriever(base_compressor=CarGuardCompressor(client=graph),
                                               base_retriever=retriever).invoke(QUESTION)
    assert next(d for d in annotated if d.metadata.get("source") == "blog") == by_source["blog"]
    [stale] = [d for d in annotated if d.metadata.get("source") == "advisories"]
    assert stale.page_content.startswith("[car-graph: Prototype pollution in lib [ADV-1] is SUPERSEDED")
    assert stale.metadata["car_graph"]["match"] == "exact"


def test_llamaindex_postprocessor_over_an_in_memory_index_replaces_the_stale_node(
    graph: CarClient, embedder: Any
) -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.llms import MockLLM
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.schema import MetadataMode, QueryBundle, TextNode

    from car_graph.adapters.llamaindex_guard import CarGuardPostprocessor

    class TeamEmbedding(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return embedder.embed_query(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return embedder.embed_documents([text])[0]

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

    nodes = [TextNode(text=t, metadata=m) for t, m in TEAM]
    # a chunk the team keyed with car-graph's id: matched by id, whatever its text
    nodes.append(TextNode(text="lib advisory, our summary: pollution through merge.",
                          metadata={"doc_id": "ADV-1", "source": "notes"}))
    index = VectorStoreIndex(nodes, embed_model=TeamEmbedding())
    guard = CarGuardPostprocessor(graph, policy="replace")
    assert isinstance(guard, BaseNodePostprocessor)
    engine = index.as_query_engine(similarity_top_k=3, node_postprocessors=[guard], llm=MockLLM())
    guarded = engine.retrieve(QueryBundle(QUESTION))
    plain = index.as_retriever(similarity_top_k=3).retrieve(QUESTION)
    assert {n.node.metadata["source"] for n in plain} == {"advisories", "blog", "notes"}

    [blog] = [n for n in guarded if n.node.metadata.get("source") == "blog"]
    [original] = [n for n in plain if n.node.metadata["source"] == "blog"]
    assert blog.node.get_content() == original.node.get_content()
    assert blog.node.metadata == original.node.metadata
    # both stale items gave way to one release (the second would repeat it)
    assert [n.node.node_id for n in guarded if n.node.metadata.get("source") != "blog"] == ["REL-4.17.12"]
    shown = next(n for n in guarded if n.node.node_id == "REL-4.17.12").node.get_content(
        metadata_mode=MetadataMode.LLM)
    assert "lib 4.17.12 released" in shown and "release_fixes_advisory" not in shown

    annotate = index.as_query_engine(similarity_top_k=3, llm=MockLLM(),
                                     node_postprocessors=[CarGuardPostprocessor(graph)])
    matches = {n.node.metadata.get("source"): n.node.metadata.get("car_graph", {}).get("match")
               for n in annotate.retrieve(QueryBundle(QUESTION))}
    assert matches == {"advisories": "exact", "notes": "id", "blog": None}


def test_graphrag_wrapper_guards_the_teams_own_retriever_inside_graphrag(graph: CarClient, embedder: Any) -> None:
    import neo4j
    from neo4j_graphrag.generation import GraphRAG
    from neo4j_graphrag.llm import LLMInterface, LLMResponse
    from neo4j_graphrag.retrievers.base import Retriever
    from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem

    from car_graph.adapters.graphrag_guard import GuardedRetriever

    vectors = embedder.embed_documents([t for t, _ in TEAM])

    class TeamRetriever(Retriever):  # the team's own in-memory retriever
        VERIFY_NEO4J_VERSION = False

        def get_search_results(self, query_text: str, top_k: int = 5) -> RawSearchResult:
            q = embedder.embed_query(query_text)
            ranked = sorted(range(len(TEAM)), key=lambda i: -cosine(q, vectors[i]))[:top_k]
            return RawSearchResult(records=[neo4j.Record({"text": TEAM[i][0], "metadata": TEAM[i][1]})
                                            for i in ranked])

        def get_result_formatter(self):
            return lambda r: RetrieverResultItem(content=r["text"], metadata=r["metadata"])

    class RecordingLLM(LLMInterface):
        prompts: list[str] = []

        def invoke(self, input, message_history=None, system_instruction=None):
            self.prompts.append(input)
            return LLMResponse(content="Upgrade to lib 4.17.12.")

        async def ainvoke(self, input, message_history=None, system_instruction=None):
            return self.invoke(input)

    guarded = GuardedRetriever(graph, TeamRetriever(graph.driver), policy="replace")
    assert isinstance(guarded, Retriever)
    result = guarded.search(query_text=QUESTION, top_k=2)
    assert [i.metadata.get("source") for i in result.items].count("blog") == 1
    [blog] = [i for i in result.items if i.metadata.get("source") == "blog"]
    assert (blog.content, blog.metadata) == TEAM[1]
    assert any(i.content.startswith("lib 4.17.12 released") for i in result.items)
    assert result.metadata["guard"]["passed_through"] == 1 and result.metadata["guard"]["match_exact"] == 1

    llm = RecordingLLM(model_name="recording")
    answer = GraphRAG(retriever=guarded, llm=llm).search(query_text=QUESTION,
                                                         retriever_config={"top_k": 2})
    assert answer.answer == "Upgrade to lib 4.17.12."
    assert "lib 4.17.12 released" in llm.prompts[0] and "lets attackers modify" not in llm.prompts[0]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b)) / (math.hypot(*a) * math.hypot(*b))
