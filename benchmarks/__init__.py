"""Benchmark builders, kept out of the library and the ingestion pipeline.

Its own distribution, car-graph-benchmarks (benchmarks/pyproject.toml maps this folder to the
import name ``car_graph_benchmarks``), so the car-graph wheel holds only the library. It depends
on car-graph, never the other way round: nothing in ``car_graph`` or ``car_graph.ingest``
imports from here. Its CLI commands (``synthetic``, ``reproduce``, ``bench``, ``corpora``, in
``cli``) reach ``car-graph`` through the entry-point group ``car_graph.cli``.

* ``synthetic``: the deterministic synthetic CAR benchmark (documents, queries, rules).
* ``questions``: real-corpus question sets built from the security, law and drug adapters.
* ``variants``: failure-class sets on an outside-style export of the real corpora.
* ``compliance``: a bring-your-own-domain benchmark (employee trading compliance log) written
  only as generic JSONL plus a rules file.
* ``reproduce``: every benchmark ingested and scored in one run, written to docs/results.md.
* ``scale``, ``bench``, ``statement_cost``: the scale benchmark (docs/benchmarks.md).
* ``reliability``, ``malformed``: the reliability checks (docs/reliability.md).
* ``corpora``: where the raw corpora are ($CAR_GRAPH_CORPORA) and how to fetch them.

The committed question sets live beside the code (``security/``, ``law/``, ``drug/``,
``variants/``), as package data.
"""
