"""Neo4j Browser: the style (graph_schema/browser.grass) and the commands that draw a chain.

Browser styles nodes by label only, so ``label_statuses`` gives every Document one status label
(queries/label_status.cypher); the style colours those labels and captions SUPERSEDES edges
with their rule. ``chain_commands`` are the exact lines to paste into Browser's editor -- the
same ones the end-to-end test types into a real Browser.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from importlib import resources
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

    def text(self, login: str = "") -> str:
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
                     + "; SUPERSEDES edges are captioned with their rule.")
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
    return (
        f":param doc_id => {cypher_literal(doc_id)}",
        f":param as_of => {cypher_literal(as_of.isoformat() if as_of else None)}",
        one_line(CHAIN_QUERY),
    )


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
    return BrowserGuide(url, style_command(), commands, doc_id, labelled)
