"""Declarative supersession rules, one YAML file per domain.

A rule says: a document of kind ``newer_kind`` supersedes a document of kind ``older_kind`` when
they share a scope entity of one of the ``scope`` types and the optional conditions hold::

    domain: security            # optional: the rule only links documents of this domain
    rules:
      - name: release_fixes_advisory
        newer_kind: release      # a kind or a list of kinds
        older_kind: advisory
        scope: package           # entity type(s) the two documents must share (never across scopes)
        order: any               # 'later': newer.published > older.published; 'any': authority only;
                                 # 'previous': only the latest earlier document (a chain, not
                                 # every earlier one: n edges instead of n^2, the same frontier)
        match:                   # optional attribute condition (version-aware with 'versioning')
          newer: version         # attribute of the newer document
          older: fixed_versions  # attribute of the older document
          op: in                 # in | intersects | equals
          versioning: ecosystem  # optional: canonicalise both with this scheme, or '@attr' to read
                                 # the scheme from the document's attribute (e.g. '@ecosystem')
        partial: false           # partial supersession: the older document stays in force in part
        partial_from: partial    # optional: a boolean attribute of the newer doc overrides 'partial'
        confidence: 1.0

``scope`` takes three forms:

* ``scope: package`` or ``scope: [drug, case]`` -- the documents share an entity of ANY of these
  types (one shared key of one type is enough);
* ``scope: {any: [drug, case]}`` -- the same, spelled out;
* ``scope: {all: [employee, ticker]}`` -- the documents share an entity of EVERY listed type
  (the same employee AND the same ticker); sharing only one of them links nothing.

``order: later`` compares the documents' publication instants when both carry one (``published``
given as an ISO date-time, stored as ``published_at``), otherwise their dates; same-day events
are therefore ordered only when both have a time. A date known only to the year or the month
(``published: "1982"``, ``date_precision``) compares at the coarser precision of the two, and the
same year is not earlier: a document of 1982 may supersede another of 1982, and the edge's evidence adds
"order by the year alone".

Rules are executed in Cypher (queries/apply_rule.cypher) with these fields as parameters; each
edge records the rule's name and its evidence (the shared scope keys -- one per type under
``all`` -- and the matched values).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from car_graph import versions
from car_graph.domains import Domain, DomainRegistry, domain_from_mapping
from car_graph.errors import RulesError
from car_graph.keys import NAME_PATTERN
from car_graph.records import DocumentRecord

MATCH_OPS = ("in", "intersects", "equals")
ORDERS = ("any", "later", "previous")
SCOPE_MODES = ("any", "all")


@dataclass(frozen=True)
class AttributeMatch:
    newer: str
    older: str
    op: str
    versioning: str | None = None


@dataclass(frozen=True)
class Rule:
    name: str
    newer_kinds: tuple[str, ...]
    older_kinds: tuple[str, ...]
    scope_types: tuple[str, ...]
    order: str = "any"
    # 'any': one shared entity of any scope type links; 'all': one of every type must be shared
    scope_mode: str = "any"
    match: AttributeMatch | None = None
    partial: bool = False
    partial_from: str | None = None
    confidence: float = 1.0
    domain: str | None = None
    description: str = ""

    def parameters(self) -> dict[str, Any]:
        """The rule as parameters of queries/apply_rule.cypher."""
        return {
            "rule": self.name,
            "newer_kinds": list(self.newer_kinds),
            "older_kinds": list(self.older_kinds),
            "scope_types": list(self.scope_types),
            "scope_mode": self.scope_mode,
            "scope_all": self.scope_mode == "all",
            "require_later": self.order in ("later", "previous"),
            "match_op": self.match.op if self.match else None,
            "newer_attr": f"attr_{self.match.newer}" if self.match else None,
            "older_attr": f"attr_{self.match.older}" if self.match else None,
            "partial": self.partial,
            "partial_attr": f"attr_{self.partial_from}" if self.partial_from else None,
            "confidence": self.confidence,
            "domain": self.domain,
        }


def _names(value: Any, what: str, source: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(i, str) for i in items):
        raise RulesError(source, f"{what} must be a name or a non-empty list of names")
    for item in items:
        if not NAME_PATTERN.match(item):
            raise RulesError(source, f"{what} {item!r} must match {NAME_PATTERN.pattern}")
    return tuple(items)


def _check_versioning(versioning: str, where: str) -> None:
    """A misspelt scheme would silently compare raw strings: refuse it."""
    if versioning.startswith("@"):
        if not NAME_PATTERN.match(versioning[1:]):
            raise RulesError(where, f"'match.versioning' {versioning!r}: '@' must name an attribute")
        return
    try:
        versions.scheme_for(versioning)
    except ValueError as e:
        raise RulesError(where, f"'match.versioning': {e}") from e


def _scope(value: Any, source: str) -> tuple[str, tuple[str, ...]]:
    """``scope`` -> (mode, types): a name or list means 'any'; {all: [...]} / {any: [...]}."""
    if not isinstance(value, Mapping):
        return "any", _names(value, "scope", source)
    unknown = sorted(set(map(str, value)) - set(SCOPE_MODES))
    if unknown:
        raise RulesError(
            source, f"unknown scope keys {unknown}: 'scope' takes one of {list(SCOPE_MODES)}"
        )
    if len(value) != 1:
        raise RulesError(source, f"'scope' takes exactly one of {list(SCOPE_MODES)}, not both")
    [(mode, types)] = value.items()
    names = _names(types, f"scope.{mode}", source)
    if len(set(names)) != len(names):
        raise RulesError(source, f"scope.{mode} lists an entity type twice: {list(names)}")
    return mode, names


def parse_rules(data: Any, source: str) -> list[Rule]:
    if not isinstance(data, Mapping) or not isinstance(data.get("rules"), list):
        raise RulesError(source, "a rules file is a mapping with a 'rules' list")
    domain = data.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise RulesError(source, "'domain' must be a string")
    rules: list[Rule] = []
    for position, raw in enumerate(data["rules"], start=1):
        where = f"{source} rule {position}"
        if not isinstance(raw, Mapping):
            raise RulesError(where, "each rule is a mapping")
        unknown = set(raw) - {
            "name", "description", "newer_kind", "older_kind", "scope", "order", "match",
            "partial", "partial_from", "confidence", "domain",
        }
        if unknown:
            raise RulesError(where, f"unknown keys {sorted(unknown)}")
        name = raw.get("name")
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            raise RulesError(where, "'name' must be an identifier")
        order = raw.get("order", "any")
        if order not in ORDERS:
            raise RulesError(where, f"'order' must be one of {ORDERS}")
        match = None
        if raw.get("match") is not None:
            m = raw["match"]
            if not isinstance(m, Mapping) or m.get("op") not in MATCH_OPS:
                raise RulesError(where, f"'match' needs newer, older and op in {MATCH_OPS}")
            newer, older = (_names(m.get(k), f"match.{k}", where)[0] for k in ("newer", "older"))
            versioning = m.get("versioning")
            if versioning is not None and not isinstance(versioning, str):
                raise RulesError(where, "'match.versioning' must be a scheme name or '@attribute'")
            if isinstance(versioning, str):
                _check_versioning(versioning, where)
            match = AttributeMatch(newer, older, m["op"], versioning)
        partial = raw.get("partial", False)
        if not isinstance(partial, bool):
            raise RulesError(where, "'partial' must be true or false")
        partial_from = raw.get("partial_from")
        if partial_from is not None:
            partial_from = _names(partial_from, "partial_from", where)[0]
        confidence = raw.get("confidence", 1.0)
        if not isinstance(confidence, (int, float)) or not 0 < confidence <= 1:
            raise RulesError(where, "'confidence' must be a number in (0, 1]")
        scope_mode, scope_types = _scope(raw.get("scope"), where)
        rules.append(
            Rule(
                name=name,
                newer_kinds=_names(raw.get("newer_kind"), "newer_kind", where),
                older_kinds=_names(raw.get("older_kind"), "older_kind", where),
                scope_types=scope_types,
                order=order,
                scope_mode=scope_mode,
                match=match,
                partial=partial,
                partial_from=partial_from,
                confidence=float(confidence),
                domain=raw.get("domain", domain),
                description=str(raw.get("description", "")),
            )
        )
    names = [r.name for r in rules]
    if len(set(names)) != len(names):
        raise RulesError(source, "rule names must be unique")
    return rules


def rule_to_mapping(rule: Rule) -> dict[str, Any]:
    """The YAML form of a rule, which :func:`parse_rules` reads back as the same rule: how a
    graph stores the rules it was built with (``car-graph domains show`` prints it)."""
    data: dict[str, Any] = {
        "name": rule.name,
        "newer_kind": list(rule.newer_kinds),
        "older_kind": list(rule.older_kinds),
        "scope": {rule.scope_mode: list(rule.scope_types)},
        "order": rule.order,
        "partial": rule.partial,
        "confidence": rule.confidence,
        "domain": rule.domain,
    }
    if rule.match is not None:
        data["match"] = {"newer": rule.match.newer, "older": rule.match.older, "op": rule.match.op,
                         **({"versioning": rule.match.versioning} if rule.match.versioning else {})}
    if rule.partial_from:
        data["partial_from"] = rule.partial_from
    if rule.description:
        data["description"] = rule.description
    return data


def rules_from_mappings(rules: Sequence[Mapping[str, Any]], source: str) -> list[Rule]:
    """Inverse of :func:`rule_to_mapping` over a list (a stored rule set)."""
    return parse_rules({"rules": list(rules)}, source)


def ruleset_name(rules: Sequence[Rule], declared: str | None = None) -> str:
    """The name a set of rules is stored under in the graph: the domain its file declares
    (``declared``), else ``*`` (the rules given without a domain: one set, whatever domains
    its rules name). A later rules file of the same name is a rules change of that set."""
    return declared or ANY_DOMAIN


ANY_DOMAIN = "*"


def load_rules(path: Path) -> list[Rule]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise RulesError(str(path), f"cannot read rules: {e}") from e
    return parse_rules(data, str(path))


def domain_rules(domain: Domain) -> list[Rule]:
    """The rules a domain bundles (its ``rules`` resource); none when it bundles none. A bundled
    file that is missing or broken is an error, never silently "no rules"."""
    if domain.rules is None:
        return []
    source = str(domain.rules)
    try:
        data = yaml.safe_load(domain.rules.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise RulesError(source, f"cannot read the {domain.name} domain's bundled rules: {e}") from e
    return parse_rules(data, source)


def bundled_rules(domain: str) -> list[Rule]:
    """The rules an installed domain bundles (``ingest/domains/<name>/rules.yaml`` for a built-in)."""
    found = DomainRegistry.installed().get(domain)
    if found is None or found.rules is None:
        raise RulesError(domain, "no bundled rules for this domain "
                                 f"(installed domains with rules: {_with_rules()})")
    return domain_rules(found)


def _with_rules() -> str:
    return ", ".join(d.name for d in DomainRegistry.installed() if d.rules is not None) or "none"


def load_domain_file(path: Path | str) -> tuple[Domain | None, list[Rule]]:
    """A rules/domain YAML file: the domain it declares (None if it declares no entities) and
    its supersession rules (none if it has no ``rules``)."""
    domain, rules, _ = read_domain_file(path)
    return domain, rules


def read_domain_file(path: Path | str) -> tuple[Domain | None, list[Rule], str]:
    """:func:`load_domain_file` plus the name its rules are stored under (:func:`ruleset_name`:
    the file's ``domain``, else ``*``)."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise RulesError(str(path), f"cannot read the file: {e}") from e
    domain = domain_from_mapping(data, str(path))
    rules = parse_rules(data, str(path)) if data.get("rules") is not None else []
    declared = data.get("domain") if isinstance(data.get("domain"), str) else None
    return domain, rules, ruleset_name(rules, declared)


def canonicalize_versions(record: DocumentRecord, rules: Sequence[Rule]) -> dict[str, Any]:
    """Attributes with version strings rewritten to their versioning scheme's canonical form.

    Rules that compare versions (``match.versioning``) compare strings in Cypher; two spellings
    of one version ("1.0" and "1.0.0" under PEP 440) must therefore be written identically.
    """
    attributes = dict(record.attributes)
    for rule in rules:
        if rule.match is None or rule.match.versioning is None:
            continue
        names = []
        if record.kind in rule.newer_kinds:
            names.append(rule.match.newer)
        if record.kind in rule.older_kinds:
            names.append(rule.match.older)
        scheme = rule.match.versioning
        if scheme.startswith("@"):
            scheme = str(attributes.get(scheme[1:]) or "")
        if not scheme:
            continue
        for name in names:
            value = attributes.get(name)
            if isinstance(value, str):
                attributes[name] = _canonical_or_raw(scheme, value)
            elif isinstance(value, list):
                attributes[name] = [
                    _canonical_or_raw(scheme, v) if isinstance(v, str) else v
                    for v in value
                ]
    return attributes


def _canonical_or_raw(scheme: str, value: str) -> str:
    try:
        return str(versions.canonical(scheme, value))
    except ValueError:
        # An unparsable version still matches an identical spelling; ordering is not needed here.
        return value
