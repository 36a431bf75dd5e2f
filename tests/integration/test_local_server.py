"""The managed local server (LocalNeo4j) as it really runs: status, password, binding, stop safety."""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError

import car_graph.local_server as server_module
from car_graph.errors import ServerError
from car_graph.local_server import LocalNeo4j
from car_graph.settings import DEFAULT_NEO4J_VERSION

pytestmark = pytest.mark.neo4j


def _listening_addresses(port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Addresses with a LISTEN socket on ``port``, read from /proc/net/tcp{,6}."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address_hex, port_hex = local.split(":")
            if state != "0A" or int(port_hex, 16) != port:
                continue
            raw = bytes.fromhex(address_hex)
            # The kernel prints each 32-bit word in host (little-endian) order.
            packed = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            address = ipaddress.ip_address(packed)
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            found.append(address)
    return found


def test_status_of_running_instance(local_server: LocalNeo4j) -> None:
    status = local_server.status()
    assert status.running
    assert status.pid == int(local_server.pid_file.read_text())
    assert status.uri is not None and status.uri.startswith("bolt://127.0.0.1:")
    assert status.http_url is not None and status.http_url.startswith("http://127.0.0.1:")
    assert status.version is not None and status.version.startswith("5.26.")
    assert status.rss_bytes is not None and status.rss_bytes > 100 * 2**20
    assert status.uptime_seconds is not None and status.uptime_seconds > 0
    assert status.home == local_server.instance_dir


def test_start_again_returns_the_running_server(local_server: LocalNeo4j) -> None:
    before = local_server.status()
    again = local_server.start()
    assert again.pid == before.pid


def test_password_is_generated_private_and_works(local_server: LocalNeo4j) -> None:
    mode = stat.S_IMODE(local_server.password_file.stat().st_mode)
    assert mode == 0o600
    uri, user, password = local_server.connection()
    assert password != "neo4j" and len(password) >= 20
    with GraphDatabase.driver(uri, auth=(user, password)) as driver:
        driver.verify_connectivity()
    with GraphDatabase.driver(uri, auth=("neo4j", "neo4j")) as driver, pytest.raises(AuthError):
        driver.verify_connectivity()


def test_password_argfile_is_removed(local_server: LocalNeo4j) -> None:
    """set-initial-password gets the password through a temporary @argfile, never argv."""
    _, _, password = local_server.connection()
    assert not list((local_server.instance_dir / "run").glob("set-password-*"))
    cmdline = Path(f"/proc/{local_server.status().pid}/cmdline").read_bytes().decode()
    assert password not in cmdline


def test_binds_loopback_only(local_server: LocalNeo4j) -> None:
    conf = dict(
        line.split("=", 1) for line in local_server.conf_file.read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"].startswith("127.0.0.1:")
    assert conf["server.http.listen_address"].startswith("127.0.0.1:")
    assert conf["server.https.enabled"] == "false"
    assert conf["server.bolt.tls_level"] == "DISABLED"
    for key in ("server.bolt.listen_address", "server.http.listen_address"):
        port = int(conf[key].rsplit(":", 1)[1])
        addresses = _listening_addresses(port)
        assert addresses, f"nothing listens on {port}"
        assert all(a.is_loopback for a in addresses), addresses


def test_browser_is_served(local_server: LocalNeo4j) -> None:
    url = f"{local_server.status().http_url}browser/"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        assert b"Neo4j Browser" in response.read()


def test_stop_refuses_a_pid_that_is_not_ours(tmp_path: Path) -> None:
    server = LocalNeo4j(tmp_path, DEFAULT_NEO4J_VERSION, "bogus")
    server.pid_file.parent.mkdir(parents=True)
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        server.pid_file.write_text(f"{stranger.pid}\n")
        assert not server.status().running
        with pytest.raises(ServerError, match="refusing to signal"):
            server.stop(timeout=5, progress=lambda _m: None)
        assert stranger.poll() is None, "stop() signalled a process that is not its server"
    finally:
        stranger.kill()
        stranger.wait()


def test_stop_with_a_stale_pid_file_is_a_no_op(tmp_path: Path) -> None:
    server = LocalNeo4j(tmp_path, DEFAULT_NEO4J_VERSION, "stale")
    server.pid_file.parent.mkdir(parents=True)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    server.pid_file.write_text(f"{gone.pid}\n")
    messages: list[str] = []
    assert server.stop(progress=messages.append) is False
    assert not server.pid_file.exists()
    assert "not running" in messages[0]
    with pytest.raises(ServerError):
        server.connection()


@pytest.mark.slow
def test_stop_and_start_a_second_instance(local_server: LocalNeo4j, outage_server: LocalNeo4j) -> None:
    """A full life cycle on another instance sharing the same jars (install is not repeated):
    the session's outage server, which outage tests stop and start too."""
    status = outage_server.start(timeout=180, progress=lambda _m: None)
    assert status.running and status.uri != local_server.status().uri
    assert outage_server.home == local_server.home and outage_server.version == local_server.version
    assert outage_server.stop(timeout=60, progress=lambda _m: None) is True
    assert not outage_server.status().running
    assert not outage_server.pid_file.exists()
    assert outage_server.start(timeout=180, progress=lambda _m: None).running


def test_a_port_taken_before_the_jvm_binds_it_is_retried_on_fresh_ports(
        local_server: LocalNeo4j, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ephemeral Bolt port an instance chose is free when checked but taken when the JVM
    binds it (another server starting, a client's outgoing connection): the start tries fresh
    ports instead of failing (under CI a failed start would fail every database test)."""
    server = LocalNeo4j(local_server.home, local_server.version, f"test-ports-{os.getpid()}",
                        extra_settings=local_server.extra_settings)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        offered: list[int] = []
        real_free, real_port_free = server_module._free_port, server_module._port_free

        def free_port(exclude: set[int] | None = None) -> int:
            port = taken if not offered else real_free(exclude)
            offered.append(port)
            return port

        # the check sees the port free, as it was an instant before the race
        monkeypatch.setattr(server_module, "_free_port", free_port)
        monkeypatch.setattr(server_module, "_port_free", lambda port: port == taken or real_port_free(port))
        said: list[str] = []
        try:
            status = server.start(timeout=180, progress=said.append)
            assert status.running and f":{taken}" not in status.uri, status.uri
            assert offered[0] == taken and any("fresh ports" in line for line in said), said
            assert server_module.PORT_TAKEN in server.console_log.read_text()
        finally:
            server.stop(progress=lambda _m: None)
            shutil.rmtree(server.instance_dir, ignore_errors=True)
