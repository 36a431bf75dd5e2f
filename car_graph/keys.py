"""Entity keys and type names: one normalisation shared by adapters, the extractor and linking.

An entity is identified by (type, key). Types are plain identifiers (:data:`NAME_PATTERN`);
keys are case-folded with white space collapsed, so "Lochner v.  New York" and
"lochner v. new york" are one key. A domain may key an identifier its own way (see
``car_graph.domains.IdentifierSpec.key``); everything else goes through :func:`normalize_key`.

A bottom-layer module: it imports nothing of car-graph.
"""

from __future__ import annotations

import re

# Entity types, kinds, attribute and rule names: safe as Cypher property suffixes and map keys.
NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def normalize_key(value: str) -> str:
    return " ".join(value.split()).casefold()


def entity_key(entity: str) -> str:
    """An entity's key, without its type ("type:namespace:name" -> "namespace:name")."""
    return entity.split(":", 1)[-1]


def own_name(entity: str) -> str:
    """The name an entity's key writes, without a namespace before ':' ("name")."""
    return entity_key(entity).rsplit(":", 1)[-1]
