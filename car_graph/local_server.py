"""A Neo4j Community server managed by car-graph, assembled from Maven Central, without Docker.

Why this exists: the machines car-graph runs on have a JDK and Maven but no Docker engine, and
the Neo4j tarball is not on Maven Central. Every jar the tarball contains is, so ``install``
collects them into ``lib/`` once, and ``start`` launches the server JVM directly
(``org.neo4j.server.CommunityEntryPoint``), the same command the official ``bin/neo4j console``
forks. See docs/neo4j.md §3.2 for the provenance of the JVM flags.

Layout under ``home`` (default ``~/.cache/car-graph``, never inside the repository)::

    neo4j-<version>/lib/            jars, shared by every instance; .installed marks success
    instances/<name>/conf/neo4j.conf
    instances/<name>/{data,logs,run,import,plugins}/
    instances/<name>/password       generated on first start, mode 0600
    instances/<name>/instance.json  the ports this instance listens on
    instances/<name>/run/car-graph.pid

Safety: both connectors bind to 127.0.0.1 only, Bolt is plain text (loopback), HTTPS is off,
the password is random per instance (never neo4j/neo4j), and ``stop`` only signals a pid whose
command line proves it is this instance's server.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, DriverError, Neo4jError

from car_graph import cypher
from car_graph.errors import ServerError

Progress = Callable[[str], Any]

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_COMMAND = "org.neo4j.server.startup.Neo4jAdminCommand"
USER = "neo4j"
LOOPBACK = "127.0.0.1"
DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
PID_FILE = "car-graph.pid"
INSTALLED_MARKER = ".installed"
LOG_TAIL_LINES = 40
# the line each start writes into the console log before the JVM's own output
START_MARKER = "---- car-graph start"
# what the JVM logs when a connector cannot bind its port; and how often a start on ports
# chosen here tries fresh ones after it
PORT_TAKEN = "Address already in use"
PORT_ATTEMPTS = 3

# The 5.26 defaults of server.jvm.additional (Operations Manual, neo4j.conf), which only the
# bootloader applies; we launch the server JVM ourselves, so we pass them. Keep the --add-opens:
# without java.nio, vector index population can stall.
JVM_FLAGS: tuple[str, ...] = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
    "-Dfile.encoding=UTF-8",
)


SIZE_PATTERN = re.compile(r"^([1-9][0-9]*)([kmg])$")
MIN_HEAP_BYTES = 256 * 2**20
MIN_PAGECACHE_BYTES = 64 * 2**20


def size_bytes(size: str) -> int:
    """'512m' -> bytes; Neo4j's and the JVM's own notation (k, m, g), nothing else."""
    match = SIZE_PATTERN.match(size.strip().lower()) if isinstance(size, str) else None
    if match is None:
        raise ServerError(f"memory size {size!r} must be a whole number with k, m or g (e.g. 512m, 4g)")
    return int(match.group(1)) * {"k": 2**10, "m": 2**20, "g": 2**30}[match.group(2)]


@dataclass(frozen=True)
class MemoryProfile:
    """Heap (JVM -Xms/-Xmx) and page cache (store files) of one server instance.

    The transaction memory cap is the heap: one batch's write transaction may use all of it,
    nothing beyond (Neo4j refuses the transaction instead of dying of OutOfMemoryError).
    The vector index lives in Lucene files outside the page cache, served by the OS file
    cache, so the machine needs free RAM beyond heap + page cache (see docs/benchmarks.md).
    """

    heap: str
    pagecache: str

    def __post_init__(self) -> None:
        normalised = {name: getattr(self, name).strip().lower() for name in ("heap", "pagecache")}
        for name, value in normalised.items():
            object.__setattr__(self, name, value)
        if size_bytes(self.heap) < MIN_HEAP_BYTES:
            raise ServerError(f"heap {self.heap} is below the 256m Neo4j needs to start")
        if size_bytes(self.pagecache) < MIN_PAGECACHE_BYTES:
            raise ServerError(f"page cache {self.pagecache} is below 64m")


# Sized for a 24 GB machine shared with other work; docs/benchmarks.md gives the store sizes
# measured at each scale.
MEMORY_PROFILES: dict[str, MemoryProfile] = {
    "small": MemoryProfile(heap="1g", pagecache="512m"),    # up to ~10k documents (tests, demo)
    "medium": MemoryProfile(heap="2g", pagecache="2g"),     # ~100k documents
    "large": MemoryProfile(heap="6g", pagecache="8g"),      # ~1M documents
}
DEFAULT_MEMORY = "small"

# Server tuning car-graph writes unless extra settings replace it. Neo4j's vector index adds a
# Lucene segment per committed write and merges them only when 50 (its default merge factor)
# are alike in size, so an ingest of many batches leaves dozens of small segments, each searched
# on its own by every vector query; merging at 4 keeps a handful (docs/benchmarks-findings.md
# §10). An internal setting of 5.26: a server car-graph does not manage can set it in its own
# neo4j.conf.
TUNING: dict[str, str] = {"internal.dbms.index.vector.standard_merge_factor": "4"}


def memory_profile(name: str | None = None, heap: str | None = None,
                   pagecache: str | None = None) -> MemoryProfile:
    """A named profile, with ``heap``/``pagecache`` overriding its sizes when given."""
    key = name or DEFAULT_MEMORY
    if key not in MEMORY_PROFILES:
        raise ServerError(f"unknown memory profile {key!r}; choose from {', '.join(MEMORY_PROFILES)}")
    base = MEMORY_PROFILES[key]
    return MemoryProfile(heap=base.heap if heap is None else heap,
                         pagecache=base.pagecache if pagecache is None else pagecache)


@dataclass(frozen=True)
class ServerStatus:
    """What ``car-graph neo4j status`` reports.

    ``home`` is the instance directory (the server's NEO4J_HOME); ``uri``/``http_url`` are known
    once the instance has been started at least once; ``version`` is None when stopped or not
    answering yet; ``rss_bytes`` is VmRSS from /proc.
    """

    running: bool
    uri: str | None
    http_url: str | None
    version: str | None
    pid: int | None
    uptime_seconds: float | None
    rss_bytes: int | None
    home: Path
    instance: str = "default"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["home"] = str(self.home)
        return data


@dataclass(frozen=True)
class Ports:
    bolt: int
    http: int


class LocalNeo4j:
    """One named server instance sharing the jars of one Neo4j version under ``home``.

    Creating the object does nothing on disk; every method reads the state it needs, so two
    objects for the same instance (say, the CLI and a test fixture) agree.
    """

    def __init__(self, home: Path, version: str, instance: str = "default", *,
                 extra_settings: Mapping[str, str] | None = None) -> None:
        """``extra_settings`` are further neo4j.conf lines (tuning); they may replace
        ``TUNING`` but not the ones car-graph writes (addresses, directories, authentication,
        memory)."""
        if not instance or not all(c.isalnum() or c in "-_" for c in instance):
            raise ServerError(f"instance name {instance!r} must be letters, digits, '-' or '_'")
        self.home = Path(home).expanduser().resolve()
        self.version = version
        self.instance = instance
        self.extra_settings = dict(extra_settings or {})
        self._process: subprocess.Popen[bytes] | None = None

    def __repr__(self) -> str:
        return f"LocalNeo4j(home={self.home!s}, version={self.version!r}, instance={self.instance!r})"

    # ---------------------------------------------------------------- paths

    @property
    def dist_dir(self) -> Path:
        return self.home / f"neo4j-{self.version}"

    @property
    def lib_dir(self) -> Path:
        return self.dist_dir / "lib"

    @property
    def instance_dir(self) -> Path:
        return self.home / "instances" / self.instance

    @property
    def conf_file(self) -> Path:
        return self.instance_dir / "conf" / "neo4j.conf"

    @property
    def password_file(self) -> Path:
        return self.instance_dir / "password"

    @property
    def pid_file(self) -> Path:
        return self.instance_dir / "run" / PID_FILE

    @property
    def console_log(self) -> Path:
        return self.instance_dir / "logs" / "console.log"

    @property
    def _state_file(self) -> Path:
        return self.instance_dir / "instance.json"

    # ---------------------------------------------------------------- install

    def is_installed(self) -> bool:
        return (self.dist_dir / INSTALLED_MARKER).is_file() and self.lib_dir.is_dir()

    def install(self, progress: Progress = print) -> Path:
        """Assemble ``lib/`` from Maven Central once; later calls return the same directory.

        The jars are copied into a staging directory and renamed into place, and the marker is
        written last, so an interrupted install is redone rather than half-used. A file lock
        keeps two concurrent installs (two test runs, say) from racing.
        """
        if self.is_installed():
            return self.lib_dir
        mvn = shutil.which("mvn")
        if mvn is None:
            raise ServerError("Maven ('mvn') is not on PATH; it is needed once to fetch Neo4j's jars")
        self._java()  # fail early and clearly: there is no point fetching jars we cannot run
        self.dist_dir.mkdir(parents=True, exist_ok=True)
        with _file_lock(self.home / f"neo4j-{self.version}.lock"):
            if self.is_installed():
                return self.lib_dir
            progress(f"Fetching Neo4j {self.version} from Maven Central into {self.lib_dir} ...")
            staging = self.dist_dir / "lib.partial"
            shutil.rmtree(staging, ignore_errors=True)
            started = time.monotonic()
            with tempfile.TemporaryDirectory(prefix="car-graph-mvn-") as tmp:
                pom = Path(tmp) / "pom.xml"
                pom.write_bytes(resources.files("car_graph").joinpath("resources", "neo4j-pom.xml").read_bytes())
                command = [
                    mvn, "-B", "-q", "-f", str(pom),
                    f"-Dneo4j.version={self.version}", f"-Dneo4j.lib={staging}", "package",
                ]
                result = subprocess.run(
                    command, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True
                )
            jars = sorted(staging.glob("*.jar")) if staging.is_dir() else []
            if result.returncode != 0 or not jars:
                output = (result.stdout + result.stderr).strip().splitlines()
                tail = "\n".join(output[-LOG_TAIL_LINES:]) or "(no output)"
                raise ServerError(
                    f"Maven could not assemble Neo4j {self.version} (exit {result.returncode}); "
                    f"last lines:\n{tail}"
                )
            shutil.rmtree(self.lib_dir, ignore_errors=True)
            staging.rename(self.lib_dir)
            marker = {
                "version": self.version,
                "jars": len(jars),
                "seconds": round(time.monotonic() - started, 1),
                "installed_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }
            (self.dist_dir / INSTALLED_MARKER).write_text(json.dumps(marker, indent=2) + "\n")
            progress(f"Installed {len(jars)} jars in {marker['seconds']} s")
        return self.lib_dir

    # ---------------------------------------------------------------- start

    def start(
        self,
        timeout: float = 120,
        bolt_port: int | None = None,
        http_port: int | None = None,
        progress: Progress | None = None,
        memory: MemoryProfile | None = None,
    ) -> ServerStatus:
        """Start the server (installing the jars first if needed) and wait until Bolt answers.

        Idempotent: if this instance is already running, its status is returned and nothing is
        started (a different ``memory`` needs a stop first). On failure the process is stopped
        and ServerError carries the log tail. ``memory`` None: the small profile.
        """
        memory = memory or MEMORY_PROFILES[DEFAULT_MEMORY]
        if self._running_pid() is not None:
            return self.status()
        if not self.is_installed():
            self.install(progress=progress or print)
        # One starter at a time per instance: a second concurrent start() waits, then finds
        # the server running instead of launching a twin that dies on the taken ports.
        with _file_lock(self.instance_dir / "run" / "start.lock"):
            if self._running_pid() is not None:
                return self.status()
            return self._start_locked(timeout, bolt_port, http_port, progress, memory)

    def _start_locked(self, timeout: float, bolt_port: int | None, http_port: int | None,
                      progress: Progress | None, memory: MemoryProfile) -> ServerStatus:
        say = progress or (lambda _msg: None)
        # Ports this instance chose itself can be taken between the check and the JVM's bind
        # (another server starting, a client's outgoing connection drawing the same ephemeral
        # number): then it starts again on fresh ones. Ports the user gave are never swapped.
        chosen_here = self.instance != "default" and bolt_port is None and http_port is None
        for _ in range(PORT_ATTEMPTS - 1):
            try:
                return self._start_once(timeout, bolt_port, http_port, say, memory)
            except ServerError:
                if not (chosen_here and self._port_was_taken()):
                    raise
                self._state_file.unlink(missing_ok=True)  # choose fresh ports, not these again
                say(f"A port of {self.instance} was taken as Neo4j bound it; starting again "
                    "on fresh ports")
        return self._start_once(timeout, bolt_port, http_port, say, memory)

    def _port_was_taken(self) -> bool:
        """The console log since the last start says a port was already in use."""
        if not self.console_log.is_file():
            return False
        text = self.console_log.read_text(encoding="utf-8", errors="replace")
        return PORT_TAKEN in text.rsplit(START_MARKER, 1)[-1]

    def _start_once(self, timeout: float, bolt_port: int | None, http_port: int | None,
                    say: Progress, memory: MemoryProfile) -> ServerStatus:
        self.pid_file.unlink(missing_ok=True)  # stale: the process it names is gone or not ours
        for sub in ("conf", "data", "logs", "run", "import", "plugins"):
            (self.instance_dir / sub).mkdir(parents=True, exist_ok=True)
        ports = self._choose_ports(bolt_port, http_port)
        self._write_state(ports)
        self.write_conf(ports, memory)
        password = self._ensure_password()

        java = self._java()
        argv = [
            java, "-cp", f"{self.instance_dir / 'plugins'}/*:{self.lib_dir}/*",
            f"-Xms{memory.heap}", f"-Xmx{memory.heap}", *JVM_FLAGS,
            ENTRY_POINT,
            f"--home-dir={self.instance_dir}",
            f"--config-dir={self.instance_dir / 'conf'}",
            "--console-mode",
        ]
        say(f"Starting Neo4j {self.version} ({self.instance}) on bolt://{LOOPBACK}:{ports.bolt} "
            f"(heap {memory.heap}, page cache {memory.pagecache}) ...")
        started = time.monotonic()
        with open(self.console_log, "ab") as log:
            log.write(f"\n{START_MARKER} {time.strftime('%Y-%m-%d %H:%M:%S')} ----\n".encode())
            log.flush()
            process = subprocess.Popen(
                argv,
                cwd=self.instance_dir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # survives the CLI; Ctrl-C in the shell does not reach it
                env=self._java_env(),
            )
        self._process = process
        self.pid_file.write_text(f"{process.pid}\n")
        try:
            self._wait_for_bolt(process, ports, password, timeout)
        except ServerError:
            self._terminate(process.pid, grace=10)
            self.pid_file.unlink(missing_ok=True)
            raise
        say(f"Neo4j is up after {time.monotonic() - started:.1f} s (pid {process.pid})")
        return self.status()

    def _wait_for_bolt(self, process: subprocess.Popen[bytes], ports: Ports, password: str,
                       timeout: float) -> None:
        deadline = time.monotonic() + timeout
        uri = f"bolt://{LOOPBACK}:{ports.bolt}"
        last_error = "no answer yet"
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ServerError(
                    f"Neo4j exited with code {process.returncode} during start-up; "
                    f"last log lines from {self.console_log}:\n{self.log_tail()}"
                )
            try:
                with GraphDatabase.driver(uri, auth=(USER, password), connection_timeout=2.0,
                                          max_connection_lifetime=5) as driver:
                    driver.verify_connectivity()
                    # Bolt accepts connections before the databases are online; one real
                    # auto-commit query (no driver retries) proves the default database serves.
                    with driver.session() as session:
                        session.run(cypher.load("dbms_components")).consume()
                return
            except AuthError as exc:
                raise ServerError(
                    f"Neo4j is up but rejects the password in {self.password_file}: {exc}. "
                    f"If the data directory predates that file, delete {self.instance_dir} "
                    "and start again."
                ) from exc
            except (DriverError, Neo4jError, OSError) as exc:
                last_error = f"{type(exc).__name__}: {exc}"
            time.sleep(0.5)
        raise ServerError(
            f"Neo4j did not answer on {uri} within {timeout:.0f} s ({last_error}); "
            f"last log lines from {self.console_log}:\n{self.log_tail()}"
        )

    # ---------------------------------------------------------------- stop

    def stop(self, timeout: float = 60, progress: Progress = print) -> bool:
        """SIGTERM this instance's server, SIGKILL after ``timeout``; True if it was running.

        Refuses (ServerError) when the pid file names a live process that is not this
        instance's Neo4j: pids get reused, and signalling a stranger is never acceptable.
        """
        pid = self._read_pid()
        if pid is None or not pid_alive(pid):
            self.pid_file.unlink(missing_ok=True)
            progress(f"Neo4j ({self.instance}) is not running")
            return False
        if not self._is_ours(pid):
            raise ServerError(
                f"{self.pid_file} names pid {pid}, which is not this instance's Neo4j "
                f"({_cmdline(pid)[:120]!r}); refusing to signal it. Remove the pid file if it is stale."
            )
        progress(f"Stopping Neo4j ({self.instance}, pid {pid}) ...")
        self._terminate(pid, grace=timeout)
        self.pid_file.unlink(missing_ok=True)
        progress("Stopped")
        return True

    def _terminate(self, pid: int, grace: float) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        if not self._wait_exit(pid, grace):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self._wait_exit(pid, 10)

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._reap(pid)
            if not pid_alive(pid):
                return True
            time.sleep(0.2)
        return False

    def _reap(self, pid: int) -> None:
        """Collect the exit status if the server is our child, so it does not linger as a zombie."""
        if self._process is not None and self._process.pid == pid:
            self._process.poll()
            return
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)

    # ---------------------------------------------------------------- status

    def status(self) -> ServerStatus:
        pid = self._running_pid()
        ports = self._read_state()
        uri = f"bolt://{LOOPBACK}:{ports.bolt}" if ports else None
        http_url = f"http://{LOOPBACK}:{ports.http}/" if ports else None
        if pid is None:
            return ServerStatus(False, uri, http_url, None, None, None, None,
                                self.instance_dir, self.instance)
        return ServerStatus(
            running=True,
            uri=uri,
            http_url=http_url,
            version=self._query_version(uri) if uri else None,
            pid=pid,
            uptime_seconds=_uptime(pid),
            rss_bytes=_rss_bytes(pid),
            home=self.instance_dir,
            instance=self.instance,
        )

    def connection(self) -> tuple[str, str, str]:
        """(uri, user, password) of the running instance."""
        if self._running_pid() is None:
            raise ServerError(f"the managed Neo4j ({self.instance}) is not running")
        ports = self._read_state()
        if ports is None or not self.password_file.is_file():
            raise ServerError(f"{self.instance_dir} is missing instance.json or password")
        return f"bolt://{LOOPBACK}:{ports.bolt}", USER, self._read_password()

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last lines of the console log, then of neo4j.log if the console log is empty."""
        for path in (self.console_log, self.instance_dir / "logs" / "neo4j.log"):
            if path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace").strip()
                if text:
                    return "\n".join(text.splitlines()[-lines:])
        return "(no log output)"

    def _query_version(self, uri: str) -> str | None:
        try:
            with GraphDatabase.driver(uri, auth=(USER, self._read_password()),
                                      connection_timeout=3.0) as driver:
                records = driver.execute_query(cypher.load("dbms_components"), database_="system").records
        except (DriverError, Neo4jError, OSError):
            return None
        return next((r["version"] for r in records if r["name"] == "Neo4j Kernel"), None)

    # ---------------------------------------------------------------- internals

    def _read_pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def _running_pid(self) -> int | None:
        pid = self._read_pid()
        if pid is None or not pid_alive(pid) or not self._is_ours(pid):
            return None
        return pid

    def _is_ours(self, pid: int) -> bool:
        args = _cmdline(pid).split("\0")
        return ENTRY_POINT in args and f"--home-dir={self.instance_dir}" in args

    def _java(self) -> str:
        java_home = os.environ.get("JAVA_HOME")
        if java_home and (Path(java_home) / "bin" / "java").is_file():
            return str(Path(java_home) / "bin" / "java")
        java = shutil.which("java")
        if java is None:
            raise ServerError("Java ('java') is not on PATH and JAVA_HOME is unset; Neo4j 5.26 needs JDK 17 or 21")
        return java

    def _java_env(self) -> dict[str, str]:
        # Client credentials for some other server have no business in this server's environment.
        env = {k: v for k, v in os.environ.items()
               if k not in {"NEO4J_URI", "NEO4J_USER", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"}}
        env["NEO4J_HOME"] = str(self.instance_dir)
        env["NEO4J_CONF"] = str(self.instance_dir / "conf")
        return env

    def _choose_ports(self, bolt: int | None, http: int | None) -> Ports:
        """Explicit ports win, then the ports this instance used last time, then the defaults:
        7687/7474 for "default", free ephemeral loopback ports for any other instance (so test
        instances never collide with a developer's server)."""
        previous = self._read_state()
        reusable = previous is not None and (
            self.instance == "default" or (_port_free(previous.bolt) and _port_free(previous.http))
        )
        if bolt is None and http is None and previous is not None and reusable:
            bolt, http = previous.bolt, previous.http
        if self.instance == "default":
            chosen = Ports(bolt or DEFAULT_BOLT_PORT, http or DEFAULT_HTTP_PORT)
        else:
            bolt = bolt or _free_port(exclude={http} if http else None)
            chosen = Ports(bolt, http or _free_port(exclude={bolt}))
        if chosen.bolt == chosen.http:
            raise ServerError("the Bolt and HTTP ports must differ")
        for name, port in (("Bolt", chosen.bolt), ("HTTP", chosen.http)):
            if not _port_free(port):
                raise ServerError(
                    f"{name} port {LOOPBACK}:{port} is already in use; pick another with "
                    f"--{name.lower()}-port, or stop whatever listens there"
                )
        return chosen

    def _read_state(self) -> Ports | None:
        try:
            data = json.loads(self._state_file.read_text())
            return Ports(int(data["bolt_port"]), int(data["http_port"]))
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            return None

    def _write_state(self, ports: Ports) -> None:
        data = {"bolt_port": ports.bolt, "http_port": ports.http, "version": self.version}
        self._state_file.write_text(json.dumps(data, indent=2) + "\n")

    def write_conf(self, ports: Ports, memory: MemoryProfile) -> None:
        """Write neo4j.conf from scratch on every start; 5.26 refuses unknown or repeated keys."""
        d = self.instance_dir
        settings = {
            "server.default_listen_address": LOOPBACK,
            "server.default_advertised_address": LOOPBACK,
            "server.bolt.enabled": "true",
            "server.bolt.listen_address": f"{LOOPBACK}:{ports.bolt}",
            "server.bolt.advertised_address": f"{LOOPBACK}:{ports.bolt}",
            "server.bolt.tls_level": "DISABLED",
            "server.http.enabled": "true",
            "server.http.listen_address": f"{LOOPBACK}:{ports.http}",
            "server.http.advertised_address": f"{LOOPBACK}:{ports.http}",
            "server.https.enabled": "false",
            "server.directories.lib": str(self.lib_dir),
            "server.directories.data": str(d / "data"),
            "server.directories.logs": str(d / "logs"),
            "server.directories.run": str(d / "run"),
            "server.directories.import": str(d / "import"),
            "server.directories.plugins": str(d / "plugins"),
            "initial.dbms.default_database": "neo4j",
            "dbms.security.auth_enabled": "true",
            # Informational here: the JVM heap comes from -Xms/-Xmx on the command line (no bootloader).
            "server.memory.heap.initial_size": memory.heap,
            "server.memory.heap.max_size": memory.heap,
            "server.memory.pagecache.size": memory.pagecache,
            "dbms.memory.transaction.total.max": memory.heap,
            "dbms.usage_report.enabled": "false",
            "client.allow_telemetry": "false",
        }
        if clashing := sorted(settings.keys() & self.extra_settings.keys()):
            raise ServerError(f"extra settings may not replace car-graph's own: {', '.join(clashing)}")
        settings.update(TUNING)
        settings.update(self.extra_settings)
        lines = ["# Written by car-graph on every start; edits are overwritten.", ""]
        lines += [f"{key}={value}" for key, value in settings.items()]
        self.conf_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _read_password(self) -> str:
        try:
            return self.password_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError as exc:
            raise ServerError(f"no password file at {self.password_file}") from exc

    def _ensure_password(self) -> str:
        """Generate the password before the first start and give it to Neo4j.

        ``dbms set-initial-password`` only works before the system database exists, so an
        instance whose data predates its password file cannot be recovered: say so.
        """
        initialised = (self.instance_dir / "data" / "databases" / "system").exists()
        if self.password_file.is_file():
            password = self._read_password()
            if not initialised:
                self._set_initial_password(password)  # a previous first start failed early
            return password
        if initialised:
            raise ServerError(
                f"{self.instance_dir} has data but no password file; the password is unknown. "
                f"Delete {self.instance_dir} to start over."
            )
        password = new_password()
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), 0o600)  # regardless of umask
            handle.write(password + "\n")
        self._set_initial_password(password)
        return password

    def _set_initial_password(self, password: str) -> None:
        """Run ``neo4j-admin dbms set-initial-password`` without the password on a command line.

        The arguments go through a java @argfile (mode 0600, deleted afterwards), so the
        password never appears in /proc/<pid>/cmdline or ps output.
        """
        java = self._java()
        args = [
            "-cp", f"{self.lib_dir}/*", f"-Dbasedir={self.instance_dir}", "-Xmx256m",
            ADMIN_COMMAND, "dbms", "set-initial-password", password,
        ]
        fd, argfile = tempfile.mkstemp(prefix="set-password-", dir=self.instance_dir / "run")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write("\n".join(_argfile_quote(a) for a in args) + "\n")
            result = subprocess.run(
                [java, f"@{argfile}"], cwd=self.instance_dir, env=self._java_env(),
                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
            )
        finally:
            os.unlink(argfile)
        if result.returncode != 0:
            output = (result.stdout + result.stderr).replace(password, "********").strip()
            raise ServerError(f"neo4j-admin dbms set-initial-password failed:\n{output[-4000:]}")


def new_password() -> str:
    """A random password for the managed server. It never starts with "-": neo4j-admin's
    command-line parser would take such a password for an option (1 start in 32 failed)."""
    return "c" + secrets.token_urlsafe(24)


# -------------------------------------------------------------------- process helpers


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def pid_alive(pid: int) -> bool:
    """True if the pid exists and is not a zombie (an exited child nobody has reaped yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("State:"):
                return "Z" not in line.split()[1]
    except OSError:
        return False
    return True


def _rss_bytes(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _uptime(pid: int) -> float | None:
    """Seconds since the process started, from /proc/<pid>/stat field 22 and the boot time."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        start_ticks = int(stat.rsplit(")", 1)[1].split()[19])
        boot_time = next(
            int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    started = boot_time + start_ticks / os.sysconf("SC_CLK_TCK")
    return max(0.0, time.time() - started)


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def _free_port(exclude: set[int] | None = None) -> int:
    """An ephemeral loopback port the kernel considers free right now."""
    for _ in range(20):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((LOOPBACK, 0))
            port = int(sock.getsockname()[1])
        if not exclude or port not in exclude:
            return port
    raise ServerError("could not find a free loopback port")


def _argfile_quote(arg: str) -> str:
    """Quote one argument for a java @argfile (double quotes; backslash escapes)."""
    if arg and not any(c.isspace() or c in "\"'\\#" for c in arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
