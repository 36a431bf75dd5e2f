"""Retrievers for RAG frameworks, each an optional extra imported only when used:

    from car_graph.adapters.langchain import CarRetriever        # pip install 'car-graph[langchain]'
    from car_graph.adapters.llamaindex import CarRetriever       # pip install 'car-graph[llamaindex]'
    from car_graph.adapters.graphrag import CarRetriever         # pip install 'car-graph[graphrag]'

Each returns the controlling documents CAR retrieves, with the same metadata
(``common.result_metadata``): status, the chain from the anchor (rule, date, evidence per hop)
and the as-of date the answer holds for.
"""
