"""Evaluation metrics for Controlling Authority Retrieval: pure functions, no Neo4j.

The retrieval target of CAR (paper §1, Def. 3) is the active frontier of the authority closure of
the query's anchors, ``front(cl(A))``. Relevance metrics cannot see it: a system can put every gold
document in its top k and still hand the reader a superseded document without its superseder. So
the headline metric here is *strict* TCA, Theorem 4 checked on the top k, and the relevance
metrics (gold@k, MRR) and anchor recall sit next to it to show *where* a system fails (Prop. 1:
TCA = R_anchor · φ · R_frontier).

Supersession semantics (what is in force as of a date, closure, voiding, frontier, cycles) are
those of ``car_graph.semantics``, the one reference the Cypher is tested against.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from car_graph.semantics import AuthorityGraph, Edge, EdgeLike  # noqa: F401  (re-exported)

__all__ = [
    "Edge",
    "QueryScore",
    "Reading",
    "SupersessionGraph",
    "SystemScores",
    "VerdictOutcome",
    "VerdictScores",
    "aggregate",
    "anchor_recall",
    "gold_at_k",
    "kappa",
    "phi",
    "reciprocal_rank",
    "score_query",
    "score_verdicts",
    "strict_tca",
    "superseded_leak",
    "wilson_interval",
]


# The supersession semantics (edges in force, closure, voiding, frontier) live in one place.
SupersessionGraph = AuthorityGraph


def strict_tca(
    retrieved: Sequence[str],
    k: int,
    gold: set[str],
    graph: SupersessionGraph,
    as_of: date | None = None,
    anchors: set[str] | None = None,
) -> bool:
    """Temporal-controlling accuracy of the top ``k``, by Theorem 4 (CAR-correctness).

    TCA = 1 iff (i) frontier inclusion: the required frontier — ``front(cl(anchors))`` when the
    query's anchors are known, else ``gold`` — and ``gold`` itself are all in the top k; and
    (ii) no ignored superseder: every top-k document superseded as of ``as_of`` has something in
    the top k that supersedes it, directly or transitively ({d1, d3} is fine for d1⇝d2⇝d3).

    This is stricter than the paper's measured TCA ("the gold superseder is in the top k"): a
    stale document left in the list without its superseder fails the query, because that is what
    misleads a reader.
    """
    top = list(dict.fromkeys(retrieved[:k]))
    in_top = set(top)
    required = graph.controlling(anchors, as_of) if anchors else set()
    if not (required | set(gold)) <= in_top:
        return False
    for d in top:
        if graph.is_superseded(d, as_of) and not any(
            graph.reaches(d, other, as_of) for other in top if other != d
        ):
            return False
    return True


def gold_at_k(retrieved: Sequence[str], k: int, gold: set[str]) -> bool:
    """All gold documents are in the top ``k`` (False for an empty gold set).

    "All" rather than "any": when a partial supersession leaves two controlling documents, a
    system that returns only one has not found the controlling authority. It is the relevance
    view of condition (i) of Theorem 4, without condition (ii).
    """
    return bool(gold) and set(gold) <= set(retrieved[:k])


def anchor_recall(retrieved_anchor_ids: Sequence[str], k: int, anchors: set[str]) -> float | None:
    """Fraction of the query's anchors among the system's top-k anchor candidates (R_anchor).

    None when the query has no anchors: the quantity is undefined, and averaging a made-up 0 or 1
    into R_anchor would bias it.
    """
    if not anchors:
        return None
    return len(set(anchors) & set(retrieved_anchor_ids[:k])) / len(set(anchors))


def reciprocal_rank(retrieved: Sequence[str], gold: set[str], k: int | None = None) -> float:
    """1 / rank of the first gold document (0 when none is retrieved, or none in the top ``k``)."""
    for rank, doc in enumerate(retrieved[:k] if k is not None else retrieved, start=1):
        if doc in gold:
            return 1.0 / rank
    return 0.0


def superseded_leak(
    retrieved: Sequence[str], k: int, graph: SupersessionGraph, as_of: date | None = None
) -> float:
    """Share of the top ``k`` that is superseded as of ``as_of`` (0 for an empty list)."""
    top = list(retrieved[:k])
    if not top:
        return 0.0
    return sum(graph.is_superseded(d, as_of) for d in top) / len(top)


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when ``n`` is 0.

    Wilson rather than the normal approximation because TCA sits near 0 or 1 on many systems,
    where the normal interval leaves [0, 1] or collapses to a point.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def kappa(scope_docs_count: int, closure_size: int) -> float:
    """Scope ambiguity ratio κ(q) = |D_σ(q)| / |cl(A(q))| (paper Def. 5).

    κ = 1 when the scope holds exactly one authority chain; κ > 1 when same-scope documents
    outside the chain (another flaw in the same package, an older release) could be mistaken for it.
    """
    if closure_size <= 0:
        raise ValueError("closure_size must be positive (a closure holds at least its anchor)")
    if scope_docs_count < 0:
        raise ValueError("scope_docs_count must not be negative")
    return scope_docs_count / closure_size


def phi(kappa_value: float) -> float:
    """Scope identifiability φ = min(1, 1/κ); the ceiling TCA ≤ φ·R_anchor of Prop. 2."""
    if kappa_value < 0:
        raise ValueError("kappa must not be negative")
    return 1.0 if kappa_value == 0 else min(1.0, 1.0 / kappa_value)


@dataclass(frozen=True)
class QueryScore:
    """The per-query row that ``aggregate`` averages."""

    query_id: str
    tca: bool
    gold_at_k: bool
    reciprocal_rank: float
    anchor_recall: float | None = None


def score_query(
    query_id: str,
    retrieved: Sequence[str],
    k: int,
    gold: set[str],
    graph: SupersessionGraph,
    as_of: date | None = None,
    anchors: set[str] | None = None,
    retrieved_anchor_ids: Sequence[str] | None = None,
) -> QueryScore:
    """Every per-query metric of one ranked list (anchor recall only when anchors are known)."""
    recall = None
    if anchors and retrieved_anchor_ids is not None:
        recall = anchor_recall(retrieved_anchor_ids, k, anchors)
    return QueryScore(
        query_id=query_id,
        tca=strict_tca(retrieved, k, gold, graph, as_of, anchors),
        gold_at_k=gold_at_k(retrieved, k, gold),
        reciprocal_rank=reciprocal_rank(retrieved, gold),
        anchor_recall=recall,
    )


@dataclass(frozen=True)
class SystemScores:
    """One system's means over a query set, with a 95% Wilson interval on TCA."""

    tca: float
    gold_at_k: float
    anchor_recall: float | None
    mrr: float
    tca_ci95: tuple[float, float]
    n: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "tca": self.tca,
            "gold_at_k": self.gold_at_k,
            "anchor_recall": self.anchor_recall,
            "mrr": self.mrr,
            "tca_ci95": list(self.tca_ci95),
            "n": self.n,
        }

    @classmethod
    def from_rows(cls, rows: Iterable[QueryScore | Mapping[str, Any]]) -> SystemScores:
        """Average per-query rows (``QueryScore`` or mappings with the same field names;
        ``rr`` is accepted for ``reciprocal_rank``). Anchor recall averages only the rows that
        have it; it is None when no row does."""
        tca: list[bool] = []
        gold: list[bool] = []
        rr: list[float] = []
        recall: list[float] = []
        for row in rows:
            if isinstance(row, QueryScore):
                values: Mapping[str, Any] = {
                    "tca": row.tca,
                    "gold_at_k": row.gold_at_k,
                    "reciprocal_rank": row.reciprocal_rank,
                    "anchor_recall": row.anchor_recall,
                }
            else:
                values = row
            tca.append(bool(values["tca"]))
            gold.append(bool(values["gold_at_k"]))
            rr.append(float(values.get("reciprocal_rank", values.get("rr", 0.0))))
            if values.get("anchor_recall") is not None:
                recall.append(float(values["anchor_recall"]))
        n = len(tca)
        successes = sum(tca)
        return cls(
            tca=successes / n if n else 0.0,
            gold_at_k=sum(gold) / n if n else 0.0,
            anchor_recall=sum(recall) / len(recall) if recall else None,
            mrr=sum(rr) / n if n else 0.0,
            tca_ci95=wilson_interval(successes, n),
            n=n,
        )


def aggregate(rows: Iterable[QueryScore | Mapping[str, Any]]) -> dict[str, Any]:
    """``{"tca", "gold_at_k", "anchor_recall", "mrr", "tca_ci95": [lo, hi], "n"}`` over the rows."""
    return SystemScores.from_rows(rows).as_dict()


# --------------------------------------------------------------------------- verdicts
# A verdict is scored from plain ids (``VerdictOutcome``), never from the code that decided it:
# the gold is a queries file's ``gold`` (the controlling documents) and ``anchors`` (the
# document(s) the question is about).

DECISIVE_KINDS = frozenset({"in_force", "superseded", "partially_superseded", "withdrawn",
                            "unresolved"})
# the readings whose agreement across an ambiguous verdict's candidates answers the question
AGREEING_READINGS = frozenset({"superseded", "withdrawn"})


@dataclass(frozen=True)
class Reading:
    """One subject a verdict names, and the controlling documents it gives for it."""

    subject: str
    kind: str
    controlling: frozenset[str]


@dataclass(frozen=True)
class VerdictOutcome:
    """What a verdict asserted: ``kind`` (``in_force`` ... ``ambiguous``, ``multiple``,
    ``not_found``), its single reading when decisive, the readings of an ambiguous verdict's
    candidates or of a multiple verdict's subjects."""

    kind: str
    reading: Reading | None = None
    candidates: tuple[Reading, ...] = ()
    subjects: tuple[Reading, ...] = ()
    # a multiple verdict's named subjects that stayed ambiguous (or found nothing): each one's
    # candidate readings (none for nothing found)
    subject_candidates: tuple[tuple[Reading, ...], ...] = ()

    @property
    def decisive(self) -> bool:
        """One reading asserted -- or, for a multiple verdict, one per named subject."""
        return (self.kind in DECISIVE_KINDS and self.reading is not None) or (
            self.kind == "multiple" and bool(self.subjects) and not self.subject_candidates)

    @property
    def ambiguous(self) -> bool:
        """Lists candidates instead of asserting: an ambiguous verdict, or a multiple one with
        a named subject left ambiguous."""
        return self.kind == "ambiguous" or (self.kind == "multiple" and bool(self.subject_candidates))

    @property
    def readings_agree(self) -> bool:
        """An ambiguous verdict whose candidates (two or more) all read alike: each superseded,
        or each withdrawn, with the same controlling documents -- whichever the question means,
        the answer is the same."""
        if self.kind != "ambiguous" or len(self.candidates) < 2:
            return False
        first = self.candidates[0]
        return (first.kind in AGREEING_READINGS and bool(first.controlling)
                and all((c.kind, c.controlling) == (first.kind, first.controlling)
                        for c in self.candidates[1:]))


def reading_right(reading: Reading, gold: frozenset[str], anchors: frozenset[str] | None) -> bool:
    """The reading names the document asked about (when the gold says which: ``anchors``) and
    exactly the gold's controlling documents."""
    return (anchors is None or reading.subject in anchors) and reading.controlling == gold


def verdict_right(outcome: VerdictOutcome, gold: frozenset[str],
                  anchors: frozenset[str] | None) -> bool:
    """A decisive verdict is right when its reading is; a multiple one when it names exactly
    the anchors (when known) and its subjects' controlling documents together are the gold."""
    if outcome.kind == "multiple":
        subjects = frozenset(r.subject for r in outcome.subjects)
        union = frozenset().union(*(r.controlling for r in outcome.subjects))
        return bool(outcome.subjects) and (anchors is None or subjects == anchors) and union == gold
    return outcome.decisive and outcome.reading is not None and reading_right(
        outcome.reading, gold, anchors)


def verdict_stale(outcome: VerdictOutcome, gold: frozenset[str]) -> bool:
    """Says "in force" of a document the gold does not hold as controlling: an outdated (or
    unrelated) document given as current."""
    readings: tuple[Reading, ...] = (
        (outcome.reading,) if outcome.reading is not None and outcome.decisive else ())
    if outcome.kind == "multiple":
        readings = outcome.subjects
    return any(r.kind == "in_force" and r.subject not in gold for r in readings)


def gold_among_candidates(outcome: VerdictOutcome, gold: frozenset[str],
                          anchors: frozenset[str] | None) -> bool:
    """An ambiguous verdict lists the right reading among its candidates. A question about
    several documents (two or more gold anchors), answered by a multiple verdict with ambiguous
    subjects or by one ambiguous verdict listing them all: every gold anchor is read, asserted
    or as a candidate, and those readings' controlling documents together are the gold."""
    several_asked = anchors is not None and len(anchors) >= 2
    if (outcome.kind == "multiple" and outcome.subject_candidates) or (
            outcome.kind == "ambiguous" and several_asked):
        offered = (*outcome.subjects, *(r for c in outcome.subject_candidates for r in c),
                   *outcome.candidates)
        if anchors is None:
            return False
        chosen = [r for r in offered if r.subject in anchors]
        return ({r.subject for r in chosen} == set(anchors)
                and frozenset().union(*(r.controlling for r in chosen)) == gold)
    return outcome.kind == "ambiguous" and any(reading_right(r, gold, anchors)
                                               for r in outcome.candidates)


@dataclass(frozen=True)
class VerdictScores:
    n: int
    decisive: int
    decisive_right: int
    ambiguous: int
    ambiguous_with_gold: int
    stale: int
    not_found: int
    # ambiguous verdicts whose candidates all read alike (``VerdictOutcome.readings_agree``), and
    # of those, the ones that list the gold reading
    agreeing: int = 0
    agreeing_right: int = 0

    @property
    def decisive_precision(self) -> float | None:
        return self.decisive_right / self.decisive if self.decisive else None

    @property
    def decisive_coverage(self) -> float:
        return self.decisive / self.n if self.n else 0.0

    @property
    def ambiguous_with_gold_rate(self) -> float | None:
        return self.ambiguous_with_gold / self.ambiguous if self.ambiguous else None

    @property
    def stale_rate(self) -> float:
        return self.stale / self.n if self.n else 0.0

    @property
    def not_found_rate(self) -> float:
        return self.not_found / self.n if self.n else 0.0

    @property
    def answered_right(self) -> float:
        """Share of all questions whose gold reading the verdict gives, alone or as a listed
        candidate (what a reader shown the whole verdict can act on)."""
        return (self.decisive_right + self.ambiguous_with_gold) / self.n if self.n else 0.0

    @property
    def settled_right(self) -> float:
        """Share of all questions answered right without the reader choosing a reading: a right
        decisive verdict, or an ambiguous one whose readings all agree and list the gold."""
        return (self.decisive_right + self.agreeing_right) / self.n if self.n else 0.0

    @property
    def actionable_coverage(self) -> float:
        """Share of questions a reader can act on without choosing: decisive verdicts, and
        ambiguous ones whose readings all agree (issue 56: those count as decisive)."""
        return (self.decisive + self.agreeing) / self.n if self.n else 0.0

    @property
    def actionable_precision(self) -> float | None:
        """Of those, the share right (an agreeing verdict when its reading is the gold's)."""
        acted = self.decisive + self.agreeing
        return (self.decisive_right + self.agreeing_right) / acted if acted else None

    def as_dict(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return round(x, 4) if x is not None else None
        return {
            "n": self.n, "decisive": self.decisive, "decisive_right": self.decisive_right,
            "decisive_precision": r(self.decisive_precision),
            "decisive_precision_ci95": [round(x, 4) for x in
                                        wilson_interval(self.decisive_right, self.decisive)],
            "decisive_coverage": r(self.decisive_coverage),
            "ambiguous": self.ambiguous, "ambiguous_with_gold": self.ambiguous_with_gold,
            "ambiguous_with_gold_rate": r(self.ambiguous_with_gold_rate),
            "stale": self.stale, "stale_rate": r(self.stale_rate),
            "not_found": self.not_found, "not_found_rate": r(self.not_found_rate),
            "answered_right": r(self.answered_right),
            "ambiguous_agreeing": self.agreeing, "ambiguous_agreeing_right": self.agreeing_right,
            "settled_right": r(self.settled_right),
            "actionable_coverage": r(self.actionable_coverage),
            "actionable_precision": r(self.actionable_precision),
        }


def score_verdicts(
    rows: Iterable[tuple[VerdictOutcome, frozenset[str], frozenset[str] | None]],
) -> VerdictScores:
    """Score (outcome, gold, anchors) triples: decisive precision and coverage, how often an
    ambiguous verdict lists the gold reading, and the stale rate."""
    n = decisive = right = ambiguous = with_gold = stale = not_found = agreeing = agreeing_right = 0
    for outcome, gold, anchors in rows:
        n += 1
        if outcome.decisive:
            decisive += 1
            right += verdict_right(outcome, gold, anchors)
        elif outcome.ambiguous:
            ambiguous += 1
            listed = gold_among_candidates(outcome, gold, anchors)
            with_gold += listed
            if outcome.readings_agree:
                agreeing += 1
                agreeing_right += listed
        elif outcome.kind == "not_found":
            not_found += 1
        stale += verdict_stale(outcome, gold)
    return VerdictScores(n, decisive, right, ambiguous, with_gold, stale, not_found,
                         agreeing, agreeing_right)
