"""Rebuild a managed instance's store from its live records: ``car-graph neo4j compact``.

Why this exists: on Neo4j 5.26 Community a deleted record's bytes stay in the store files (a
freed string record is only flagged unused), in the transaction logs until they are pruned, and
in a Lucene index segment until it is merged away. ``neo4j-admin database dump`` + ``load``
copies those files as they are, and ``database copy`` (which rewrites a store) is an Enterprise
tool. So the live graph is copied through Bolt into a fresh scratch instance, which is dumped and
loaded over the original: its store files, transaction logs and index segments then hold only
what was live. docs/history.md says what stays where until this step runs, and
tests/integration/test_purge_erasure.py greps those files for an erased text.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import neo4j

from car_graph import cypher, schema
from car_graph.connection import new_driver
from car_graph.errors import ServerError
from car_graph.local_server import ADMIN_COMMAND, LocalNeo4j, MemoryProfile
from car_graph.store import GraphStore

DATABASE = "neo4j"  # the one user database of a managed Community instance
# the scratch instance is "compact-<name>": a prefix, so that a sweep of another tool's instances
# by a suffix (the test suite removes "test-*-<dead pid>") never takes it mid-run
SCRATCH_PREFIX = "compact-"
BATCH = 500
ADMIN_TIMEOUT = 3600.0


@dataclass(frozen=True)
class CompactReport:
    """What ``car-graph neo4j compact`` did: the live nodes and relationships it carried over,
    the store's size on disk before and after (bytes), and how long it took."""

    instance: str
    nodes: int
    relationships: int
    bytes_before: int
    bytes_after: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def compact(local: LocalNeo4j, *, memory: MemoryProfile | None = None,
            progress: Callable[[str], Any] = lambda _msg: None) -> CompactReport:
    """Replace ``local``'s database with a copy holding only its live records.

    The instance is started if it is stopped, and is left running afterwards. Everything the
    graph holds is kept (current state, recorded history, runs); only what was deleted or purged
    before is gone from the files. The copy is checked (node and relationship counts) before the
    original is overwritten. A scratch instance ``compact-<name>`` is used and removed.
    """
    started = time.monotonic()
    scratch = LocalNeo4j(local.home, local.version, SCRATCH_PREFIX + local.instance,
                         extra_settings=local.extra_settings)
    scratch.stop(progress=progress)  # a leftover of an interrupted compaction
    shutil.rmtree(scratch.instance_dir, ignore_errors=True)
    local.start(progress=progress, memory=memory)
    bytes_before = _store_bytes(local)
    scratch.start(progress=progress, memory=memory)
    try:
        with new_driver(*local.connection()) as source, new_driver(*scratch.connection()) as target:
            expected = _counts(source)
            progress(f"Copying {expected[0]} nodes and {expected[1]} relationships ...")
            _copy(source, target)
            dimensions = _vector_dimensions(source)
            if dimensions is not None:
                schema.apply(target, DATABASE, dimensions)
            copied = _counts(target)
            if copied != expected:
                raise ServerError(f"the copy holds {copied[0]} nodes and {copied[1]} relationships, "
                                  f"the original {expected[0]} and {expected[1]}; nothing replaced")
        scratch.stop(progress=progress)
        local.stop(progress=progress)
        with tempfile.TemporaryDirectory(prefix="dump-", dir=scratch.instance_dir) as dump_dir:
            _admin(scratch, "database", "dump", DATABASE, f"--to-path={dump_dir}")
            _admin(local, "database", "load", DATABASE, f"--from-path={dump_dir}",
                   "--overwrite-destination=true")
    finally:
        scratch.stop(progress=progress)
        shutil.rmtree(scratch.instance_dir, ignore_errors=True)
    local.start(progress=progress, memory=memory)
    return CompactReport(local.instance, expected[0], expected[1], bytes_before,
                         _store_bytes(local), round(time.monotonic() - started, 1))


def _copy(source: neo4j.Driver, target: neo4j.Driver) -> None:
    """Nodes first (remembering each copy's element id), then relationships between the copies;
    the source is streamed, the target written in batches."""
    copies: dict[str, str] = {}
    for rows in _batches(source, "compact_read_nodes"):
        batch = [{"key": r["element_id"], "labels": r["labels"], "props": r["props"]} for r in rows]
        for record in GraphStore(target, DATABASE).write("compact_create_nodes", rows=batch):
            copies[record["key"]] = record["element_id"]
    for rows in _batches(source, "compact_read_relationships"):
        batch = [{"source": copies[r["source"]], "target": copies[r["target"]],
                  "type": r["type"], "props": r["props"]} for r in rows]
        GraphStore(target, DATABASE).write("compact_create_relationships", rows=batch)


def _batches(driver: neo4j.Driver, name: str) -> Iterator[list[neo4j.Record]]:
    with driver.session(database=DATABASE, default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(cypher.load(name))
        batch: list[neo4j.Record] = []
        for record in result:
            batch.append(record)
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch


def _counts(driver: neo4j.Driver) -> tuple[int, int]:
    row = GraphStore(driver, DATABASE).read("compact_count")[0]
    return int(row["nodes"]), int(row["relationships"])


def _vector_dimensions(driver: neo4j.Driver) -> int | None:
    rows = GraphStore(driver, DATABASE).read("show_vector_index", name=schema.VECTOR_INDEX)
    return int(rows[0]["dimensions"]) if rows and rows[0]["dimensions"] is not None else None


def _store_bytes(local: LocalNeo4j) -> int:
    """The database's store files and transaction logs, in bytes (allocated, not apparent: the
    transaction log is preallocated sparse)."""
    data = local.instance_dir / "data"
    total = 0
    for folder in (data / "databases" / DATABASE, data / "transactions" / DATABASE):
        if folder.is_dir():
            total += sum(f.stat().st_blocks * 512 for f in folder.rglob("*") if f.is_file())
    return total


def _admin(local: LocalNeo4j, *args: str) -> None:
    """Run ``neo4j-admin`` for a stopped instance, as local_server sets the initial password."""
    command = [local._java(), "-cp", f"{local.lib_dir}/*", f"-Dbasedir={local.instance_dir}",
               "-Xmx512m", ADMIN_COMMAND, *args]
    result = subprocess.run(command, cwd=local.instance_dir, env=local._java_env(),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=ADMIN_TIMEOUT)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()
        raise ServerError(f"neo4j-admin {' '.join(args[:2])} failed (exit {result.returncode}):\n"
                          f"{output[-4000:]}")
