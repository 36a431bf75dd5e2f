"""Retrievers for RAG frameworks, each an optional extra imported only when used:

    from car_graph.adapters.langchain import CarRetriever        # pip install 'car-graph[langchain]'
    from car_graph.adapters.llamaindex import CarRetriever       # pip install 'car-graph[llamaindex]'
    from car_graph.adapters.graphrag import CarRetriever         # pip install 'car-graph[graphrag]'

Each returns the controlling documents CAR retrieves, with the same metadata
(``common.result_metadata``): status, the chain from the anchor (rule, date, evidence per hop)
and the as-of date the answer holds for.

The freshness guards keep a team's own retriever and guard what it returns (CarClient.guard,
docs/guard.md): ``langchain_guard.CarGuardCompressor`` (a BaseDocumentCompressor),
``llamaindex_guard.CarGuardPostprocessor`` (a BaseNodePostprocessor) and
``graphrag_guard.GuardedRetriever`` (wraps any neo4j-graphrag Retriever).
"""
