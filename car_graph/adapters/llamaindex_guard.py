"""The freshness guard as a LlamaIndex node postprocessor (``pip install 'car-graph[llamaindex]'``):
keep the team's index and retriever, and let car-graph annotate, replace or drop the nodes that
are voided.

    engine = index.as_query_engine(node_postprocessors=[CarGuardPostprocessor(car, policy="replace")])

A node car-graph does not hold comes back as the same object; the others carry car-graph's
findings in ``metadata["car_graph"]`` (kept out of what the model reads; the warning is in the text).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from car_graph.adapters.common import require

require("llama_index.core", "llamaindex")

from llama_index.core.postprocessor.types import BaseNodePostprocessor  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode  # noqa: E402
from pydantic import ConfigDict  # noqa: E402

from car_graph.client import CarClient  # noqa: E402

HIDDEN = ["car_graph"]  # findings for the application; the model reads the warning in the text


class CarGuardPostprocessor(BaseNodePostprocessor):
    """Guards retrieved nodes (CarClient.guard): ``policy`` keep, annotate, replace or drop."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Any  # a CarClient (pydantic cannot validate it)
    policy: str = "annotate"
    as_of: date | None = None
    id_key: str = "doc_id"

    def __init__(self, client: CarClient, policy: str = "annotate", as_of: date | None = None,
                 id_key: str = "doc_id") -> None:
        # the fields above are this pydantic model's own; the base's typed __init__ does not list them
        super().__init__(client=client, policy=policy, as_of=as_of, id_key=id_key)  # type: ignore[call-arg]

    @classmethod
    def class_name(cls) -> str:
        return "CarGuardPostprocessor"

    def _postprocess_nodes(self, nodes: list[NodeWithScore],
                           query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        report = self.client.guard(
            [{"text": n.node.get_content(metadata_mode=MetadataMode.NONE), "metadata": n.node.metadata}
             for n in nodes],
            question=query_bundle.query_str if query_bundle else None,
            as_of=self.as_of, policy=self.policy, id_key=self.id_key)
        out: list[NodeWithScore] = []
        for item, passage in report.passages():
            original = nodes[item.index]
            if item.action == "pass":
                out.append(original)  # not car-graph's to judge: untouched
                continue
            node = TextNode(
                id_=passage.doc_id if passage.replaces else original.node.node_id,
                text=passage.text, metadata=dict(passage.metadata),
                excluded_llm_metadata_keys=[*original.node.excluded_llm_metadata_keys, *HIDDEN],
                excluded_embed_metadata_keys=[*original.node.excluded_embed_metadata_keys, *HIDDEN])
            out.append(NodeWithScore(node=node, score=original.score))
        return out
