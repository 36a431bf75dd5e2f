"""Verdicts for RAG: is the document a question is about still in force, and if not, what
controls it -- plus a compact, citation-bearing context block for an LLM prompt.

Pure logic over the typed results of retrieval (``Retrieval``) and of the subject's closure
(``Explanation``); ``CarClient.answer`` runs the two queries and calls ``decide``. Nothing here
touches the database or a model, so every branch is unit-tested on hand-made objects. What a
question quotes of a document -- the runs of words, the quote constants, the rules reading them
(``quoted_beside``, ``quoted_elsewhere``) -- is ``car_graph.quoting``.

A verdict asserts a single subject only when the evidence singles it out (``judge``):

* the top anchor leads the next one by at least ``VERDICT_MARGIN`` on the fused score (which
  already carries the boosts of the identifiers and names the question gives: an exact
  identifier adds 2.5, more than dense + lexical can reach) -- unless the question quotes the
  whole title of another anchor the verdict read and not the top one's; or
* every anchor within the margin (a *close candidate*) leads to the same controlling documents,
  so the reading does not change the answer; or
* it is the one close candidate left of a kind that is voided, the others being of a kind that
  only voids others in what the verdict read (``voiding_kinds``: withdrawals, recalls, release
  notes answer "is it still in force?", they are not what it asks about), and it holds what
  the question names and writes every number the question gives (``unplaced_number``); those
  others are no readings of the question either, and when several of a voided kind are left,
  the readings are those within the margin of the best of them (``asked_window``), not of the
  answer that led; when every close candidate only answers, the readings of the kinds asked
  about are read beside them (``beside_answers``: "Was astemizole recalled or withdrawn?"
  leads with its withdrawals, the approval they void further down); or
* exactly one close candidate holds, in its scope, the names the question gives, and no
  other close candidate fits the question's own words better (``outfitted``); or
* exactly one close candidate's whole title (of ``MIN_QUOTED_TITLE_WORDS`` words or more), or a
  run of ``MIN_QUOTED_TEXT_WORDS`` words of its text, is quoted in the question, no other close
  candidate fits its words better, and no more than ``MAX_QUOTE_SHARERS`` other documents of
  its kind and scope outside its chain hold the same passage (a family's boilerplate); of
  several siblings quoting it, the one quoting ``MIN_QUOTED_TEXT_WORDS`` words more than any
  other; or
* exactly one close candidate holds a run of the question's words that no other close candidate
  holds, no other document of its kind in the corpus holds (``distinct_passage``, counted by
  ``passage_holders``), with a word no other close candidate holds at all and at most
  ``MAX_QUOTE_SHARERS`` other documents of its kind do ("indicated for gout": one approval says
  "Indication: Gout"; a word it writes only inside a qualified name the question does not
  write, "scanner" of go/scanner, is not its own, nor is an everyday English word,
  ``EVERYDAY_WORD_ZIPF``: "shows", unless written as a name's: "Williamson County"); it holds
  every mention the question links,
  and no other close candidate fits the question's words better.

Otherwise the verdict is ``AMBIGUOUS``: it lists the close candidates, each with its own status
and controlling documents, and is never IN FORCE -- the summary says which readings are voided
and by what, or that every reading agrees (``Verdict.agreed_reading``). Two rules move the
subject after ``judge``: an IN FORCE answer to another top anchor the question names is that
anchor's answer (``answered_subjects``; anchors it answers within the margin of each other stay
ambiguous), and answers that all void one retrieved anchor make it the subject
(``voided_by_every_candidate``). A question naming several subjects ("Is X or Y still in force?") gets one verdict
per named subject (kind ``MULTIPLE``, the per-subject verdicts in ``subjects``). So does a
question that, beside its one subject, quotes a sentence of another top anchor that the subject
does not hold (``quoted_beside``: "the tar issue \"...\"", named by an ordinary word). A
question with a decisive subject, or naming several, also gets a verdict on a document it quotes
that none of their documents writes and the retrieval did not reach (``quoted_elsewhere``: a
product named by a common word, "distributed", whose sentence the question repeats, perhaps
leaving the product's name out of it: "it was found that is vulnerable to ...").

The margin was set on the dev splits of the verdict sets (docs/notes/verdict-rules-2026-12.md, "How sure a verdict is").
Without anchor scores (a hand-made ``Retrieval``) the top anchor is trusted, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from enum import StrEnum
from typing import Any, Protocol

from car_graph.extraction import stop_words
from car_graph.keys import entity_key, own_name
from car_graph.lexicon import Lexicon, lexicon
from car_graph.linking import (
    DEFINED_NAME,
    LinkingSettings,
    holds_passage,
    is_common_word,
    only_in_qualified_names,
    porter_stem,
    setting_words,
    spelled_out,
    words,
    written_as_name,
    written_as_spelled,
)
from car_graph.metrics import Reading, VerdictOutcome
from car_graph.quoting import (
    MAX_QUOTE_SHARERS,
    MIN_QUOTED_TEXT_WORDS,
    QUOTE_WORD_ZIPF,
    QuoteSharers,
    distinct_passage,
    few_share,
    held_positions,
    mention_positions,
    name_positions,
    on_chain_of,
    quoted_beside,
    quoted_elsewhere,
    quoted_for_others,
    quoted_holder,
    quoted_run,
    quoted_whole_or_in_part,
    quotes_title,
    title_and_text,
    written_inside_quote,
)
from car_graph.reading import (
    Accounting,
    AccountingWeights,
    accounted_for,
    content_words,
    setting_phrases,
    weights,
)
from car_graph.types import Explanation, Hop, Result, Retrieval, Status


class VerdictKind(StrEnum):
    IN_FORCE = "in_force"
    SUPERSEDED = "superseded"
    PARTIALLY_SUPERSEDED = "partially_superseded"
    WITHDRAWN = "withdrawn"
    UNRESOLVED = "unresolved"
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"   # several close candidates read differently: see ``candidates``
    MULTIPLE = "multiple"     # the question names several subjects: see ``subjects``


# The fused-score lead the top anchor needs over the next one to be asserted as the subject.
# Fused scores are dense + lexical, each min-max normalised to [0, 1], plus the boosts of linked
# entities (1.0 per name, 2.5 per identifier). Chosen on the dev splits (docs/notes/verdict-rules-2026-12.md): the
# smallest margin at which decisive precision reaches 0.99 on every dev verdict set.
VERDICT_MARGIN = 1.0
# The close anchors a verdict weighs at most (the ``k`` of ``verdict_for`` and ``judge``), and the
# holders of each linked entity it reads: a property of the verdict, not of how many results a
# caller lists. ``CarClient.answer`` judges every question at this depth whatever its ``k``, so
# one question gets one verdict (issue 60: ``ask`` and ``retrieve -k 3`` disagreed when the k-th
# anchor cut a close candidate off). 5, the default ``k`` the margin and the dev verdict sets
# were measured at, so their verdicts are unchanged.
VERDICT_DEPTH = 5
# The least text fit (``Retrieval.anchor_text_scores``: dense + lexical, each in [0, 1], without
# the entity boosts) a subject singled out by a linked name, not an identifier, needs to be
# asserted. A name the question uses as an ordinary word ("archive/tar") links a document that
# carries the name and fits nothing else the question says. Chosen on the dev splits
# (docs/notes/verdict-rules-2026-12.md): every decisive name-held subject there fits at >= 1.0 (the named subjects of the
# two-named sets at >= 0.68 but one, 0.24, superseded); the spurious in-force one at 0.27.
MIN_TEXT_FIT = 0.5
# The question's words besides a name's own that another document must write with it, in the
# question's order, to be read as using the name as a word of its text (``verdict_for``)
WORDS_AROUND_A_NAME = 2
# The reason a subject left alone among candidates of a kind that only answers is asserted
# (``judge``): the weakest evidence, which a quote of another holder overrides (``verdict_for``)
BY_ELIMINATION = "the others are of a kind that answers"
# Words a question uses to ask whether something is still in force, not to say which document it
# means ("is it still unresolved?"): the lexicon's ``status_words`` (resources/lexicon/en.yaml).
def cues_of(retrieval: Retrieval) -> Lexicon:
    """The lexicon the question was read with (``Retrieval.cues``: English and the graph's
    domains' own cue words), else the bundled English one (a hand-made retrieval)."""
    return retrieval.cues if retrieval.cues is not None else lexicon()

# A word this frequent in English (wordfreq's Zipf scale: 5 = once per 100,000 words; "shows",
# "heart", "pain") is everyday wording a question may use for itself: a candidate that alone
# holds such words, and none rarer, is not singled out by them ("Our container image scan still
# shows a flaw ..." and an advisory whose page "shows a green URL") -- unless the question
# writes the word as part of a name ("as Williamson County held": ``written_as_name``).
# Indications and flaw words ("gout", "insomnia", "participants", "imaging") are rarer.
EVERYDAY_WORD_ZIPF = 5.0
# a rare word of a question that at least this many documents of a lead's kind hold, and the
# lead does not, is a topic of the corpus the lead is not about (``strays_from_lead``)
MIN_WORD_HOLDERS = 2


class Corpus(Protocol):
    """What a verdict may ask of the whole graph beyond the retrieval (``Retriever`` is one),
    only when the retrieval alone leaves the verdict ambiguous."""

    def passage_holders(self, asks: Sequence[tuple[str, str]], as_of: date | None,
                        known_at: datetime | None) -> list[int | None]:
        """For each (doc_id, a passage of its title or text): how many other documents of its
        kind anywhere in the corpus as of ``as_of`` and as recorded at ``known_at``, outside its
        supersession chain, hold the passage; None when the index cannot vouch for it. One
        statement for all."""
        ...

    def quoted_documents(self, passage: str, as_of: date | None,
                         known_at: datetime | None) -> list[tuple[str, str]]:
        """The documents that fit ``passage`` (words of the question) best lexically, a few,
        each as (doc_id, its title and text), in the corpus as of ``as_of`` and as recorded at
        ``known_at``. One statement."""
        ...

    def kind_holders(self, doc_id: str, mentions: Sequence[Sequence[str]], as_of: date | None,
                     known_at: datetime | None) -> int:
        """How many other documents of ``doc_id``'s kind, in the corpus as of ``as_of`` and as
        recorded at ``known_at``, hold an entity ("type:key") of every one of ``mentions`` --
        whether any does, at least. One statement."""
        ...

    def word_holders(self, doc_id: str, kind: str, asked: Sequence[str], as_of: date | None,
                     known_at: datetime | None) -> list[tuple[bool, int] | None]:
        """For each word of ``asked``: whether ``doc_id`` holds it in some form and how many
        other documents of ``kind`` do, in the corpus as of ``as_of`` and as recorded at
        ``known_at``; None when too many do to tell. One statement."""
        ...

    def answering_kinds(self, as_of: date | None, known_at: datetime | None) -> frozenset[str]:
        """The kinds of document that, in the whole graph as of ``as_of`` and as recorded at
        ``known_at``, supersede others and are never superseded (withdrawals, recalls):
        documents that answer questions, not subjects."""
        ...

# Voided: a reading under which the document asked about is no longer (wholly) in force.
VOIDED_KINDS = frozenset({"superseded", "partially_superseded", "withdrawn", "unresolved"})


# The readings an ambiguous verdict's candidates may agree on (``Verdict.agreed_reading``): each
# voids the document wholly, so "which one is meant" does not change the answer. Not a partial
# supersession (the rest of each stays in force) nor an unresolved one (no rule decided).
AGREEING_KINDS = frozenset({VerdictKind.SUPERSEDED, VerdictKind.WITHDRAWN})


def _agreement(reading: Verdict) -> str:
    """What every reading of an ambiguous verdict says, for its summary and context."""
    others = [c for c in reading.controlling if c.doc_id != reading.subject_id]
    by = "; ".join(_name(c.doc_id, c.title) for c in others)
    return f"{reading.kind.value.replace('_', ' ')}" + (f", controlled by {by}" if by else "")


_KIND_BY_STATUS = {
    Status.ACTIVE: VerdictKind.IN_FORCE,
    Status.SUPERSEDED: VerdictKind.SUPERSEDED,
    Status.PARTIALLY_SUPERSEDED: VerdictKind.PARTIALLY_SUPERSEDED,
    Status.WITHDRAWN: VerdictKind.WITHDRAWN,
    Status.UNRESOLVED: VerdictKind.UNRESOLVED,
}

# Prompt text, kept short: the model is told where authority lies, the sources say why.
DEFAULT_INSTRUCTIONS = (
    "Answer the question from the sources below. A document marked SUPERSEDED or WITHDRAWN is no "
    "longer in force: answer from the document that controls it and say so. Cite sources as [n]."
)
EXCERPT_CHARS = 300
EVIDENCE_CHARS = 240


@dataclass(frozen=True)
class Source:
    """One numbered document of the context block."""

    number: int
    doc_id: str
    title: str
    status: str
    published: date | None = None
    kind: str | None = None
    role: str = "retrieved"   # subject | controlling | retrieved
    chain: tuple[Hop, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Verdict:
    """Where the document a question is about stands, and what controls it."""

    question: str
    as_of: date | None
    kind: VerdictKind
    subject_id: str | None = None
    subject_title: str = ""
    superseded_by: tuple[Hop, ...] = ()     # the subject's direct superseders in force on as_of
    controlling: tuple[Result, ...] = ()    # end of every chain from the subject (itself if in force)
    retrieval: Retrieval | None = None
    scope: tuple[str, ...] = ()
    ambiguous_scopes: tuple[str, ...] = ()
    llm_answer: str | None = None
    notes: tuple[str, ...] = ()
    # how sure: the fused score of the subject (or of the top candidate), its lead over the next
    # anchor, the margin required, and what singled the subject out
    score: float | None = None
    lead: float | None = None
    margin: float | None = None
    singled_out_by: str = ""
    candidates: tuple[Verdict, ...] = ()   # AMBIGUOUS: one verdict per close candidate, best first
    subjects: tuple[Verdict, ...] = ()     # MULTIPLE: one verdict per named subject
    # how much of the question's content the documents found hold (``reading.accounted_for``):
    # the evidence of NOT_FOUND; None when not read (a hand-made verdict)
    accounting: Accounting | None = None

    @property
    def decisive(self) -> bool:
        """A single subject is asserted (not ambiguous, not several, not nothing found)."""
        return self.subject_id is not None and self.kind not in (
            VerdictKind.AMBIGUOUS, VerdictKind.MULTIPLE, VerdictKind.NOT_FOUND)

    # -- one-line summary ------------------------------------------------------------------
    @property
    def summary(self) -> str:
        if self.kind is VerdictKind.AMBIGUOUS:
            return self._ambiguous_summary()
        if self.kind is VerdictKind.MULTIPLE:
            return " ".join(s.summary for s in self.subjects)
        if self.kind is VerdictKind.NOT_FOUND or self.subject_id is None:
            # a named subject found wanting (``unanswered``) says why, in the context too
            why = f" ({'; '.join(self.notes)})" if self.notes else ""
            return f"No document found for: {self.question}{why}"
        subject = _name(self.subject_id, self.subject_title)
        when = f" as of {self.as_of}" if self.as_of else ""
        others = [c for c in self.controlling if c.doc_id != self.subject_id]
        by = "; ".join(_name(c.doc_id, c.title) for c in others)
        if self.kind is VerdictKind.IN_FORCE:
            return f"{subject} is in force{when}."
        if self.kind is VerdictKind.SUPERSEDED:
            direct = [f"{_name(h.to_id, self._title(h.to_id))} (rule {h.rule}, effective "
                      f"{h.effective or 'undated'})" for h in self.superseded_by]
            direct_ids = {h.to_id for h in self.superseded_by}
            further = [_name(c.doc_id, c.title) for c in others if c.doc_id not in direct_ids]
            controls = f"; now controlled by {'; '.join(further)}" if further and direct else ""
            return f"{subject} is superseded{when} by {' and '.join(direct) or by}{controls}."
        if self.kind is VerdictKind.PARTIALLY_SUPERSEDED:
            parts = ", ".join(_name(h.to_id, self._title(h.to_id)) for h in self.superseded_by)
            return f"{subject} is partially superseded{when} (in part by {parts or by}); the rest stays in force."
        if self.kind is VerdictKind.WITHDRAWN:
            return f"{subject} is withdrawn{when} and nothing supersedes it."
        return (f"{subject} is unresolved{when}: a later document of its scope may supersede it "
                "but no rule decided (or it sits on a supersession cycle).")

    @property
    def agreed_reading(self) -> Verdict | None:
        """Of an ambiguous verdict whose candidates all read alike -- every one voided the same
        way (``AGREEING_KINDS``) with the same controlling documents (four approvals of one drug,
        all withdrawn by one withdrawal) -- the first candidate: whichever document the question
        means, the answer is the same. None otherwise. The subject stays unasserted."""
        if self.kind is not VerdictKind.AMBIGUOUS or len(self.candidates) < 2:
            return None
        first = self.candidates[0]
        mine = {r.doc_id for r in first.controlling}
        if first.kind not in AGREEING_KINDS or not mine:
            return None
        if all(c.kind is first.kind and {r.doc_id for r in c.controlling} == mine
               for c in self.candidates[1:]):
            return first
        return None

    def _ambiguous_summary(self) -> str:
        voided = [c for c in self.candidates if c.kind.value in VOIDED_KINDS]
        head = (f"The question fits {len(self.candidates)} documents about equally well; no single "
                "one is singled out, so none is asserted to be in force."
                if len(self.candidates) != 1
                else "The question's best match is not singled out, so it is not asserted to be in force.")
        readings = " ".join(f"If it means {_name(c.subject_id or '', c.subject_title)}: {c.summary}"
                            for c in self.candidates)
        agreed = self.agreed_reading
        if agreed is not None:
            warn = f" Every reading agrees: {_agreement(agreed)}."
        else:
            warn = (f" {len(voided)} of these readings point{'s' if len(voided) == 1 else ''} "
                    "to a document no longer in force." if voided else "")
        return f"{head}{warn} {readings}"

    def _title(self, doc_id: str) -> str:
        for result in self._known_results():
            if result.doc_id == doc_id:
                return result.title
        return ""

    def _known_results(self) -> Iterable[Result]:
        yield from self.controlling
        for other in (*self.candidates, *self.subjects):
            yield from other._known_results()
        if self.retrieval is not None:
            yield from self.retrieval.results

    # -- prompt context --------------------------------------------------------------------
    def sources(self, limit: int | None = None) -> list[Source]:
        """The subject, its controlling documents, then the other retrieved results, numbered."""
        texts = {r.doc_id: r.text for r in self._known_results() if r.text}
        seen: dict[str, Source] = {}

        def add(doc_id: str, **kwargs: Any) -> None:
            if doc_id not in seen:
                seen[doc_id] = Source(number=len(seen) + 1, doc_id=doc_id,
                                      text=texts.get(doc_id, ""), **kwargs)

        readings = [(self, "subject"), *((c, "candidate") for c in self.candidates)]
        for subject in self.subjects:  # a named subject left ambiguous lists its candidates
            readings += [(subject, "subject"), *((c, "candidate") for c in subject.candidates)]
        for reading, role in readings:
            if reading.subject_id is not None:
                add(reading.subject_id, title=reading.subject_title,
                    status=_subject_status(reading.kind), role=role)
            for result in reading.controlling:
                add(result.doc_id, title=result.title, status=str(result.status),
                    published=result.published, kind=result.kind, role="controlling",
                    chain=result.chain)
        if self.retrieval is not None:
            for result in self.retrieval.results:
                add(result.doc_id, title=result.title, status=str(result.status),
                    published=result.published, kind=result.kind, chain=result.chain)
        ordered = list(seen.values())
        return ordered if limit is None else ordered[:limit]

    def context(self, limit: int | None = 8, excerpt_chars: int = EXCERPT_CHARS) -> str:
        """A compact block for an LLM prompt: the verdict, then numbered sources with status,
        date and the chain (rule, effective date, evidence) from the subject to each."""
        sources = self.sources(limit)
        number = {s.doc_id: s.number for s in sources}
        lines = [f"Question: {self.question}"]
        if self.as_of:
            lines.append(f"As of: {self.as_of}")
        if self.kind is VerdictKind.AMBIGUOUS:
            lines.append(
                # one reading, not singled out: the question may mean a document not retrieved
                "Verdict: AMBIGUOUS. The best match below is not singled out by the question, "
                "which may mean a document not found here. Do not assume it: say the answer is "
                "uncertain and give the reading below only as a possibility, or ask which "
                "document is meant." if len(self.candidates) == 1 else
                "Verdict: AMBIGUOUS. The question fits several documents about equally well and "
                "does not say which one it means. Do not assume one: say the question is "
                "ambiguous and answer for each reading below, or ask which document is meant.")
            voided = [c for c in self.candidates if c.kind.value in VOIDED_KINDS]
            agreed = self.agreed_reading
            if agreed is not None:
                lines.append(f"Every reading agrees: {_agreement(agreed)}. Whichever document "
                             "is meant, the answer is NOT in force.")
            elif voided:
                lines.append("Caution: " + "; ".join(
                    f"{c.subject_id} is {c.kind.value.replace('_', ' ')}" for c in voided)
                    + ". Under those readings the answer is NOT in force.")
            for i, candidate in enumerate(self.candidates, 1):
                lines.append(f"Reading {i}: {candidate.kind.value.upper().replace('_', ' ')}. "
                             f"{candidate.summary}")
        elif self.kind is VerdictKind.MULTIPLE:
            lines.append(f"Verdict: the question names {len(self.subjects)} documents; one "
                         "verdict each.")
            for i, subject in enumerate(self.subjects, 1):
                lines.append(f"Subject {i}: {subject.kind.value.upper().replace('_', ' ')}. "
                             f"{subject.summary}")
        else:
            lines.append(f"Verdict: {self.kind.value.upper().replace('_', ' ')}. {self.summary}")
        if self.ambiguous_scopes:
            lines.append("Caution: several independent chains share the scope "
                         f"{', '.join(self.ambiguous_scopes[:3])}; more than one document may control.")
        if not sources:
            return "\n".join(lines)
        lines.append("Sources:")
        for source in sources:
            meta = ", ".join(x for x in (source.kind, str(source.published) if source.published else None) if x)
            meta = f" ({meta})" if meta else ""
            role = {"subject": " [asked about]", "controlling": " [CONTROLLING]",
                    "candidate": " [possibly asked about]"}.get(source.role, "")
            lines.append(f"[{source.number}] {source.doc_id}: {source.title}{meta}; "
                         f"status {source.status.upper()}{role}")
            for hop in source.chain:
                older = f"[{number[hop.from_id]}]" if hop.from_id in number else hop.from_id
                part = " in part" if hop.partial else ""
                lines.append(f"    {older} superseded{part} by [{source.number}] under rule {hop.rule}, "
                             f"effective {hop.effective or 'undated'}"
                             + (f"; evidence: {_clip(hop.evidence, EVIDENCE_CHARS)}" if hop.evidence else ""))
            if source.text and excerpt_chars > 0:
                lines.append(f"    excerpt: {_clip(source.text, excerpt_chars)}")
        return "\n".join(lines)

    def prompt(self, instructions: str = DEFAULT_INSTRUCTIONS, limit: int | None = 8) -> str:
        return f"{instructions}\n\n{self.context(limit)}\n\nAnswer:"

    # -- JSON ------------------------------------------------------------------------------
    def reading_json(self) -> dict[str, Any]:
        """One reading (a candidate of an ambiguous verdict, a subject of a multiple one): the
        top level's ``subject``, ``superseded_by``, ``controlling`` and ``notes`` shapes, with
        the subject's ``status`` and its own ``verdict`` and ``summary``."""
        return {
            "subject": self._subject_json(),
            "status": _subject_status(self.kind),
            "verdict": self.kind.value,
            "summary": self.summary,
            "score": _round(self.score),
            "superseded_by": [_hop_json(h) for h in self.superseded_by],
            "controlling": [_controlling_json(r) for r in self.controlling],
            # a named subject of a multiple verdict that stayed ambiguous: its readings
            "candidates": [c.reading_json() for c in self.candidates],
            "agreed_reading": self._agreed_json(),
            "notes": list(self.notes),
        }

    def _subject_json(self) -> dict[str, Any] | None:
        return ({"doc_id": self.subject_id, "title": self.subject_title,
                 "scope": list(self.scope)} if self.subject_id else None)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "verdict": self.kind.value,
            "summary": self.summary,
            "subject": self._subject_json(),
            "superseded_by": [_hop_json(h) for h in self.superseded_by],
            "controlling": [_controlling_json(r) for r in self.controlling],
            "ambiguous_scopes": list(self.ambiguous_scopes),
            "notes": list(self.notes),
            "sources": [
                {"n": s.number, "doc_id": s.doc_id, "title": s.title, "status": s.status,
                 "role": s.role} for s in self.sources()
            ],
            "llm_answer": self.llm_answer,
            "decisive": self.decisive,
            "confidence": {"score": _round(self.score), "lead": _round(self.lead),
                           "margin": self.margin, "singled_out_by": self.singled_out_by},
            "candidates": [c.reading_json() for c in self.candidates],
            "subjects": [s.reading_json() for s in self.subjects],
            # an ambiguous verdict whose candidates all read alike: that reading's verdict,
            # status and controlling documents (the subject stays unasserted)
            "agreed_reading": self._agreed_json(),
            # what the documents found account for of the question (NOT_FOUND's evidence)
            "accounting": self.accounting.to_json() if self.accounting is not None else None,
            "why": self.why(),
        }

    def why(self, limit: int = VERDICT_DEPTH) -> dict[str, Any]:
        """The evidence the verdict weighed, for a reader (``car-graph ask --why``, the
        ``why`` key of ``to_json``): what singled the subject out and by how much (fused score,
        lead, margin), then for each of the top ``limit`` anchors its fused score, how well its
        text alone fits the question, the question's entities it holds, and its role in the
        verdict (subject, candidate, subject of one of several, or read); and the accounting
        of the question's content words that NOT_FOUND reads."""
        retrieval = self.retrieval
        roles = {c.subject_id: "candidate" for c in self.candidates}
        roles.update({s.subject_id: "subject" for s in self.subjects})
        if self.subject_id is not None:
            roles[self.subject_id] = "subject"
        anchors = []
        if retrieval is not None:
            for i, doc_id in enumerate(retrieval.anchors[:limit]):
                anchors.append({
                    "doc_id": doc_id,
                    "score": _round(_at(retrieval.anchor_scores, i)),
                    "text_fit": _round(_at(retrieval.anchor_text_scores, i)),
                    "holds": list(_at(retrieval.anchor_held, i) or ()),
                    "role": roles.get(doc_id, "read"),
                })
        return {"singled_out_by": self.singled_out_by, "score": _round(self.score),
                "lead": _round(self.lead), "margin": self.margin,
                "question_entities": list(retrieval.question_entities) if retrieval else [],
                "anchors": anchors,
                "accounting": self.accounting.to_json() if self.accounting is not None else None}

    def _agreed_json(self) -> dict[str, Any] | None:
        agreed = self.agreed_reading
        if agreed is None:
            return None
        return {"verdict": agreed.kind.value, "status": _subject_status(agreed.kind),
                "controlling": [_controlling_json(r) for r in agreed.controlling]}


def subject_of(retrieval: Retrieval) -> str | None:
    """The document the question is about: the anchor of the top-ranked result."""
    return retrieval.results[0].anchor_id if retrieval.results else None


def in_force_on(hop: Hop, as_of: date | None) -> bool:
    return as_of is None or hop.effective is None or hop.effective <= as_of


def decide(retrieval: Retrieval, explanation: Explanation | None) -> Verdict:
    """The verdict for ``retrieval``'s subject, given the subject's ``explanation`` (None when
    retrieval found nothing)."""
    if explanation is None or not retrieval.results:
        return Verdict(question=retrieval.question, as_of=retrieval.as_of,
                       kind=VerdictKind.NOT_FOUND, retrieval=retrieval)
    kind = _KIND_BY_STATUS[explanation.status]
    hops = [h for h in explanation.superseded_by if in_force_on(h, retrieval.as_of)]
    if kind is VerdictKind.SUPERSEDED:
        hops = [h for h in hops if not h.partial]
    elif kind is VerdictKind.PARTIALLY_SUPERSEDED:
        hops = [h for h in hops if h.partial]
    else:
        hops = []
    # Controlling documents first by how directly they control (shorter chains), then newest.
    controlling = tuple(sorted(
        explanation.controlling,
        key=lambda r: (len(r.chain), -(r.published.toordinal() if r.published else 0), r.doc_id),
    ))
    notes = []
    if len(controlling) > 1 and kind is VerdictKind.SUPERSEDED:
        notes.append(f"{len(controlling)} documents control it (several chains)")
    statuses = {c.doc_id: c.status for c in controlling if c.doc_id != explanation.doc_id}
    for doc_id, status in statuses.items():
        if status is not Status.ACTIVE:
            notes.append(f"controlling document {doc_id} is itself {status}")
    return Verdict(
        question=retrieval.question,
        as_of=retrieval.as_of,
        kind=kind,
        subject_id=explanation.doc_id,
        subject_title=explanation.title,
        # dated superseders first, in the order they took effect
        superseded_by=tuple(sorted(hops, key=lambda h: (h.effective is None, h.effective or date.min, h.to_id))),
        controlling=controlling,
        retrieval=retrieval,
        scope=explanation.scope,
        # only the subject's own scopes, read with its closure (the same whatever k listed):
        # other anchors' kappa says nothing about this verdict
        ambiguous_scopes=(explanation.ambiguous_scopes if explanation.ambiguous_scopes is not None
                          else tuple(s for s in retrieval.ambiguous_scopes if s in explanation.scope)),
        notes=tuple(notes),
    )


def with_llm(verdict: Verdict, llm: Callable[[str], str],
             instructions: str = DEFAULT_INSTRUCTIONS) -> Verdict:
    """The optional hook: ask ``llm`` (prompt -> text) and keep its answer beside the verdict."""
    return replace(verdict, llm_answer=llm(verdict.prompt(instructions)))


def close_anchors(retrieval: Retrieval, margin: float = VERDICT_MARGIN,
                  limit: int | None = None, top: str | None = None) -> tuple[str, ...]:
    """The top anchor (``top``, else the top result's) and every anchor whose fused score is
    within ``margin`` of it, best first, at most ``limit`` (the k of the retrieval by default).
    Without scores: the top only."""
    top = top or subject_of(retrieval)
    if top is None:
        return ()
    if len(retrieval.anchor_scores) != len(retrieval.anchors) or not retrieval.anchors:
        return (top,)
    limit = limit or max(len(retrieval.results), 1)
    best = retrieval.anchor_scores[0]
    close = [a for a, s in zip(retrieval.anchors, retrieval.anchor_scores, strict=True)
             if s >= best - margin]
    if top not in close:  # the top result's anchor leads by construction; keep it first anyway
        close.insert(0, top)
    ordered = [top, *(a for a in close if a != top)]
    return tuple(ordered[:limit])


def lead_of(retrieval: Retrieval) -> float | None:
    """How far the top anchor's fused score leads the next anchor's (None: no next anchor or
    no scores)."""
    scores = retrieval.anchor_scores
    return scores[0] - scores[1] if len(scores) >= 2 else None


def _score_of(retrieval: Retrieval, anchor: str) -> float | None:
    for a, s in zip(retrieval.anchors, retrieval.anchor_scores, strict=False):
        if a == anchor:
            return s
    return None


def _reading(explanation: Explanation) -> frozenset[str]:
    return frozenset(c.doc_id for c in explanation.controlling)


def judge(retrieval: Retrieval, explanations: Mapping[str, Explanation],
          margin: float = VERDICT_MARGIN, limit: int | None = None,
          held: Mapping[str, Iterable[str]] | None = None, top: str | None = None,
          sharers: QuoteSharers | None = None, corpus: Corpus | None = None,
          lead_needs_reason: bool = False, foreign: Collection[int] = frozenset()) -> Verdict:
    """The verdict on ``retrieval``, given the explanations of (at least) its close anchors
    (``close_anchors``). Asserts one subject only when the evidence singles it out (module
    docstring); otherwise AMBIGUOUS with one reading per close candidate. ``top``: the anchor
    to start from (default: the top result's). ``sharers``: asked only when a quote would single
    a candidate out (None: quotes are taken as unique, a hand-made retrieval). ``corpus``:
    asked only when the retrieval alone leaves the verdict ambiguous (None: not consulted).
    ``lead_needs_reason``: a lead ``lead_explained`` finds nothing for singles nothing out
    (``named_verdict``, among one mention's holders). ``foreign``: positions of the question's
    words it quotes for another subject (``quoted_for_others``), no candidate's own words."""
    top = top or subject_of(retrieval)
    if top is None or top not in explanations:
        return decide(retrieval, None)
    close = [a for a in close_anchors(retrieval, margin, limit, top) if a in explanations]
    lead = lead_of(retrieval)

    def single(anchor: str, why: str) -> Verdict:
        return replace(decide(retrieval, explanations[anchor]), score=_score_of(retrieval, anchor),
                       lead=lead, margin=margin, singled_out_by=why)

    if len(close) <= 1 and not quotes_title(retrieval.question, explanations[top].title):
        # a whole title the question quotes, of an anchor read beyond the margin, outranks the
        # lead of one whose title it does not quote
        beyond = [a for a in retrieval.anchors[:limit] if a in explanations and a != top
                  and quotes_title(retrieval.question, explanations[a].title)]
        if len(beyond) == 1 and few_share(sharers, beyond[0], explanations[beyond[0]].title):
            return single(beyond[0], "title quoted in the question")
    if len(close) == 1 and lead is not None and lead_needs_reason:
        # the anchors behind it that are not on its chain: a release quoting the advisory it
        # fixes, or the withdrawal of an approval, holds its words and answers it
        behind = off_chain(retrieval, explanations[top], explanations, limit)
        if behind and not lead_explained(retrieval, top, behind[0][0], explanations, held):
            # a lead the question's words do not account for (a shorter text of the same name
            # ranks higher on both scores) is no evidence: the next of them, and every anchor
            # within the margin of it, stay readings. Only among one mention's holders: for the
            # whole question the margin alone was tuned, and on the dev probes the same rule
            # there only made one approval of a withdrawn drug's two the answer
            close = [top, *(a for a, s in behind if s >= behind[0][1] - margin)]
    if len(close) == 1 and lead is not None and not lead_needs_reason and corpus is not None:
        # a lead among the documents of a name the question links, on words of its own frame
        # ("In our Node.js app, npm audit reports a flaw that has CSRF. Is there a fix?": node's
        # advisory about npm tokens leads on "npm"), while a rare word of the question that many
        # documents of its kind hold and it does not ("CSRF") is what the question is about:
        # the next anchors off its chain, within the margin of the first, stay readings
        walked = retrieval.walked
        behind = off_chain(retrieval, explanations[top], {*explanations, *walked}, limit)
        if behind and strays_from_lead(retrieval, top, behind[0][0], explanations, corpus):
            close = [top, *(a for a, s in behind if s >= behind[0][1] - margin)]
            explanations = {**{a: walked[a] for a in close if a not in explanations}, **explanations}
    if len(close) <= 1:
        why = "margin" if lead is not None else ("only candidate" if retrieval.anchor_scores
                                                 else "top result")
        return single(top, why)
    if corpus is not None:
        explanations, close = beside_answers(retrieval, close, explanations, corpus, margin, limit)
    answers = answering(close, explanations)
    if answers and len(answers) < len(close):
        # a close candidate that supersedes another one is that one's answer, not a second
        # subject (a withdrawal beside the approval it withdraws, the release fixing an
        # advisory): the question is about the candidates left
        close = [a for a in close if a not in answers]
        if len(close) == 1:
            return single(close[0], "the others answer it")
    if len(close) > 1:
        # a candidate of a kind that, in what the verdict read, only voids others (the kind of
        # a controlling document of a voided candidate, and of no voided one: withdrawals,
        # recalls, release notes) answers "is it still in force?"; beside candidates of a kind
        # that is voided, the question asks about those ("Would a pharmacy still fill
        # phenformin?": the approval, not another country's withdrawal). Left alone so, a
        # candidate is singled out only if it holds what the question names: elimination is no
        # evidence about a question that names nothing (an indication several approvals share,
        # a flaw's generic wording)
        voiding = voiding_kinds(close, explanations)
        if corpus is not None:
            # the whole graph may tell what the readings do not: a recall of one lot beside
            # the approval the question asks about voids nothing the verdict read, but recalls
            # only ever void, as withdrawals do
            voiding |= corpus.answering_kinds(retrieval.as_of, retrieval.known_at)
        asked = [a for a in close if explanations[a].kind not in voiding]
        if len(asked) == 1:
            mine = set(held.get(asked[0], ()) if held is not None else explanations[asked[0]].scope)
            groups = question_mentions(retrieval)
            # ... and accounts for every number the question gives: "Is Go still affected by
            # the one numbered 1962?" names a product of many advisories and the tail of one's
            # identifier, which the linker reads as a year; the one advisory among Go's
            # releases is then a guess
            # ... and, when every document read holds the names, it is the only one of its kind
            # that does, or leads by the margin all of its kind read and the last one read:
            # "Our Go microservice: a flaw that uses HTTP -- patched upstream?" fills the
            # readings with Go's releases and one of its 199 advisories, and the others rank
            # beyond them, unread, not far behind (the corpus asked last: a statement). Not
            # asked among one mention's holders (``lead_needs_reason``: every reading holds
            # the mention by construction); there elimination stands as before
            if (groups and all(set(g) & mine for g in groups)
                    and not unplaced_number(retrieval, explanations[asked[0]], mine)
                    and (lead_needs_reason or not filled_by(retrieval, groups)
                         or leads_the_unread(retrieval, asked[0], voiding, explanations, margin)
                         or (corpus is not None and corpus.kind_holders(
                             asked[0], [sorted(set(g) & mine) for g in groups],
                             retrieval.as_of, retrieval.known_at) == 0))):
                return single(asked[0], BY_ELIMINATION)
        if 0 < len(asked) < len(close):
            # the margin was measured from a candidate that answers; the readings the question
            # may mean are those within the margin of the best one it asks about -- the one
            # left alone is no more singled out by that than by the answers beside it
            widened, window = asked_window(retrieval, asked, voiding, explanations, margin, limit)
            if len(window) > 1:
                explanations, close = widened, window
    voided = [a for a in close if a not in _reading(explanations[a])]
    if len({_reading(explanations[a]) for a in close}) == 1 and len(voided) <= 1:
        # every reading leads to the same controlling documents and at most one candidate is
        # voided (an approval and its withdrawal, an advisory and the release fixing it): the
        # question asks about that one. Several voided ones (two approvals of one drug, both
        # withdrawn) are several documents the question may mean: ambiguous below.
        return single(voided[0] if voided else top, "same controlling documents")
    # the entities the question gives that some close candidate holds (``held``: scoped to,
    # identified or named by; else its scope); a candidate holding all of them, alone among
    # the close ones, is the one named
    holds = {a: set(held.get(a, ()) if held is not None else explanations[a].scope) for a in close}
    # a candidate holding one entity of every mention the question makes (``mention_groups``:
    # "Regitine" linked as two brands is one mention) that some close candidate holds
    named = [g for g in question_mentions(retrieval)
             if any(set(g) & holds[a] for a in close)]
    holders = [a for a in close if named and all(set(g) & holds[a] for g in named)]
    # ... unless the question writes the name only inside a passage it quotes from another
    # close candidate's text, which fits it as well: "the implementation of `ParseAttrValue`
    # (https://github.com/tensorflow/tensorflow/blob/...) can be tricked into ..." quotes two
    # advisories alike, one scoped to tensorflow, one to tensorflow-gpu -- the name in the
    # quoted URL is a word of the quote, not the question's choice between them
    if len(holders) == 1 and (identified(retrieval, holds[holders[0]])
                              or ((named_whole(retrieval, holds[holders[0]])
                                   or not outfitted(retrieval, holders[0], close))
                                  and not named_inside_quote(retrieval, holders[0], named, close,
                                                             explanations))):
        return single(holders[0], "named in the question")
    # a close candidate whose whole title the question quotes, alone among them, is the one it
    # means ("Has the Go flaw 'unbounded read from invalid inputs in encoding/binary' been dealt
    # with?" among the product's advisories) -- unless another, about something else, fits the
    # question's words better: a sibling holding the same names the question gives fits better
    # only by other words (its own wording of a similar flaw), and the quote chooses between
    # siblings -- and unless the quote is a family's boilerplate that many documents beyond
    # the close ones hold (``MAX_QUOTE_SHARERS``)
    def rivals(anchor: str) -> list[str]:
        mine = holds[anchor] & set(retrieval.question_entities)
        return [a for a in close if a == anchor or not (mine and mine <= holds[a])]

    quoted = [a for a in close if quotes_title(retrieval.question, explanations[a].title)]
    if (len(quoted) == 1 and not outfitted(retrieval, quoted[0], rivals(quoted[0]))
            and few_share(sharers, quoted[0], explanations[quoted[0]].title)):
        return single(quoted[0], "title quoted in the question")
    # ... or the one whose text it quotes, a sentence of it ("might allow remote attackers to
    # inject arbitrary web script or HTML via a filename"), which no other close candidate holds
    runs = {a: quoted_run(retrieval.question, title_and_text(explanations[a]))
            for a in close}
    at_names = name_positions(retrieval)

    def few_share_run(anchor: str) -> bool:  # the run without the names at its ends
        return few_share(sharers, anchor, quoted_run(
            retrieval.question, title_and_text(explanations[anchor]), names=at_names) or "")

    quoting = [a for a in close if runs[a] is not None]
    if (len(quoting) == 1 and not outfitted(retrieval, quoting[0], rivals(quoting[0]))
            and few_share_run(quoting[0])):
        return single(quoting[0], "text quoted in the question")
    # several siblings quote the question, one far more of it than the others: they repeat a
    # stock phrase of their kind of flaw ("allows remote attackers to inject arbitrary web
    # script or HTML"), it repeats a sentence of its own besides -- at least
    # MIN_QUOTED_TEXT_WORDS more of the question's words than any other
    if len(quoting) > 1:
        ranked = sorted(quoting, key=lambda a: len(words(runs[a] or "")), reverse=True)
        best = ranked[0]
        extra = len(words(runs[best] or "")) - len(words(runs[ranked[1]] or ""))
        others = set(rivals(best)) - {best}
        if (extra >= MIN_QUOTED_TEXT_WORDS and not others & set(quoting)
                and not outfitted(retrieval, best, rivals(best)) and few_share_run(best)):
            return single(best, "text quoted in the question")
    # ... or the one holding words of the question that no other close candidate holds and no
    # other document of its kind in the whole corpus does ("Is the drug indicated for gout still
    # approved?": one approval in the corpus says "Indication: Gout"). A passage other documents
    # of the kind share (an indication several drugs have) names none of them; nor does a phrase
    # unique only by its word order ("node module suffers" of one advisory, whose sibling writes
    # "node module before 0.4.7 suffers"): it needs a word no other close candidate holds at all,
    # which few documents of the kind do. Weaker evidence than a quote, so the candidate must also
    # hold every mention the question makes: words of one document do not answer a question that
    # also names another product. A word it writes only as a segment of a path or a member
    # ("go/scanner") is the name's, and a question using it bare ("our scanner flagged") does not
    # cite the name. Nor does a name of the asker's own setting ("Our PHP site may have cross-site
    # scripting": ``setting_words``) say which flaw the asker means, though one advisory alone
    # writes "PHP". A candidate of a kind that only answers (a recall, a withdrawal, a release
    # note: ``Corpus.answering_kinds``) is not what a question asks about by its words alone:
    # "Drug for psoriasis - withdrawn?" reads withdrawals, and a shampoo's recall that alone
    # writes "psoriasis" is no drug the question means, still less one "in force"
    if corpus is not None:
        mentions = [g for g in question_mentions(retrieval)
                    if not (set(g) <= set(retrieval.question_identifiers)
                            and all(set(g).isdisjoint(holds.get(a, ())) for a in close))]
        texts = {a: title_and_text(explanations[a]) for a in close}
        only_answer = corpus.answering_kinds(retrieval.as_of, retrieval.known_at)
        setting = setting_words(retrieval.question, cues_of(retrieval))
        asks: dict[str, list[str]] = {}  # candidate -> its passage, then its own words
        for a in close:
            if explanations[a].kind in only_answer:
                continue
            passage = distinct_passage(retrieval.question, texts[a],
                                       [texts[o] for o in close if o != a], foreign)
            if passage is None or any(set(g).isdisjoint(holds[a]) for g in mentions):
                continue
            theirs = set().union(*(words(texts[o]) for o in close if o != a))
            own_words = [w for w in dict.fromkeys(passage.split())
                         if w not in theirs and w not in cues_of(retrieval).status_words and w not in setting
                         and (not is_common_word(w, EVERYDAY_WORD_ZIPF)
                              or written_as_name(w, retrieval.question))
                         and not only_in_qualified_names(w, texts[a], retrieval.question)]
            if own_words:  # a one-word passage is its own word: its exact count tells both
                asks[a] = [passage, *(w for w in own_words if w != passage)]
        flat = [(a, p) for a, passages in asks.items() for p in passages]
        counts = iter(corpus.passage_holders(flat, retrieval.as_of, retrieval.known_at) if flat else [])
        alone = []
        for a, passages in asks.items():
            phrase, *rare = (next(counts) for _ in passages)
            if phrase == 0 and (" " not in passages[0] or any(
                    n is not None and n <= MAX_QUOTE_SHARERS for n in rare)):
                alone.append(a)
        if len(alone) == 1 and not outfitted(retrieval, alone[0], rivals(alone[0])):
            return single(alone[0], "words of the question only it holds")
    return _ambiguous(retrieval, explanations, close, margin, lead, top)


def lead_explained(retrieval: Retrieval, top: str, runner: str,
                   explanations: Mapping[str, Explanation],
                   held: Mapping[str, Iterable[str]] | None) -> bool:
    """Whether something the question gives accounts for ``top``'s lead over ``runner``: an
    entity the question links that ``top`` holds and ``runner`` does not, or a word of the
    question (not a stop word or a status word) that ``top``'s title or text holds and
    ``runner``'s does not, or a run of two or more of its words (not all such words) that
    ``top``'s holds in order and ``runner``'s does not (``distinct_passage``). Two approvals
    of one brand, "Ortho Cyclen (Norgestimate)" and "Ortho Cyclen (Ethinyl Estradiol)", both
    hold every word of "Our formulary lists Ortho Cyclen and Nizoral. Has either been
    withdrawn?" that either holds; the shorter one leads by a whole margin only because length
    weighs on both the dense and the lexical score.
    ``runner``: the next anchor not on ``top``'s chain (``judge`` chooses it). No text fits
    (a hand-made retrieval): True, the lead is taken as it stands."""
    if not retrieval.anchor_text_scores:
        return True
    asked = set(retrieval.question_entities)

    def holds(anchor: str) -> set[str]:
        found = held.get(anchor, ()) if held is not None else explanations[anchor].scope
        return set(found) & asked

    if holds(top) - holds(runner):
        return True
    stop = stop_words()
    mine, theirs = title_and_text(explanations[top]), title_and_text(explanations[runner])
    their_words = set(words(theirs))
    if any(w not in their_words and w not in stop and w not in cues_of(retrieval).status_words
           for w in set(words(retrieval.question)) & set(words(mine))):
        return True
    # ... or the question's word order: a run of its words the top anchor holds and the runner
    # holds only scattered ("MultiPartParser allowed directory traversal", quoted from one of
    # two advisories whose other writes "MultiPartParser, UploadedFile, and FieldFile allowed")
    run = distinct_passage(retrieval.question, mine, [theirs])
    return run is not None and " " in run and not set(run.split()) <= stop | cues_of(retrieval).status_words


def unplaced_number(retrieval: Retrieval, document: Explanation, holds: Iterable[str]) -> bool:
    """The question writes a number of ``min_partial_digits`` digits or more that ``document``
    writes nowhere: not in its title and text, nor in the key of an entity it holds (``holds``,
    "type:key"; "cve:cve-2022-1962" writes 1962). A year to the linker may be an identifier's
    tail to the asker; a document that does not write it does not account for it."""
    written = set(words(title_and_text(document))).union(
        *(words(entity_key(e)) for e in holds))
    return any(w.isdigit() and len(w) >= LinkingSettings.min_partial_digits and w not in written
               for w in words(retrieval.question))


def off_chain(retrieval: Retrieval, top: Explanation, known: Collection[str],
              limit: int | None) -> list[tuple[str, float]]:
    """The anchors among the first ``limit`` that are not on ``top``'s chain, of those in
    ``known`` (whose readings the verdict has), with their fused scores, best first."""
    chain = on_chain_of(top)
    return [(a, s) for a, s in zip(retrieval.anchors[:limit], retrieval.anchor_scores, strict=False)
            if a not in chain and a in known]


def unwritten_words(retrieval: Retrieval, document: Explanation) -> list[str]:
    """The question's rare words (less frequent in English than ``QUOTE_WORD_ZIPF``, not stop
    words, status words or numbers) that ``document``'s title and text do not write, outside the
    names the question links and the identifiers it gives: what a lead on the question's other
    words does not account for."""
    said = words(retrieval.question)
    at_names = name_positions(retrieval)
    written = set(words(title_and_text(document)))
    written.update(*(words(entity_key(i)) for i in retrieval.question_identifiers))
    stop = stop_words()
    return list(dict.fromkeys(
        w for p, w in enumerate(said)
        if p not in at_names and w not in written and w not in stop and w not in cues_of(retrieval).status_words
        and not w.isdigit() and not is_common_word(w, QUOTE_WORD_ZIPF)))


def strays_from_lead(retrieval: Retrieval, top: str, runner: str,
                     explanations: Mapping[str, Explanation], corpus: Corpus) -> bool:
    """``top`` and ``runner`` (the next anchor off its chain) both hold the names the question
    links, so the names do not make the lead, the question quotes nothing of ``top`` (its title,
    or ``MIN_QUOTED_TEXT_WORDS`` of its text), and a rare word of the question ``top`` does not
    write (``unwritten_words``) is held by ``MIN_WORD_HOLDERS`` or more other documents of its
    kind, and not by ``top`` in any form (``Corpus.word_holders``: the index stems; one
    statement, asked only then)."""
    groups = question_mentions(retrieval)
    held = dict(zip(retrieval.anchors, retrieval.anchor_held, strict=False))
    if not groups or not all(set(g) & set(held.get(a, ())) for g in groups for a in (top, runner)):
        return False
    document = explanations[top]
    if (quotes_title(retrieval.question, document.title)
            or quoted_run(retrieval.question, title_and_text(document)) is not None):
        return False  # a question quoting the lead accounts for it, whatever its other words
    asked = unwritten_words(retrieval, document)
    if not asked or document.kind is None:
        return False
    found = corpus.word_holders(top, document.kind, asked, retrieval.as_of, retrieval.known_at)
    return any(f is not None and not f[0] and f[1] >= MIN_WORD_HOLDERS for f in found)


def filled_by(retrieval: Retrieval, groups: Sequence[Sequence[str]]) -> bool:
    """Every anchor the retrieval returned holds an entity of each of ``groups`` (the question's
    mentions): the named documents fill the readings, and more of them may rank beyond."""
    held = retrieval.anchor_held
    return bool(held) and len(held) == len(retrieval.anchors) and all(
        not set(g).isdisjoint(h) for h in held for g in groups)


def leads_the_unread(retrieval: Retrieval, anchor: str, voiding: frozenset[str],
                     explanations: Mapping[str, Explanation], margin: float) -> bool:
    """``anchor`` leads by ``margin`` every other anchor the retrieval returned that is of a kind
    not in ``voiding`` (or of a kind unknown), and the lowest-scored one: a document ranked
    beyond them all, unread, is further behind still. Without scores (a hand-made retrieval):
    False."""
    scores = dict(zip(retrieval.anchors, retrieval.anchor_scores, strict=False))
    best = scores.get(anchor)
    if best is None or not scores:
        return False
    walked = retrieval.walked
    behind = [score for other, score in scores.items() if other != anchor
              and ((reading := explanations.get(other) or walked.get(other)) is None
                   or reading.kind not in voiding)]
    return all(best - score >= margin for score in [*behind, min(scores.values())])


def asked_window(retrieval: Retrieval, asked: Sequence[str], voiding: frozenset[str],
                 explanations: Mapping[str, Explanation], margin: float, limit: int | None,
                 ) -> tuple[Mapping[str, Explanation], list[str]]:
    """The candidates a question asks about when the close ones of a kind that only voids are
    set aside: ``asked`` and every further anchor of a kind asked about within ``margin`` of the
    best of them, best first, at most ``limit`` -- "Can this drug, prescribed for convulsion,
    still be sold?" leads with a withdrawal whose reason is convulsion, and the approvals it
    means sit further from that than from each other. Anchors beyond the close ones are read
    from the closures the retrieval walked (none: ``asked`` alone); returns the explanations
    with those added."""
    walked = retrieval.walked
    best = _score_of(retrieval, asked[0])
    limit = limit or max(len(retrieval.results), 1)
    if best is None or not walked:
        return explanations, list(asked)
    kept = set(asked)
    for anchor, score in zip(retrieval.anchors, retrieval.anchor_scores, strict=False):
        reading = explanations.get(anchor) or walked.get(anchor)
        if (len(kept) < limit and anchor not in kept and score >= best - margin
                and reading is not None and reading.kind not in voiding):
            kept.add(anchor)
    window = [a for a in retrieval.anchors if a in kept]
    return {**walked, **explanations}, window


def beside_answers(retrieval: Retrieval, close: Sequence[str],
                   explanations: Mapping[str, Explanation], corpus: Corpus, margin: float,
                   limit: int | None) -> tuple[Mapping[str, Explanation], list[str]]:
    """``close``, and -- when every one of them is of a kind that only answers
    (``Corpus.answering_kinds``: withdrawals, recalls, release notes) -- the readings of the kinds
    asked about beside them: the best walked anchor of such a kind beyond them and every further
    one within ``margin`` of it (``asked_window``), taking the places of the weakest answers
    when ``limit`` is reached. "Was astemizole recalled or withdrawn?" leads with its two
    withdrawals, on the words that say what the question asks; the approval they answer is what
    it asks about. Returns the explanations with those read from the walked closures added."""
    answers = corpus.answering_kinds(retrieval.as_of, retrieval.known_at)
    limit = limit or max(len(retrieval.results), 1)
    if limit < 2 or any(explanations[a].kind not in answers for a in close):
        return explanations, list(close)
    walked = retrieval.walked
    asked = [a for a in retrieval.anchors
             if a not in close and a in walked and walked[a].kind not in answers]
    if not asked:
        return explanations, list(close)
    widened, window = asked_window(retrieval, asked[:1], answers, explanations, margin,
                                   limit - 1)
    return widened, [*close[:limit - len(window)], *window]


def voiding_kinds(close: Sequence[str], explanations: Mapping[str, Explanation]) -> frozenset[str]:
    """The kinds that, among the close candidates' readings, void others and are never voided:
    a controlling document's kind (besides the candidate itself) of a candidate something
    supersedes, which no candidate something supersedes has. Read from the closures the
    retrieval walked, so as of its date and as known at its instant."""
    voided = [a for a in close if explanations[a].superseded_by]
    voiders = {c.kind for a in voided for c in explanations[a].controlling if c.doc_id != a}
    return frozenset(k for k in voiders if k) - {explanations[a].kind for a in voided}


def identified(retrieval: Retrieval, holds: Iterable[str]) -> bool:
    """The document holds an identifier the question gives ("type:key" of ``holds``): no
    ordinary word, so it singles the document out whatever else fits the question's words."""
    return not set(holds).isdisjoint(retrieval.question_identifiers)


def named_whole(retrieval: Retrieval, holds: Iterable[str]) -> bool:
    """The document holds a name the question links that has two or more words and that the
    question writes whole, with the name's own separators ("Brown v. United States",
    "vm-memory"; not "shell_quote" for the package shell-quote, a function's name): no
    ordinary word, so another document holding the same words ("United States v. Brown") does
    not outfit it."""
    return writes_whole_name(retrieval, set(holds) & set(retrieval.question_entities))


def defined_by_title(holds: Iterable[str]) -> bool:
    """One of ``holds`` ("type:key") is a term the question writes with its capitals that the
    document's own title defines ("the LINK specification" and "The Link Integrity Negotiation
    Kit (LINK)"): the question means the thing so defined, even where sibling documents use the
    term as a word of their text."""
    return any(entity.split(":", 1)[0] == DEFINED_NAME for entity in holds)


def writes_whole_name(retrieval: Retrieval, entities: Iterable[str]) -> bool:
    """The question writes the name of one of ``entities`` ("type:key") that has two or more
    words whole, with the name's own separators (``linking.written_as_spelled``)."""
    return any(len(words(name)) >= 2 and written_as_spelled(name, retrieval.question)
               for name in map(own_name, entities))


def writes_rare_name(retrieval: Retrieval, entities: Iterable[str]) -> bool:
    """The question writes the one-word name of one of ``entities`` ("type:key") as spelled,
    and that word is no common English word (the linker's ``common_word_zipf``): "tensorflow"
    is a name wherever it stands, "express" may be a word."""
    return any(len(words(name)) == 1 and written_as_spelled(name, retrieval.question)
               and not is_common_word(name.casefold(), LinkingSettings.common_word_zipf)
               for name in map(own_name, entities))


def named_inside_quote(retrieval: Retrieval, holder: str, groups: Sequence[Sequence[str]],
                       close: Sequence[str], explanations: Mapping[str, Explanation]) -> bool:
    """Another close candidate, fitting the question's own words at least as well as
    ``holder`` (``text_fit``; unknown fits: any), has a text the question quotes with every
    mention of ``groups`` written inside the quote (``written_inside_quote``): the names are
    words of that quote, and they do not choose ``holder`` over it."""
    said = words(retrieval.question)
    mine = text_fit(retrieval, holder)
    for other in close:
        if other == holder or other not in explanations:
            continue
        fit = text_fit(retrieval, other)
        if mine is not None and fit is not None and fit < mine:
            continue
        text = title_and_text(explanations[other])
        if all(written_inside_quote(g, said, text, retrieval.spellings) for g in groups):
            return True
    return False


def outfitted(retrieval: Retrieval, named: str, close: Sequence[str]) -> bool:
    """Another close candidate fits the question's own words better than ``named``, the one
    holding what the question names (``text_fit``, boosts aside). Then the name alone does not
    single ``named`` out: the question may use it as an ordinary word ("a Cross-Site WebSocket
    Hijacking" and a project named websockets, "decoding a tensor from protobuf" and one named
    protobuf) about the other document. An identifier the question gives is no ordinary word:
    ``judge`` does not ask this of its holder. Unknown fits (a hand-made retrieval): False."""
    mine = text_fit(retrieval, named)
    if mine is None:
        return False
    return any((fit := text_fit(retrieval, other)) is not None and fit > mine
               for other in close if other != named)


def _ambiguous(retrieval: Retrieval, explanations: Mapping[str, Explanation],
               close: Sequence[str], margin: float, lead: float | None, top: str,
               extra_notes: Sequence[str] = ()) -> Verdict:
    candidates = tuple(replace(decide(retrieval, explanations[a]), score=_score_of(retrieval, a),
                               retrieval=None) for a in close)
    notes = tuple(f"candidate {c.subject_id} is {c.kind.value.replace('_', ' ')}"
                  + (f"; controlled by {', '.join(r.doc_id for r in c.controlling)}"
                     if c.controlling and c.kind is not VerdictKind.WITHDRAWN else "")
                  for c in candidates if c.kind.value in VOIDED_KINDS)
    return Verdict(question=retrieval.question, as_of=retrieval.as_of, kind=VerdictKind.AMBIGUOUS,
                   retrieval=retrieval, notes=(*extra_notes, *notes),
                   score=_score_of(retrieval, top), lead=lead, margin=margin,
                   candidates=candidates)


def unnamed_in_force(verdict: Verdict, retrieval: Retrieval,
                     held: Mapping[str, Iterable[str]]) -> bool:
    """A decisive IN FORCE verdict on a subject the question does not name: no linked entity of
    the question is held by it, and it was singled out by the fused-score lead alone. That is
    the guess issue 17 calls harmful -- the best lexical or semantic match of a generic question,
    an unrelated document nothing supersedes, said to be in force."""
    return (verdict.kind is VerdictKind.IN_FORCE and verdict.singled_out_by == "margin"
            and bool(retrieval.anchor_scores) and verdict.subject_id is not None
            and not set(held.get(verdict.subject_id, ())) & set(retrieval.question_entities))


def only_qualifies(group: Sequence[str], retrieval: Retrieval) -> bool:
    """The mention is an identifier no retrieved document holds (scoped to, identified or named
    by): it qualifies the question -- a version it pins ("We pinned the tool to 1.22"), an id it
    cites -- and names no subject: documents only mention it."""
    anywhere = {e for entities in retrieval.anchor_held for e in entities}
    return set(group) <= set(retrieval.question_identifiers) and anywhere.isdisjoint(group)


def unheld_mentions(verdict: Verdict, retrieval: Retrieval,
                    held: Mapping[str, Iterable[str]]) -> list[tuple[str, ...]]:
    """The mentions (``mention_groups``) of a question making two or more that a decisive
    verdict's subject does not hold: the question names something the asserted subject is not
    (a second product no retrieved document holds), so one subject does not answer it."""
    groups = [g for g in question_mentions(retrieval) if not only_qualifies(g, retrieval)]
    if len(groups) < 2 or not verdict.decisive or verdict.subject_id is None:
        return []
    holds = set(held.get(verdict.subject_id, ()))
    return [g for g in groups if not set(g) & holds]


def not_the_whole_question(verdict: Verdict, retrieval: Retrieval,
                           explanations: Mapping[str, Explanation],
                           held: Mapping[str, Iterable[str]], margin: float = VERDICT_MARGIN,
                           limit: int | None = None, word_readers: Sequence[str] = (),
                           corpus: Corpus | None = None) -> Verdict:
    """``verdict``, or -- when its subject leaves a mention of the question unheld
    (``unheld_mentions``), it says IN FORCE of a subject the question does not name
    (``unnamed_in_force``), its subject is named weakly (``weakly_named``), or other anchors
    use the name that put it first as a word of their own text (``word_readers``:
    ``name_read_as_word``'s, with their explanations) -- an ambiguous verdict over the close
    candidates (and those others) that says so. An unnamed subject of a kind that only answers
    (``Corpus.answering_kinds``: a withdrawal, read from ``corpus``) alone within the margin
    also lists the anchors of the kinds asked about within the margin of the best of them
    (``asked_window``): its lead is no evidence against those."""
    missing = unheld_mentions(verdict, retrieval, held)
    unnamed = unnamed_in_force(verdict, retrieval, held)
    weak = weakly_named(verdict, retrieval, held)
    word_readers = [a for a in word_readers if a in explanations]
    if not missing and not unnamed and not weak and not word_readers:
        return verdict
    top = subject_of(retrieval) or ""
    close = [a for a in close_anchors(retrieval, margin, limit) if a in explanations]
    subject = verdict.subject_id or ""
    if subject not in close and subject in explanations:
        close.insert(0, subject)
    close += [a for a in word_readers if a not in close]
    if unnamed and close == [subject] and corpus is not None:
        # "Has the drug for convulsion been pulled from the market?": the withdrawal whose
        # reason is convulsion leads every approval for it by more than the margin, on words
        # that say what the question asks, not which drug it means
        explanations, close = beside_answers(retrieval, close, explanations, corpus, margin, limit)
    names = "; ".join(entity_key(g[0]) for g in missing)
    note = (f"the question also names {names}, which {verdict.subject_id} does not hold: "
            "no one document answers the whole question" if missing else
            f"{verdict.subject_id} is the best match but nothing the question names singles it "
            "out; it is not asserted to be in force" if unnamed else
            f"{verdict.subject_id} carries a name the question gives but fits little else it "
            "says; it is not asserted" if weak else
            f"{verdict.subject_id} carries a name the question gives, and "
            f"{', '.join(word_readers)} use{'s' if len(word_readers) == 1 else ''} it as a word "
            "of their own text and fit the question about as well: not asserted")
    return _ambiguous(retrieval, explanations, close, margin, lead_of(retrieval), top, (note,))


def answering(close: Sequence[str], explanations: Mapping[str, Explanation]) -> set[str]:
    """The close candidates that answer another one: those among another close candidate's
    controlling documents or on its chains (a withdrawal beside the approval it withdraws, the
    release beside the advisory it fixes)."""
    found: set[str] = set()
    for a in close:
        for c in explanations[a].controlling:
            on_chain = {c.doc_id, *(h.to_id for h in c.chain)}
            found |= {b for b in close if b != a and b in on_chain}
    return found


def outcome(verdict: Verdict) -> VerdictOutcome:
    """What the verdict asserted, as plain ids for ``metrics.score_verdicts``."""
    def reading(v: Verdict) -> Reading | None:
        if v.subject_id is None:
            return None
        return Reading(v.subject_id, v.kind.value, frozenset(r.doc_id for r in v.controlling))

    return VerdictOutcome(
        kind=verdict.kind.value,
        reading=reading(verdict) if verdict.decisive else None,
        candidates=tuple(r for r in map(reading, verdict.candidates) if r is not None),
        subjects=tuple(r for r in map(reading, verdict.subjects) if r is not None),
        # a named subject left ambiguous lists its candidates; one with nothing found, none
        subject_candidates=tuple(
            tuple(r for r in map(reading, s.candidates) if r is not None)
            for s in verdict.subjects if s.kind in (VerdictKind.AMBIGUOUS, VerdictKind.NOT_FOUND)),
    )


# a path segment that is only a version ("v2", "1.0"): a major-version suffix of one name
_VERSION_SEGMENT = re.compile(r"v?\d+(?:\.\d+)*", re.IGNORECASE)


def _head_word(key: str) -> str:
    """The first word of a key's own name. A path-like key is named by its last segment that is
    not a version ("host/org/fiber/v3" -> "fiber"); its leading segments are namespaces that
    unrelated names share (a hosting site, an organisation, a registry: "pypi:pyyaml" and
    "debian:pyyaml" are one name in two namespaces)."""
    segments = [s for s in re.split(r"[/:]", key) if s]
    named = [s for s in segments if not _VERSION_SEGMENT.fullmatch(s)] or segments or [key]
    name = named[-1] if len(segments) > 1 else key
    return next((w for w in re.split(r"[\s_-]+", name) if w), name)


def question_mentions(retrieval: Retrieval) -> list[tuple[str, ...]]:
    """The retrieval's question's mentions: its linked entities (each once) grouped by
    ``mention_groups``, with the question and the identifiers it gives."""
    return mention_groups(list(dict.fromkeys(retrieval.question_entities)), retrieval.question,
                          retrieval.question_identifiers, retrieval.question_readings)


def mention_groups(entities: Sequence[str], question: str | None = None,
                   identifiers: Iterable[str] = (),
                   readings: Iterable[Sequence[str]] = ()) -> list[tuple[str, ...]]:
    """The question's linked entities ("type:key") grouped by the mention they read: two
    entities are one mention when their names share their first word (``_head_word``: of a
    path-like key, its last segment that is not a version) or one key's words are all in the
    other's ("sibutramine hydrochloride" / "sibutramine", "regitine mesylate" / "regitine hcl",
    "ethinyl estradiol" / "estradiol"; words split at spaces, hyphens, underscores and slashes:
    "django-user-sessions" / "django"; "host/org/fiber/v3" / "host/org/fiber/v2"). Two paths
    under one host ("host/a/core", "host/b/vault") are two mentions. A linker reads one name
    several ways; only distinct mentions are distinct subjects. Groups keep the entities'
    order. With the ``question``: a group of which some keys are spelled out in it
    (``linking.spelled_out``) keeps only those -- the others were read inside the longer name
    the question writes ("example.org/org/tool" inside "example.org/org/tool-os/tool-osd"), or
    are one of several readings of a name that one reading spells out. ``identifiers``: the
    entities the question gives as identifiers (``Retrieval.question_identifiers``). One the
    question spells out in full that is no path is named by all of it, not its first word:
    "CVE-2021-28677" and "CVE-2020-1234" share the word "cve" but name two things (a path's
    versions, "host/org/fiber/v3" and "host/org/fiber", stay one name). Identifiers read from
    part of one ("the CVE ending in 30629": two CVEs end so) are that one mention's readings.
    ``readings``: entities the linker read from one word the question writes several ways
    (``Retrieval.question_readings``: "Bextar", one edit from Bextra and from Bexxar; "1705",
    the tail of CVE-2022-1705 and of GO-2023-1705), each tuple one mention -- one word names one
    thing, whichever it is."""
    given = {e for e in identifiers if question is not None and spelled_out(entity_key(e), question)}
    keys = [tuple(w for w in re.split(r"[\s_/:-]+", entity_key(e)) if w) for e in entities]
    heads = [own_name(e) if e in given and "/" not in entity_key(e) else _head_word(entity_key(e))
             for e in entities]
    parent = list(range(len(entities)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(keys):
        for j in range(i):
            b = keys[j]
            if a and b and (heads[i] == heads[j] or set(a) <= set(b) or set(b) <= set(a)):
                parent[root(i)] = root(j)
    at = {entity: i for i, entity in enumerate(entities)}
    for word_readings in readings:
        read = [at[e] for e in word_readings if e in at]
        for i in read[1:]:
            parent[root(i)] = root(read[0])
    groups: dict[int, list[str]] = {}
    for i, entity in enumerate(entities):
        groups.setdefault(root(i), []).append(entity)
    if question is not None:
        for i, group in groups.items():
            spelled = [e for e in group if spelled_out(entity_key(e), question)]
            if spelled:
                groups[i] = spelled
    return [tuple(g) for g in groups.values()]


def text_fit(retrieval: Retrieval, anchor: str) -> float | None:
    """How well ``anchor`` fits the question's words, without the boosts of the entities it
    holds (None: unknown, a hand-made retrieval)."""
    if len(retrieval.anchor_text_scores) != len(retrieval.anchors):
        return None
    for a, fit in zip(retrieval.anchors, retrieval.anchor_text_scores, strict=True):
        if a == anchor:
            return fit
    return None


def subject_mentions(retrieval: Retrieval, held: Mapping[str, Iterable[str]],
                     k: int) -> list[tuple[str, ...]]:
    """The question's mentions (``mention_groups``) that some of the top k anchors hold, or
    whose best holder further down (anchors.cypher's ``$holders``: a question naming several
    documents, one of whose words outrank the other's) fits the question's own words at
    ``MIN_TEXT_FIT`` or more. A mention no such document holds (a common word read as a name
    elsewhere in the corpus) names no subject the retrieval can speak to."""
    top = list(retrieval.anchors[:k])
    holds = {a: set(held.get(a, ())) for a in retrieval.anchors}
    mentions = question_mentions(retrieval)
    # a question naming n documents spreads its words over n descriptions: a holder of one of
    # them fits about 2/n of what it would fit of a question about it and one other
    least = MIN_TEXT_FIT * 2 / max(len(mentions), 2)

    def named(group: tuple[str, ...]) -> bool:
        if any(set(group) & holds[a] for a in top):
            return True
        best = next((a for a in retrieval.anchors[k:] if set(group) & holds[a]), None)
        fit = text_fit(retrieval, best) if best is not None else None
        return fit is not None and fit >= least

    return [g for g in mentions if named(g)]


def weakly_named(verdict: Verdict, retrieval: Retrieval, held: Mapping[str, Iterable[str]],
                 in_force_only: bool = False) -> bool:
    """A decisive subject held by no identifier the question gives that fits nothing else the
    question says (``text_fit`` < MIN_TEXT_FIT): the document carries a name the question uses
    as an ordinary word ("archive/tar" and the crate tar, "an HTTP request" and the package
    request), so asserting it -- in force above all -- would be a guess. ``in_force_only``:
    only an IN FORCE reading counts."""
    subject = verdict.subject_id
    if subject is None or not verdict.decisive:
        return False
    if identified(retrieval, held.get(subject, ())):
        return False
    fit = text_fit(retrieval, subject)
    if fit is None or fit >= MIN_TEXT_FIT:
        return False
    return verdict.kind is VerdictKind.IN_FORCE or not in_force_only


def name_read_as_word(verdict: Verdict, retrieval: Retrieval, held: Mapping[str, Iterable[str]],
                      text_of: Callable[[str], str], k: int, margin: float = VERDICT_MARGIN) -> list[str]:
    """The top ``k`` anchors that may be what a question means when it uses a name as a word
    of its description: a subject asserted IN FORCE by its fused-score lead holds a name the question
    links (no identifier it gives, no name of several words it writes whole: ``named_whole``,
    no term its title defines: ``defined_by_title``),
    and another anchor that does not hold the name writes its words in its own text
    (``text_of``) and fits the question's own words within ``margin`` of the subject, boosts
    aside. The name's boost made the lead; the other document uses the name the way the
    question may ("when decoding a tensor from protobuf": a TensorFlow advisory's words, and a
    project named protobuf). Empty when the verdict stands."""
    if verdict.singled_out_by != "margin":
        return []
    return word_readers(verdict, retrieval.question_entities, retrieval, held, text_of, k, margin)


def word_readers(verdict: Verdict, entities: Iterable[str], retrieval: Retrieval,
                 held: Mapping[str, Iterable[str]], text_of: Callable[[str], str], k: int,
                 margin: float) -> list[str]:
    """The top ``k`` anchors other than an IN FORCE subject holding some of ``entities`` (the
    linked names, as ``name_read_as_word`` tells) that do not hold them, write their words in
    their own text (``text_of``) and fit the question's own words at least as well as the
    subject, less ``margin``. Empty when the subject holds an identifier the question gives, a
    name of several words it writes whole, or a term its title defines."""
    subject = verdict.subject_id
    if verdict.kind is not VerdictKind.IN_FORCE or subject is None:
        return []
    mine = set(held.get(subject, ())) & set(entities)
    if (not mine or identified(retrieval, mine) or named_whole(retrieval, mine)
            or defined_by_title(mine)):
        return []
    fit = text_fit(retrieval, subject)
    if fit is None:
        return []
    names = [words(own_name(e)) for e in mine]
    return [a for a in retrieval.anchors[:k]
            if a != subject and not mine & set(held.get(a, ()))
            and (theirs := text_fit(retrieval, a)) is not None and theirs >= fit - margin
            and any(name and holds_passage(text_of(a), name) for name in names)]


def read_among_its_words(verdict: Verdict, group: Sequence[str], retrieval: Retrieval,
                         held: Mapping[str, Iterable[str]], text_of: Callable[[str], str],
                         k: int) -> bool:
    """Whether a subject in force that the mention ``group`` names is the question's word, not
    its subject: one of the top ``k`` anchors holding no name the question links
    (``word_readers``, margin 0: it fits the question's own words at least as well) writes the
    name inside the question's own words around it, the name plus ``WORDS_AROUND_A_NAME``, in
    order ("the shell_quote function does not properly ...", an advisory's words, beside the
    package named shell-quote). Another subject writing the name is no such reader, nor is a
    text holding the name apart from the question's words around it ("Do gtk and miow still
    suffer ...": a sibling's "gtk-rs bindings"). Nor does it hold when the subject's own text
    writes the name among the same words: siblings' shared boilerplate reads it so as well."""
    said = words(retrieval.question)
    spans = mention_positions(group, said, retrieval.spellings)
    if not spans or verdict.subject_id is None:
        return False
    around = max(end - start for start, end in spans) + WORDS_AROUND_A_NAME

    def writes_around(anchor: str) -> bool:
        inside = held_positions(said, words(text_of(anchor)), around)
        return all(set(range(start, end)) <= inside for start, end in spans)

    linked = set(retrieval.question_entities)
    return not writes_around(verdict.subject_id) and any(
        linked.isdisjoint(held.get(a, ())) and writes_around(a)
        for a in word_readers(verdict, group, retrieval, held, text_of, k, 0.0))


def named_subjects(retrieval: Retrieval, held: Mapping[str, Iterable[str]],
                   k: int) -> list[tuple[str, ...]]:
    """For a question with two or more mentions that name a subject (``subject_mentions``)
    that no single one of the top k anchors holds together: per mention, the (at most k)
    anchors holding it, best first, wherever they rank (the question is about several
    documents). Empty when one anchor holds them all (one subject) or fewer than two mentions
    name a subject."""
    groups = subject_mentions(retrieval, held, k)
    if len(groups) < 2:
        return []
    holds = {a: set(held.get(a, ())) for a in retrieval.anchors}
    if any(all(set(g) & holds[a] for g in groups) for a in retrieval.anchors[:k]):
        return []
    return [tuple(a for a in retrieval.anchors if set(g) & holds[a])[:k] for g in groups]


def answered_subjects(verdict: Verdict, retrieval: Retrieval, held: Mapping[str, Iterable[str]],
                      subject: Explanation, k: int) -> tuple[str, ...]:
    """The anchors an IN FORCE subject answers, best-ranked first: others of the top k anchors
    that each hold every mention the subject holds (at least one; a mention as
    ``mention_groups`` reads it: one name in two registries, "debian:pillow" and "pypi:pillow",
    is one) and that the subject directly supersedes (``subject``: its explanation). A release
    that lists the identifier of the advisory it fixes outranks the advisory, but the question
    names the advisory; the release is its answer. Read from the subject's own closure: no
    further statement unless one is found."""
    if verdict.kind is not VerdictKind.IN_FORCE or verdict.subject_id != subject.doc_id:
        return ()
    mine = set(held.get(subject.doc_id, ())) & set(retrieval.question_entities)
    if not mine:
        return ()
    groups = [set(g) for g in question_mentions(retrieval)
              if mine & set(g)]
    answered = {h.from_id for h in subject.supersedes if in_force_on(h, retrieval.as_of)}
    return tuple(anchor for anchor in retrieval.anchors[:k]
                 if anchor in answered and anchor != subject.doc_id
                 and all(g & set(held.get(anchor, ())) for g in groups))


def voided_by_every_candidate(verdict: Verdict, retrieval: Retrieval,
                              explanations: Mapping[str, Explanation],
                              held: Mapping[str, Iterable[str]],
                              corpus: Corpus | None = None) -> str | None:
    """Of an AMBIGUOUS verdict whose every candidate is an answer -- in force, of a kind that
    only voids others (``voiding_kinds``, ``Corpus.answering_kinds``) -- the one document all of
    them directly and wholly supersede (edges in force on the retrieval's date), when it is one
    of the retrieved anchors and holds every mention the question makes: "Has adenosine
    phosphate been pulled from the US market?" ranks the drug's two withdrawals (US; US in 1973)
    above its approval, but asks about the approval, which both withdraw. Candidates voiding
    different documents, or several in common, leave the verdict as it is; so does a question
    that names nothing (elimination is no evidence about it)."""
    if verdict.kind is not VerdictKind.AMBIGUOUS or len(verdict.candidates) < 2:
        return None
    close = [a for c in verdict.candidates
             if (a := c.subject_id) is not None and c.kind is VerdictKind.IN_FORCE
             and a in explanations]
    if len(close) < len(verdict.candidates):
        return None
    answers = voiding_kinds(close, explanations)
    if corpus is not None:
        answers |= corpus.answering_kinds(retrieval.as_of, retrieval.known_at)
    if any(explanations[a].kind not in answers for a in close):
        return None
    common = set.intersection(*({h.from_id for h in explanations[a].supersedes
                                 if not h.partial and in_force_on(h, retrieval.as_of)}
                                for a in close))
    if len(common) != 1:
        return None
    (subject,) = common
    groups = question_mentions(retrieval)
    mine = set(held.get(subject, ()))  # what an anchor holds; nothing known of any other
    if not groups or not all(set(g) & mine for g in groups):
        return None
    return subject


def named_verdict(retrieval: Retrieval, holders: Sequence[str], group: Sequence[str],
                  explanations: Mapping[str, Explanation], held: Mapping[str, Iterable[str]],
                  margin: float = VERDICT_MARGIN, sharers: QuoteSharers | None = None,
                  corpus: Corpus | None = None, others: Sequence[Sequence[str]] = (),
                  foreign: Collection[int] = frozenset()) -> Verdict:
    """The verdict on one mention of a question naming several subjects: ``judge`` among the
    anchors holding it (``holders``, best first), as if the question named only it -- so a name
    two documents carry ("Ortho Evra", approved twice) stays ambiguous between them -- and not
    singled out by a lead made of the other subjects' names (``others``: ``borrowed_lead``) or
    by one nothing the question gives accounts for (``lead_explained``), nor by words the
    question quotes for another subject (``foreign``: ``quoted_for_others``)."""
    scores = dict(zip(retrieval.anchors, retrieval.anchor_scores, strict=False))
    sub = replace(retrieval, anchors=tuple(holders),
                  anchor_scores=tuple(scores[a] for a in holders) if scores else (),
                  question_entities=tuple(group))
    verdict = judge(sub, explanations, margin, len(holders), held, top=holders[0], sharers=sharers,
                    corpus=corpus, lead_needs_reason=True, foreign=foreign)
    borrowed = borrowed_lead(verdict, retrieval, holders, group, explanations, others)
    if borrowed:
        # its lead over the mention's other documents is words the question writes for another
        # subject: nothing the question says of this one singles it out
        note = (f"{verdict.subject_id} leads the other documents holding {own_name(group[0])} "
                f"by words the question writes as another name ({', '.join(borrowed)}): "
                "not asserted")
        verdict = _ambiguous(sub, explanations, [a for a in holders if a in explanations], margin,
                             verdict.lead, holders[0], (note,))
    return replace(verdict, retrieval=None, singled_out_by=verdict.singled_out_by or "named")


def borrowed_lead(verdict: Verdict, retrieval: Retrieval, holders: Sequence[str],
                  group: Sequence[str], explanations: Mapping[str, Explanation],
                  others: Sequence[Sequence[str]]) -> list[str]:
    """The words of the other subjects' names (``others``: mentions; as the question writes
    them, not words of ``group``'s own name) that the text of a subject singled out among
    ``holders`` by its lead alone holds and the runner-up's does not -- where that text does
    not also hold the name with a neighbouring word of the question (a name inside what the
    question quotes of this subject, "... in crypto/x509 and golang.org/x/crypto/cryptobyte in
    Go", is this subject's own wording). A question naming two products scores every holder of
    one against all its words, the other product's name too: a TensorFlow advisory about "the
    async implementation of ... std::move" leads its siblings on "Async-std: ... tensorflow-cpu:
    <the sentence every TensorFlow advisory opens with>" by the other name. Empty when the
    verdict stands. Only words of three or more letters rarer in English than
    ``QUOTE_WORD_ZIPF`` count: on the dev probes, "user", "server", "protocol", "x" and "io"
    were each also a right winner's own word."""
    subject = verdict.subject_id
    if (verdict.singled_out_by != "margin" or subject is None or len(holders) < 2
            or subject not in explanations):
        return []
    runner = holders[1] if holders[0] == subject else holders[0]
    if runner not in explanations:
        return []
    said = words(retrieval.question)
    own = {w for e in group for w in words(own_name(e))}
    mine = words(title_and_text(explanations[subject]))
    beside = held_positions(said, mine, 2)
    holds = set(mine)
    theirs = set(words(title_and_text(explanations[runner])))
    spellings = retrieval.spellings
    written = dict.fromkeys(
        w for g in others if set(g).isdisjoint(group)
        for start, end in mention_positions(g, said, spellings)
        if beside.isdisjoint(range(start, end))
        for w in said[start:end] if w not in own)
    # a word of English (a name's "server", "user", "protocol") is any document's wording, and
    # so is a word shorter than a name's significant ones ("io" of heckel.io)
    return [w for w in written if w in holds and w not in theirs and len(w) >= 3
            and not is_common_word(w, QUOTE_WORD_ZIPF)]


def unanswered(retrieval: Retrieval, groups: Sequence[tuple[str, ...]],
               verdicts: Sequence[Verdict], held: Mapping[str, Iterable[str]],
               texts: Sequence[str] = ()) -> list[Verdict]:
    """One NOT_FOUND verdict per mention of a question naming several subjects that names none
    the retrieval can speak to (outside ``groups``: the ``subject_mentions`` with a verdict),
    that no subject's document holds, and whose name the question writes as a name: two or
    more words written whole with the name's own separators, or one word no common English
    word ("tensorflow", "mqtt"). "Are A, B and golang.org/x/net all fixed?" with nothing
    retrieved for golang.org/x/net is not answered by verdicts on A and B. A common word
    ("node", "express") or a name read from other words (a typo's reading, separators of its
    own) may be a word of a flaw's description, as ``subject_mentions`` has it; so is a name
    one of the subjects' documents writes in its own title or text (``texts``): "protobuf" in
    "... when decoding a tensor from protobuf", quoted from a TensorFlow advisory."""
    holds = set().union(*(held.get(v.subject_id, ()) for v in verdicts if v.subject_id),
                        *(held.get(c.subject_id, ()) for v in verdicts for c in v.candidates
                          if c.subject_id))
    missing = [g for g in question_mentions(retrieval)
               if g not in groups and holds.isdisjoint(g)
               and not only_qualifies(g, retrieval)
               and (writes_whole_name(retrieval, g) or writes_rare_name(retrieval, g))
               and not any(spelled_out(own_name(e), text) for e in g for text in texts)]

    def note(group: tuple[str, ...]) -> str:
        name = own_name(group[0])
        if any(set(group) & set(held.get(a, ())) for a in retrieval.anchors):
            # a holder was retrieved but fits too little of the question to be its answer
            return (f"the question names {name}; the retrieved documents about it fit too "
                    "little of the question to answer it")
        return f"the question names {name}, which no retrieved document answers"

    return [Verdict(question=own_name(g[0]), as_of=retrieval.as_of, kind=VerdictKind.NOT_FOUND,
                    notes=(note(g),))
            for g in missing]


def several(retrieval: Retrieval, verdicts: Sequence[Verdict]) -> Verdict:
    """One verdict per subject the question names (at least two distinct subjects)."""
    return Verdict(question=retrieval.question, as_of=retrieval.as_of, kind=VerdictKind.MULTIPLE,
                   retrieval=retrieval, singled_out_by="named in the question",
                   subjects=tuple(replace(v, retrieval=None) for v in verdicts))


def _at(values: Sequence[Any], i: int) -> Any:
    return values[i] if i < len(values) else None


def _round(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None


def _controlling_json(r: Result) -> dict[str, Any]:
    return {"doc_id": r.doc_id, "title": r.title, "kind": r.kind, "domain": r.domain,
            "published": r.published.isoformat() if r.published else None,
            "status": str(r.status), "chain": [_hop_json(h) for h in r.chain]}


def kind_of_status(status: Status) -> VerdictKind:
    """The verdict a document's own status gives when it is taken as the subject."""
    return _KIND_BY_STATUS[status]


def _subject_status(kind: VerdictKind) -> str:
    return Status.ACTIVE.value if kind is VerdictKind.IN_FORCE else kind.value


def _name(doc_id: str, title: str) -> str:
    return f"{title} [{doc_id}]" if title else doc_id


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _hop_json(hop: Hop) -> dict[str, Any]:
    return {"from_id": hop.from_id, "to_id": hop.to_id, "rule": hop.rule,
            "effective": hop.effective.isoformat() if hop.effective else None,
            "evidence": hop.evidence, "partial": hop.partial}


def verdict_for(retrieval: Retrieval, closure_of: Callable[[str], Explanation], k: int = 5,
                margin: float = VERDICT_MARGIN, sharers: QuoteSharers | None = None,
                corpus: Corpus | None = None, rates: AccountingWeights | None = None) -> Verdict:
    """The verdict on a retrieval (``_judged``), unless nothing the retrieval found accounts
    for the question (``found_wanting``): then NOT_FOUND, whatever the rules read into the
    nearest documents."""
    verdict = _judged(retrieval, closure_of, k, margin, sharers, corpus)
    if not retrieval.results or verdict.kind is VerdictKind.MULTIPLE:
        return verdict
    accounting = accounting_of(retrieval)
    if accounting.weight and found_wanting(retrieval, accounting, rates or weights()):
        words = ", ".join(accounting.unexplained[:5])
        return Verdict(question=retrieval.question, as_of=retrieval.as_of, kind=VerdictKind.NOT_FOUND,
                       retrieval=retrieval, accounting=accounting,
                       notes=(f"no document found holds what the question asks about ({words})",))
    return replace(verdict, accounting=accounting)


def accounting_of(retrieval: Retrieval) -> Accounting:
    """``reading.accounted_for`` over every document the retrieval read (the anchors it walked
    and the controlling documents it returned: no statement more), the question's content words
    without the asker's own setting."""
    documents = {e.doc_id: f"{title_and_text(e)} {' '.join(e.scope)}" for e in retrieval.readings}
    documents.update((r.doc_id, title_and_text(r)) for r in retrieval.results if r.doc_id not in documents)
    cues, stop = cues_of(retrieval), stop_words()
    asked = content_words(retrieval.question, cues, stop, setting_phrases(retrieval.question, cues, stop))
    return accounted_for(asked, documents, porter_stem, weights())


def found_wanting(retrieval: Retrieval, accounting: Accounting, rates: AccountingWeights) -> bool:
    """No document found accounts for the question: none holds an entity the question links
    (a name or identifier of the graph), and the best holds less than ``rates.min_share`` of
    its content weight."""
    if any(retrieval.anchor_held) or retrieval.question_identifiers:
        return False
    return accounting.share < rates.min_share


def _judged(retrieval: Retrieval, closure_of: Callable[[str], Explanation], k: int = 5,
            margin: float = VERDICT_MARGIN, sharers: QuoteSharers | None = None,
            corpus: Corpus | None = None) -> Verdict:
    """The verdict on a retrieval (what ``CarClient.answer`` returns), given ``closure_of``
    (an anchor's ``Explanation``): a question with two or more mentions that name subjects held
    by different anchors gets one verdict per subject (``several``); otherwise ``judge`` over the
    close anchors, the subject an IN FORCE answer answers (``answered_subjects``), and the guards
    of ``not_the_whole_question``."""
    close = close_anchors(retrieval, margin, k)
    explanations = {a: closure_of(a) for a in close}
    held = dict(zip(retrieval.anchors, map(frozenset, retrieval.anchor_held), strict=False))

    def subject_verdict(doc: str, why: str, lead: float | None = None) -> Verdict:
        """The verdict on ``doc`` as the subject, singled out by ``why`` (a rule below)."""
        if doc not in explanations:
            explanations[doc] = closure_of(doc)
        return replace(decide(retrieval, explanations[doc]), score=_score_of(retrieval, doc),
                       lead=lead, margin=margin, singled_out_by=why)

    def quoted_subject(doc: str) -> Verdict:  # a subject the question's quote names
        return subject_verdict(doc, "text quoted in the question")

    def text_of(anchor: str) -> str:
        if anchor not in explanations:
            explanations[anchor] = closure_of(anchor)
        return title_and_text(explanations[anchor])

    named = named_subjects(retrieval, held, k)
    if named:
        groups = subject_mentions(retrieval, held, k)
        for holders in named:
            for anchor in holders:
                if anchor not in explanations:
                    explanations[anchor] = closure_of(anchor)
        holder_texts = {a: title_and_text(explanations[a]) for holders in named for a in holders}
        foreign = [quoted_for_others(retrieval.question, [holder_texts[a] for a in holders],
                                     [holder_texts[a] for other in named if other is not holders
                                      for a in other if a not in holders])
                   for holders in named]
        verdicts = [replace(named_verdict(retrieval, holders, group, explanations, held,
                                          margin, sharers, corpus, groups, theirs), margin=margin)
                    for holders, group, theirs in zip(named, groups, foreign, strict=True)]
        # a mention whose only reading is a weakly named document in force is a word of the
        # question, not a subject: without it, one subject may be left (judged below) -- unless
        # the question quotes that document, which is more than a name used as a word
        # -- and so is one whose document in force another anchor reads as the question's own
        # words around the name (``read_among_its_words``)
        kept_groups = [(v, g) for v, g in zip(verdicts, groups, strict=True)
                       if not (weakly_named(v, retrieval, held, in_force_only=True)
                               or read_among_its_words(v, g, retrieval, held, text_of, k))
                       or quoted_whole_or_in_part(retrieval, explanations[v.subject_id or ""], sharers)]
        # a name written inside a passage the question quotes from another subject's text is a
        # word of that quote ("... OpenStack python-keystoneclient disables certification
        # verification ...", from an advisory scoped to keystonemiddleware), not a subject
        kept = [v for v, g in kept_groups
                if not inside_quote_of_another(v, g, [o for o, _ in kept_groups], retrieval,
                                               explanations, held, sharers)]
        # two mentions one document holds ("docker" and "moby" in the scope of one Moby
        # advisory) name one subject: one verdict per distinct subject
        distinct: list[Verdict] = []
        for v in kept:
            if v.subject_id is None or all(v.subject_id != o.subject_id for o in distinct):
                distinct.append(v)
        if len(distinct) >= 2 and corpus is not None:
            # a mention's subject left alone by elimination (its other holders answer), which
            # the question does not quote, beside the one document holding its name that the
            # question does quote: elimination is the weakest evidence, a quote is more
            # (quoting.quoted_holder; one corpus look-up for each such subject)
            group_of = {id(v): g for v, g in kept_groups}
            chosen = {v.subject_id for v in distinct}
            for i, v in enumerate(distinct):
                if v.singled_out_by != BY_ELIMINATION or v.subject_id not in explanations:
                    continue
                others = [explanations[o.subject_id] for o in distinct
                          if o is not v and o.subject_id in explanations]
                doc = quoted_holder(explanations[v.subject_id], others, group_of[id(v)],
                                    retrieval, corpus.quoted_documents, closure_of, sharers)
                if doc is not None and doc not in chosen:
                    distinct[i] = quoted_subject(doc)
                    chosen.add(doc)
            # a subject no linked name led to, quoted where none of the others writes those
            # words ("... Dask clusters ... listen on external interfaces in distributed")
            distinct += [quoted_subject(doc) for doc in quoted_elsewhere(
                retrieval, read_as(distinct, explanations), corpus.quoted_documents, sharers)]
        if len(distinct) >= 2:
            # a mention dropped as weakly named is answered by nothing: unanswered may list it
            judged = [g for _, g in kept_groups]
            texts = [title_and_text(explanations[v.subject_id]) for v in distinct
                     if v.subject_id in explanations]
            return several(retrieval, distinct + unanswered(retrieval, judged, distinct, held, texts))
    verdict = judge(retrieval, explanations, margin, k, held, sharers=sharers, corpus=corpus)
    top = verdict.subject_id
    answered = (answered_subjects(verdict, retrieval, held, explanations[top], k)
                if top is not None and top in explanations else ())
    # the documents it answers that the question fits about equally well (within the margin of
    # the best): two approvals of one drug that one withdrawal voids, and a question that names
    # only the drug, may mean either
    if answered and len(retrieval.anchor_scores) == len(retrieval.anchors):
        best = _score_of(retrieval, answered[0]) or 0.0
        answered = tuple(a for a in answered if best - (_score_of(retrieval, a) or 0.0) <= margin)
    else:  # without scores (a hand-made retrieval), the best-ranked only
        answered = answered[:1]
    for anchor in answered:
        explanations[anchor] = closure_of(anchor)
    if len(answered) == 1:
        verdict = subject_verdict(answered[0], "answered by the top match", verdict.lead)
    elif answered:
        verdict = _ambiguous(retrieval, explanations, answered, margin, verdict.lead, answered[0])
    voided = voided_by_every_candidate(verdict, retrieval, explanations, held, corpus)
    if voided is not None:
        verdict = subject_verdict(voided, "voided by every close candidate", verdict.lead)

    if verdict.decisive and led_unquoted(verdict, retrieval, explanations):
        # a lead on words the question does not quote, in a question naming nothing, beside a
        # document it does quote: the quote is the evidence ("We read that this applies to
        # modules downloaded using the "go" command from the module proxy, as ..." quotes one Go
        # advisory; another, about a malicious module proxy, led it by the margin on meaning)
        other = quoted_beside(verdict.subject_id or "", retrieval, explanations, k, sharers)
        if other is not None:
            verdict = quoted_subject(other)
    readers = name_read_as_word(verdict, retrieval, held, text_of, k, margin)
    verdict = not_the_whole_question(verdict, retrieval, explanations, held, margin, k, readers,
                                     corpus)
    if verdict.decisive and verdict.subject_id in explanations:
        other = quoted_beside(verdict.subject_id, retrieval, explanations, k, sharers)
        if other is not None:
            return several(retrieval, [verdict, quoted_subject(other)])
        # the same beyond the top anchors: a document the question quotes that the retrieval
        # did not reach ("... in tar", the other product's holders filling the top k)
        quoted = (quoted_elsewhere(retrieval, read_as([verdict], explanations),
                                   corpus.quoted_documents, sharers, rare_zipf=QUOTE_WORD_ZIPF)
                  if corpus is not None else [])
        if quoted:
            return several(retrieval, [verdict, *map(quoted_subject, quoted)])
    return verdict


def led_unquoted(verdict: Verdict, retrieval: Retrieval,
                 explanations: Mapping[str, Explanation]) -> bool:
    """``verdict`` was singled out by its lead alone (the margin), the question links no name,
    and it quotes nothing of the subject's title and text (``quoted_run``)."""
    subject = verdict.subject_id
    return (verdict.singled_out_by == "margin" and not retrieval.question_entities
            and subject is not None and subject in explanations
            and quoted_run(retrieval.question, title_and_text(explanations[subject])) is None)


def read_as(subjects: Sequence[Verdict], explanations: Mapping[str, Explanation]) -> list[Explanation]:
    """The closures of the documents the verdicts read the question as: each subject and each
    reading of an ambiguous one."""
    return [explanations[doc] for v in subjects for r in (v, *v.candidates)
            if (doc := r.subject_id) is not None and doc in explanations]


def inside_quote_of_another(verdict: Verdict, group: Sequence[str], verdicts: Sequence[Verdict],
                            retrieval: Retrieval, explanations: Mapping[str, Explanation],
                            held: Mapping[str, Iterable[str]],
                            sharers: QuoteSharers | None = None) -> bool:
    """The verdict's mention (``group``) is written inside a passage the question quotes from
    another subject's title and text (``written_inside_quote``) -- a decisive subject, or one
    reading of a subject left ambiguous (the question quotes one of two near-identical python-gnupg
    advisories: "the shell_quote function does not properly quote strings ..."; "shell_quote" links
    the package shell-quote) -- a document that does not hold the mention; and the question quotes
    nothing of the verdict's own subject, and no more than ``MAX_QUOTE_SHARERS`` others hold the
    quoted passage (``few_share``): the name is a word of the quote, not a further subject."""
    own = verdict.subject_id
    said = words(retrieval.question)
    for other in verdicts:
        if other is verdict:
            continue
        readings = ([other] if other.decisive
                    else list(other.candidates) if other.kind is VerdictKind.AMBIGUOUS else [])
        for reading in readings:
            subject = reading.subject_id
            if (subject is None or subject == own or subject not in explanations
                    or not set(group).isdisjoint(held.get(subject, ()))):
                continue
            text = title_and_text(explanations[subject])
            if written_inside_quote(group, said, text, retrieval.spellings):
                # the look-ups last: each is a statement
                passage = quoted_run(retrieval.question, text, names=name_positions(retrieval))
                if passage is not None and few_share(sharers, subject, passage):
                    return own is None or own not in explanations or not quoted_whole_or_in_part(
                        retrieval, explanations[own], sharers)
    return False


