"""Name attributes: record fields whose values are further names of a document's subject (a
brand beside the generic name), declared per domain in Python or YAML."""

from __future__ import annotations

import json

import pytest

from car_graph.domains import (
    DomainRegistry,
    domain_from_json,
    domain_from_mapping,
    domain_to_mapping,
)
from car_graph.errors import RulesError

CATALOG = {"domain": "catalog", "names": [{"type": "brand", "qualifiers": ["tablets"]}],
           "name_attributes": {"brand_name": "brand", "also_sold_as": "brand"}}


def test_declared_name_attributes_give_normalised_keys_and_written_names() -> None:
    registry = DomainRegistry([domain_from_mapping(CATALOG, "catalog.yaml")])
    found = registry.names_of_attributes({
        "brand_name": "  Nizoral ", "also_sold_as": ["Xolegel", "", 7], "sponsor": "Janssen"})
    assert sorted(found) == [("brand", "nizoral", "Nizoral"), ("brand", "xolegel", "Xolegel")]


def test_attributes_not_declared_as_names_give_nothing() -> None:
    registry = DomainRegistry([domain_from_mapping(CATALOG, "catalog.yaml")])
    assert registry.names_of_attributes({"sponsor": "Janssen", "trademark": "Nizoral"}) == []


def test_a_domain_with_only_name_attributes_is_a_domain() -> None:
    domain = domain_from_mapping({"domain": "catalog", "name_attributes": {"brand_name": "brand"}}, "c.yaml")
    assert domain is not None and domain.name_attributes == {"brand_name": "brand"}


def test_name_attributes_survive_the_round_trip_through_the_graph() -> None:
    domain = domain_from_mapping(CATALOG, "catalog.yaml")
    again = domain_from_json(json.dumps(domain_to_mapping(domain)), "graph")
    assert again.name_attributes == domain.name_attributes


@pytest.mark.parametrize("value, reason", [
    (["brand_name"], "must be a mapping"),
    ({"brand name": "brand"}, "must match"),
    ({"brand_name": "no spaces allowed"}, "'type' must match"),
    ({"brand_name": None}, "'type' must match"),
])
def test_malformed_name_attributes_are_refused_with_the_reason(value, reason) -> None:
    with pytest.raises(RulesError) as e:
        domain_from_mapping({"domain": "catalog", "name_attributes": value}, "c.yaml")
    assert e.value.source.startswith("c.yaml") and reason in str(e.value)


def test_the_drug_domain_names_brands_but_never_scopes_them() -> None:
    registry = DomainRegistry.installed()
    assert registry.names_of_attributes({"trademark": "Eliquis"}) == [("brand", "eliquis", "Eliquis")]
    assert registry.name_spec("brand") is not None
    assert "brand" not in registry.identifier_types


def test_the_registry_fingerprint_changes_with_what_domains_derive_and_only_then() -> None:
    declared = domain_from_mapping(CATALOG, "catalog.yaml")
    without = domain_from_mapping({**CATALOG, "name_attributes": {}}, "catalog.yaml")
    assert (DomainRegistry([declared]).fingerprint()
            == DomainRegistry([domain_from_mapping(CATALOG, "again.yaml")]).fingerprint())
    assert DomainRegistry([declared]).fingerprint() != DomainRegistry([without]).fingerprint()
    registry = DomainRegistry([without])
    first = registry.fingerprint()
    registry.add(declared)  # replaces the domain of the same name
    assert registry.fingerprint() != first
