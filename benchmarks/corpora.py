"""Where the raw corpora live, and ``car-graph corpora fetch`` to download them.

The real-corpus benchmarks (questions, variants, reproduce) read raw files from one folder
holding ``security/``, ``law/`` and ``drug/``. :func:`default_corpora_dir` is the one place that
decides which folder: ``$CAR_GRAPH_CORPORA``, else ``../shared/data/raw`` beside the checkout the
current directory is in.

The committed manifest (``corpora.json``) names every raw file with its size and sha256, taken
from the copies the committed question sets were built on. Files a public URL serves byte for
byte carry ``url`` and are downloaded and verified; the others were filtered or converted from
their upstream (``derived``) and are only reported, never faked.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential
from tqdm import tqdm

from car_graph.errors import ConfigError

ENV_VAR = "CAR_GRAPH_CORPORA"
DOMAINS = ("security", "law", "drug")
CHUNK = 1 << 16
USER_AGENT = "car-graph-benchmarks corpora fetch"


class CorporaError(ConfigError):
    """The corpora folder or the corpora manifest is missing or invalid."""


# --- the location setting ------------------------------------------------------------------------


def checkout_root(start: Path | None = None) -> Path | None:
    """The git checkout holding ``start`` (default: the current directory), or None."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():  # a directory in a clone, a file in a worktree
            return folder
    return None


def default_corpora_dir(start: Path | None = None) -> Path | None:
    """The raw corpora folder: ``$CAR_GRAPH_CORPORA`` if set (even if it does not exist, so the
    error names it), else ``<checkout>/../shared/data/raw`` when that folder exists, else None."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value:
        return Path(value).expanduser()
    root = checkout_root(start)
    if root is not None:
        candidate = root.parent / "shared" / "data" / "raw"
        if candidate.is_dir():
            return candidate
    return None


def require_corpora_dir(raw: Path | None) -> Path:
    """``raw`` (an explicit --raw) or the default, checked to be a folder; else why not."""
    chosen = raw if raw is not None else default_corpora_dir()
    if chosen is None:
        raise CorporaError(
            f"no raw corpora folder: pass --raw DIR, set {ENV_VAR}=DIR, or keep the corpora in "
            "../shared/data/raw beside the checkout (`car-graph corpora fetch` downloads the "
            "directly fetchable files; see benchmarks/README.md)")
    if not chosen.is_dir():
        source = "--raw" if raw is not None else ENV_VAR
        raise CorporaError(f"{source}: {chosen} is not a folder (it should hold security/, law/, drug/)")
    return chosen


# --- the manifest --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusFile:
    """One raw file: fetchable (``url``) or derived (``derived`` says how it was made)."""

    domain: str
    name: str
    size: int
    sha256: str
    licence: str
    url: str | None = None
    source: str | None = None
    derived: str | None = None
    upstream: str | None = None

    @property
    def label(self) -> str:
        return f"{self.domain}/{self.name}"


def load_manifest(path: Path | None = None) -> list[CorpusFile]:
    """The entries of ``path`` (default: the bundled corpora.json), checked field by field."""
    where = str(path) if path is not None else "corpora.json (bundled)"
    text = (path.read_text(encoding="utf-8") if path is not None
            else resources.files("car_graph_benchmarks").joinpath("corpora.json").read_text(encoding="utf-8"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorporaError(f"{where}: line {exc.lineno}: not JSON ({exc.msg})") from exc
    rows = data.get("files") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise CorporaError(f"{where}: expected an object with a 'files' list")
    entries: list[CorpusFile] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        entries.append(_entry(row, f"{where}: files[{i}]"))
        if entries[-1].label in seen:
            raise CorporaError(f"{where}: files[{i}]: {entries[-1].label} is listed twice")
        seen.add(entries[-1].label)
    return entries


def _entry(row: Any, where: str) -> CorpusFile:
    if not isinstance(row, dict):
        raise CorporaError(f"{where}: expected an object")
    known = set(CorpusFile.__dataclass_fields__)
    if unknown := sorted(set(row) - known):
        raise CorporaError(f"{where}: unknown fields {unknown}")
    for key in ("domain", "name", "sha256", "licence"):
        if not isinstance(row.get(key), str) or not row[key]:
            raise CorporaError(f"{where}: '{key}' must be a non-empty string")
    if not isinstance(row.get("size"), int) or row["size"] < 0:
        raise CorporaError(f"{where}: 'size' must be a byte count")
    if len(row["sha256"]) != 64 or any(c not in "0123456789abcdef" for c in row["sha256"]):
        raise CorporaError(f"{where}: 'sha256' must be 64 lower-case hex digits")
    if "/" in row["name"] or "/" in row["domain"] or row["name"].startswith("."):
        raise CorporaError(f"{where}: domain and name must be plain file names")
    if (row.get("url") is None) == (row.get("derived") is None):
        raise CorporaError(f"{where}: give exactly one of 'url' (fetchable) and 'derived' (how it was made)")
    return CorpusFile(**row)


# --- fetching ------------------------------------------------------------------------------------


class FetchFailed(Exception):
    """One file could not be fetched or verified; the message says url, expected and got."""


class TransientHTTPError(Exception):
    """A server or network error worth retrying (5xx, 429, reset or timed-out connections)."""


@dataclass(frozen=True)
class FileResult:
    entry: CorpusFile
    status: str  # "downloaded" | "cached" | "derived" (not fetchable, absent) | "failed"
    message: str

    @property
    def failed(self) -> bool:
        return self.status == "failed"


@dataclass(frozen=True)
class FetchReport:
    dest: Path
    results: tuple[FileResult, ...]

    @property
    def failures(self) -> list[FileResult]:
        return [r for r in self.results if r.failed]

    def summary(self) -> str:
        counts = {s: sum(r.status == s for r in self.results) for s in ("downloaded", "cached", "derived", "failed")}
        return (f"{self.dest}: {counts['downloaded']} downloaded, {counts['cached']} already there, "
                f"{counts['derived']} derived (not downloadable), {counts['failed']} failed")


def file_digest(path: Path) -> tuple[int, str]:
    """(size, sha256 hex) of ``path``."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def _matches(path: Path, entry: CorpusFile) -> bool:
    return path.is_file() and path.stat().st_size == entry.size and file_digest(path) == (entry.size, entry.sha256)


def _transient(exc: BaseException) -> bool:
    """Worth another attempt: server-side and network trouble, never a 404 or a bad checksum.
    (URLError without an HTTP status is a refused, reset or unresolved connection.)"""
    if isinstance(exc, urllib.error.HTTPError):
        return False  # _download_once turned the retryable statuses into TransientHTTPError
    return isinstance(exc, TransientHTTPError | TimeoutError | ConnectionError
                      | http.client.IncompleteRead | urllib.error.URLError)


def _download_once(entry: CorpusFile, part: Path, timeout: float, progress: bool) -> None:
    """Append the rest of ``entry.url`` to ``part``, asking for a byte range when part exists."""
    assert entry.url is not None
    have = part.stat().st_size if part.exists() else 0
    if have > entry.size:  # longer than the file can be: not a prefix of it
        part.unlink()
        have = 0
    if have == entry.size:
        return  # complete from an earlier attempt; verified by the caller
    headers = {"User-Agent": USER_AGENT}
    if have:
        headers["Range"] = f"bytes={have}-"
    request = urllib.request.Request(entry.url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # the range starts at or past the end: start again
            part.unlink()
            raise TransientHTTPError(f"HTTP 416 for a resume at byte {have}; restarting") from exc
        if exc.code >= 500 or exc.code in (408, 429):
            raise TransientHTTPError(f"HTTP {exc.code} {exc.reason}") from exc
        raise FetchFailed(f"{entry.url}: HTTP {exc.code} {exc.reason}") from exc
    with response:
        if have and response.status == 206:
            start = _range_start(response.headers.get("Content-Range"))
            if start != have:
                raise FetchFailed(f"{entry.url}: asked for bytes from {have}, the server sent "
                                  f"Content-Range {response.headers.get('Content-Range')!r}")
            mode = "ab"
        else:  # 200: the server ignored the range (or there was none); write the whole file
            have, mode = 0, "wb"
        announced = response.headers.get("Content-Length")
        received = 0
        with part.open(mode) as handle, tqdm(
            total=entry.size, initial=have, unit="B", unit_scale=True, desc=entry.label,
            disable=not progress, file=sys.stderr, leave=False,
        ) as bar:
            while block := response.read(CHUNK):
                handle.write(block)
                received += len(block)
                bar.update(len(block))
    # read(n) ends quietly when the connection drops early; only Content-Length tells. What came
    # is kept in the .part file, so the next attempt asks for the rest.
    if announced is not None and announced.isdigit() and received < int(announced):
        raise TransientHTTPError(f"connection closed after {received} of {announced} bytes")


def _range_start(content_range: str | None) -> int | None:
    """The first byte of ``bytes START-END/TOTAL``, or None when the header is not that."""
    if not content_range or not content_range.startswith("bytes "):
        return None
    try:
        return int(content_range[6:].split("-", 1)[0])
    except ValueError:
        return None


def fetch_file(entry: CorpusFile, dest: Path, *, attempts: int = 4, wait_seconds: float = 1.0,
               timeout: float = 60.0, progress: bool = False) -> FileResult:
    """Put ``entry`` at ``dest/<domain>/<name>``, verified; resumes ``<name>.part`` with Range."""
    target = dest / entry.domain / entry.name
    if _matches(target, entry):
        return FileResult(entry, "cached", f"{entry.label}: already there, size and sha256 verified")
    if entry.url is None:
        if target.exists():
            size, digest = file_digest(target)
            return FileResult(entry, "failed", (
                f"{entry.label}: {target} is not the file the benchmarks were built on: expected "
                f"{entry.size} bytes sha256 {entry.sha256}, got {size} bytes sha256 {digest}"))
        return FileResult(entry, "derived", (
            f"{entry.label}: not downloadable, derived from {entry.upstream} ({entry.derived}); "
            f"copy it from a shared/data/raw checkout into {target.parent}"))
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    retrying = Retrying(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=wait_seconds, max=30),
        retry=retry_if_exception(_transient), reraise=True)
    try:
        retrying(_download_once, entry, part, timeout, progress)
    except FetchFailed as exc:
        return FileResult(entry, "failed", f"{entry.label}: {exc}")
    except Exception as exc:  # the last transient error, after the retries
        if not _transient(exc):
            raise
        resume = f"; run again to resume from {part.name}" if part.exists() else ""
        return FileResult(entry, "failed", (
            f"{entry.label}: {entry.url}: {exc} (gave up after {attempts} attempts{resume})"))
    size, digest = file_digest(part)
    if (size, digest) != (entry.size, entry.sha256):
        part.unlink()  # never resumed from, never mistaken for the real file
        return FileResult(entry, "failed", (
            f"{entry.label}: {entry.url}: expected {entry.size} bytes sha256 {entry.sha256}, "
            f"got {size} bytes sha256 {digest}; nothing kept"))
    os.replace(part, target)
    return FileResult(entry, "downloaded", f"{entry.label}: downloaded and verified ({size:,} bytes)")


def fetch(entries: Iterable[CorpusFile], dest: Path, *, domains: Sequence[str] = (),
          say: Callable[[str], None] = print, **options: Any) -> FetchReport:
    """Fetch every entry of ``domains`` (all when empty) into ``dest``; one line per file."""
    results = []
    for entry in entries:
        if domains and entry.domain not in domains:
            continue
        result = fetch_file(entry, dest, **options)
        say(("error: " if result.failed else "") + result.message)
        results.append(result)
    return FetchReport(dest, tuple(results))
