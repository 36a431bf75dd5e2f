"""The package list of the car-graph wheel (everything else is in pyproject.toml).

Computed rather than listed so that the ingest tree is discovered: a new built-in domain is a new
folder ingest/domains/<name>/ (with __init__.py and rules.yaml) and ships with no other edit.
The other packages are listed; data folders among them are listed so that setuptools ships them
without a warning per folder.
"""

from setuptools import find_namespace_packages, setup

LISTED = [
    "car_graph", "car_graph.adapters", "car_graph.queries", "car_graph.graph_schema",
    # data folders
    "car_graph.resources", "car_graph.resources.sample", "car_graph.queries.analyst",
    "car_graph.queries.fragments",
]
# ingest/ is car_graph.ingest (pyproject's package-dir); every folder below it is a subpackage,
# data-only ones included, caches excluded
INGEST = ["car_graph.ingest"] + [
    f"car_graph.ingest.{name}"
    for name in find_namespace_packages(where="ingest", exclude=["*__pycache__*"])
]

setup(packages=LISTED + INGEST)
