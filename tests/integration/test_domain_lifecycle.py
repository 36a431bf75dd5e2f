"""A user's own domain through its whole life: updates, deletes and rules changes never corrupt
the graph silently.

The domain is tests/fixtures/policies/ (internal policies: versions, memos amending them in
part, withdrawal notices), written only from docs/domains.md. Each test is one step a team
keeping its graph up to date takes; each failed before the graph kept its rule sets
(a record fixed without ``--rules`` dropped its rule edges, a misspelt rules file deleted good
edges with exit 0, a deleted middle version left the chain broken). The last test checks the
invariant behind all of them on random edit sequences: every state equals what the reference
semantics (car_graph/semantics.py) makes of the same records and rules, and the final one
equals a fresh ``reset`` + ingest.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from car_graph.cli import main
from car_graph.client import CarClient
from car_graph.connection import wipe_database
from car_graph.errors import RulesChangeRefused, RulesWarningError
from car_graph.records import DocumentRecord, parse_record
from car_graph.rules import load_domain_file, read_domain_file
from car_graph.semantics import authority_graph

pytestmark = [pytest.mark.neo4j, pytest.mark.models]

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "policies"
RULES = FIXTURE / "policy.yaml"


def policy_lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIXTURE / "policies.jsonl").read_text().splitlines()]


def records(docs: list[dict[str, Any]]) -> list[DocumentRecord]:
    return [parse_record(d) for d in docs]


def by_id(doc_id: str) -> dict[str, Any]:
    return next(d for d in policy_lines() if d["id"] == doc_id)


def edges(car: CarClient) -> set[tuple[str, str, str, bool]]:
    return {(r["newer"], r["older"], r["rule"], bool(r["partial"]))
            for r in car.store.read("document_relations", domain=None, known_at=None)}


def statuses(car: CarClient) -> dict[str, str]:
    return {r["id"]: r["status"] for r in car.store.read("document_statuses", ids=None)}


def reference(docs: list[dict[str, Any]], rules: list) -> tuple[set, dict[str, str]]:
    """What the reference semantics makes of these records and rules: edges and statuses."""
    graph = authority_graph(records(docs), rules)
    return ({(e.newer, e.older, e.rule, e.partial) for e in graph.edges},
            {d["id"]: str(graph.status(d["id"])) for d in docs})


@pytest.fixture
def policies(car: CarClient) -> CarClient:
    domain, rules = load_domain_file(RULES)
    car.ingest(records(policy_lines()), rules, domain=domain)
    return car


def closed_edges(car: CarClient) -> list[dict[str, Any]]:
    return [dict(r) for r in car.store.driver.execute_query(
        "MATCH (n)-[c:CLOSED_SUPERSEDES]->(o) RETURN n.id AS newer, o.id AS older, "
        "c.rule AS rule, c.closed_reason AS reason ORDER BY newer, older").records]


def test_the_fresh_load_is_what_the_reference_semantics_makes_of_the_domain(policies) -> None:
    _, rules = load_domain_file(RULES)
    want_edges, want_statuses = reference(policy_lines(), rules)
    assert edges(policies) == want_edges
    assert statuses(policies) == want_statuses
    # the domain's rules are kept in the graph, versioned
    [info] = [d for d in policies.domains() if d.name == "policy"]
    assert info.declared and info.ruleset is not None and info.ruleset["version"] == 1
    assert sorted(r["name"] for r in info.ruleset["rules"]) == sorted(r.name for r in rules)


def test_fixing_a_record_without_rules_keeps_its_rule_edges(policies) -> None:
    before = edges(policies)
    fixed = by_id("POL-2022-012")
    fixed["text"] = fixed["text"].replace("All trips need", "Every trip needs")
    summary = policies.ingest(records([fixed]))  # no rules: the graph's own apply
    assert (summary.added, summary.updated) == (0, 1)
    assert edges(policies) == before
    assert summary.edges_closed == {} and summary.edges_opened == {}
    assert statuses(policies)["POL-2022-012"] == "superseded"  # v4 still replaces v3
    verdict = policies.answer("Is POL-2020-031 still in force?")
    assert verdict.kind == "superseded", verdict.summary
    assert [r.doc_id for r in verdict.controlling] == ["POL-2023-020"]


def test_adding_a_version_without_rules_supersedes_the_one_before(policies) -> None:
    v5 = {**by_id("POL-2023-020"), "id": "POL-2025-001", "published": "2025-01-20",
          "title": "Travel policy, version 5", "attributes": {"number": "POL-2025-001"},
          "text": "Trips are booked through the travel desk; rail is mandatory under five hours."}
    summary = policies.ingest(records([v5]))
    assert summary.added == 1
    assert summary.edges_opened.get("version_replaces_previous") == 1
    assert ("POL-2025-001", "POL-2023-020", "version_replaces_previous", False) in edges(policies)
    assert statuses(policies)["POL-2023-020"] == "superseded"
    _, rules = load_domain_file(RULES)
    assert (edges(policies), statuses(policies)) == reference([*policy_lines(), v5], rules)


def test_a_misspelt_scope_type_warns_and_changes_nothing_unless_confirmed(policies, tmp_path) -> None:
    bad = tmp_path / "policy.yaml"
    bad.write_text(RULES.read_text().replace("scope: policy_line", "scope: polcy"))
    domain, rules, name = read_domain_file(bad)
    before, closed_before = edges(policies), closed_edges(policies)
    three = records(policy_lines()[:3])
    with pytest.raises(RulesWarningError) as strict:
        policies.ingest(three, rules, domain=domain, ruleset=name, strict=True)
    assert "'polcy'" in str(strict.value) and "nearest: 'policy_line'" in str(strict.value)
    with pytest.raises(RulesChangeRefused) as refused:
        policies.ingest(three, rules, domain=domain, ruleset=name)
    assert refused.value.closing == refused.value.edges == 16  # every rule edge of the set
    assert edges(policies) == before and closed_edges(policies) == closed_before
    # confirmed, it applies -- and says why every edge closed
    summary = policies.ingest(three, rules, domain=domain, ruleset=name, yes=True)
    assert any("polcy" in str(w) for w in summary.warnings)
    assert {reason for reasons in summary.edges_closed.values() for reason in reasons} == {"rule changed"}
    assert {e[2] for e in edges(policies)} == {"explicit"}


def test_the_cli_refuses_a_misspelt_rules_file_with_its_warnings_and_exit_1(
        policies, neo4j_target, tmp_path) -> None:
    bad = tmp_path / "policy.yaml"
    bad.write_text(RULES.read_text().replace("scope: policy_line", "scope: polcy"))
    docs = tmp_path / "three.jsonl"
    docs.write_text("".join(json.dumps(d) + "\n" for d in policy_lines()[:3]))
    before = edges(policies)
    env = {"NEO4J_URI": neo4j_target.uri, "NEO4J_USER": neo4j_target.user,
           "NEO4J_PASSWORD": neo4j_target.password}
    out = CliRunner().invoke(main, ["ingest", str(docs), "--rules", str(bad), "--no-progress"], env=env)
    assert out.exit_code == 1, out.output
    assert "would close 16 of its 16 rule edges" in out.stderr
    assert "scope type 'polcy'" in out.stderr and "nearest: 'policy_line'" in out.stderr
    assert edges(policies) == before
    dry = CliRunner().invoke(main, ["ingest", str(docs), "--rules", str(bad), "--no-progress",
                                    "--dry-run", "--json"], env=env)
    assert dry.exit_code == 0, dry.output
    report = json.loads(dry.stdout)
    assert report["dry_run"] is True
    assert sum(sum(r.values()) for r in report["edges_closed"].values()) == 16
    flipped = {f["id"]: (f["before"], f["after"]) for f in report["flips"]}
    assert flipped["POL-2020-031"] == ("superseded", "active")
    assert edges(policies) == before  # a dry run writes nothing


def test_removing_a_rule_closes_its_edges_with_the_reason(policies, tmp_path) -> None:
    text = RULES.read_text()
    cut = text.index("  - name: withdrawal_voids")
    fewer = tmp_path / "policy.yaml"
    fewer.write_text(text[:cut])
    domain, rules, name = read_domain_file(fewer)
    summary = policies.ingest([], rules, domain=domain, ruleset=name)
    [change] = summary.rules_changes
    assert change.diff.removed == ("withdrawal_voids",) and change.version == 2
    assert change.closed == {"withdrawal_voids": {"rule removed": 2}}
    assert [(c["newer"], c["older"], c["reason"]) for c in closed_edges(policies)] == [
        ("WD-2024-002", "POL-2019-008", "rule removed"), ("WD-2024-002", "POL-2021-017", "rule removed")]
    assert (edges(policies), statuses(policies)) == reference(policy_lines(), rules)
    # later ingests apply the stored version 2 (no withdrawal edge comes back)
    policies.ingest(records([by_id("WD-2024-002")]), refresh=True)
    assert not any(e[2] == "withdrawal_voids" for e in edges(policies))


def test_deleting_a_middle_version_closes_the_chain_over_the_gap(policies) -> None:
    summary = policies.delete(["POL-2020-010"])
    assert summary.deleted == ["POL-2020-010"]
    assert summary.edges_opened == {"version_replaces_previous": 1}
    assert ("POL-2022-005", "POL-2018-002", "version_replaces_previous", False) in edges(policies)
    assert statuses(policies)["POL-2018-002"] == "superseded"
    _, rules = load_domain_file(RULES)
    left = [d for d in policy_lines() if d["id"] != "POL-2020-010"]
    assert (edges(policies), statuses(policies)) == reference(left, rules)


def test_refresh_re_evaluates_unchanged_records(policies) -> None:
    # a graph damaged outside car-graph (or built by an older one): an edge is missing
    policies.store.driver.execute_query(
        "MATCH (:Document {id: 'POL-2023-020'})-[s:SUPERSEDES]->(:Document {id: 'POL-2022-012'}) DELETE s")
    lost = ("POL-2023-020", "POL-2022-012", "version_replaces_previous", False)
    plain = policies.ingest(records(policy_lines()))
    assert plain.unchanged == len(policy_lines()) and lost not in edges(policies)
    refreshed = policies.ingest(records(policy_lines()), refresh=True)
    assert refreshed.updated == len(policy_lines())
    assert lost in edges(policies)
    _, rules = load_domain_file(RULES)
    assert (edges(policies), statuses(policies)) == reference(policy_lines(), rules)


def test_domains_list_show_and_remove(policies) -> None:
    info = policies.domain("policy")
    assert info.documents == len(policy_lines()) and info.declaration is not None
    assert [c["version"] for c in info.changes] == [1]
    removal = policies.remove_domain("policy")
    assert removal.declaration and len(removal.rules) == 4
    assert {e[2] for e in edges(policies)} == {"explicit"}
    assert "policy" not in {d.name for d in policies.domains() if d.ruleset}


# ------------------------------------------------------------------ random edit sequences

def _edit(rng: random.Random, docs: dict[str, dict[str, Any]], serial: int) -> tuple[str, Any]:
    """One edit a team makes: a corrected record, a new version or memo, a deletion, a rules
    change (a rule dropped or put back), or a refresh."""
    kind = rng.choice(["fix", "fix", "add", "add", "delete", "rules", "refresh"])
    if kind == "fix" and docs:
        doc = dict(rng.choice(sorted(docs.values(), key=lambda d: d["id"])))
        field = rng.choice(["text", "published", "line"])
        if field == "text":
            doc["text"] = doc["text"] + f" Revision {serial}."
        elif field == "published":
            doc["published"] = f"{rng.randint(2018, 2025)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
        else:
            doc["scope"] = {"policy_line": rng.choice(["travel", "expenses", "access control"])}
        return "fix", doc
    if kind == "add" or not docs:
        line = rng.choice(["travel", "expenses", "access control"])
        new_kind = rng.choice(["policy_version", "policy_version", "memo", "withdrawal"])
        return "add", {"id": f"NEW-{serial}", "domain": "policy", "kind": new_kind,
                       "published": f"{rng.randint(2018, 2025)}-0{rng.randint(1, 9)}-0{rng.randint(1, 9)}",
                       "scope": {"policy_line": line}, "title": f"{line} {new_kind} {serial}",
                       "text": f"The {line} {new_kind.replace('_', ' ')} number {serial}."}
    if kind == "delete":
        return "delete", rng.choice(sorted(docs))
    return kind, None


@pytest.mark.parametrize("seed", range(4))
def test_every_state_of_a_random_edit_sequence_equals_a_fresh_build(car, seed, neo4j_target) -> None:
    rng = random.Random(seed)
    domain, all_rules = load_domain_file(RULES)
    docs = {d["id"]: d for d in rng.sample(policy_lines(), 10)}
    rules = list(all_rules)
    car.ingest(records(list(docs.values())), rules, domain=domain)
    for step in range(8):
        kind, change = _edit(rng, docs, step)
        if kind in ("fix", "add"):
            docs[change["id"]] = change
            car.ingest(records([change]))  # as a team does: no --rules
        elif kind == "delete":
            del docs[change]
            car.delete([change])
        elif kind == "rules":
            dropped = rng.choice(all_rules)
            rules = [r for r in all_rules if r is not dropped] if len(rules) == len(all_rules) else list(all_rules)
            car.ingest([], rules, ruleset="policy", yes=True)
        else:
            car.ingest(records(list(docs.values())), refresh=True)
        want = reference(list(docs.values()), rules)
        assert (edges(car), statuses(car)) == want, (seed, step, kind, change)
    incremental = (edges(car), statuses(car))
    wipe_database(car.store.driver, neo4j_target.database, neo4j_target.uri)
    car.apply_schema()
    car.ingest(records(list(docs.values())), rules, domain=domain)
    assert (edges(car), statuses(car)) == incremental
