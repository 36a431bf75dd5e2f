"""The built-in domains, one folder each: ``<name>/__init__.py`` defines ``DOMAIN``, a
``car_graph.domains.Domain`` named like the folder, beside the domain's declarations, source
adapters and ``rules.yaml``. ``car_graph.domains`` finds them by scanning this package, so a
new domain is a new folder and nothing else (docs/domains.md)."""
