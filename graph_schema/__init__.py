"""The graph's DDL (constraints and indexes), one statement per ``.cypher`` file (package data)."""
