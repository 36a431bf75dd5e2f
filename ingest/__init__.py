"""Ingestion: parse inputs into DocumentRecords, extract entities, embed, write, apply rules.

Installed as ``car_graph.ingest``. Domain adapters (security, law, drug) and their rules files
live here beside the generic JSON Lines reader.
"""
