"""The Browser style and the commands `car-graph browser` prints (pure text, no server)."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from car_graph import browser, cypher

STATUS_LABELS = {"active": "Active", "partially_superseded": "PartiallySuperseded",
                 "superseded": "Superseded", "withdrawn": "Withdrawn", "unresolved": "Unresolved"}


def _rules(grass: str) -> dict[str, dict[str, str]]:
    rules = {}
    for selector, body in re.findall(r"([\w.]+)\s*\{((?:[^{}]|\{\w+\})*)\}", grass):
        rules[selector] = {
            k.strip(): v.strip().strip("'\"") for k, v in
            (decl.split(":", 1) for decl in body.split(";") if ":" in decl)
        }
    return rules


def test_style_colours_each_status_label_and_captions_supersedes_with_its_rule() -> None:
    rules = _rules(browser.style_text())
    for status, label in STATUS_LABELS.items():
        assert rules[f"node.{label}"]["color"] == browser.STATUS_COLOURS[status]
    assert len(set(browser.STATUS_COLOURS.values())) == len(STATUS_LABELS)
    assert rules["relationship.SUPERSEDES"]["caption"] == "{rule}"
    # Browser's style sheet has no dashed line: a closed edge is thin, grey and says so
    closed = rules["relationship.CLOSED_SUPERSEDES"]
    assert closed["caption"] == "closed {rule}"
    assert closed["color"] != rules["relationship.SUPERSEDES"]["color"]
    assert int(closed["shaft-width"].removesuffix("px")) < int(rules["relationship.SUPERSEDES"]["shaft-width"].removesuffix("px"))
    assert rules["node.Document"]["caption"] == "{title}"


def test_status_label_statement_sets_exactly_the_styled_labels() -> None:
    text = cypher.text("label_status")
    assert set(re.findall(r"SET d:(\w+)", text)) == set(STATUS_LABELS.values())
    assert "REMOVE d:" + ":".join(["Active", "Superseded", "PartiallySuperseded", "Withdrawn",
                                   "Unresolved"]) in text


def test_style_command_is_one_line() -> None:
    command = browser.style_command()
    assert command.startswith(":style node {") and "\n" not in command
    assert _rules(command[len(":style "):]) == _rules(browser.style_text())


def test_chain_commands_quote_parameters_and_drop_the_comment_header() -> None:
    doc_param, as_of_param, known_at_param, query = browser.chain_commands("it's:1", date(2003, 1, 2))
    assert doc_param == ':param doc_id => "it\'s:1"'
    assert json.loads(doc_param.split("=> ", 1)[1]) == "it's:1"
    assert as_of_param == ':param as_of => "2003-01-02"'
    assert browser.chain_commands("x")[1] == ":param as_of => null"
    # Browser needs every parameter the statement names set: the current graph
    assert known_at_param == ":param known_at => null"
    assert set(re.findall(r"\$(\w+)", query)) == {"doc_id", "as_of", "known_at"}
    assert "//" not in query and "\n" not in query
    assert query.startswith("WITH date($as_of) AS as_of, ")
    assert "MATCH (doc:Document {id: $doc_id})" in query


def test_browser_url_prefills_the_bolt_address() -> None:
    assert browser.browser_url("http://127.0.0.1:7575/", "bolt://127.0.0.1:7688") == (
        "http://127.0.0.1:7575/browser/?connectURL=bolt%3A%2F%2F127.0.0.1%3A7688")
    assert browser.browser_url(None, "neo4j://db.example:7687").startswith(
        "http://db.example:7474/browser/?connectURL=bolt%3A%2F%2Fdb.example%3A7687")


def test_guide_text_lists_url_style_and_chain_in_order() -> None:
    guide = browser.BrowserGuide("http://h/browser/", browser.style_command(),
                                 browser.chain_commands("D-1"), "D-1", {})
    lines = guide.text("user neo4j").splitlines()
    assert lines[0] == "1. Open http://h/browser/  (user neo4j)"
    assert lines[2] == browser.style_command()
    assert lines[4:8] == list(browser.chain_commands("D-1"))


def _guide(doc_id: str | None = "scotus:1", as_of: date | None = None) -> browser.BrowserGuide:
    commands = browser.chain_commands(doc_id, as_of) if doc_id else ()
    return browser.BrowserGuide("http://h/browser/", browser.style_command(), commands, doc_id, {}, as_of)


def test_guide_page_has_one_runnable_command_per_step_slide() -> None:
    import html as html_lib

    page = browser.guide_html(_guide(as_of=date(2003, 1, 2)), "Is <b>X</b> still law?", "superseded")
    slides = re.findall(r"<slide>(.*?)</slide>", page)
    runnables = [html_lib.unescape(r) for r in re.findall(r'<pre class="code runnable">(.*?)</pre>', page)]
    assert len(slides) == 4
    assert runnables == [browser.style_command(),
                         ':params {doc_id: "scotus:1", as_of: "2003-01-02", known_at: null}',
                         browser.chain_commands("scotus:1")[-1]]
    assert [len(re.findall("runnable", s)) for s in slides] == [0, 1, 1, 1]
    assert "Is &lt;b&gt;X&lt;/b&gt; still law?" in slides[0] and "<b>X</b>" not in page


def test_guide_without_a_document_only_styles() -> None:
    page = browser.guide_html(_guide(doc_id=None))
    assert page.count("<slide>") == 2 and "car-graph browser DOC_ID" in page


def test_guide_server_answers_the_cors_preflight_and_the_page() -> None:
    import urllib.error
    import urllib.request

    with browser.GuideServer("<slide>hi</slide>") as server:
        assert server.url.startswith("http://localhost:") and server.url.endswith(browser.GUIDE_PATH)
        address = server.url.replace("localhost", "127.0.0.1")
        preflight = urllib.request.Request(address, method="OPTIONS", headers={
            "Origin": "http://127.0.0.1:7474", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "pragma,cache-control"})
        with urllib.request.urlopen(preflight) as answer:
            assert answer.headers["Access-Control-Allow-Origin"] == "*"
            assert answer.headers["Access-Control-Allow-Headers"] == "pragma,cache-control"
        with urllib.request.urlopen(address) as answer:
            assert answer.read() == b"<slide>hi</slide>"
            assert answer.headers["Access-Control-Allow-Origin"] == "*"
        with pytest.raises(urllib.error.HTTPError) as refused:  # only the guide is served
            urllib.request.urlopen(address.replace(browser.GUIDE_PATH, "/etc/passwd"))
        assert refused.value.code == 404
