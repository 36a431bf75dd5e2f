"""The law domain: U.S. Supreme Court decisions and the decisions that overrule them, in one folder.

* ``entities.py`` -- the U.S. Reports citation identifier, the ``case`` name type and the spaCy
  component that guesses case names ("X v. Y") in text;
* ``conan.py`` -- the adapter of the CONAN table of overruled decisions (``load_law``);
* ``rules.yaml`` -- no rules: the table's rows are explicit edges.
"""

from __future__ import annotations

from importlib import resources

from car_graph.domains import Domain
from car_graph.ingest.domains.law.conan import NAME
from car_graph.ingest.domains.law.entities import (
    IDENTIFIER_ATTRIBUTES,
    IDENTIFIERS,
    NAMES,
    add_case_matcher,
)

DOMAIN = Domain(
    name=NAME,
    identifiers=IDENTIFIERS,
    names=NAMES,
    identifier_attributes=IDENTIFIER_ATTRIBUTES,
    components=(add_case_matcher,),
    description="court decisions and the decisions that overrule them",
    rules=resources.files(__name__) / "rules.yaml",
)
