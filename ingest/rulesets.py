"""The rules a graph keeps, and the checks that keep a rules file from failing silently.

A graph stores the supersession rules it was built with, one *rule set* per domain (``*`` for a
file that names no domain), versioned (``:RuleSet``, with a ``:RuleChange`` per version). Every
later ingest applies the stored rules to the records it writes, with or without ``--rules``;
a ``--rules`` file for a stored set is a rules change (:class:`RulesDiff`), and a delete
re-derives the edges around the gap with them. Built-in domains' bundled rules are stored the
first time their documents arrive, and follow the bundled file when a new car-graph ships a
changed one.

:func:`diagnose` checks every rule in force against what documents offer (the graph's
documents and the records being ingested): a domain, kind, scope type or attribute that matches
nothing is reported with the nearest name that exists, and records a rule cannot evaluate (no
``published`` date for an ordered rule, none of its scope types) are counted with examples.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from car_graph.domains import DomainRegistry
from car_graph.errors import RulesError
from car_graph.records import DocumentRecord, stored_attributes
from car_graph.rules import Rule, domain_rules, rule_to_mapping, rules_from_mappings
from car_graph.store import GraphStore

EXAMPLES = 5  # record ids quoted per warning


def rules_fingerprint(rules: Sequence[Rule]) -> str:
    """Changes when any rule of the set changes, is added or removed (order ignored)."""
    payload = sorted(json.dumps(rule_to_mapping(r), sort_keys=True, default=str) for r in rules)
    return hashlib.sha256(json.dumps(payload).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredRuleSet:
    name: str
    version: int
    source: str  # 'file', 'bundled' or 'api'
    origin: str | None
    rules: tuple[Rule, ...]
    fingerprint: str
    recorded_at: Any = None
    run: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "source": self.source,
                "origin": self.origin, "rules": [rule_to_mapping(r) for r in self.rules],
                "recorded_at": str(self.recorded_at) if self.recorded_at is not None else None,
                "run": self.run}


def stored_rulesets(store: GraphStore) -> dict[str, StoredRuleSet]:
    """The rule sets the graph keeps, by name."""
    found: dict[str, StoredRuleSet] = {}
    for row in store.read("read_rulesets"):
        rules = rules_from_mappings(json.loads(row["rules"] or "[]"), f"graph rule set {row['name']}")
        found[row["name"]] = StoredRuleSet(
            row["name"], int(row["version"]), row["source"], row["origin"], tuple(rules),
            row["fingerprint"], row["recorded_at"], row["run"])
    return found


def rules_in_force(rulesets: Mapping[str, StoredRuleSet]) -> list[Rule]:
    """Every stored rule, set by set (a rule's own domain says which documents it links)."""
    return [rule for name in sorted(rulesets) for rule in rulesets[name].rules]


@dataclass(frozen=True)
class RulesDiff:
    """What a new version of a rule set changes: rules added, changed (same name, other
    parameters) and removed, by name."""

    ruleset: str
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    previous_version: int | None = None
    lines: tuple[str, ...] = ()  # a readable diff of the rules' YAML forms

    @property
    def empty(self) -> bool:
        return not (self.added or self.changed or self.removed)

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "previous_version": self.previous_version,
                "added": list(self.added), "changed": list(self.changed),
                "removed": list(self.removed), "diff": list(self.lines)}


def diff_rules(name: str, old: StoredRuleSet | None, new: Sequence[Rule]) -> RulesDiff:
    before = {r.name: r for r in (old.rules if old else ())}
    after = {r.name: r for r in new}
    changed = tuple(n for n in after if n in before and rule_to_mapping(after[n]) != rule_to_mapping(before[n]))
    return RulesDiff(
        ruleset=name,
        added=tuple(n for n in after if n not in before),
        changed=changed,
        removed=tuple(n for n in before if n not in after),
        previous_version=old.version if old else None,
        lines=tuple(_yaml_diff(name, list(before.values()), list(new))),
    )


def _yaml_diff(name: str, before: Sequence[Rule], after: Sequence[Rule]) -> Iterable[str]:
    def lines(rules: Sequence[Rule]) -> list[str]:
        out = []
        for rule in sorted(rules, key=lambda r: r.name):
            out.append(f"- {rule.name}:")
            out.extend(f"    {key}: {json.dumps(value, default=str)}"
                       for key, value in rule_to_mapping(rule).items() if key != "name")
        return out

    return (line.rstrip("\n") for line in difflib.unified_diff(
        lines(before), lines(after), f"{name} (stored)", f"{name} (new)", lineterm="", n=1))


def check_unique_names(name: str, rules: Sequence[Rule], rulesets: Mapping[str, StoredRuleSet]) -> None:
    """Rule names are edge labels, so one name belongs to one rule set."""
    for other, stored in rulesets.items():
        if other == name:
            continue
        clash = sorted({r.name for r in rules} & {r.name for r in stored.rules})
        if clash:
            raise RulesError(name, f"rule name(s) {', '.join(clash)} already belong to the stored "
                                   f"rule set {other!r}; rule names are unique in a graph")


def bundled_rulesets(registry: DomainRegistry, domains: Iterable[str | None]) -> dict[str, list[Rule]]:
    """The bundled rules of the registered domains among ``domains`` that bundle any."""
    found: dict[str, list[Rule]] = {}
    for name in sorted({d for d in domains if d}):
        declared = registry.get(name)
        if declared is not None and declared.rules is not None:
            found[name] = domain_rules(declared)
    return found


# ------------------------------------------------------------------------------ diagnostics

@dataclass
class KindFacts:
    """What the documents of one (domain, kind) offer rules."""

    documents: int = 0
    scope_types: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)
    unpublished: int = 0
    unpublished_ids: list[str] = field(default_factory=list)
    # of the records being ingested: how many have each set of scope types, with examples
    scope_sets: dict[frozenset[str], int] = field(default_factory=dict)
    scope_examples: dict[frozenset[str], list[str]] = field(default_factory=dict)


Vocabulary = dict[tuple[str | None, str | None], KindFacts]


def vocabulary_of_graph(store: GraphStore, domains: Sequence[str | None] | None = None) -> Vocabulary:
    """What the graph's documents of ``domains`` (None: all) offer rules; documents lacking a
    date are not counted (warnings about records concern the records being ingested)."""
    vocabulary: Vocabulary = {}
    for row in store.read("rule_vocabulary", domains=None if domains is None else list(domains)):
        facts = vocabulary.setdefault((row["domain"], row["kind"]), KindFacts())
        facts.documents += int(row["documents"])
        facts.scope_types.update(row["scope_types"])
        facts.attributes.update(row["attributes"])
    return vocabulary


def merged(graph: Vocabulary, records: Vocabulary) -> Vocabulary:
    """The graph's vocabulary with the records' added (a new mapping; neither is changed)."""
    out: Vocabulary = {}
    for source in (graph, records):
        for key, facts in source.items():
            mine = out.setdefault(key, KindFacts())
            mine.documents += facts.documents
            mine.unpublished += facts.unpublished
            mine.unpublished_ids.extend(facts.unpublished_ids)
            mine.scope_types |= facts.scope_types
            mine.attributes |= facts.attributes
            for types, count in facts.scope_sets.items():
                mine.scope_sets[types] = mine.scope_sets.get(types, 0) + count
                mine.scope_examples.setdefault(types, []).extend(facts.scope_examples.get(types, []))
    return out


def add_records(vocabulary: Vocabulary, records: Iterable[DocumentRecord]) -> Vocabulary:
    """The vocabulary with the records about to be ingested added (the ids of those lacking a
    published date kept as examples, and the scope types each one has)."""
    for _ in tally(vocabulary, records):
        pass
    return vocabulary


def tally(vocabulary: Vocabulary, records: Iterable[DocumentRecord]) -> Iterator[DocumentRecord]:
    """Yield ``records``, adding each to ``vocabulary`` on the way (one pass over a file that
    another first-pass reader consumes too)."""
    for record in records:
        facts = vocabulary.setdefault((record.domain, record.kind), KindFacts())
        facts.documents += 1
        types = frozenset(t for t, keys in record.scope.items() if keys)
        facts.scope_types.update(types)
        facts.attributes.update(stored_attributes(record.attributes))
        if record.published is None:
            facts.unpublished += 1
            if len(facts.unpublished_ids) < EXAMPLES:
                facts.unpublished_ids.append(record.id)
        facts.scope_sets[types] = facts.scope_sets.get(types, 0) + 1
        examples = facts.scope_examples.setdefault(types, [])
        if len(examples) < EXAMPLES:
            examples.append(record.id)
        yield record


@dataclass(frozen=True)
class RuleWarning:
    rule: str
    problem: str
    nearest: str | None = None
    examples: tuple[str, ...] = ()
    # 'unmatched': a name matches no document; 'records': records the rule cannot evaluate
    about: str = "unmatched"

    def __str__(self) -> str:
        text = f"rule {self.rule}: {self.problem}"
        if self.nearest:
            text += f" (nearest: {self.nearest!r})"
        if self.examples:
            text += f"; e.g. {', '.join(self.examples)}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "problem": self.problem, "nearest": self.nearest,
                "examples": list(self.examples), "about": self.about, "message": str(self)}


def _nearest(name: str, known: Iterable[str]) -> str | None:
    by_fold = {k.casefold(): k for k in known if k}
    if name.casefold() in by_fold and by_fold[name.casefold()] != name:
        return by_fold[name.casefold()]
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=0.6)
    return by_fold[close[0]] if close else None


def _listed(names: Iterable[Any]) -> str:
    shown = sorted(str(n) for n in names)
    return ", ".join(shown[:8]) + (", ..." if len(shown) > 8 else "") if shown else "none"


def diagnose(rules: Sequence[Rule], vocabulary: Vocabulary) -> list[RuleWarning]:
    """Every way the rules in force cannot do what they say, given what documents offer: a
    domain, kind, scope type or attribute that matches no document (with the nearest existing
    name), and documents a rule cannot evaluate (no published date for an ordered rule; none of
    its scope types while others of their kind have them)."""
    warnings: list[RuleWarning] = []
    domains = {d for d, _ in vocabulary}
    for rule in rules:
        if rule.domain is not None and rule.domain not in domains:
            warnings.append(RuleWarning(rule.name, f"its domain {rule.domain!r} matches no document "
                                        f"(domains: {_listed(d for d in domains if d)})",
                                        _nearest(rule.domain, (d for d in domains if d))))
            continue
        mine = {kind: facts for (domain, kind), facts in vocabulary.items()
                if kind is not None and (rule.domain is None or domain == rule.domain)}
        sides = {"newer_kind": rule.newer_kinds, "older_kind": rule.older_kinds}
        missing_side = False
        for side, kinds in sides.items():
            absent = [k for k in kinds if k not in mine]
            if len(absent) == len(kinds):
                missing_side = True
            for kind in absent:
                nearest = _nearest(kind, mine)
                if nearest or len(absent) == len(kinds):
                    warnings.append(RuleWarning(
                        rule.name, f"{side} {kind!r} matches no document"
                        + (f" of domain {rule.domain!r}" if rule.domain else "")
                        + f" (kinds: {_listed(mine)})", nearest))
        if missing_side:
            continue
        involved = [mine[k] for k in {*rule.newer_kinds, *rule.older_kinds} if k in mine]
        present = set().union(*(f.scope_types for f in involved))
        for etype in rule.scope_types:
            if etype not in present:
                warnings.append(RuleWarning(
                    rule.name, f"scope type {etype!r}: no document of its kinds has an entity "
                    f"of this type (their scope types: {_listed(present)})", _nearest(etype, present)))
        if rule.match is not None:
            for side, kinds, attr in (("newer", rule.newer_kinds, rule.match.newer),
                                      ("older", rule.older_kinds, rule.match.older)):
                offered = set().union(*(mine[k].attributes for k in kinds if k in mine))
                if attr not in offered:
                    warnings.append(RuleWarning(
                        rule.name, f"match.{side} attribute {attr!r}: no document of kind "
                        f"{_listed(kinds)} has it (their attributes: {_listed(offered)})",
                        _nearest(attr, offered)))
        if rule.order in ("later", "previous"):
            count = sum(f.unpublished for f in involved)
            if count:
                examples = tuple(i for f in involved for i in f.unpublished_ids)[:EXAMPLES]
                warnings.append(RuleWarning(
                    rule.name, f"cannot order {count} document(s) without a published date "
                    f"(order: {rule.order})", None, examples, "records"))
        needed = set(rule.scope_types)
        lacking = 0
        examples_lacking: list[str] = []
        for facts in involved:
            for types, count in facts.scope_sets.items():
                short = not (needed & types) if rule.scope_mode == "any" else not needed <= types
                if short and needed & present:
                    lacking += count
                    examples_lacking.extend(facts.scope_examples[types])
        if lacking:
            warnings.append(RuleWarning(
                rule.name, f"cannot evaluate {lacking} record(s) of its kinds that lack scope "
                f"type(s) {_listed(needed)}", None, tuple(examples_lacking[:EXAMPLES]), "records"))
    return warnings
