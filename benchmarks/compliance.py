"""A bring-your-own-domain benchmark: an employee personal-trading compliance log.

The domain is one no built-in pipeline covers, and it reaches car-graph only as data: generic JSON
Lines documents plus a rules file (``benchmarks/rules/compliance.yaml``). It is modelled on the
paper's FinSuperQA (SEC Rule 204A-1; paper.md sections 4, 5 and 6.1) and written from scratch.

Each *example* is one (employee, ticker) pair, unique across the benchmark, with a chain:

* T0 -- a pre-clearance approval only (it is still in force);
* T1 -- pre-clearance -> blackout (the blackout voids the approval);
* T2 -- pre-clearance -> blackout -> emergency exception (same day or a day or two later);
* T3 -- pre-clearance -> blackout -> blackout lifted, each from a different source system (the
  lift ends the blackout but does not revive the approval).

Beside each chain come ``distractors`` events (10 by default): about 40 % for the same employee
and other tickers, 40 % for other employees and the same ticker, 20 % random. They are single
events (approvals, denials, executions, conflict disclosures, policy acknowledgements,
confidential watch-list entries) or short chains of their own on their own (employee, ticker)
pair -- e.g. a blackout of the same employee in another ticker, which a rule keyed on the employee
alone would wrongly apply to the example's approval. A pair that holds an event of a kind any rule
mentions belongs to one chain only, so the rules can link nothing the generator did not intend.

Tickers are real symbols of 1-4 capital letters, deliberately including 1-3 letter ones ("C",
"GS", "JPM"); employees are identifiers ("EMP060-Evans") or plain names ("Priya Raman").

Outputs (:func:`write`): ``documents.jsonl`` (explicit ``supersedes`` references: the intended
edges with effective date and evidence), ``documents_rules.jsonl`` (the same events without
them), ``rules.yaml`` (ingesting ``documents_rules.jsonl`` with it yields exactly the intended
edges), ``intended_edges.jsonl``, ``queries.{dev,test}.jsonl`` and
``short_tickers.{dev,test}.jsonl`` (questions whose ticker has 1-3 letters), ``stats.json``.

Gold is the front of the example's own chain as of the question's date -- read off the chain the
generator built, never computed with the rules or with car-graph. Examples go to dev or test by a
stable hash of their id, and each split asks with its own phrasing families (a dev family never
appears in test).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from car_graph.records import DocumentRecord, SupersedesRef, write_jsonl

RULES_PATH = Path(__file__).resolve().parent / "rules" / "compliance.yaml"
DOMAIN = "compliance"

# --- pools ---------------------------------------------------------------------------------------

SURNAMES = ["Adams", "Baker", "Chen", "Dalton", "Evans", "Fischer", "Garcia", "Hughes", "Ibarra", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Patel", "Quinn", "Rossi", "Schmidt", "Tanaka", "Ueda", "Varga", "Whitaker", "Xu", "Yilmaz", "Zimmerman", "Abbott", "Brennan", "Castillo", "Delgado", "Eriksen", "Fontaine", "Gallagher", "Haddad", "Iverson", "Jovanovic", "Keller", "Lambert", "Mendez", "Novak", "Oliveira", "Petrov", "Ramirez", "Sorensen", "Thornton", "Usman", "Vasquez", "Wagner", "Yamada", "Zhang", "Albright", "Bishop", "Carver", "Dubois", "Ellison", "Fitzgerald", "Gomez", "Hartmann", "Ingram", "Jacobs", "Kaplan", "Larsen", "Mahoney", "Nilsson", "Ortega", "Pearson", "Reyes", "Sato", "Tran", "Underwood", "Vance", "Walsh", "Young", "Ziegler", "Alvarez", "Becker", "Coleman", "Duarte", "Engel", "Farrell", "Greene", "Holm", "Iqbal", "Jordan", "Kemp", "Lopez", "Murphy", "Nolan", "Osei", "Park", "Rahman", "Stone", "Turner", "Vogel", "Wright", "Yusuf", "Arnold", "Bauer", "Cruz", "Doyle", "Estrada", "Foster", "Grant", "Hale", "Ishikawa", "Joshi", "Klein", "Lowe", "Molina", "Nguyen", "Ochoa", "Price", "Raman", "Silva", "Torres", "Valdez", "Webb", "Achebe", "Bianchi", "Costa", "Dunn", "Espinoza", "Ferrari", "Guerrero", "Hayes", "Ito", "Kim", "Lin", "Marsh", "Nash", "Owens", "Pike", "Reid", "Shah", "Tate", "Vega", "Wong"]
FIRST_NAMES = ["Priya", "Marcus", "Elena", "Tomasz", "Aisha", "Daniel", "Sofia", "Kenji", "Grace", "Omar", "Hannah", "Lucas", "Mei", "Rafael", "Ingrid", "Samuel", "Leila", "Victor", "Chloe", "Andre", "Fatima", "Jonah", "Nadia", "Oliver", "Rosa", "Ethan", "Yara", "Felix", "Amara", "Diego", "Lena", "Hugo", "Zara", "Isaac", "Maya", "Theo", "Noor", "Julian", "Vera", "Caleb", "Anika", "Mateo", "Iris", "Kofi", "Greta", "Luis", "Sana", "Nikolai", "Esther", "Ravi"]
N_ID_EMPLOYEES = 100  # "EMP001-Adams" ...; the rest are plain names ("Priya Raman")

# Real symbols; 1-3 letter ones on purpose (short keys are the hard case for entity linking).
TICKERS = {
    "C": "Citigroup", "F": "Ford Motor", "T": "AT&T", "K": "Kellanova", "V": "Visa",
    "X": "United States Steel", "D": "Dominion Energy",
    "GS": "Goldman Sachs", "MS": "Morgan Stanley", "DE": "Deere & Company", "BA": "Boeing",
    "GE": "General Electric", "GM": "General Motors", "HD": "Home Depot", "KO": "Coca-Cola",
    "MO": "Altria", "PG": "Procter & Gamble", "PM": "Philip Morris International",
    "MA": "Mastercard", "MU": "Micron Technology", "CI": "Cigna", "CL": "Colgate-Palmolive",
    "ED": "Consolidated Edison", "DD": "DuPont", "LH": "Labcorp", "WM": "Waste Management",
    "FE": "FirstEnergy", "RF": "Regions Financial", "BK": "BNY Mellon", "GD": "General Dynamics",
    "EA": "Electronic Arts", "BP": "British Petroleum", "UL": "Unilever", "HL": "Hecla Mining",
    "JPM": "JPMorgan Chase", "IBM": "International Business Machines", "AMD": "Advanced Micro Devices",
    "BAC": "Bank of America", "WFC": "Wells Fargo", "XOM": "Exxon Mobil", "CVX": "Chevron",
    "PFE": "Pfizer", "MRK": "Merck", "JNJ": "Johnson & Johnson", "LLY": "Eli Lilly",
    "UNH": "UnitedHealth Group", "HUM": "Humana", "WMT": "Walmart", "TGT": "Target",
    "NKE": "Nike", "MCD": "McDonald's", "DIS": "Walt Disney", "CAT": "Caterpillar", "MMM": "3M",
    "HON": "Honeywell", "LMT": "Lockheed Martin", "RTX": "Raytheon", "NOC": "Northrop Grumman",
    "UPS": "United Parcel Service", "FDX": "FedEx", "UNP": "Union Pacific", "NSC": "Norfolk Southern",
    "DAL": "Delta Air Lines", "UAL": "United Airlines", "LUV": "Southwest Airlines",
    "PEP": "PepsiCo", "KHC": "Kraft Heinz", "DUK": "Duke Energy", "AEP": "American Electric Power",
    "SLB": "Schlumberger", "COP": "ConocoPhillips", "OXY": "Occidental Petroleum",
    "USB": "U.S. Bancorp", "PNC": "PNC Financial", "AXP": "American Express", "BLK": "BlackRock",
    "CRM": "Salesforce", "TXN": "Texas Instruments",
    "AAPL": "Apple", "MSFT": "Microsoft", "AMZN": "Amazon", "NVDA": "Nvidia", "TSLA": "Tesla",
    "META": "Meta Platforms", "GOOG": "Alphabet", "NFLX": "Netflix", "INTC": "Intel",
    "CSCO": "Cisco Systems", "ORCL": "Oracle", "ADBE": "Adobe", "QCOM": "Qualcomm",
    "AVGO": "Broadcom", "ABBV": "AbbVie", "COST": "Costco", "SBUX": "Starbucks",
    "MDLZ": "Mondelez", "SCHW": "Charles Schwab", "EQIX": "Equinix", "INTU": "Intuit",
    "AMAT": "Applied Materials", "PYPL": "PayPal", "GILD": "Gilead Sciences", "AMGN": "Amgen",
    "REGN": "Regeneron", "VRTX": "Vertex Pharmaceuticals", "MRNA": "Moderna",
}

MINUTES = (0, 5, 10, 15, 20, 30, 40, 45, 50)
QUANTITIES = (50, 100, 150, 200, 250, 300, 500, 750, 1000, 1200)
OFFICERS = (
    "J. Whitfield", "R. Osei", "M. Lindgren", "A. Castellano", "S. Byrne", "K. Oduya",
    "T. Harrow", "L. Mbeki", "P. Sandoval", "D. Kwan",
)
BROKERS = (
    "Fidelity", "Charles Schwab", "E*TRADE", "Interactive Brokers", "Vanguard Brokerage",
    "Merrill Edge", "the firm's designated broker",
)
WINDOWS = ("two business days", "48 hours", "the next three trading sessions", "five business days")
DENY_REASONS = (
    "the security is on the firm restricted list", "the employee traded the name within 30 days",
    "the requested size exceeds the personal limit", "the research desk covers the issuer",
    "a pending client order in the same name",
)
EVENTS_MNPI = (
    "quarterly earnings release", "follow-on equity offering", "merger advisory mandate",
    "bond underwriting", "confidential board matter", "tender offer",
)
HARDSHIPS = (
    "a documented medical emergency", "a court-ordered divorce settlement",
    "a margin call in a legacy account", "a tax liability due this week",
    "the closing of a home purchase", "tuition due for a dependant",
)
REVOKE_REASONS = (
    "the hardship documentation was incomplete", "the sale was not executed within the allowed day",
    "new information reached the Control Room", "the stated obligation was settled otherwise",
)
RELATIVES = ("spouse", "brother", "sister", "parent", "domestic partner", "adult child")
ROLES = (
    "a senior vice president", "a member of the board", "the head of investor relations",
    "a procurement manager", "outside counsel", "a regional director",
)
POLICIES = (
    "Code of Ethics (2024 edition)", "Personal Account Dealing Policy v7",
    "Insider Trading Policy", "Outside Business Activities Policy",
)
SOURCES = {
    "portal": "ClearTrade pre-clearance portal",
    "control_room": "Control Room restricted-list service",
    "desk": "Compliance desk mailbox",
    "counsel": "Office of the General Counsel",
    "surveillance": "Trade surveillance",
    "hr": "HR attestation system",
}

# --- event texts ---------------------------------------------------------------------------------
# Approvals and the other events an employee files name the employee's key and the ticker, as
# the questions do. The Control Room's and Counsel's notices that void or restore a permission
# name the issuer and refer to the employee by staff number or surname (``{who}``), and avoid the
# questions' words (pre-clearance, trade, valid): the vocabulary gap of the paper's Def. 2.

TEXTS: dict[str, tuple[str, ...]] = {
    "pre_clearance_approved": (
        "Pre-clearance request {req} from {emp} to {side} {qty} shares of {tkr} ({company}) "
        "approved by {officer}. The approval is valid for {window}; execute through {broker}.",
        "{emp} submitted a personal trading request to {side} {qty} {tkr}. Compliance "
        "pre-clearance granted under {req}; no match against the restricted list at {clock}.",
        "Approved: personal account dealing request {req}. Employee {emp}, security {tkr} "
        "({company}), {side} up to {qty} shares via {broker}. Pre-clearance lapses after {window}.",
        "Compliance granted {emp} permission to {side} {qty} shares of {company} ({tkr}) under "
        "pre-clearance {req}; reviewer {officer}.",
    ),
    "pre_clearance_denied": (
        "Pre-clearance request {req} from {emp} to {side} {qty} {tkr} denied by {officer}: "
        "{deny_reason}.",
        "{emp}'s request to {side} {company} ({tkr}) shares was declined ({req}). Reason given: "
        "{deny_reason}.",
    ),
    "trade_executed": (
        "Broker confirmation received: {emp} {sided} {qty} {tkr} at ${price} through {broker}, "
        "account ending {acct}.",
        "Execution report for {emp}: {side} order for {qty} shares of {company} ({tkr}) filled at "
        "${price} ({broker}).",
    ),
    "blackout_announced": (
        "Restricted list update from the Control Room: {company} entered for {who} at {clock}. "
        "The desk holds material non-public information on the issuer ({event}); open approvals "
        "in the name are void and no orders may be placed.",
        "Notice to {who}: the window for {company} closed at {clock} ahead of the {event}. "
        "Dealing in the name is barred until further notice.",
        "{who} was wall-crossed on the {event} for {company}. The issuer is restricted for this "
        "employee with immediate effect; earlier approvals are withdrawn.",
        "Quiet period opened on {company} for {who}, an insider on the {event}. No purchases or "
        "sales by this employee until the restriction ends.",
    ),
    "emergency_exception": (
        "Hardship waiver {exc} issued to {who} for {company}: the General Counsel permits a "
        "one-off sale of {qty} shares despite the closed window ({hardship}).",
        "Exception granted by the Chief Compliance Officer: {who} may liquidate {qty} shares of "
        "{company} to meet {hardship}. Documented under {exc}.",
        "{exc}: one-time carve-out for {who} in {company} because of {hardship}; the sale of "
        "{qty} shares may proceed notwithstanding the restriction.",
    ),
    "exception_revoked": (
        "Waiver {exc} for {who} in {company} rescinded by the General Counsel: {revoke_reason}.",
        "Exception {exc} ({who}, {company}) withdrawn: {revoke_reason}. The closed-window "
        "restriction applies again.",
    ),
    "blackout_lifted": (
        "Control Room release: {company} taken off the restricted roster of {who} at {clock} "
        "after the {event} became public. Earlier approvals do not revive; a fresh request is "
        "required.",
        "Window reopened on {company} for {who}, no longer an insider on the {event}. The "
        "restriction ends; any new dealing needs a new request.",
        "Restriction on {company} ended for {who} following the public announcement of the "
        "{event}. Approvals cancelled during the restriction stay cancelled.",
    ),
    "watchlist_added": (
        "Surveillance watch list: {company} ({tkr}) added at {clock} in connection with a "
        "{event}. Employee dealing in the name will be reviewed after the fact; confidential, "
        "not communicated to staff.",
        "{tkr} placed on the confidential grey list by the Control Room ({event}); monitoring "
        "only, no restriction announced.",
    ),
    "watchlist_removed": (
        "{company} taken off the surveillance watch list at {clock}; monitoring ends.",
        "Grey list entry for {company} closed by the Control Room; the {event} is public.",
    ),
    "conflict_disclosed": (
        "Outside interest disclosure: {emp} reports that a {relative} is {role} at {company} "
        "({tkr}).",
        "{emp} disclosed a potential conflict with {company} ({tkr}): their {relative} is {role}.",
    ),
    "policy_acknowledged": (
        "{emp} acknowledged the {policy} on {day} through the attestation portal.",
        "Annual certification: {emp} confirmed reading the {policy} and listed every brokerage "
        "account held.",
    ),
}
TITLES = {
    "pre_clearance_approved": "Pre-clearance {req} approved: {emp} / {tkr}",
    "pre_clearance_denied": "Pre-clearance {req} denied: {emp} / {tkr}",
    "trade_executed": "Execution: {emp} {tkr}",
    "blackout_announced": "Restriction notice: {company} / {who}",
    "emergency_exception": "Exception {exc}: {who} / {company}",
    "exception_revoked": "Exception {exc} rescinded",
    "blackout_lifted": "Restriction ended: {company} / {who}",
    "watchlist_added": "Watch list entry: {tkr}",
    "watchlist_removed": "Watch list exit: {company}",
    "conflict_disclosed": "Conflict disclosure: {emp}",
    "policy_acknowledged": "Policy attestation: {emp}",
}
SOURCE_OF = {
    "pre_clearance_approved": "portal", "pre_clearance_denied": "portal",
    "trade_executed": "surveillance", "blackout_announced": "control_room",
    "emergency_exception": "counsel", "exception_revoked": "counsel",
    "blackout_lifted": "control_room", "watchlist_added": "surveillance",
    "watchlist_removed": "surveillance", "conflict_disclosed": "desk", "policy_acknowledged": "hr",
}
# The intended relation between consecutive events of one chain (named like the rules in
# rules/compliance.yaml, so a rule edge and an intended edge can be compared by name too).
RELATION = {
    ("blackout_announced", "pre_clearance_approved"): "blackout_voids_preclearance",
    ("emergency_exception", "blackout_announced"): "exception_overrides_blackout",
    ("exception_revoked", "emergency_exception"): "revocation_ends_exception",
    ("blackout_lifted", "blackout_announced"): "lift_ends_blackout",
    ("watchlist_removed", "watchlist_added"): "removal_ends_watchlist_entry",
}
# Kinds that appear in a relation: a (employee, ticker) pair holding one belongs to one chain.
LINKED_KINDS = frozenset(k for pair in RELATION for k in pair)
CHAINS = {
    "T0": ("pre_clearance_approved",),
    "T1": ("pre_clearance_approved", "blackout_announced"),
    "T2": ("pre_clearance_approved", "blackout_announced", "emergency_exception"),
    "T3": ("pre_clearance_approved", "blackout_announced", "blackout_lifted"),
}
# Distractor shapes on a (employee, ticker) pair, with weights.
PAIR_SHAPES: tuple[tuple[tuple[str, ...], float], ...] = (
    (("pre_clearance_approved",), 3.0),
    (("pre_clearance_denied",), 2.0),
    (("trade_executed",), 2.0),
    (("conflict_disclosed",), 1.5),
    (("pre_clearance_approved", "blackout_announced"), 2.0),
    (("pre_clearance_approved", "trade_executed"), 1.0),
    (("blackout_announced", "blackout_lifted"), 1.0),
    (("blackout_announced", "emergency_exception"), 1.0),
    (("blackout_announced", "emergency_exception", "exception_revoked"), 1.0),
)

# --- questions: phrasing families, disjoint between the splits ------------------------------------

FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "dev": {
        "can_trade": (
            "Can {emp} still trade {tkr}?",
            "Is {emp} still allowed to trade {tkr}?",
            "Is {emp} currently permitted to buy or sell {tkr}?",
        ),
        "preclearance_valid": (
            "Is the pre-clearance granted to {emp} for {tkr} still valid?",
            "Is {emp}'s pre-clearance for {tkr} still in force?",
        ),
        "current_status": (
            "What is the current compliance status of {emp}'s {tkr} pre-clearance?",
            "What is the latest compliance position on {emp} trading {tkr}?",
        ),
        "request_detail": (
            "{emp} was cleared to {side} {qty} shares of {tkr}. Does that approval still stand?",
            "Does the approval for {emp} to {side} {qty} {tkr} shares still apply?",
        ),
    },
    "test": {
        "superseded": (
            "Has {emp}'s approval to deal in {tkr} been superseded?",
            "Has anything changed since {emp} got clearance for {tkr}?",
        ),
        "governing_record": (
            "Which record currently governs whether {emp} may transact in {tkr}?",
            "What is the controlling compliance record for {emp} and {tkr}?",
        ),
        "order_permitted": (
            "{emp} wants to place an order in {tkr} today. Is that permitted?",
            "If {emp} sends a {tkr} order to the broker now, would compliance allow it?",
        ),
        "rely": (
            "Can {emp} rely on their {tkr} pre-clearance to trade today?",
            "Does the clearance {emp} received for {tkr} still hold?",
        ),
    },
}
AS_OF_FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    "dev": {
        "as_of_could_trade": (
            "As of {day}, could {emp} trade {tkr}?",
            "On {day}, was {emp}'s pre-clearance for {tkr} still good?",
        ),
    },
    "test": {
        "as_of_position": (
            "What was {emp}'s clearance position in {tkr} on {day}?",
            "Looking back to {day}: was {emp} free to deal in {tkr}?",
        ),
    },
}
AS_OF_SHARE = 0.35  # of the examples whose chain changes across a day boundary


def split_of(example_id: str) -> str:
    """dev or test, by a stable hash of the example id (independent of seed and size)."""
    return "dev" if hashlib.sha256(example_id.encode()).digest()[0] % 2 == 0 else "test"


def _long_date(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


# --- data model ----------------------------------------------------------------------------------


@dataclass
class Event:
    index: int
    kind: str
    at: datetime
    employee: str | None
    ticker: str | None
    text: str
    title: str
    source: str
    attributes: dict[str, Any] = field(default_factory=dict)
    id: str = ""

    def scope(self) -> dict[str, tuple[str, ...]]:
        scope = {}
        if self.employee:
            scope["employee"] = (self.employee,)
        if self.ticker:
            scope["ticker"] = (self.ticker,)
        return scope


@dataclass(frozen=True)
class IntendedEdge:
    """newer supersedes older, as the generator built the chain."""

    newer: str
    older: str
    relation: str
    effective: date
    evidence: str

    def to_json(self) -> dict[str, str]:
        return {"newer": self.newer, "older": self.older, "relation": self.relation,
                "effective": self.effective.isoformat(), "evidence": self.evidence}


@dataclass
class Example:
    id: str
    hop_type: str
    employee: str
    ticker: str
    chain: list[Event]
    split: str


@dataclass
class ComplianceBenchmark:
    documents: list[DocumentRecord]  # with explicit supersedes references
    intended: list[IntendedEdge]
    queries: list[dict[str, Any]]
    examples: list[Example]

    def without_references(self) -> list[DocumentRecord]:
        return [replace(d, supersedes=()) for d in self.documents]


# --- the generator -------------------------------------------------------------------------------


def staff_reference(rng: random.Random, employee: str) -> str:
    """How a Control Room or Counsel notice refers to an employee: never the full key."""
    if employee.startswith("EMP"):
        number, surname = employee[3:].split("-", 1)
        return rng.choice((f"staff no. {number}", f"{surname} (staff no. {number})", surname))
    first, surname = employee.split(" ", 1)
    payroll = int(hashlib.sha256(employee.encode()).hexdigest()[:6], 16) % 90000 + 10000
    return rng.choice((f"{first[0]}. {surname}", surname, f"payroll no. {payroll}"))


def employees() -> list[str]:
    ids = [f"EMP{n:03d}-{SURNAMES[n - 1]}" for n in range(1, N_ID_EMPLOYEES + 1)]
    rest = SURNAMES[N_ID_EMPLOYEES:]
    plain = [f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {s}" for i, s in enumerate(rest)]
    return ids + plain


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        self.edges: list[tuple[int, int, str]] = []  # newer index, older index, relation
        self.employees = employees()
        self.tickers = list(TICKERS)
        self.claimed: set[tuple[str, str]] = set()  # pairs owned by one chain
        self.example_pairs: set[tuple[str, str]] = set()
        self.watched: set[str] = set()  # tickers with their one watch-list episode
        self.serial = Counter[str]()

    def number(self, prefix: str) -> str:
        self.serial[prefix] += 1
        return f"{prefix}-2024-{self.serial[prefix] * 7919 % 100000:05d}"

    def base_time(self) -> datetime:
        day = date(2024, 1, 2) + timedelta(days=self.rng.randrange(0, 175))
        while day.weekday() >= 5:
            day += timedelta(days=1)
        hour = self.rng.randint(7, 17)
        return datetime.combine(day, time(hour, self.rng.choice(MINUTES)))

    def later(self, at: datetime, same_day_ok: bool, days: tuple[int, int]) -> datetime:
        if same_day_ok and at.hour <= 15 and self.rng.random() < 0.5:
            hours = self.rng.randint(1, 17 - at.hour)
            return at + timedelta(hours=hours, minutes=self.rng.randint(1, 50))
        nxt = at + timedelta(days=self.rng.randint(*days))
        return nxt.replace(hour=self.rng.randint(7, 17), minute=self.rng.randrange(0, 60, 5))

    def event(self, kind: str, at: datetime, employee: str | None, ticker: str | None,
              details: dict[str, str]) -> Event:
        rng = self.rng
        slots = {
            "emp": employee or "", "tkr": ticker or "", "company": TICKERS.get(ticker or "", ""),
            "officer": rng.choice(OFFICERS), "broker": rng.choice(BROKERS),
            "window": rng.choice(WINDOWS), "deny_reason": rng.choice(DENY_REASONS),
            "hardship": rng.choice(HARDSHIPS), "revoke_reason": rng.choice(REVOKE_REASONS),
            "relative": rng.choice(RELATIVES), "role": rng.choice(ROLES),
            "policy": rng.choice(POLICIES), "clock": f"{at:%H:%M} ET", "day": _long_date(at.date()),
            "price": f"{rng.uniform(8, 900):.2f}", "acct": f"{rng.randint(1000, 9999)}",
            "event": rng.choice(EVENTS_MNPI),
            "who": staff_reference(rng, employee) if employee else "",
            **details,
        }
        slots.setdefault("req", self.number("PCR"))
        slots.setdefault("exc", self.number("EXC"))
        slots.setdefault("side", rng.choice(("buy", "sell")))
        slots.setdefault("qty", str(rng.choice(QUANTITIES)))
        slots["sided"] = {"buy": "bought", "sell": "sold"}[slots["side"]]
        text = rng.choice(TEXTS[kind]).format(**slots)
        title = TITLES[kind].format(**slots)
        source = SOURCE_OF[kind]
        attributes: dict[str, Any] = {"source": SOURCES[source]}
        if kind.startswith("pre_clearance"):
            attributes.update(request=slots["req"], side=slots["side"], quantity=int(slots["qty"]))
        elif kind in ("emergency_exception", "exception_revoked"):
            attributes["exception"] = slots["exc"]
        elif kind == "policy_acknowledged":
            attributes["policy"] = slots["policy"]
        e = Event(len(self.events), kind, at, employee, ticker, text, title, source, attributes)
        self.events.append(e)
        return e

    def chain(self, kinds: Sequence[str], employee: str | None, ticker: str | None,
              start: datetime, sources: Sequence[str] | None = None) -> list[Event]:
        """Events of ``kinds`` in time order on one scope; consecutive ones linked as intended."""
        events: list[Event] = []
        at = start
        shared: dict[str, str] = {}
        for position, kind in enumerate(kinds):
            if position:
                same_day = kind == "emergency_exception" or kind == "trade_executed"
                at = self.later(at, same_day, (1, 3) if sources is None else (2, 4))
            e = self.event(kind, at, employee, ticker, shared)
            if kind == "pre_clearance_approved":
                shared.update(req=e.attributes["request"], side=e.attributes["side"],
                              qty=str(e.attributes["quantity"]))
            if kind == "emergency_exception":
                shared["exc"] = e.attributes["exception"]
            if sources is not None:
                e.source = sources[position]
                e.attributes["source"] = SOURCES[e.source]
            if events and (kind, events[-1].kind) in RELATION:
                self.edges.append((e.index, events[-1].index, RELATION[(kind, events[-1].kind)]))
            events.append(e)
        return events

    def free_pair(self, employee: str | None, ticker: str | None) -> tuple[str, str] | None:
        """An unclaimed (employee, ticker) pair with the given employee or ticker fixed."""
        rng = self.rng
        for _ in range(40):
            pair = (employee or rng.choice(self.employees), ticker or rng.choice(self.tickers))
            if pair not in self.claimed:
                return pair
        options = [
            (e, t)
            for e in ([employee] if employee else self.employees)
            for t in ([ticker] if ticker else self.tickers)
            if (e, t) not in self.claimed
        ]
        return rng.choice(options) if options else None

    def example(self, number: int, hop_type: str) -> Example:
        pair = self.free_pair(None, None)
        assert pair is not None, "the pool of (employee, ticker) pairs is exhausted"
        self.claimed.add(pair)
        self.example_pairs.add(pair)
        employee, ticker = pair
        example_id = f"cmp-ex{number:04d}"
        sources = None
        if hop_type == "T3":
            sources = ["portal", "control_room", "desk"]
        events = self.chain(CHAINS[hop_type], employee, ticker, self.base_time(), sources)
        return Example(example_id, hop_type, employee, ticker, events, split_of(example_id))

    def distractors(self, example: Example, count: int) -> None:
        rng = self.rng
        t0 = example.chain[0].at
        budget = {"same_employee": round(count * 0.4), "same_ticker": round(count * 0.4)}
        budget["random"] = count - sum(budget.values())
        for category, remaining in budget.items():
            while remaining > 0:
                start = t0 + timedelta(days=rng.randint(-5, 5), hours=rng.randint(-3, 3))
                employee = example.employee if category == "same_employee" else None
                ticker = example.ticker if category == "same_ticker" else None
                remaining -= self.distractor(employee, ticker, start, remaining)

    def distractor(self, employee: str | None, ticker: str | None, start: datetime,
                   room: int) -> int:
        """One distractor timeline of at most ``room`` events; returns how many it made."""
        rng = self.rng
        if ticker is None and rng.random() < 0.1:  # employee-level: a policy attestation
            who = employee or rng.choice(self.employees)
            self.event("policy_acknowledged", start, who, None, {})
            return 1
        watch_ticker = ticker or rng.choice(self.tickers)
        if employee is None and watch_ticker not in self.watched and rng.random() < 0.15:
            self.watched.add(watch_ticker)  # firm-wide, ticker-level, one episode per ticker
            kinds = ("watchlist_added", "watchlist_removed") if room >= 2 and rng.random() < 0.5 \
                else ("watchlist_added",)
            return len(self.chain(kinds, None, watch_ticker, start))
        shapes = [(s, w) for s, w in PAIR_SHAPES if len(s) <= room]
        kinds = rng.choices([s for s, _ in shapes], [w for _, w in shapes])[0]
        pair = self.free_pair(employee, ticker)
        if pair is None:  # every pair of this employee/ticker is taken: an unlinked single event
            pair = (employee or rng.choice(self.employees), ticker or rng.choice(self.tickers))
            if pair in self.example_pairs:
                self.event("policy_acknowledged", start, pair[0], None, {})
                return 1
            kinds = ("trade_executed",)
        elif LINKED_KINDS & set(kinds):
            self.claimed.add(pair)
        return len(self.chain(kinds, pair[0], pair[1], start))


def _gold(chain: Sequence[Event], as_of: date | None) -> Event:
    """The front of a linear chain as of a day: its last event published by then."""
    in_force = [e for e in chain if as_of is None or e.at.date() <= as_of]
    return in_force[-1]


def _question(example: Example, family: str, template: str, as_of: date | None) -> dict[str, Any]:
    anchor = example.chain[0]
    text = template.format(
        emp=example.employee, tkr=example.ticker, side=anchor.attributes["side"],
        qty=anchor.attributes["quantity"], day=_long_date(as_of) if as_of else "",
    )
    gold = _gold(example.chain, as_of)
    row: dict[str, Any] = {
        "id": example.id + ("-asof" if as_of else ""),
        "question": text,
        "gold": [gold.id],
        "anchors": [anchor.id],
        "split": example.split,
        "family": family,
        "chain": example.hop_type,
        "hop": example.chain.index(gold),
        "employee": example.employee,
        "ticker": example.ticker,
        "ticker_letters": len(example.ticker),
    }
    if as_of:
        row["as_of"] = as_of.isoformat()
    return row


def _questions(rng: random.Random, example: Example) -> list[dict[str, Any]]:
    families = FAMILIES[example.split]
    family = rng.choice(sorted(families))
    rows = [_question(example, family, rng.choice(families[family]), None)]
    # as of a day between two steps of the chain: the answer is the earlier state
    gaps = [
        (a.at.date(), b.at.date())
        for a, b in zip(example.chain, example.chain[1:])
        if b.at.date() > a.at.date()
    ]
    if gaps and rng.random() < AS_OF_SHARE:
        lo, hi = rng.choice(gaps)
        as_of = lo + timedelta(days=rng.randrange(0, (hi - lo).days))
        as_of_families = AS_OF_FAMILIES[example.split]
        family = rng.choice(sorted(as_of_families))
        rows.append(_question(example, family, rng.choice(as_of_families[family]), as_of))
    return rows


def generate(examples: int = 1000, seed: int = 42, distractors: int = 10) -> ComplianceBenchmark:
    """The benchmark: the same for the same arguments on any machine; linear in ``examples``."""
    if examples < 1:
        raise ValueError("examples must be at least 1")
    if examples > 2000:
        raise ValueError("at most 2,000 examples: the (employee, ticker) pool would run dry")
    b = _Builder(seed)
    hop_types = [sorted(CHAINS)[i % len(CHAINS)] for i in range(examples)]
    b.rng.shuffle(hop_types)
    built = [b.example(n, hop) for n, hop in enumerate(hop_types, start=1)]
    for example in built:
        b.distractors(example, distractors)

    # ids that say nothing about chain or position: a random permutation of the numbering
    numbers = b.rng.sample(range(1, len(b.events) + 1), len(b.events))
    for event, number in zip(b.events, numbers, strict=True):
        event.id = f"evt-{number:05d}"

    intended = sorted(
        (
            IntendedEdge(
                b.events[newer].id, b.events[older].id, relation, b.events[newer].at.date(),
                f"{b.events[newer].kind} {b.events[newer].title!r} follows "
                f"{b.events[older].kind} {b.events[older].title!r}",
            )
            for newer, older, relation in b.edges
        ),
        key=lambda e: (e.newer, e.older),
    )
    refs: dict[str, list[SupersedesRef]] = {}
    for edge in intended:
        refs.setdefault(edge.newer, []).append(
            SupersedesRef(edge.older, edge.effective, edge.evidence)
        )
    documents = [
        DocumentRecord(
            id=e.id, text=e.text, title=e.title, domain=DOMAIN, kind=e.kind,
            published=e.at.date(), published_at=e.at, scope=e.scope(),
            supersedes=tuple(refs.get(e.id, ())), attributes=e.attributes,
        )
        for e in b.events
    ]
    documents.sort(key=lambda d: d.id)

    qrng = random.Random(f"{seed}-questions")
    queries = [row for example in built for row in _questions(qrng, example)]
    return ComplianceBenchmark(documents, intended, queries, built)


def stats(benchmark: ComplianceBenchmark) -> dict[str, Any]:
    queries = benchmark.queries
    return {
        "documents": len(benchmark.documents),
        "examples": len(benchmark.examples),
        "intended_edges": len(benchmark.intended),
        "kinds": dict(sorted(Counter(d.kind for d in benchmark.documents).items())),
        "edges_by_relation": dict(sorted(Counter(e.relation for e in benchmark.intended).items())),
        "queries": {
            split: {
                "all": sum(q["split"] == split for q in queries),
                "as_of": sum(q["split"] == split and "as_of" in q for q in queries),
                "short_tickers": sum(
                    q["split"] == split and q["ticker_letters"] <= 3 for q in queries
                ),
                "families": dict(sorted(Counter(
                    q["family"] for q in queries if q["split"] == split).items())),
                "chains": dict(sorted(Counter(
                    q["chain"] for q in queries if q["split"] == split).items())),
            }
            for split in ("dev", "test")
        },
    }


def _write_rows(rows: Sequence[dict[str, Any]], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def write(benchmark: ComplianceBenchmark, out_dir: Path) -> dict[str, Path]:
    """Every output file of the benchmark into ``out_dir``; returns them by name."""
    out_dir.mkdir(parents=True, exist_ok=True)
    names = (
        "documents.jsonl", "documents_rules.jsonl", "rules.yaml", "intended_edges.jsonl",
        "queries.dev.jsonl", "queries.test.jsonl", "short_tickers.dev.jsonl",
        "short_tickers.test.jsonl", "stats.json",
    )
    paths = {name: out_dir / name for name in names}
    write_jsonl(benchmark.documents, paths["documents.jsonl"])
    write_jsonl(benchmark.without_references(), paths["documents_rules.jsonl"])
    shutil.copyfile(RULES_PATH, paths["rules.yaml"])
    _write_rows([e.to_json() for e in benchmark.intended], paths["intended_edges.jsonl"])
    for split in ("dev", "test"):
        rows = [q for q in benchmark.queries if q["split"] == split]
        _write_rows(rows, paths[f"queries.{split}.jsonl"])
        _write_rows([q for q in rows if q["ticker_letters"] <= 3],
                    paths[f"short_tickers.{split}.jsonl"])
    paths["stats.json"].write_text(json.dumps(stats(benchmark), indent=2) + "\n", encoding="utf-8")
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m car_graph_benchmarks.compliance",
        description="Write the employee-trading compliance benchmark (generic JSONL + rules).",
    )
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--examples", type=int, default=1000, help="chains (default 1000)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--distractors", type=int, default=10, help="per example (default 10)")
    args = parser.parse_args(argv)
    try:
        benchmark = generate(args.examples, args.seed, args.distractors)
    except ValueError as e:
        parser.error(str(e))
    paths = write(benchmark, args.out_dir)
    counts = stats(benchmark)
    print(
        f"{counts['documents']} documents, {counts['intended_edges']} intended edges, "
        f"{counts['queries']['dev']['all']} dev / {counts['queries']['test']['all']} test "
        f"questions -> {paths['documents.jsonl'].parent}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
