"""The freshness guard: keep a team's own retriever, and tell the model which of the documents it
returned are voided and what controls them (``CarClient.guard``).

Each retrieved item is matched to a car-graph document -- by the id in its metadata when it
carries one the graph holds, else by its text: the same text once normalised (``exact``), a
passage of one document only (``chunk``: a 500-character chunk of a longer document), or close
to one document and clearly closer than to any other (``near``, embedding and fulltext
candidates compared by text). Anything else is ``unmatched`` and passes through untouched: the
guard never guesses. Then every matched document's status and controlling documents, with
their chains, come from one closure.cypher statement for all the items (the semantics of
``explain``), and the caller's policy says what goes into the context:

* ``keep``: every item as it came, with car-graph's findings in its metadata;
* ``annotate``: a stale item stays, with a warning in front of its text;
* ``replace``: a superseded item gives way to its controlling documents (those the context does
  not already hold); a partially superseded one stays, warned, with its partial superseders
  after it; a withdrawn or unresolved one stays, warned (nothing replaces it);
* ``drop``: superseded and withdrawn items go; partially superseded and unresolved ones stay, warned.

Statements per call: the status statement; when some items have no known id, one fulltext
statement (a phrase each); for those not found word for word, one more (their content words);
for those still not found, one vector statement and one batch of embeddings.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from rapidfuzz import fuzz

from car_graph.embedding import Embedder
from car_graph.errors import ConfigError
from car_graph.linking import lucene_escape, words
from car_graph.retrieval import hop_from, to_date
from car_graph.store import GraphStore
from car_graph.types import Hop, Result, Status

POLICIES = ("keep", "annotate", "replace", "drop")
MATCHES = ("id", "exact", "chunk", "near", "unmatched")

# A chunk shorter than this (normalised characters) is too little text to single out a
# document by: a heading or a sentence of boilerplate. It must match exactly or not at all.
MIN_CHUNK_CHARS = 60
# Fulltext terms drawn from an item: its most distinctive content words (those with digits,
# then the longest), as a chunk's words are all in its document; more only cost the index time.
FULLTEXT_TERMS = 24
PHRASE_TOKENS = 24  # tokens of the item's phrase query
CANDIDATES = 8  # documents drawn per item from each index
# near: text similarity (rapidfuzz, 0-1) an item needs to one document, and the lead it needs
# over the next document, to be named its near-duplicate
NEAR_SIMILARITY = 0.9
NEAR_LEAD = 0.05
CONTROLLING_LIMIT = 20  # controlling documents read per matched document
_STALE_IN_FULL = {Status.SUPERSEDED, Status.WITHDRAWN}
_WARNED = {Status.SUPERSEDED, Status.WITHDRAWN, Status.PARTIALLY_SUPERSEDED, Status.UNRESOLVED}


@dataclass(frozen=True)
class GuardInput:
    """One item a retriever returned: its text and its metadata (any keys; ``id_key`` names
    the one that may hold a car-graph document id)."""

    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ContextItem:
    """One passage of the guarded context: an input item (as it came, or annotated) or a
    controlling document put in place of a superseded one (``replaces``: that one's id)."""

    text: str
    metadata: Mapping[str, Any]
    source: int                 # the index of the input item it comes from
    doc_id: str | None          # the car-graph document (None: an unmatched item)
    replaces: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "metadata": dict(self.metadata), "source": self.source,
                "doc_id": self.doc_id, "replaces": self.replaces}


@dataclass(frozen=True)
class GuardedItem:
    """What the guard found for one input item and what it did with it."""

    index: int
    text: str
    metadata: Mapping[str, Any]
    match: str                  # id | exact | chunk | near | unmatched
    score: float                # how sure: 1.0 for id and exact, the text similarity otherwise
    doc_id: str | None
    title: str | None = None
    status: Status | None = None  # None: unmatched, or not published by as_of
    controlling: tuple[Result, ...] = ()
    superseded_by: tuple[Hop, ...] = ()
    action: str = "pass"        # pass (unmatched) | keep | annotate | replace | drop
    output: tuple[ContextItem, ...] = ()
    candidates: tuple[str, ...] = ()  # unmatched: the documents it was too close to call between
    warning: str | None = None

    @property
    def verdict(self) -> str | None:
        """The verdict the item's own status gives (the kinds of ``car-graph answer``):
        in_force, superseded, partially_superseded, withdrawn, unresolved; not_found for a
        document not published by the date; None when unmatched."""
        if self.doc_id is None:
            return None
        if self.status is None:
            return "not_found"
        return "in_force" if self.status is Status.ACTIVE else self.status.value

    @property
    def stale(self) -> bool:
        return self.status in _WARNED

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "match": self.match, "score": round(self.score, 4),
            "doc_id": self.doc_id, "title": self.title,
            "status": str(self.status) if self.status else None, "verdict": self.verdict,
            "controlling": [_result_json(r) for r in self.controlling],
            "superseded_by": [_hop_json(h) for h in self.superseded_by],
            "action": self.action, "warning": self.warning,
            "candidates": list(self.candidates),
            "output": [o.to_json() for o in self.output],
        }


@dataclass(frozen=True)
class GuardReport:
    """The guard's findings for every input item, in input order, and the guarded context."""

    policy: str
    as_of: date | None
    known_at: datetime | None
    question: str | None
    items: tuple[GuardedItem, ...]

    @property
    def context(self) -> list[ContextItem]:
        """What goes to the model, in the input's order (replacements where their item was)."""
        return [out for item in self.items for out in item.output]

    def passages(self) -> list[tuple[GuardedItem, ContextItem]]:
        """``context`` with the input item each passage comes from (the framework guards
        hand an unmatched item back as the very object they were given)."""
        return [(item, out) for item in self.items for out in item.output]

    @property
    def counts(self) -> dict[str, int]:
        by_match = {m: sum(1 for i in self.items if i.match == m) for m in MATCHES}
        by_action = {a: sum(1 for i in self.items if i.action == a)
                     for a in ("pass", "keep", "annotate", "replace", "drop")}
        return {"items": len(self.items), "matched": len(self.items) - by_match["unmatched"],
                "passed_through": by_match["unmatched"],
                "stale": sum(1 for i in self.items if i.stale),
                **{f"match_{m}": n for m, n in by_match.items()},
                **{f"action_{a}": n for a, n in by_action.items()}}

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "as_of": self.as_of.isoformat() if self.as_of else None,
                "known_at": self.known_at.isoformat() if self.known_at else None,
                "question": self.question, "counts": self.counts,
                "items": [i.to_json() for i in self.items],
                "context": [c.to_json() for c in self.context]}


# -- matching --------------------------------------------------------------------------------
def normalise(text: str) -> str:
    """Lower-cased alphanumeric runs joined by single spaces: what two copies of one text share
    whatever their chunker did to white space, case and punctuation."""
    return " ".join(words(text))


def text_hash(text: str) -> str:
    return hashlib.sha256(normalise(text).encode()).hexdigest()


def as_input(item: GuardInput | Mapping[str, Any] | str | Any) -> GuardInput:
    """A GuardInput from a string, a mapping (``text`` or ``page_content``, ``metadata``) or
    an object with those attributes (a LangChain Document)."""
    if isinstance(item, GuardInput):
        return item
    if isinstance(item, str):
        return GuardInput(item)
    if isinstance(item, Mapping):
        text = item.get("text", item.get("page_content"))
        metadata = item.get("metadata") or {}
    else:
        text = getattr(item, "text", getattr(item, "page_content", None))
        metadata = getattr(item, "metadata", None) or {}
    if not isinstance(text, str) or not isinstance(metadata, Mapping):
        raise ConfigError(f"a guarded item needs text (str) and metadata (a mapping), got {item!r:.80}")
    return GuardInput(text, metadata)


@dataclass(frozen=True)
class _Match:
    how: str
    score: float
    doc_id: str | None = None
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Candidate:
    doc_id: str
    whole: str      # normalised text
    with_title: str  # normalised title + text

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> _Candidate:
        title, whole = normalise(row["title"] or ""), normalise(row["text"] or "")
        # normalise(f"{title} {text}"), without reading the text twice
        return cls(row["doc_id"], whole, f"{title} {whole}" if title and whole else title or whole)


def fulltext_terms(text: str, stop: frozenset[str], limit: int = FULLTEXT_TERMS) -> str:
    """The item's ``limit`` most distinctive content words (digits first, then length, then
    order of appearance), escaped and OR-ed ("" when none)."""
    terms = list(dict.fromkeys(w for w in words(text) if len(w) > 1 and w not in stop))
    ranked = sorted(range(len(terms)), key=lambda i: (not any(c.isdigit() for c in terms[i]),
                                                      -len(terms[i]), i))
    return " OR ".join(lucene_escape(terms[i]) for i in sorted(ranked[:limit]))


# A token as Lucene's standard tokenizer reads it, near enough for a phrase: letters, digits
# and underscores, joined by a dot or an apostrophe ("2.5.1" and "can't" are one token each)
_INDEX_TOKEN = re.compile(r"\w+(?:[.'’]\w+)*")


def phrase_query(text: str) -> str:
    """The first tokens of the item's longest line as one Lucene phrase, without the item's
    first and last token (a chunker cuts words in half at a chunk's edges); "" when fewer than
    three remain. One line, because a document's title and text are indexed apart: a phrase
    running from a title into its text ("title\ntext", as stores often hold a document) would
    find nothing. A prefix is enough: every document holding the passage holds its prefix, and
    the text comparison rejects the documents that hold only the prefix. Inside quotes only
    ``"`` and ``\\`` are special, and no token holds either."""
    runs = [_INDEX_TOKEN.findall(line) for line in text.lower().split("\n")]
    runs[0] = runs[0][1:]
    runs[-1] = runs[-1][:-1]
    inner = max(runs, key=len)[:PHRASE_TOKENS]
    return f'"{" ".join(inner)}"' if len(inner) >= 3 else ""


def word_for_word(item: str, candidates: Iterable[_Candidate]) -> _Match | None:
    """``exact`` when one candidate's text is the item's, else ``chunk`` when exactly one holds
    it (long enough to tell); several holders: ``unmatched`` with them; none: None."""
    found = {c.doc_id: c for c in candidates}
    exact = [d for d, c in found.items() if item in (c.whole, c.with_title)]
    if len(exact) == 1:
        return _Match("exact", 1.0, exact[0])
    if len(exact) > 1:
        return _Match("unmatched", 0.0, candidates=tuple(sorted(exact)))
    if len(item) < MIN_CHUNK_CHARS:
        return None
    holders = [d for d, c in found.items() if item in c.with_title]
    if len(holders) == 1:
        return _Match("chunk", 1.0, holders[0])
    if len(holders) > 1:
        return _Match("unmatched", 0.0, candidates=tuple(sorted(holders)))
    return None


def near_duplicate(item: str, candidates: Iterable[_Candidate]) -> _Match:
    """``near`` when one candidate's text (or a passage of it, for an item shorter than the
    document) is at least NEAR_SIMILARITY alike and NEAR_LEAD ahead of the next; else unmatched."""
    scored: dict[str, float] = {}
    for c in candidates:
        target = c.with_title
        whole = max(fuzz.ratio(item, c.whole), fuzz.ratio(item, target)) / 100
        part = (fuzz.partial_ratio(item, target) / 100
                if len(item) >= MIN_CHUNK_CHARS and len(item) < len(target) else 0.0)
        scored[c.doc_id] = max(scored.get(c.doc_id, 0.0), whole, part)
    ranked = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked or ranked[0][1] < NEAR_SIMILARITY:
        return _Match("unmatched", 0.0)
    if len(ranked) > 1 and ranked[1][1] > ranked[0][1] - NEAR_LEAD:
        close = tuple(d for d, s in ranked if s > ranked[0][1] - NEAR_LEAD)
        return _Match("unmatched", 0.0, candidates=close)
    return _Match("near", ranked[0][1], ranked[0][0])


def match_texts(store: GraphStore, embedder: Callable[[], Embedder], texts: Mapping[int, str],
                stop: frozenset[str]) -> dict[int, _Match]:
    """Items (index -> text) matched by text, each step only for the items the last left: phrase
    candidates compared word for word (the phrase finds every document holding the item, so a
    copy or a chunk costs one index lookup), then content-word candidates, then embedding
    candidates, compared word for word and then for near duplicates."""
    normal = {i: normalise(t) for i, t in texts.items()}
    matches: dict[int, _Match] = {i: _Match("unmatched", 0.0) for i, n in normal.items() if not n}
    known: dict[str, _Candidate] = {}  # a document drawn for several items is normalised once
    pools: dict[int, list[_Candidate]] = {i: [] for i in normal if i not in matches}

    def draw(query: str, **params: Any) -> None:
        for row in store.read(query, candidates=CANDIDATES, **params):
            c = known.get(row["doc_id"])
            if c is None:
                c = known[row["doc_id"]] = _Candidate.of(row)
            pools[row["item"]].append(c)

    def compare(items: Iterable[int]) -> list[int]:
        """Items matched word for word now; the others, left for the next step."""
        left = []
        for i in items:
            found = word_for_word(normal[i], pools[i])
            if found is None:
                left.append(i)
            else:
                matches[i] = found
        return left

    phrases = {i: q for i in sorted(pools) if (q := phrase_query(texts[i]))}
    if phrases:
        draw("guard_text_candidates",
             items=[{"item": i, "phrase": q, "fulltext": ""} for i, q in phrases.items()])
    rest = compare(sorted(pools))
    terms = {i: q for i in rest if (q := fulltext_terms(texts[i], stop))}
    if terms:
        draw("guard_text_candidates",
             items=[{"item": i, "phrase": "", "fulltext": q} for i, q in terms.items()])
        rest = compare(rest)
    if rest:
        vectors = embedder().embed_documents([texts[i] for i in rest])
        draw("guard_vector_candidates",
             items=[{"item": i, "embedding": v} for i, v in zip(rest, vectors, strict=True)])
        for i in rest:
            matches[i] = word_for_word(normal[i], pools[i]) or near_duplicate(normal[i], pools[i])
    return matches


# -- status and policy -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Standing:
    title: str
    status: Status
    controlling: tuple[Result, ...]
    superseded_by: tuple[Hop, ...]


def standings(store: GraphStore, doc_ids: Sequence[str], as_of: date | None,
              known_at: datetime | None) -> dict[str, _Standing]:
    """Each document's status, controlling documents (with chains) and the edges superseding it
    as of ``as_of``: closure.cypher with every document as an anchor asking for its reading
    (what ``explain`` says of it), one statement for all. Documents not published by ``as_of``
    (or unknown) are absent."""
    if not doc_ids:
        return {}
    anchors = [{"id": d, "rank": i, "score": 1.0, "reading": CONTROLLING_LIMIT}
               for i, d in enumerate(doc_ids)]
    rows = store.read("closure", anchors=anchors, as_of=as_of, known_at=known_at,
                      embedding=None, k=1)
    readings = (rows[0]["readings"] or []) if rows else []
    found: dict[str, _Standing] = {}
    for reading in readings:
        doc_id = reading["doc_id"]
        controlling = tuple(_result(c, doc_id) for c in reading["controlling"])
        mine = [c for c in controlling if c.doc_id == doc_id]
        found[doc_id] = _Standing(reading["title"] or "",
                                  mine[0].status if mine else Status.SUPERSEDED, controlling,
                                  tuple(hop_from(h) for h in reading["superseded_by"]))
    return found


def _result(row: Mapping[str, Any], anchor: str) -> Result:
    return Result(doc_id=row["doc_id"], title=row["title"] or "", kind=row["kind"],
                  domain=row["domain"], published=to_date(row["published"]),
                  status=Status(row["status"]), score=1.0, anchor_id=anchor,
                  chain=tuple(hop_from(h) for h in row["chain"]), text=row["text"] or "",
                  amendments=tuple(hop_from(h) for h in row.get("amendments") or ()))


def _name(doc_id: str, title: str | None) -> str:
    return f"{title} [{doc_id}]" if title else f"[{doc_id}]"


def warning_for(doc_id: str, title: str | None, status: Status | None,
                controlling: Sequence[Result], as_of: date | None) -> str:
    """The line put in front of a stale item's text: what it is, as of when, what controls it."""
    when = f"as of {as_of.isoformat()}" if as_of else "now"
    if status is None:
        return f"[car-graph: {_name(doc_id, title)} was not yet published {when}.]"
    others = [c for c in controlling if c.doc_id != doc_id]
    line = f"[car-graph: {_name(doc_id, title)} is {status.value.upper().replace('_', ' ')} {when}"
    if others:
        shown = "; ".join(
            f"{_name(c.doc_id, c.title)}" + (f" ({', '.join(h.how() for h in c.chain)})" if c.chain else "")
            for c in others[:3])
        line += f"; controlling: {shown}"
    elif status is Status.WITHDRAWN:
        line += "; nothing replaces it"
    return line + ".]"


def _finding(item: GuardedItem) -> dict[str, Any]:
    """What car-graph found, as the ``car_graph`` metadata entry of a guarded item."""
    return {"doc_id": item.doc_id, "match": item.match, "score": round(item.score, 4),
            "status": str(item.status) if item.status else None, "verdict": item.verdict,
            "controlling": [c.doc_id for c in item.controlling if c.doc_id != item.doc_id],
            "chains": {c.doc_id: [_hop_json(h) for h in c.chain] for c in item.controlling if c.chain},
            "action": item.action}


def replacement_text(result: Result) -> str:
    """The passage a controlling document is read as: its title, then its text."""
    if result.text and not result.text.startswith(result.title):
        return f"{result.title}\n{result.text}" if result.title else result.text
    return result.text or result.title


def _action(policy: str, status: Status | None) -> str:
    if policy == "keep" or status is Status.ACTIVE:
        return "keep"
    if policy == "annotate":
        return "annotate"
    if policy == "replace":
        return "replace" if status in (Status.SUPERSEDED, Status.PARTIALLY_SUPERSEDED) else "annotate"
    # drop
    return "drop" if status in _STALE_IN_FULL or status is None else "annotate"


def apply_policy(items: Sequence[GuardedItem], policy: str, as_of: date | None,
                 question: str | None, id_key: str) -> tuple[GuardedItem, ...]:
    """Each matched item's action and output; replacements are not repeated where the context
    already holds the document (another item, or an earlier replacement)."""
    from dataclasses import replace

    held = {i.doc_id for i in items if i.doc_id and _action(policy, i.status) in ("keep", "annotate")}
    asked = set(words(question)) if question else set()
    out: list[GuardedItem] = []
    for item in items:
        if item.doc_id is None:
            out.append(replace(item, action="pass", output=(
                ContextItem(item.text, item.metadata, item.index, None),)))
            continue
        action = _action(policy, item.status)
        warning = (warning_for(item.doc_id, item.title, item.status, item.controlling, as_of)
                   if item.status in _WARNED or item.status is None else None)
        item = replace(item, action=action, warning=warning)
        meta = {**item.metadata, "car_graph": _finding(item)}
        if action == "keep":
            output: tuple[ContextItem, ...] = (ContextItem(item.text, meta, item.index, item.doc_id),)
        elif action == "annotate":
            output = (ContextItem(f"{warning}\n{item.text}", meta, item.index, item.doc_id),)
        elif action == "drop":
            output = ()
        else:  # replace: the controlling documents in its place (itself too, when partial)
            others = sorted((c for c in item.controlling if c.doc_id != item.doc_id),
                            key=lambda c: -len(asked & set(words(f"{c.title} {c.text}"))))
            output = ((ContextItem(f"{warning}\n{item.text}", meta, item.index, item.doc_id),)
                      if item.status is Status.PARTIALLY_SUPERSEDED else ())
            for c in others:
                if c.doc_id in held:
                    continue
                held.add(c.doc_id)
                output += (ContextItem(replacement_text(c), {
                    id_key: c.doc_id, "title": c.title, "status": str(c.status),
                    "car_graph": {"doc_id": c.doc_id, "status": str(c.status),
                                  "replaces": item.doc_id, "chain": [_hop_json(h) for h in c.chain]},
                }, item.index, c.doc_id, replaces=item.doc_id),)
        out.append(replace(item, output=output))
    return tuple(out)


def guard(
    store: GraphStore,
    embedder: Callable[[], Embedder],
    documents: Iterable[GuardInput | Mapping[str, Any] | str | Any],
    *,
    question: str | None = None,
    as_of: date | None = None,
    known_at: datetime | None = None,
    policy: str = "annotate",
    id_key: str = "doc_id",
    stop: frozenset[str] = frozenset(),
) -> GuardReport:
    """See the module docstring. ``embedder`` is called only when some item needs embedding."""
    if policy not in POLICIES:
        raise ConfigError(f"unknown guard policy {policy!r}; choose from {', '.join(POLICIES)}")
    inputs = [as_input(d) for d in documents]
    claimed = {i: str(x.metadata[id_key]) for i, x in enumerate(inputs)
               if x.metadata.get(id_key) not in (None, "")}
    found = standings(store, list(dict.fromkeys(claimed.values())), as_of, known_at)
    matches = {i: _Match("id", 1.0, d) for i, d in claimed.items() if d in found}
    unpublished: set[str] = set()
    missing = sorted({d for d in claimed.values() if d not in found})
    if missing:  # an id the graph holds, not yet published by as_of, is still that document
        unpublished = {r["doc_id"] for r in store.read("guard_documents", ids=missing)}
        matches |= {i: _Match("id", 1.0, d) for i, d in claimed.items() if d in unpublished}
    texts = {i: x.text for i, x in enumerate(inputs) if i not in matches}
    if texts:
        matches |= match_texts(store, embedder, texts, stop)
        more = sorted({m.doc_id for m in matches.values()
                       if m.doc_id and m.doc_id not in found and m.doc_id not in unpublished})
        if more:
            found |= standings(store, more, as_of, known_at)
    items = []
    for i, x in enumerate(inputs):
        m = matches[i]
        standing = found.get(m.doc_id) if m.doc_id else None
        items.append(GuardedItem(
            index=i, text=x.text, metadata=x.metadata, match=m.how, score=m.score,
            doc_id=m.doc_id, title=standing.title if standing else None,
            status=standing.status if standing else None,
            controlling=standing.controlling if standing else (),
            superseded_by=standing.superseded_by if standing else (),
            candidates=m.candidates))
    return GuardReport(policy, as_of, known_at, question,
                       apply_policy(items, policy, as_of, question, id_key))


def _hop_json(hop: Hop) -> dict[str, Any]:
    return {"from_id": hop.from_id, "to_id": hop.to_id, "rule": hop.rule,
            "effective": hop.effective.isoformat() if hop.effective else None,
            "evidence": hop.evidence, "partial": hop.partial}


def _result_json(result: Result) -> dict[str, Any]:
    return {"doc_id": result.doc_id, "title": result.title, "status": str(result.status),
            "kind": result.kind, "domain": result.domain,
            "published": result.published.isoformat() if result.published else None,
            "chain": [_hop_json(h) for h in result.chain]}
