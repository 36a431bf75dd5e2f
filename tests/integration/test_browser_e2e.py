"""Neo4j Browser, for real: headless Chromium (Debian's chromium + chromium-driver) driven by
Selenium logs into the managed test server's Browser, pastes the style and the chain commands
that ``car-graph browser`` prints, and checks the drawn chain in the SVG canvas: one node per
chain document (captioned with its title, coloured by its status) and edges captioned with
their rule. A screenshot is saved (``CAR_BROWSER_SCREENSHOT=path`` keeps a copy).

The chain is Maryland v. Wirtz (1968) -> National League of Cities v. Usery (1976) -> Garcia
(1985), from the bundled law sample's explicit supersedes links (the Constitution Annotated's
table of overruled decisions), not from car-graph's rules.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from ci_policy import unavailable

from car_graph import browser, schema
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph.demo import sample_dir
from car_graph.records import read_jsonl

pytestmark = [pytest.mark.neo4j, pytest.mark.models, pytest.mark.slow]

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver",)
CHAIN = {  # doc id -> (title, status)
    "scotus:392-us-183": ("Maryland v. Wirtz", "superseded"),
    "scotus:426-us-833": ("National League of Cities v. Usery", "superseded"),
    "scotus:469-us-528": ("Garcia v. San Antonio Metropolitan Transit Authority", "active"),
}
TIMEOUT = 60


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if Path(p).exists()), None)


@pytest.fixture(scope="module")
def chrome() -> Iterator[object]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium is not installed (pip install -e '.[dev]')")
    binary, driver_path = _first(CHROMIUM), _first(CHROMEDRIVER)
    if binary is None or driver_path is None:
        unavailable("Debian's chromium and chromium-driver are not installed "
                    "(apt-get install chromium chromium-driver; .ci/run does it)")
    options = Options()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    session = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture(scope="module")
def law_graph(local_server, embedder, extractor) -> Iterator[tuple[str, str, str, str]]:
    """The law sample in the managed server; yields (http_url, bolt uri, user, password)."""
    from neo4j import GraphDatabase

    uri, user, password = local_server.connection()
    with GraphDatabase.driver(uri, auth=(user, password)) as driver:
        wipe_database(driver, "neo4j", uri)
        schema.apply(driver, "neo4j", 384)
        with CarClient(driver, "neo4j", embedder=embedder, extractor=extractor) as car:
            summary = car.ingest(list(read_jsonl(sample_dir() / "law.jsonl", [])))
            assert summary.documents > 100
            labelled = browser.label_statuses(car.store)
            assert labelled["superseded"] >= 2 and labelled["active"] >= 1
        yield local_server.status().http_url, uri, user, password


# A paste event puts a command into Browser's editor at once, as a user pasting it from
# `car-graph query --show` does; typing the expanded chain statement key by key took ~2 min.
PASTE = """
const [editor, text] = arguments;
const data = new DataTransfer();
data.setData("text/plain", text);
editor.focus();
editor.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true}));
"""


def _run(chrome, command: str) -> None:
    from selenium.webdriver.common.by import By

    editor = chrome.find_elements(By.CSS_SELECTOR, ".monaco-editor textarea")[0]
    chrome.execute_script(PASTE, editor, command)
    _send(chrome, command)


def _send(chrome, command: str) -> None:
    """Once the editor shows the command, Enter; then wait until it is sent (editor cleared)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    # Monaco renders only the visible part of a long statement: some of it, never anything else
    whole = "".join(command.split())
    WebDriverWait(chrome, 15).until(lambda c: (shown := _editor_text(c)) != "" and shown in whole)
    chrome.find_elements(By.CSS_SELECTOR, ".monaco-editor textarea")[0].send_keys(Keys.ENTER)
    WebDriverWait(chrome, 15).until(lambda c: not _editor_text(c))


def _frames(chrome) -> int:
    """How many result frames Browser's stream shows (each command run opens one)."""
    from selenium.webdriver.common.by import By

    return len(chrome.find_elements(By.CSS_SELECTOR, "[data-testid=frame]"))


def _framed(chrome, frames: int) -> None:
    """Wait until the stream shows a frame more than ``frames``: the command just sent landed."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(chrome, TIMEOUT).until(lambda c: _frames(c) > frames)


class _LayoutAtRest:
    """A wait condition: the drawn nodes are where they were at the last poll (the force
    layout has stopped moving them)."""

    def __init__(self) -> None:
        self.last: list[str] | None = None

    def __call__(self, chrome) -> bool:
        now = chrome.execute_script(
            "return Array.from(document.querySelectorAll('svg g.node'), n => n.getAttribute('transform'))")
        at_rest = bool(now) and now == self.last
        self.last = now
        return at_rest


def _login(chrome, url: str, user: str, password: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    def fill(selector: str, value: str) -> None:
        # Browser may pre-fill a field (the user "neo4j") after the form appears: replace,
        # never append to, whatever it holds
        field = chrome.find_element(By.CSS_SELECTOR, selector)
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.BACKSPACE)
        field.send_keys(value)

    chrome.get(url)
    wait = WebDriverWait(chrome, TIMEOUT)
    for attempt in (1, 2):
        wait.until(lambda c: c.find_elements(By.CSS_SELECTOR, "[data-testid=boltaddress]"))
        Select(chrome.find_element(By.CSS_SELECTOR, "[data-testid=bolt-scheme-select]")).select_by_visible_text("bolt://")
        fill("[data-testid=username]", user)
        fill("[data-testid=password]", password)
        chrome.find_element(By.CSS_SELECTOR, "[data-testid=connect]").click()
        # connected: the prompt shows the database name and the connect form is gone
        try:
            WebDriverWait(chrome, TIMEOUT / 2).until(
                lambda c: not c.find_elements(By.CSS_SELECTOR, "[data-testid=connect]")
                and "neo4j$" in c.find_element(By.TAG_NAME, "body").text)
            return
        except TimeoutException:
            shown = chrome.find_element(By.TAG_NAME, "body").text[:500]
            if attempt == 2:
                raise AssertionError(f"Browser did not connect; the page shows: {shown}") from None


def _canvas(chrome) -> tuple[list[tuple[list[str], str]], list[str]]:
    """(node captions with fill colour, relationship captions) drawn in the newest graph frame."""
    from selenium.webdriver.common.by import By

    nodes = []
    for group in chrome.find_elements(By.CSS_SELECTOR, "svg g.node"):
        words = " ".join(t.text for t in group.find_elements(By.CSS_SELECTOR, "text")).split()
        fills = [c.get_attribute("fill") for c in group.find_elements(By.CSS_SELECTOR, "circle")]
        nodes.append((words, next((f for f in fills if f), "")))
    rels = [" ".join(t.text for t in g.find_elements(By.CSS_SELECTOR, "text"))
            for g in chrome.find_elements(By.CSS_SELECTOR, "svg g.relationship")]
    return nodes, rels


def _caption_matches(words: list[str], title: str) -> bool:
    """Browser wraps a caption into lines and cuts it with '…': every whole word shown belongs
    to the title, in order, starting with its first word."""
    if not words:
        return False
    shown = [w for w in words if not w.endswith("…")]
    title_words = title.split()
    if not shown or shown[0] != title_words[0]:
        return False
    # the word at the cut may lose its '…' to a separate text node (Chromium 156 draws it so):
    # the last word shown may then be the start of a title word
    *whole, last = shown
    return all(w in title_words for w in whole) and (
        last in title_words or any(t.startswith(last) for t in title_words))


def test_browser_draws_the_chain_with_status_colours_and_rules(chrome, law_graph, tmp_path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    http_url, uri, user, password = law_graph
    url = browser.browser_url(http_url, uri)
    assert "connectURL=bolt%3A%2F%2F127.0.0.1" in url
    _login(chrome, url, user, password)

    _run(chrome, browser.style_command())
    for command in browser.chain_commands("scotus:392-us-183"):
        frames = _frames(chrome)
        _run(chrome, command)
        _framed(chrome, frames)  # each command opens its own frame; it lands before the next
    WebDriverWait(chrome, TIMEOUT).until(lambda c: len(_canvas(c)[0]) >= len(CHAIN))
    # the screenshot shows the force layout at rest
    WebDriverWait(chrome, TIMEOUT, poll_frequency=0.5).until(_LayoutAtRest())

    screenshot = tmp_path / "browser_chain.png"
    assert chrome.save_screenshot(str(screenshot)) and screenshot.stat().st_size > 10_000
    if keep := os.environ.get("CAR_BROWSER_SCREENSHOT"):
        shutil.copyfile(screenshot, keep)

    nodes, rels = _canvas(chrome)
    assert len(nodes) == len(CHAIN), nodes
    for doc_id, (title, status) in CHAIN.items():
        drawn = [(words, fill) for words, fill in nodes if _caption_matches(words, title)]
        assert len(drawn) == 1, f"{doc_id} ({title}) not on the canvas: {nodes}"
        assert drawn[0][1].upper() == browser.STATUS_COLOURS[status], (doc_id, drawn)
    assert rels == ["explicit", "explicit"]


def test_caption_matching_is_strict_enough_to_fail() -> None:
    assert _caption_matches(["National", "League", "of", "Cities", "Us…"], "National League of Cities v. Usery")
    assert not _caption_matches(["Garcia", "v.", "San"], "National League of Cities v. Usery")
    assert not _caption_matches([], "Maryland v. Wirtz")


def _sidebar_runnables(chrome) -> list:
    from selenium.webdriver.common.by import By

    return [e for e in chrome.find_elements(By.CSS_SELECTOR, "pre.runnable") if e.is_displayed()]


def _editor_text(chrome) -> str:
    from selenium.webdriver.common.by import By

    lines = chrome.find_elements(By.CSS_SELECTOR, ".monaco-editor .view-lines")
    return "".join(lines[0].text.split()) if lines else ""


def _next_slide(chrome) -> None:
    from selenium.webdriver.common.by import By

    buttons = [b for b in chrome.find_elements(By.CSS_SELECTOR, "button")
               if b.is_displayed() and b.text.strip().lower() == "next"]
    buttons[0].click()


def test_guide_walks_from_the_question_to_the_drawn_chain(chrome, law_graph) -> None:
    """`:guide URL` shows car-graph's served guide (``car-graph browser --serve-guide``) in
    Browser's sidebar; clicking each of its commands puts it into the editor, and running them
    draws the chain with its status colours."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def shown(c) -> list[str]:
        return [block.text for block in _sidebar_runnables(c)]

    http_url, uri, user, password = law_graph
    guide = browser.BrowserGuide(browser.browser_url(http_url, uri), browser.style_command(),
                                 browser.chain_commands("scotus:392-us-183"), "scotus:392-us-183", {})
    question = "Does Maryland v. Wirtz still decide federal wage rules for state employees?"
    page = browser.guide_html(guide, question, "superseded by Garcia")
    chrome.get(guide.url)  # a fresh Browser session: no stored connection, no earlier frames
    chrome.execute_script("window.localStorage.clear(); window.sessionStorage.clear();")
    _login(chrome, guide.url, user, password)
    with browser.GuideServer(page) as server:
        _run(chrome, f":guide {server.url}")
        wait = WebDriverWait(chrome, TIMEOUT)
        wait.until(lambda c: "From a question to its chain" in c.find_element(By.TAG_NAME, "body").text)
        assert question in chrome.find_element(By.TAG_NAME, "body").text
        clicked = []
        slide = WebDriverWait(chrome, TIMEOUT, ignored_exceptions=(StaleElementReferenceException,))
        for _slide in range(3):  # one command per slide, as a user clicks through them
            before = shown(chrome)
            _next_slide(chrome)
            slide.until(lambda c, before=before: (now := shown(c)) and now != before)  # the next slide's
            for block in _sidebar_runnables(chrome):
                clicked.append(block.text)
                frames = _frames(chrome)
                block.click()
                _send(chrome, block.text)
                _framed(chrome, frames)
    assert clicked == [browser.style_command(), browser.params_command("scotus:392-us-183"),
                       browser.chain_commands("scotus:392-us-183")[-1]]
    WebDriverWait(chrome, TIMEOUT).until(lambda c: len(_canvas(c)[0]) >= len(CHAIN))
    WebDriverWait(chrome, TIMEOUT, poll_frequency=0.5).until(_LayoutAtRest())
    nodes, rels = _canvas(chrome)
    assert len(nodes) == len(CHAIN), nodes
    for doc_id, (title, status) in CHAIN.items():
        drawn = [(words, fill) for words, fill in nodes if _caption_matches(words, title)]
        assert drawn and drawn[0][1].upper() == browser.STATUS_COLOURS[status], (doc_id, nodes)
    assert "explicit" in rels
