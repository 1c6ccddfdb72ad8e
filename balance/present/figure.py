"""What every figure shares: a new Figure on the Agg canvas (no pyplot), asymmetric error bars from a table's
interval columns, the caption under each figure (wrapped where matplotlib wraps it), one bar patch per series, and
saving a PNG exactly as ``savefig`` would."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from matplotlib import cbook
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine

from ..core.text import file_name

if TYPE_CHECKING:
    from ..stats.results import Results


def new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def error_bars(df):
    """Asymmetric error bars (below, above) from a table with win_rate/share and ci_low/ci_high columns, in percent
    as the tables print them."""
    centre = df["win_rate"] if "win_rate" in df else df["share"]
    err = np.vstack([(centre - df.ci_low).to_numpy(), (df.ci_high - centre).to_numpy()])
    return 100 * centre.to_numpy(), 100 * np.nan_to_num(err)


def caption(r: Results, name: str) -> str:
    """The one-line caption of the figure ``name`` (as ``Results.plot.available`` names it): what it shows, in the
    tables' units."""
    t = r.tallies
    if name.startswith("group_") or name == "cards":
        g = t.groups[0] if name == "cards" else next(x for x in t.groups if f"group_{file_name(x.name)}" == name)
        u = g.counter_names[g.used_counter]
        return (f"Per {g.name}: counters per game; win rate when '{u}' happened minus when not, in percentage "
                "points with 95% CI (an association, not a cause).")
    if name.startswith("category_"):
        c = next(x for x in t.categories if f"category_{file_name(x.name)}" == name)
        return (f"Team win rate per {c.name}, in %, sorted from the lowest to the highest, with Wilson 95% "
                "intervals; the dashed line and grey band are all games.")
    return {
        "seats": "Win rate by seat and by strategy, in %, with Wilson 95% intervals; the dashed line is an equal "
                 "share of the finished games.",
        "roles": f"Win rate (%) and mean points by {t.role_name}, with 95% intervals (Wilson; Student t).",
        "lengths": "Games by length in turns and in rounds, stacked by how they ended; the dotted line is the median.",
        "victories": "Share of games ending each way, in %, with Wilson 95% intervals (a way no game ended is left "
                     "out).",
        "score_lines": "Mean points per game from each line of the scoring table.",
        "win_rate_by_length": "Each seat's share of the wins among games of each length, in %, with a Wilson 95% "
                              "band.",
        "contrasts": "Each variant's team win rate (%) and its difference from the scenario (percentage points), "
                     "with 95% intervals.",
    }.get(name, name.replace("_", " ").capitalize())


def add_caption(fig: Figure, r: Results, name: str) -> Figure:
    title = fig.suptitle(caption(r, name), fontsize="small")
    title.set_text(wrapped(title, fig.bbox.width))
    return fig


def wrapped(text, width: float) -> str:
    """The string of the Text artist ``text`` broken into lines of at most ``width`` pixels, at the spaces where
    matplotlib's ``wrap=True`` breaks it (the most words whose rendered width fits, a word alone when none does),
    found by bisection: ``wrap=True`` measures every prefix of a line, again at each layout pass and each draw, and
    a measurement shapes the text anew (about 0.1 ms a character), which made a figure's caption cost more than
    its data."""
    renderer = text.get_figure(root=True).canvas.get_renderer()
    font = text.get_fontproperties()

    def fits(words) -> bool:
        line = " ".join(words)
        w = renderer.get_text_width_height_descent(line, font, ismath=cbook.is_math_text(line))[0]
        return math.ceil(w) <= width

    lines = []
    for paragraph in text.get_text().split("\n"):
        words = paragraph.split(" ")
        while words:
            lo, hi = 1, len(words)          # words[:lo] is a line (one word always is); find the most that fit
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if fits(words[:mid]):
                    lo = mid
                else:
                    hi = mid - 1
            lines.append(" ".join(words[:lo]))
            words = words[lo:]
    return "\n".join(lines)


def save_png(fig: Figure, path, dpi: int = 100) -> None:
    """Write ``fig`` as PNG at ``dpi``, the bytes ``fig.savefig(path, dpi=dpi)`` writes, laid out and drawn once:
    savefig lays a constrained-layout figure out in a dry draw and again in the draw it prints. The figure keeps
    that layout (it no longer adapts to a new size)."""
    engine = fig.get_layout_engine()
    if not isinstance(engine, ConstrainedLayoutEngine) or not isinstance(fig.canvas, FigureCanvasAgg):
        fig.savefig(path, dpi=dpi)
        return
    fig.set_dpi(dpi)
    engine.execute(fig)
    fig.set_layout_engine("none")
    fig.canvas.print_png(path)


def bar_patches(ax, left, width: float, low, high, color: str, label: str) -> PolyCollection:
    """Bars ``width`` wide from ``left``, from ``low`` to ``high`` (a NaN: no bar), as ``ax.bar`` draws them (no
    edge, no margin below zero) but as one collection: ``ax.bar`` makes a patch a bar, and updates the axes'
    limits and draws each on its own, which made hundreds of bars the larger part of a figure's time."""
    left, low, high = np.broadcast_arrays(*(np.asarray(v, float) for v in (left, low, high)))
    keep = ~(np.isnan(low) | np.isnan(high))
    left, low, high = left[keep], low[keep], high[keep]
    boxes = np.stack([np.column_stack(corner) for corner in ((left, low), (left, high), (left + width, high),
                                                             (left + width, low))], axis=1)
    bars = PolyCollection(boxes, facecolors=color, linewidths=0, label=label)
    bars.sticky_edges.y.append(0)
    ax.add_collection(bars)
    return bars
