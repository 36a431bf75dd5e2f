"""What reaches neo4j.conf and what is refused: `car-graph neo4j start --memory/--heap/--pagecache`,
and LocalNeo4j(extra_settings=...), further lines in place of car-graph's tuning, never of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.errors import ServerError
from car_graph.local_server import MEMORY_PROFILES, LocalNeo4j, Ports, memory_profile, size_bytes


def _conf(tmp_path: Path, profile, extra: dict[str, str] | None = None) -> dict[str, str]:
    server = LocalNeo4j(tmp_path, "5.26.0", "memtest", extra_settings=extra)
    server.conf_file.parent.mkdir(parents=True)
    server.write_conf(Ports(17687, 17474), profile)
    lines = server.conf_file.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


@pytest.mark.parametrize("name", ["small", "medium", "large"])
def test_each_profile_writes_its_heap_and_page_cache(tmp_path: Path, name: str) -> None:
    conf = _conf(tmp_path, memory_profile(name))
    expected = MEMORY_PROFILES[name]
    assert conf["server.memory.heap.max_size"] == expected.heap
    assert conf["server.memory.heap.initial_size"] == expected.heap
    assert conf["server.memory.pagecache.size"] == expected.pagecache
    assert conf["dbms.memory.transaction.total.max"] == expected.heap


def test_profiles_grow_with_the_scale_they_serve() -> None:
    sizes = [(size_bytes(MEMORY_PROFILES[n].heap), size_bytes(MEMORY_PROFILES[n].pagecache))
             for n in ("small", "medium", "large")]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3
    heap, cache = sizes[-1]
    assert heap + cache <= 16 * 2**30, "large must leave room on a 24 GB machine"


def test_explicit_sizes_override_the_profile(tmp_path: Path) -> None:
    conf = _conf(tmp_path, memory_profile("medium", heap="3G", pagecache="1500m"))
    assert conf["server.memory.heap.max_size"] == "3g"
    assert conf["server.memory.pagecache.size"] == "1500m"


@pytest.mark.parametrize("heap, pagecache", [
    ("12x", None), ("", None), ("-1g", None), ("1.5g", None), ("100m", None),  # below 256m
    (None, "lots"), (None, "0m"), (None, "1k"),
])
def test_invalid_sizes_are_refused(heap: str | None, pagecache: str | None) -> None:
    with pytest.raises(ServerError):
        memory_profile("small", heap=heap, pagecache=pagecache)


def test_unknown_profile_is_refused() -> None:
    with pytest.raises(ServerError, match="unknown memory profile"):
        memory_profile("huge")


def test_cli_refuses_a_bad_heap_before_starting_anything(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["neo4j", "start", "--instance", "memtest", "--heap", "lots"],
        env={"XDG_CACHE_HOME": str(tmp_path), "NEO4J_URI": ""},
    )
    assert result.exit_code != 0
    assert "memory size 'lots'" in result.output
    assert not (tmp_path / "car-graph" / "instances" / "memtest" / "data").exists()


def test_cli_refuses_an_unknown_profile(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["neo4j", "start", "--memory", "huge"],
                                env={"XDG_CACHE_HOME": str(tmp_path)})
    assert result.exit_code != 0
    assert "huge" in result.output


def test_extra_settings_are_written_beside_car_graphs_own(tmp_path: Path) -> None:
    conf = _conf(tmp_path, memory_profile("small"), {"internal.cypher.use_parameter_size": "false"})
    assert conf["internal.cypher.use_parameter_size"] == "false"
    assert conf["server.default_listen_address"] == "127.0.0.1"


def test_an_extra_setting_may_not_replace_the_loopback_binding(tmp_path: Path) -> None:
    with pytest.raises(ServerError, match=r"server\.default_listen_address"):
        _conf(tmp_path, memory_profile("small"), {"server.default_listen_address": "0.0.0.0"})


def test_the_vector_index_merges_its_segments_at_four_by_default(tmp_path: Path) -> None:
    conf = _conf(tmp_path, memory_profile("small"))
    assert conf["internal.dbms.index.vector.standard_merge_factor"] == "4"


def test_an_extra_setting_may_replace_car_graphs_tuning(tmp_path: Path) -> None:
    conf = _conf(tmp_path, memory_profile("small"),
                 {"internal.dbms.index.vector.standard_merge_factor": "50"})
    assert conf["internal.dbms.index.vector.standard_merge_factor"] == "50"
