"""How a question quotes a document: runs of its words that a document's title or text holds in
the same order, and the documents such a quote singles out.

A question that repeats a sentence of a document ("... dask.distributed.LocalCluster ...") or its
whole title means that document, whatever names it links: the quote is evidence no margin on the
fused score gives. The verdict rules (``car_graph.verdict``) ask these questions of the close
candidates, of the other top anchors, and, through one look-up, of the corpus. A sentence is
``MIN_QUOTED_TEXT_WORDS`` words, a quotable title ``MIN_QUOTED_TITLE_WORDS``; a passage more than
``MAX_QUOTE_SHARERS`` other documents of its kind and scope hold is a family's boilerplate and
singles none of them out.

Pure logic over the typed results of retrieval; the corpus is asked only through the callables
passed in (``QuoteSharers``, ``QuotedDocuments``), so every rule is unit-tested on hand-made
objects.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import date, datetime

from car_graph.keys import own_name
from car_graph.linking import holds_passage, is_common_word, words, written_words
from car_graph.types import Explanation, Result, Retrieval

# The fewest words a title needs for the question quoting it whole to single its document out
# (``quotes_title``). A guard, not a tuned value: the dev splits answer the same from 2 to 6
# (docs/notes/verdict-measurements-2026-12.md); shorter titles ("Denial of service", a bare name) are ordinary phrases.
MIN_QUOTED_TITLE_WORDS = 4


# The fewest consecutive words of a document's title or text a question must repeat for the
# quote to single that document out among the close candidates (``quotes_text``): a sentence,
# not a phrase. On the security paraphrase dev split, 6, 8 and 10 words single out 18, 19 and 16
# of its 35 ambiguous verdicts, each time the gold one (docs/notes/verdict-measurements-2026-12.md).
MIN_QUOTED_TEXT_WORDS = 8


# The most words of a document's sentence a question quoting it beside another subject may leave
# out, once (``quoted_elsewhere``): the product's name, which a question listing several
# subjects moves out of the sentence ("rsa: it was found that is vulnerable to Bleichenbacher
# timing attacks" quotes "It was found that python-rsa is vulnerable to ..."). Two: a name
# such as "python-rsa" is two words.
ELIDED_WORDS = 2


# The most other documents of a candidate's kind and scope, outside its supersession chain, that
# may hold the passage a question quotes from it for the quote to single it out. More, and the
# passage is shared: a family's boilerplate ("TensorFlow is an end-to-end open source platform
# for machine learning" opens 90 advisories of three packages) names no one of them, and a
# sentence four advisories share fits four documents alike. Set on the dev splits
# (docs/notes/verdict-measurements-2026-12.md): at 5 (k, the most candidates a verdict lists), passages shared by 3-5 others
# made 5 decisive verdicts, 4 right and 1 stale; at 2 or 1 the four right ones become ambiguous
# verdicts listing the gold and the stale one goes, no other dev set moving; at 0 a fifth right
# one goes too.
MAX_QUOTE_SHARERS = 2


# A stretch of a question about one subject that the subject's document does not write is
# mostly the question's own frame ("would a US pharmacy still fill a prescription for"): it is
# looked up as a possible quote of another document (``quoted_elsewhere``) only when it holds a
# word rarer in English than this (Zipf frequency), as a document's sentence does ("tarball",
# "LocalCluster", "Bleichenbacher"). A cost guard, not a judge: a look-up names a document only
# on an 8-word quote. On the dev probes (docs/notes/verdict-measurements-2026-12.md) each of the 23 stretches whose look-up
# found a second subject held such a word and none of the 89 frame stretches did; at 3.0, five
# of the 23 would have been missed. A question naming several subjects is a list of them, and
# its stretches are looked up whatever their words ("... MQTT.js issue in handling PUBLISH
# tickets ...": no word rarer than 3.5).
QUOTE_WORD_ZIPF = 3.5


# The window of the subject's words that counts as holding part of the question in
# ``quoted_beside``: shorter than a quote, so a passage the subject shares even in part is not
# read as another document's
_SUBJECT_WINDOW = 4


# (doc_id, the quoted passage as the document writes it) -> how many other documents of its kind
# and scope, outside its supersession chain, hold the passage (``Retriever.quote_sharers``)
QuoteSharers = Callable[[str, str], int]


# (passage, as_of, known_at) -> the documents that fit the passage best lexically, each as
# (doc_id, its title and text) (``Corpus.quoted_documents`` of ``car_graph.verdict``)
QuotedDocuments = Callable[[str, date | None, datetime | None], list[tuple[str, str]]]


def quotes_title(question: str, title: str) -> bool:
    """The question contains the title's words in order, as a run of whole words, and the
    title has at least ``MIN_QUOTED_TITLE_WORDS`` of them: a short title ("Denial of service",
    a bare drug name) is a phrase other documents' questions use too."""
    wanted = words(title)
    if len(wanted) < MIN_QUOTED_TITLE_WORDS:
        return False
    said = words(question)
    return any(said[i:i + len(wanted)] == wanted for i in range(len(said) - len(wanted) + 1))


def quotes_text(question: str, text: str, run: int = MIN_QUOTED_TEXT_WORDS) -> bool:
    """The question repeats ``run`` consecutive words of ``text`` (a document's title and text)
    in their order: it quotes the document, whatever it leaves out around the quote (versions,
    the product's name)."""
    return quoted_run(question, text, run) is not None


def quoted_run(question: str, text: str, run: int = MIN_QUOTED_TEXT_WORDS,
               names: Collection[int] = (), elide: int = 0) -> str | None:
    """The longest passage of ``text`` the question quotes (``quotes_text``), as ``text`` writes
    it (so a fulltext phrase query tokenises it as the index did: "torch.load" is one token);
    None when it quotes no ``run`` consecutive words. ``names``: positions of the question's
    words that write a name it links (``name_positions``); the passage sheds them at its ends
    while it stays ``run`` words long -- a quote followed by the product's name ("... for
    machine learning (tensorflow-gpu)") reaches into the text's next sentence only because
    that sentence opens with the name, and the longer passage would look unique. ``elide``:
    the quote may leave out once that many words of the text (``reach``); the passage then
    holds them, as the text writes it."""
    said, written = words(question), words(text)
    runs = _runs(said, written, elide)
    # the first of the longest runs the text holds whole: consecutive windows held at different
    # places of the text are two passages, not one
    n = max((r[0] for r in runs), default=0)
    if n < run:
        return None
    start = next(i for i, r in enumerate(runs) if r[0] == n)
    _, at, end = runs[start]
    while n > run and start in names:
        start, n, at = start + 1, n - 1, at + 1
    while n > run and start + n - 1 in names:
        n, end = n - 1, end - 1
    spans = written_words(text)  # each word's place in ``text`` as written
    return text[spans[at][1]:spans[end - 1][2]]


def distinct_passage(question: str, text: str, others: Iterable[str],
                     skip: Collection[int] = frozenset()) -> str | None:
    """The longest run of the question's words that ``text`` holds and none of ``others`` does,
    as ``words`` spells it, space-separated (a fulltext phrase query of plain words: a run the
    index keeps as one token, "torch.load", is not found and vouches for nothing); of several
    as long, the first in the question; None when every run it holds is held by another text
    too. ``skip``: word positions no run may cover (``quoted_for_others``)."""
    said = words(question)
    mine = reach(said, words(text))
    if skip:
        # a run stops before the first skipped position from its start
        free = len(said)
        for i in range(len(said) - 1, -1, -1):
            if i in skip:
                free = i
            mine[i] = min(mine[i], free - i)
    theirs = [reach(said, words(o)) for o in others]
    # a run from i of n words qualifies when text holds it (n <= mine[i]) and no other text does
    # (n > theirs[i]): the longest from i is mine[i] itself, if no other reaches as far
    best, start = 0, 0
    for i, n in enumerate(mine):
        if n > best and all(t[i] < n for t in theirs):
            best, start = n, i
    return " ".join(said[start:start + best]) if best else None


def quoted_for_others(question: str, own: Iterable[str], others: Iterable[str]) -> frozenset[int]:
    """The positions of the question's words inside a passage it quotes from one of ``others``
    (``MIN_QUOTED_TEXT_WORDS`` consecutive words: the texts of the documents holding the other
    names of a question naming several subjects) and from none of ``own`` (those holding this
    one's): words the question writes for another subject. "... the author recommends using the
    maintained web-time crate instead ... in instant, and this affects the package in Jinja2":
    "recommends" is of instant's advisory, though one Jinja2 release writes it too."""
    said = words(question)

    def quoted(texts: Iterable[str]) -> set[int]:
        return set().union(*(held_positions(said, words(t), MIN_QUOTED_TEXT_WORDS) for t in texts))

    return frozenset(quoted(others) - quoted(own))


def title_and_text(document: Explanation | Result) -> str:
    """A document's title and text as the quote rules read them: one passage."""
    return f"{document.title} {document.text}"


def reach(said: Sequence[str], written: Sequence[str], elide: int = 0) -> list[int]:
    """For each position i of ``said``: the most words from i on that ``written`` holds as a run,
    in order and adjacent -- with ``elide``, allowing once a gap of at most that many words of
    ``written`` the run leaves out (the product's name a question moves out of the sentence it
    quotes: "it was found that [python-rsa] is vulnerable to ..."). Each start is tried only
    where ``written`` has said[i], so the cost is about the question's length times a word's
    occurrences, not the product of both lengths."""
    return [n for n, _, _ in _runs(said, written, elide)]


def _runs(said: Sequence[str], written: Sequence[str], elide: int = 0,
          ) -> list[tuple[int, int, int]]:
    """``reach``'s runs, each as (words of ``said``, start and end in ``written``); the first of
    the longest per position."""
    where: dict[str, list[int]] = {}
    for j, word in enumerate(written):
        where.setdefault(word, []).append(j)

    def adjacent(i: int, j: int) -> int:
        n = 0
        while i + n < len(said) and j + n < len(written) and said[i + n] == written[j + n]:
            n += 1
        return n

    out = []
    for i, word in enumerate(said):
        best = (0, 0, 0)
        for j in where.get(word, ()):
            whole = adjacent(i, j)
            if whole > best[0]:
                best = (whole, j, j + whole)
            # the gap may follow any word of the run's adjacent start
            for cut in range(1, whole + 1 if elide else 1):
                for gap in range(1, elide + 1):
                    rest = adjacent(i + cut, j + cut + gap)
                    if rest and cut + rest > best[0]:
                        best = (cut + rest, j, j + cut + gap + rest)
        out.append(best)
    return out


def held_positions(said: Sequence[str], written: Sequence[str], run: int) -> set[int]:
    """The positions of ``said`` inside some ``run`` consecutive words that ``written`` holds
    in the same order."""
    return {p for i, n in enumerate(reach(said, written)) if n >= run for p in range(i, i + n)}


def _stretches(positions: set[int]) -> list[tuple[int, int]]:
    """The maximal runs of consecutive integers in ``positions``, as [start, end) pairs."""
    runs = []
    for p in sorted(positions):
        if p - 1 not in positions:
            end = p + 1
            while end in positions:
                end += 1
            runs.append((p, end))
    return runs


def longest_stretch(positions: set[int]) -> int:
    """The most consecutive integers in ``positions``."""
    return max((end - start for start, end in _stretches(positions)), default=0)


def mention_positions(group: Sequence[str], said: Sequence[str],
                      spellings: Mapping[str, Sequence[str]] | None = None,
                      ) -> list[tuple[int, int]]:
    """Where the question's words (``said``) write a mention's name: (start, end) word positions
    of each key of ``group`` ("type:key"; a namespace before ':' is not written), in order.
    ``spellings``: per entity, the words the question names it with when they are not the
    key's (``Retrieval.question_spellings``: "zope" read as zope2), looked for where the
    key's own words are not written."""
    found = []
    for entity in group:
        spelled = [words(own_name(entity)), list((spellings or {}).get(entity, ()))]
        for name in spelled:
            n = len(name)
            at = [(i, i + n) for i in range(len(said) - n + 1) if n and list(said[i:i + n]) == name]
            if at:
                found += at
                break
    return found


def name_positions(retrieval: Retrieval) -> set[int]:
    """The positions of the question's words (``words``) that write a name it links."""
    said = words(retrieval.question)
    return {p for start, end in mention_positions(retrieval.question_entities, said,
                                                  retrieval.spellings)
            for p in range(start, end)}


def written_inside_quote(group: Sequence[str], said: Sequence[str], text: str,
                         spellings: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Each place the question writes the mention is inside a passage it quotes from ``text``:
    ``text`` holds the name, the question's words on both sides of it belong to runs of two or
    more words ``text`` holds, and that stretch of adjacent runs and the name holds a quote
    (``MIN_QUOTED_TEXT_WORDS`` consecutive words). A question quoting a sentence while leaving
    out versions ("keystonemiddleware before 1.6.0 and") still quotes it; a name written
    beside a quote, or in place of the quote's own words, is not inside it."""
    spans = mention_positions(group, said, spellings)
    if not spans:
        return False
    written = words(text)
    near = held_positions(said, written, 2)
    quoted = held_positions(said, written, MIN_QUOTED_TEXT_WORDS)
    for start, end in spans:
        if start - 1 not in near or end not in near or not holds_passage(text, said[start:end]):
            return False
        inside = near | set(range(start, end))
        low, high = start, end
        while low - 1 in inside:
            low -= 1
        while high in inside:
            high += 1
        if quoted.isdisjoint(range(low, high)):
            return False
    return True


def few_share(sharers: QuoteSharers | None, anchor: str, passage: str) -> bool:
    """No more than ``MAX_QUOTE_SHARERS`` other documents of the anchor's kind and scope hold
    the passage it is quoted by (``sharers`` asked; None: a hand-made retrieval, taken as
    unique). More, and the passage is a family's boilerplate that names none of them."""
    return sharers is None or sharers(anchor, passage) <= MAX_QUOTE_SHARERS


def quoted_whole_or_in_part(retrieval: Retrieval, explanation: Explanation,
                            sharers: QuoteSharers | None = None) -> bool:
    """The question quotes the document: its whole title (``quotes_title``) or a sentence of
    its title and text (``quoted_run``), a passage no more than ``MAX_QUOTE_SHARERS`` other
    documents of its kind and scope hold (asked of ``sharers`` only then)."""
    title = explanation.title
    passage = (title if quotes_title(retrieval.question, title)
               else quoted_run(retrieval.question, title_and_text(explanation),
                               names=name_positions(retrieval)))
    return passage is not None and few_share(sharers, explanation.doc_id, passage)


def on_chain_of(explanation: Explanation) -> set[str]:
    """The document, its controlling documents and the documents one edge away either way: a
    document repeating its words there answers it or is answered by it, no other subject."""
    return {explanation.doc_id, *(c.doc_id for c in explanation.controlling),
            *(h.to_id for h in explanation.superseded_by),
            *(h.from_id for h in explanation.supersedes)}


def quoted_beside(subject: str, retrieval: Retrieval, explanations: Mapping[str, Explanation],
                  limit: int | None = None, sharers: QuoteSharers | None = None) -> str | None:
    """The one other top anchor the question quotes a sentence of (``MIN_QUOTED_TEXT_WORDS``
    consecutive words of its title or text) where ``subject`` holds none of those words in that
    order: the question asks about both ("Are the tar issue \"...\" and the aws-iam-authenticator
    issue \"...\" both fixed?", where "tar" is an ordinary word no name is linked on). Not a
    document on the subject's chain, and not a passage more than ``MAX_QUOTE_SHARERS`` others
    of its kind and scope hold (a family's boilerplate). Texts come from the readings, else from
    the anchor's own result (in force); an anchor known by neither is not read (``CarClient.answer``
    has the retrieval walk every top anchor's closure, so none is unknown there)."""
    said = words(retrieval.question)
    mine = explanations[subject]
    covered = held_positions(said, words(title_and_text(mine)), _SUBJECT_WINDOW)
    chain = on_chain_of(mine)
    own = {r.doc_id: r for r in retrieval.results if r.doc_id == r.anchor_id}
    read = retrieval.walked
    found: list[tuple[str, str]] = []
    for anchor in retrieval.anchors[:len(retrieval.anchors) - retrieval.beyond][:limit]:
        if anchor == subject or anchor in chain:
            continue
        known = explanations.get(anchor) or read.get(anchor)
        if known is not None:
            if subject in {c.doc_id for c in known.controlling}:
                continue
            text = title_and_text(known)
        elif anchor in own:
            text = title_and_text(own[anchor])
        else:
            continue
        theirs = held_positions(said, words(text), MIN_QUOTED_TEXT_WORDS) - covered
        if longest_stretch(theirs) >= MIN_QUOTED_TEXT_WORDS:
            passage = quoted_run(retrieval.question, text, names=name_positions(retrieval))
            if passage is not None:
                found.append((anchor, passage))
        elif known is not None:
            # a name the subject also carries tells no second document from the subject; one it
            # does not carry does: unlinked ("rsa"), or linked when the subject holds no name
            # the question links ("Pillow: a flaw that allows denial of service via
            # SAMPLESPERPIXEL", the subject another product's quoted advisory). Beside a
            # subject named by the question, its linked names are the named-subject rules'
            linked = set(retrieval.question_entities)
            names = set(known.scope) - set(mine.scope)
            if set(mine.scope) & linked:
                names -= linked
            passage = named_and_quoted(said, text, sorted(names), covered)
            if passage is not None:
                found.append((anchor, passage))
    if len(found) != 1:
        return None
    anchor, passage = found[0]
    return anchor if few_share(sharers, anchor, passage) else None


def quoted_holder(subject: Explanation, others: Sequence[Explanation], names: Collection[str],
                  retrieval: Retrieval, quoted_documents: QuotedDocuments,
                  closure_of: Callable[[str], Explanation],
                  sharers: QuoteSharers | None = None) -> str | None:
    """The one document, beside ``subject`` (what a question naming several documents was read
    as meaning by the mention ``names``: "type:key" of its entities), that the question quotes
    a sentence of (``MIN_QUOTED_TEXT_WORDS`` consecutive words, where the ``others`` subjects'
    documents hold none of them) and that holds one of ``names``, when the subject's own text is
    not quoted: the question means it. "Go: arbitrary code execution in go command with cgo in
    cmd/go and cmd/cgo. Django: ..." -- the Django quote sets the fused scores, so Go's best
    holders are release notes and another Go advisory, left alone by elimination. Looked up in
    the corpus with the question's words the others' documents do not hold; the document
    quoting the longest run of them. None when none quotes so many, several quote as long a
    run, or the quote is boilerplate (``few_share``)."""
    question = retrieval.question
    if quoted_run(question, title_and_text(subject)) is not None or quotes_title(question, subject.title):
        return None
    said = words(question)
    covered: set[int] = set().union(*(
        held_positions(said, words(title_and_text(o)), _SUBJECT_WINDOW) for o in others))
    passage = " ".join(w for i, w in enumerate(said) if i not in covered)
    skip = {subject.doc_id, *on_chain_of(subject)}.union(
        *({o.doc_id, *on_chain_of(o)} for o in others))
    runs = [(longest_stretch(held_positions(said, words(text), MIN_QUOTED_TEXT_WORDS) - covered),
             doc, text)
            for doc, text in quoted_documents(passage, retrieval.as_of, retrieval.known_at)
            if doc not in skip]
    longest = max((n for n, _, _ in runs), default=0)
    hits = [(doc, text) for n, doc, text in runs if n == longest]
    if longest < MIN_QUOTED_TEXT_WORDS or len(hits) != 1:
        return None
    doc, text = hits[0]
    run = quoted_run(question, text)
    if run is None or set(closure_of(doc).scope).isdisjoint(names) or not few_share(sharers, doc, run):
        return None
    return doc


def named_and_quoted(said: Sequence[str], text: str, scope: Iterable[str],
                     covered: set[int]) -> str | None:
    """A shorter quote, with the document's name: the question writes the name of an entity
    of ``scope`` (its key's words; in ``quoted_beside``, one scoping the document that the
    subject does not carry: linked, or left unlinked as a name the corpus also uses as an
    ordinary word, "rsa", "std") and a run of at least ``MIN_QUOTED_TITLE_WORDS`` of
    its words holding a word rarer in English than ``QUOTE_WORD_ZIPF`` ("is vulnerable to
    Bleichenbacher timing attacks", the product's own name cut out of the sentence), both
    where the subject's words (``covered``) are not. The run as the question writes it, or
    None."""
    free = set(range(len(said))) - covered
    # the key's own words: an unlinked name has no spelling of the linker's to look for
    named = any(set(range(start, end)) <= free
                for start, end in mention_positions(tuple(scope), said))
    if not named:
        return None
    held = held_positions(said, words(text), MIN_QUOTED_TITLE_WORDS) & free
    for start, end in _stretches(held):
        run = said[start:end]
        if (end - start >= MIN_QUOTED_TITLE_WORDS
                and any(not is_common_word(w, QUOTE_WORD_ZIPF) for w in run)):
            return " ".join(run)
    return None


def quoted_elsewhere(retrieval: Retrieval, read: Sequence[Explanation],
                     quoted_documents: QuotedDocuments, sharers: QuoteSharers | None = None,
                     rare_zipf: float | None = None) -> list[str]:
    """The documents a question also quotes beside the subjects it was read as (``read``: the
    closures of one decisive subject, or of the several it names, and of their candidates),
    where none of those documents writes the words: a product named by a common word ("distributed", "tar") links nothing, and the
    other subjects' holders fill the top anchors, so the retrieval never reached its document.

    Each stretch of at least ``MIN_QUOTED_TEXT_WORDS`` of the question's words that no
    subject's document holds (``_SUBJECT_WINDOW`` words at a time), that writes no linked name
    and, with ``rare_zipf``, holds a word rarer in English than that, is looked up in the corpus
    (``quoted_documents``). The one document holding the longest run of it, of at least
    ``MIN_QUOTED_TEXT_WORDS`` words, is quoted -- unless another holds as long a run, more than
    ``MAX_QUOTE_SHARERS`` others of its kind and scope hold the passage (boilerplate), or it
    lies on a subject's chain (a release note repeating the advisory it fixes)."""
    said = words(retrieval.question)
    chain = set().union(*map(on_chain_of, read))
    covered = name_positions(retrieval).union(
        *(held_positions(said, words(title_and_text(e)), _SUBJECT_WINDOW) for e in read))
    found: list[str] = []
    for start, end in _stretches(set(range(len(said))) - covered):
        part = said[start:end]
        if len(part) < MIN_QUOTED_TEXT_WORDS or (
                rare_zipf is not None and all(is_common_word(w, rare_zipf) for w in part)):
            continue
        runs = [(max(reach(part, words(text), ELIDED_WORDS), default=0), doc, text)
                for doc, text in quoted_documents(" ".join(part), retrieval.as_of,
                                                  retrieval.known_at)
                if doc not in chain and doc not in found]
        longest = max((n for n, _, _ in runs), default=0)
        holders = [(doc, text) for n, doc, text in runs if n == longest]
        if len(holders) != 1:
            continue
        doc, text = holders[0]
        passage = quoted_run(" ".join(part), text, elide=ELIDED_WORDS)  # None: no quote
        if passage is not None and few_share(sharers, doc, passage):
            found.append(doc)
    return found
