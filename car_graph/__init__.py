"""car-graph: Controlling Authority Retrieval on Neo4j.

Importing the package has no side effects: models load on first use, drivers are created by
the caller or by ``CarClient.from_env()``.
"""

from car_graph.client import CarClient
from car_graph.errors import (
    CarError,
    ConfigError,
    IngestError,
    NotFoundError,
    RulesError,
    SchemaMismatchError,
    ServerError,
    UnknownQueryError,
    UnsafeTargetError,
)
from car_graph.retrieval import RetrievalSettings
from car_graph.settings import Settings
from car_graph.types import Explanation, Hop, Result, Retrieval, Status
from car_graph.verdict import Verdict, VerdictKind

__all__ = [
    "CarClient",
    "CarError",
    "ConfigError",
    "Explanation",
    "Hop",
    "IngestError",
    "NotFoundError",
    "Result",
    "Retrieval",
    "RetrievalSettings",
    "RulesError",
    "SchemaMismatchError",
    "ServerError",
    "Settings",
    "Status",
    "UnknownQueryError",
    "UnsafeTargetError",
    "Verdict",
    "VerdictKind",
]
