"""A missing RAG framework is a typed error that says which extra to install."""

from __future__ import annotations

from datetime import date

import pytest

from car_graph.adapters.common import require, result_metadata
from car_graph.errors import CarError, MissingExtraError
from car_graph.types import Hop, Result, Status


def test_missing_framework_names_the_extra_to_install() -> None:
    with pytest.raises(MissingExtraError) as caught:
        require("no_such_framework_for_car_graph", "langchain")
    assert isinstance(caught.value, CarError) and isinstance(caught.value, ImportError)
    assert "pip install 'car-graph[langchain]'" in str(caught.value)


def test_metadata_is_json_ready_with_status_chain_and_as_of() -> None:
    import json

    hop = Hop("A", "B", "rule_x", date(2020, 1, 2), "because", partial=False)
    result = Result("B", "B title", "release", "security", date(2020, 1, 2), Status.ACTIVE, 1.5, "A", (hop,), "text")
    metadata = result_metadata(result, date(2021, 5, 6))
    assert json.loads(json.dumps(metadata)) == metadata
    assert metadata["status"] == "active" and metadata["as_of"] == "2021-05-06"
    assert metadata["chain"] == [{"from_id": "A", "to_id": "B", "rule": "rule_x", "effective": "2020-01-02",
                                  "evidence": "because", "partial": False}]
