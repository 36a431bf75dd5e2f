"""The security domain: software advisories and the releases that fix them, in one folder.

* ``entities.py`` -- identifiers (CVE, GHSA, PYSEC, GO, RUSTSEC ids, package@version pins,
  versions) and the ``package`` name type;
* ``ecosystems.py`` -- package keys per ecosystem and the versioning scheme of each ecosystem name;
* ``osv.py``, ``advisories.py``, ``releases.py`` -- the source adapters; ``corpus.py`` loads the
  real corpus (``load_security``) and counts it;
* ``rules.yaml`` -- the supersession rules for the domain's documents.
"""

from __future__ import annotations

from importlib import resources

from car_graph.domains import Domain
from car_graph.ingest.domains.security.common import NAME
from car_graph.ingest.domains.security.ecosystems import VERSION_SCHEMES
from car_graph.ingest.domains.security.entities import IDENTIFIER_ATTRIBUTES, IDENTIFIERS, NAMES
from car_graph.ingest.domains.security.osv import read_osv

DOMAIN = Domain(
    name=NAME,
    identifiers=IDENTIFIERS,
    names=NAMES,
    identifier_attributes=IDENTIFIER_ATTRIBUTES,
    description="software advisories, releases and changelogs",
    formats={"osv": read_osv},
    rules=resources.files(__name__) / "rules.yaml",
    version_schemes=VERSION_SCHEMES,
)
