"""LocalNeo4j(extra_settings=...): further neo4j.conf lines, never in place of car-graph's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from car_graph.errors import ServerError
from car_graph.local_server import LocalNeo4j, Ports, memory_profile


def _write(tmp_path: Path, extra: dict[str, str]) -> dict[str, str]:
    server = LocalNeo4j(tmp_path, "5.26.0", "extratest", extra_settings=extra)
    server.conf_file.parent.mkdir(parents=True)
    server.write_conf(Ports(17687, 17474), memory_profile("small"))
    lines = server.conf_file.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def test_extra_settings_are_written_beside_car_graphs_own(tmp_path: Path) -> None:
    conf = _write(tmp_path, {"internal.cypher.use_parameter_size": "false"})
    assert conf["internal.cypher.use_parameter_size"] == "false"
    assert conf["server.default_listen_address"] == "127.0.0.1"


def test_an_extra_setting_may_not_replace_the_loopback_binding(tmp_path: Path) -> None:
    with pytest.raises(ServerError, match=r"server\.default_listen_address"):
        _write(tmp_path, {"server.default_listen_address": "0.0.0.0"})
