"""Every Cypher statement car-graph runs, one statement per ``.cypher`` file (package data)."""
