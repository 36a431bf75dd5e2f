"""Neo4j Browser: the style (graph_schema/browser.grass) and the commands that draw a chain.

Browser styles nodes by label only, so ``label_statuses`` gives every Document one status label
(queries/label_status.cypher); the style colours those labels and captions SUPERSEDES edges
with their rule. ``chain_commands`` are the exact lines to paste into Browser's editor -- the
same ones the end-to-end test types into a real Browser.

The same steps also come as a Browser guide (``guide_html``): Browser 5's ``:guide URL`` shows
an HTML page's ``<slide>`` elements in its sidebar, and a click on a ``runnable`` code block
puts that command into the editor. Browser fetches a guide only from hosts its server allows
(``browser.remote_content_hostname_whitelist``, by default ``guides.neo4j.com,localhost``) and
across origins, so ``GuideServer`` serves the page on localhost with a CORS header.
"""

from __future__ import annotations

import html
import http.server
import json
import threading
from dataclasses import dataclass
from datetime import date
from importlib import resources
from typing import Any
from urllib.parse import quote, urlsplit

from car_graph import cypher
from car_graph.store import GraphStore

STYLE_FILE = "browser.grass"
CHAIN_QUERY = "analyst/chain"
DEFAULT_HTTP_PORT = 7474

# The status colours of browser.grass, for the guide and for tests that check the canvas.
STATUS_COLOURS = {
    "active": "#57C7A4",
    "partially_superseded": "#F79767",
    "superseded": "#E06760",
    "withdrawn": "#8D6E9E",
    "unresolved": "#FFC454",
}


@dataclass(frozen=True)
class BrowserGuide:
    """What to open and what to paste to see one document's chain, styled."""

    url: str
    style_command: str
    chain_commands: tuple[str, ...]
    doc_id: str | None
    labelled: dict[str, int]
    as_of: date | None = None

    @property
    def params_command(self) -> str:
        """Both chain parameters in one ``:params`` command (the guide's form)."""
        return params_command(self.doc_id or "", self.as_of)

    def text(self, login: str = "", guide_url: str | None = None) -> str:
        steps = [f"1. Open {self.url}" + (f"  ({login})" if login else "")]
        steps.append("2. Paste the style (one command; Browser keeps it):")
        steps.append(self.style_command)
        if self.doc_id is None:
            steps.append("3. Ask for a document's chain: car-graph browser DOC_ID (or --question \"...\")")
        else:
            steps.append(f"3. Paste the chain of {self.doc_id}: the parameters, then the query "
                         "(one line at a time):")
            steps.extend(self.chain_commands)
        steps.append("Colours: " + ", ".join(f"{status} {colour}" for status, colour in STATUS_COLOURS.items())
                     + "; SUPERSEDES edges are captioned with their rule; closed ones (CLOSED_SUPERSEDES, "
                     "seen with known_at) are thin, grey and captioned 'closed RULE'.")
        if guide_url:
            steps.append(f"Or, after step 1, run this in Browser for the same steps as a guide "
                         f"(click a command to put it in the editor): :guide {guide_url}")
        return "\n".join(steps)


def style_text() -> str:
    return (resources.files(cypher.SCHEMA_PACKAGE) / STYLE_FILE).read_text(encoding="utf-8")


def style_command() -> str:
    """``:style`` followed by the whole stylesheet on one line (Browser parses it in place)."""
    return ":style " + " ".join(style_text().split())


def cypher_literal(value: str | None) -> str:
    """A Cypher literal for a pasted ``:param`` line (JSON string quoting is valid Cypher)."""
    return "null" if value is None else json.dumps(value)


def one_line(name: str) -> str:
    """A catalogue statement without its comment header, on one line for Browser's editor."""
    body = "\n".join(line for line in cypher.text(name).splitlines() if not line.lstrip().startswith("//"))
    return " ".join(body.split())


def chain_commands(doc_id: str, as_of: date | None = None) -> tuple[str, ...]:
    """The chain's parameters, then the statement; Browser requires every parameter to be
    set, so known_at is set too (null: the current graph; closed edges only show as known at
    an earlier time)."""
    return (
        f":param doc_id => {cypher_literal(doc_id)}",
        f":param as_of => {cypher_literal(as_of.isoformat() if as_of else None)}",
        ":param known_at => null",
        one_line(CHAIN_QUERY),
    )


def params_command(doc_id: str, as_of: date | None = None) -> str:
    as_of_text = as_of.isoformat() if as_of else None
    return (f":params {{doc_id: {cypher_literal(doc_id)}, as_of: {cypher_literal(as_of_text)}, "
            "known_at: null}")


def browser_url(http_url: str | None, bolt_uri: str) -> str:
    """Browser's address, with the Bolt address pre-filled in its connect form."""
    if http_url is None:
        host = urlsplit(bolt_uri).hostname or "localhost"
        http_url = f"http://{host}:{DEFAULT_HTTP_PORT}/"
    parts = urlsplit(bolt_uri)
    connect = f"bolt://{parts.hostname}:{parts.port or 7687}"
    return f"{http_url.rstrip('/')}/browser/?connectURL={quote(connect, safe='')}"


def label_statuses(store: GraphStore) -> dict[str, int]:
    """Refresh the status labels Browser's style colours; returns documents per status."""
    return {r["status"]: int(r["documents"]) for r in store.write("label_status")}


def guide(store: GraphStore, url: str, doc_id: str | None, as_of: date | None = None,
          relabel: bool = True) -> BrowserGuide:
    labelled = label_statuses(store) if relabel else {}
    commands = chain_commands(doc_id, as_of) if doc_id else ()
    return BrowserGuide(url, style_command(), commands, doc_id, labelled, as_of)


GUIDE_PATH = "/car-graph-chain.html"


def _runnable(command: str) -> str:
    return f'<pre class="code runnable">{html.escape(command)}</pre>'


def guide_html(guide: BrowserGuide, question: str | None = None, verdict: str | None = None) -> str:
    """The walk from a question to its chain as a Browser guide: one ``<slide>`` per step,
    each command in a runnable block (a click puts it into the editor, Enter runs it)."""
    colours = "".join(
        f'<li><span style="color:{colour}">&#9679;</span> {html.escape(status.replace("_", " "))}</li>'
        for status, colour in STATUS_COLOURS.items())
    if question:
        start = (f"<p>The question</p><blockquote>{html.escape(question)}</blockquote>"
                 f"<p>is about <code>{html.escape(guide.doc_id or '-')}</code>"
                 + (f": {html.escape(verdict)}" if verdict else "") + "</p>")
    else:
        start = f"<p>The chain of <code>{html.escape(guide.doc_id or '-')}</code>.</p>"
    steps = "Three steps: the style, the parameters, the chain query" if guide.doc_id \
        else "Paste the style; then ask `car-graph browser DOC_ID` for a chain"
    slides = [
        ("From a question to its chain", start + f"<p>{steps}. Click a grey block to put it "
         "into the editor, press Enter, then Next.</p>"),
        ("1. The style", "<p>Documents coloured by status, SUPERSEDES edges captioned with the "
         "rule that made them, closed ones thin, grey and captioned <i>closed RULE</i> "
         "(Browser keeps the style):</p>" + _runnable(guide.style_command)
         + f"<ul>{colours}</ul>"),
    ]
    if guide.doc_id is not None:
        # One :params command (not two :param lines): in Browser 5 a click on a guide's second
        # :param block in a row was seen not to reach the editor.
        query = guide.chain_commands[-1]
        slides.append(("2. The document and date", "<p>The document whose chain to draw, and "
                       "as of when (null: today):</p>" + _runnable(guide.params_command)))
        slides.append(("3. The chain", "<p>Every path from the document to what controls it; "
                       "hover an edge for its date and evidence:</p>" + _runnable(query)
                       + "<p>In a terminal: <code>car-graph explain "
                       + html.escape(guide.doc_id) + "</code> prints the same chain as a tree.</p>"))
    body = "".join(f"<slide><h3>{html.escape(title)}</h3>{content}</slide>" for title, content in slides)
    title = f"car-graph: the chain of {guide.doc_id}" if guide.doc_id else "car-graph: chains"
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"</head><body><article class=\"guide\">{body}</article></body></html>")


class GuideServer:
    """Serves one guide page on localhost (any free port unless given), with the CORS header
    Browser needs to fetch it from another origin. A context manager; ``url`` is what ``:guide``
    takes."""

    def __init__(self, page: str, port: int = 0, host: str = "127.0.0.1") -> None:
        body = page.encode("utf-8")

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path.split("?", 1)[0] != GUIDE_PATH:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                self.wfile.write(body)

            def do_OPTIONS(self) -> None:
                # Browser sends no-cache headers, so the fetch is preceded by a CORS preflight
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Allow-Methods", "GET, OPTIONS")
                self.send_header("Access-Control-Allow-Headers",
                                 self.headers.get("Access-Control-Request-Headers") or "*")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass  # a request log would bury the printed steps

        self._server = http.server.ThreadingHTTPServer((host, port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        # "localhost", not the address: Browser's default allowlist names the host, not the IP
        return f"http://localhost:{self._server.server_address[1]}{GUIDE_PATH}"

    def start(self) -> GuideServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> GuideServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
