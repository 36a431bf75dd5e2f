"""``python -m car_graph`` is the same as the ``car-graph`` command."""

from __future__ import annotations

from car_graph.cli import main

if __name__ == "__main__":
    main(prog_name="car-graph")
