"""PNG plots for ``car-graph eval --plot`` and ``car-graph stats --plot`` (and the reproduce
report's TCA@k panels).

matplotlib is the optional ``plot`` extra and is imported only when a plot is drawn. Figures are
drawn on the Agg canvas directly (``matplotlib.figure.Figure``, never pyplot), so no display,
no global backend switch and no state shared between calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from car_graph.errors import MissingExtraError
from car_graph.stats import GraphStats

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SYSTEM_MARKERS = {"bm25": "s", "dense": "^", "hybrid": "D", "car": "o"}


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas; MissingExtraError names the extra when matplotlib is absent."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingExtraError("matplotlib", "plot") from exc
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure


def save(figure: Figure, path: Path) -> Path:
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path


def draw_tca_curves(ax: Axes, curves: Mapping[str, Sequence[float]], k: int | None, title: str) -> None:
    """Strict TCA@k against k, one line per system; a dotted line marks the reported k."""
    for system, values in curves.items():
        ax.plot(range(1, len(values) + 1), values, marker=SYSTEM_MARKERS.get(system, "."),
                markersize=3, label=system)
    if k is not None:
        ax.axvline(k, color="grey", linestyle=":", linewidth=1)
    ax.set_title(title)
    ax.set_xlabel("k")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    _integer_ticks(ax, y=False)


def tca_plot(curves: Mapping[str, Sequence[float]], path: Path, *, k: int | None, title: str) -> Path:
    """One panel: strict TCA@k for k = 1..len(curve) per system."""
    figure = new_figure(5.5, 4.0)
    ax = figure.subplots()
    draw_tca_curves(ax, curves, k, title)
    ax.set_ylabel("strict TCA@k")
    ax.legend(loc="best", fontsize="small")
    return save(figure, path)


def stats_plot(stats: GraphStats, path: Path) -> Path:
    """Three panels: chain lengths, scope sizes (per entity type) and edges per rule."""
    figure = new_figure(15, 4.2)
    chains, scopes, rules = figure.subplots(1, 3)

    lengths = stats.chain_lengths
    bars = chains.bar(list(lengths), list(lengths.values()), color="#4C8BF5")
    chains.bar_label(bars, fontsize="small")  # a single long chain is otherwise invisible
    chains.set_title(f"chain lengths ({stats.chains} chains)")
    chains.set_xlabel("SUPERSEDES hops from the head")
    chains.set_ylabel("chains")
    _integer_ticks(chains)

    for entity_type, sizes in stats.scope_sizes.items():
        scopes.plot(list(sizes), list(sizes.values()), marker="o", markersize=3, linestyle="",
                    label=entity_type)
    scopes.set_title(f"scope sizes ({sum(stats.scope_size_totals().values())} scopes)")
    scopes.set_xlabel("documents in the scope")
    scopes.set_ylabel("scopes")
    totals = stats.scope_size_totals()
    if totals:
        scopes.legend(fontsize="small")
        # Real scopes run from one document to thousands: log axes, once the range is that wide.
        if max(totals) > 30:
            scopes.set_xscale("log")
        if max(totals.values()) > 30:
            scopes.set_yscale("log")
        else:
            _integer_ticks(scopes, x=False)

    names = list(stats.edges_by_rule)
    rule_bars = rules.barh(names, list(stats.edges_by_rule.values()), color="#57C7A4")
    rules.bar_label(rule_bars, fontsize="small")
    rules.invert_yaxis()  # the largest rule on top
    rules.set_title(f"edges by rule ({stats.supersedes} edges)")
    rules.set_xlabel("SUPERSEDES edges")
    rules.tick_params(axis="y", labelsize="small")
    for ax in (chains, scopes, rules):
        ax.grid(alpha=0.3)
    return save(figure, path)


def _integer_ticks(ax: Any, x: bool = True, y: bool = True) -> None:
    from matplotlib.ticker import MaxNLocator

    if x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if y:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
