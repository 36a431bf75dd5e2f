"""``car-graph corpora fetch`` against a real HTTP server on 127.0.0.1 (loopback only, no internet):
verified downloads, checksum mismatches, resumed .part files, cached files, retried server
errors; and the corpora location setting."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph_benchmarks import corpora
from car_graph_benchmarks.corpora import CorporaError, CorpusFile, fetch_file, load_manifest


@dataclass
class Served:
    """What the loopback server serves and what it saw."""

    files: dict[str, bytes] = field(default_factory=dict)
    fail_first: dict[str, int] = field(default_factory=dict)   # path -> 503s before serving
    cut_first: dict[str, int] = field(default_factory=dict)    # path -> bytes sent before hanging up, once
    ignore_range: bool = False
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Handler(BaseHTTPRequestHandler):
    served: Served

    def log_message(self, *args: object) -> None:  # keep the test output clean
        pass

    def do_GET(self) -> None:
        served = self.served
        with served.lock:
            served.requests.append((self.path, self.headers.get("Range")))
            failures = served.fail_first.get(self.path, 0)
            if failures:
                served.fail_first[self.path] = failures - 1
            cut = served.cut_first.pop(self.path, None)
        if failures:
            self.send_error(503, "try again")
            return
        body = served.files.get(self.path)
        if body is None:
            self.send_error(404, "no such file")
            return
        start = 0
        ranged = self.headers.get("Range")
        if ranged and not served.ignore_range:
            start = int(ranged.removeprefix("bytes=").split("-")[0])
            if start >= len(body):
                self.send_error(416, "range not satisfiable")
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        payload = body[start:] if cut is None else body[start:start + cut]
        self.wfile.write(payload)
        if cut is not None:
            self.close_connection = True  # the client sees fewer bytes than Content-Length


@pytest.fixture
def server() -> Iterator[tuple[str, Served]]:
    served = Served()
    handler = type("BoundHandler", (Handler,), {"served": served})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", served
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _payload(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def _entry(base: str, path: str, body: bytes, domain: str = "law", name: str = "table.csv") -> CorpusFile:
    return CorpusFile(domain=domain, name=name, size=len(body), sha256=hashlib.sha256(body).hexdigest(),
                      licence="test", url=base + path)


FAST = {"wait_seconds": 0.0, "timeout": 5.0}


def test_fresh_download_is_verified_and_put_in_place(server, tmp_path):
    base, served = server
    body = _payload(200_000, 1)
    served.files["/a.csv"] = body
    result = fetch_file(_entry(base, "/a.csv", body), tmp_path, **FAST)
    target = tmp_path / "law" / "table.csv"
    assert result.status == "downloaded", result.message
    assert target.read_bytes() == body
    assert not (tmp_path / "law" / "table.csv.part").exists()
    assert served.requests == [("/a.csv", None)]


def test_checksum_mismatch_is_an_error_naming_url_expected_and_got_and_keeps_nothing(server, tmp_path):
    base, served = server
    promised, delivered = _payload(5_000, 2), _payload(5_000, 3)
    served.files["/b.csv"] = delivered
    entry = _entry(base, "/b.csv", promised)
    result = fetch_file(entry, tmp_path, **FAST)
    assert result.failed
    assert entry.url in result.message
    # the sizes are equal, so only the digests tell the two apart
    assert hashlib.sha256(promised).hexdigest() in result.message
    assert hashlib.sha256(delivered).hexdigest() in result.message
    assert not (tmp_path / "law" / "table.csv").exists()
    assert not (tmp_path / "law" / "table.csv.part").exists()


def test_partial_part_file_is_resumed_with_a_range_request(server, tmp_path):
    base, served = server
    body = _payload(300_000, 4)
    served.files["/c.zip"] = body
    part = tmp_path / "drug" / "x.zip.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(body[:123_457])
    result = fetch_file(_entry(base, "/c.zip", body, "drug", "x.zip"), tmp_path, **FAST)
    assert result.status == "downloaded", result.message
    assert served.requests == [("/c.zip", "bytes=123457-")]
    assert (tmp_path / "drug" / "x.zip").read_bytes() == body
    assert not part.exists()


def test_connection_cut_mid_file_is_retried_from_where_it_stopped(server, tmp_path):
    base, served = server
    body = _payload(250_000, 5)
    served.files["/d.tsv"] = body
    served.cut_first["/d.tsv"] = 100_000
    result = fetch_file(_entry(base, "/d.tsv", body), tmp_path, **FAST)
    assert result.status == "downloaded", result.message
    assert served.requests == [("/d.tsv", None), ("/d.tsv", "bytes=100000-")]
    assert (tmp_path / "law" / "table.csv").read_bytes() == body


def test_server_ignoring_range_restarts_the_file_instead_of_appending(server, tmp_path):
    base, served = server
    body = _payload(50_000, 6)
    served.files["/e.csv"] = body
    served.ignore_range = True
    part = tmp_path / "law" / "table.csv.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(body[:10_000])
    result = fetch_file(_entry(base, "/e.csv", body), tmp_path, **FAST)
    assert result.status == "downloaded", result.message
    assert (tmp_path / "law" / "table.csv").read_bytes() == body


def test_verified_file_already_there_is_not_downloaded_again(server, tmp_path):
    base, served = server
    body = _payload(20_000, 7)
    served.files["/f.csv"] = body
    target = tmp_path / "law" / "table.csv"
    target.parent.mkdir(parents=True)
    target.write_bytes(body)
    result = fetch_file(_entry(base, "/f.csv", body), tmp_path, **FAST)
    assert result.status == "cached"
    assert served.requests == []


def test_stale_file_with_the_wrong_bytes_is_replaced(server, tmp_path):
    base, served = server
    body = _payload(20_000, 8)
    served.files["/g.csv"] = body
    target = tmp_path / "law" / "table.csv"
    target.parent.mkdir(parents=True)
    target.write_bytes(_payload(20_000, 9))
    result = fetch_file(_entry(base, "/g.csv", body), tmp_path, **FAST)
    assert result.status == "downloaded", result.message
    assert target.read_bytes() == body


def test_transient_server_errors_are_retried(server, tmp_path):
    base, served = server
    body = _payload(10_000, 10)
    served.files["/h.csv"] = body
    served.fail_first["/h.csv"] = 2
    result = fetch_file(_entry(base, "/h.csv", body), tmp_path, attempts=3, **FAST)
    assert result.status == "downloaded", result.message
    assert len(served.requests) == 3


def test_persistent_server_error_is_retried_then_reported(server, tmp_path):
    base, served = server
    body = _payload(10_000, 11)
    served.files["/i.csv"] = body
    served.fail_first["/i.csv"] = 99
    entry = _entry(base, "/i.csv", body)
    result = fetch_file(entry, tmp_path, attempts=3, **FAST)
    assert result.failed
    assert entry.url in result.message and "503" in result.message and "3 attempts" in result.message
    assert len(served.requests) == 3
    assert not (tmp_path / "law" / "table.csv").exists()


def test_missing_file_is_reported_at_once_without_retries(server, tmp_path):
    base, served = server
    entry = _entry(base, "/nowhere.csv", b"x")
    result = fetch_file(entry, tmp_path, attempts=4, **FAST)
    assert result.failed and "404" in result.message and entry.url in result.message
    assert len(served.requests) == 1


def _manifest(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"files": rows}), encoding="utf-8")
    return path


def test_cli_fetches_what_it_can_says_one_line_per_derived_file_and_exits_zero(server, tmp_path):
    base, served = server
    body = _payload(30_000, 12)
    served.files["/ok.csv"] = body
    derived = {"domain": "security", "name": "advisories.jsonl", "size": 3, "sha256": "0" * 64,
               "licence": "test", "derived": "re-serialised YAML", "upstream": "https://example.org/db"}
    manifest = _manifest(tmp_path, [
        {"domain": "law", "name": "table.csv", "size": len(body), "licence": "test",
         "sha256": hashlib.sha256(body).hexdigest(), "url": f"{base}/ok.csv"}, derived])
    dest = tmp_path / "corpora"
    run = CliRunner().invoke(main, ["corpora", "fetch", "--manifest", str(manifest), "--dest", str(dest)])
    assert run.exit_code == 0, run.output
    assert (dest / "law" / "table.csv").read_bytes() == body
    derived_lines = [line for line in run.output.splitlines() if "security/advisories.jsonl" in line]
    assert len(derived_lines) == 1
    assert "derived" in derived_lines[0] and "https://example.org/db" in derived_lines[0]
    assert "1 downloaded" in run.output and "1 derived" in run.output


def test_cli_exits_non_zero_on_a_real_failure_and_honours_domain(server, tmp_path):
    base, served = server
    good, bad = _payload(1_000, 13), _payload(1_000, 14)
    served.files["/good.tsv"] = good
    served.files["/bad.csv"] = bad
    manifest = _manifest(tmp_path, [
        {"domain": "drug", "name": "good.tsv", "size": len(good), "licence": "t",
         "sha256": hashlib.sha256(good).hexdigest(), "url": f"{base}/good.tsv"},
        {"domain": "law", "name": "bad.csv", "size": len(bad), "licence": "t",
         "sha256": hashlib.sha256(good).hexdigest(), "url": f"{base}/bad.csv"}])
    dest = tmp_path / "corpora"
    only_drug = CliRunner().invoke(main, ["corpora", "fetch", "--manifest", str(manifest),
                                          "--dest", str(dest), "--domain", "drug"])
    assert only_drug.exit_code == 0, only_drug.output
    assert [path for path, _ in served.requests] == ["/good.tsv"]
    both = CliRunner().invoke(main, ["corpora", "fetch", "--manifest", str(manifest), "--dest", str(dest)])
    assert both.exit_code == 1
    assert f"{base}/bad.csv" in both.output
    assert "drug/good.tsv: already there" in both.output  # the first run's file, not fetched again
    assert "1 failed" in both.output
    assert not (dest / "law" / "bad.csv").exists()


def test_default_destination_is_under_the_car_graph_home(server, tmp_path):
    base, served = server
    body = _payload(2_000, 15)
    served.files["/home.csv"] = body
    manifest = _manifest(tmp_path, [
        {"domain": "law", "name": "h.csv", "size": len(body), "licence": "t",
         "sha256": hashlib.sha256(body).hexdigest(), "url": f"{base}/home.csv"}])
    home = tmp_path / "home"
    run = CliRunner().invoke(main, ["corpora", "fetch", "--manifest", str(manifest)],
                             env={"CAR_GRAPH_HOME": str(home)})
    assert run.exit_code == 0, run.output
    assert (home / "corpora" / "law" / "h.csv").read_bytes() == body


def test_bundled_manifest_is_well_formed_and_honest_about_derived_files():
    entries = load_manifest()
    assert {e.domain for e in entries} == set(corpora.DOMAINS)
    fetchable = [e for e in entries if e.url]
    assert fetchable and all(e.url.startswith("https://") for e in fetchable)
    # every domain SOURCE.md calls filtered or converted is marked derived, not given a URL
    derived = {e.label for e in entries if e.derived}
    assert {"law/conan_overruled_pairs.jsonl", "drug/withdrawn_drugs_ncats.tsv"} <= derived
    assert all(e.domain != "security" or e.derived for e in entries)


@pytest.mark.parametrize(("row", "reason"), [
    ({"domain": "law", "name": "a", "size": 1, "sha256": "0" * 64, "licence": "x"}, "exactly one of"),
    ({"domain": "law", "name": "a", "size": 1, "sha256": "0" * 63, "licence": "x", "url": "u"}, "sha256"),
    ({"domain": "law", "name": "../a", "size": 1, "sha256": "0" * 64, "licence": "x", "url": "u"}, "plain"),
    ({"domain": "law", "name": "a", "size": "1", "sha256": "0" * 64, "licence": "x", "url": "u"}, "size"),
    ({"domain": "law", "name": "a", "size": 1, "sha256": "0" * 64, "licence": "x", "url": "u", "md5": "0"},
     "unknown fields"),
])
def test_manifest_errors_name_the_file_the_entry_and_the_reason(tmp_path, row, reason):
    path = _manifest(tmp_path, [row])
    with pytest.raises(CorporaError, match=reason) as caught:
        load_manifest(path)
    assert str(path) in str(caught.value) and "files[0]" in str(caught.value)


# --- the location setting ------------------------------------------------------------------------


def test_env_var_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("CAR_GRAPH_CORPORA", str(tmp_path / "mine"))
    assert corpora.default_corpora_dir() == tmp_path / "mine"


def test_default_is_shared_data_raw_beside_the_checkout(monkeypatch, tmp_path):
    monkeypatch.delenv("CAR_GRAPH_CORPORA", raising=False)
    checkout = tmp_path / "repo"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "docs").mkdir()
    monkeypatch.chdir(checkout / "docs")
    assert corpora.default_corpora_dir() is None  # no shared/ beside it yet
    raw = tmp_path / "shared" / "data" / "raw"
    raw.mkdir(parents=True)
    assert corpora.default_corpora_dir() == raw.resolve()


def test_no_corpora_is_a_clear_usage_error_before_any_connection(monkeypatch, tmp_path):
    monkeypatch.delenv("CAR_GRAPH_CORPORA", raising=False)
    monkeypatch.chdir(tmp_path)
    # An unreachable server: the error must come before any attempt to connect.
    run = CliRunner().invoke(main, ["reproduce", "--out", str(tmp_path / "r.md")],
                             env={"NEO4J_URI": "bolt://127.0.0.1:1"})
    assert run.exit_code == 2
    assert "CAR_GRAPH_CORPORA" in run.output and "--raw" in run.output
    run = CliRunner().invoke(main, ["reproduce", "--out", str(tmp_path / "r.md")],
                             env={"CAR_GRAPH_CORPORA": str(tmp_path / "missing")})
    assert run.exit_code == 2
    assert f"CAR_GRAPH_CORPORA: {tmp_path / 'missing'} is not a folder" in run.output
