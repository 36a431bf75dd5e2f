"""The drug domain: FDA approvals, market withdrawals and recalls, in one folder.

* ``entities.py`` -- NDC and FDA application-number identifiers, the ``drug`` and ``brand`` name
  types (salt and dosage-form words qualify a name without identifying it), brand attributes;
* ``common.py``, ``tables.py`` (NCATS approval and withdrawal tables), ``openfda.py`` (openFDA
  enforcement reports, also ``car-graph ingest --format openfda-enforcement``) -- the source
  adapters; ``corpus.py`` loads the real corpus (``load_drug``) and counts it;
* ``rules.yaml`` -- the supersession rules for the domain's documents.
"""

from __future__ import annotations

from importlib import resources

from car_graph.domains import Domain
from car_graph.ingest.domains.drug.common import NAME
from car_graph.ingest.domains.drug.entities import (
    IDENTIFIER_ATTRIBUTES,
    IDENTIFIERS,
    NAME_ATTRIBUTES,
    NAMES,
)
from car_graph.ingest.domains.drug.openfda import read_openfda_enforcement

DOMAIN = Domain(
    name=NAME,
    identifiers=IDENTIFIERS,
    names=NAMES,
    identifier_attributes=IDENTIFIER_ATTRIBUTES,
    name_attributes=NAME_ATTRIBUTES,
    description="drug approvals, market withdrawals and recalls",
    formats={"openfda-enforcement": read_openfda_enforcement},
    rules=resources.files(__name__) / "rules.yaml",
)
