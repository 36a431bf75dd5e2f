"""Benchmark builders, kept out of the library and the ingestion pipeline.

Installed as ``car_graph.benchmarks`` (like ``ingest/`` -> ``car_graph.ingest``) so the CLI's
``synthetic`` and ``reproduce`` commands work from the wheel. Nothing in ``car_graph`` proper or
in ``car_graph.ingest`` imports from here; the dependency runs one way, benchmarks -> library.

* ``synthetic``: the deterministic synthetic CAR benchmark (documents, queries, rules).
* ``questions``: real-corpus question sets built from the security, law and drug adapters.
* ``compliance``: a bring-your-own-domain benchmark (employee trading compliance log) written
  only as generic JSONL plus a rules file.
* ``reproduce``: every benchmark ingested and scored in one run, written to docs/results.md.

The committed question sets live beside the code (``security/``, ``law/``, ``drug/``).
"""
