"""What a report's figures draw, and that drawing them does not grow with what is drawn: a figure is one artist per
thing it names (a victory kind, a seat), whatever the number of game lengths, and its caption breaks where
matplotlib's own wrapping breaks it."""
from __future__ import annotations

import io

import matplotlib
import numpy as np
import pytest

from balance.stats import Aggregator
from synthetic_games import LINEUP, SPEC, GAMES, aggregate, make_games

matplotlib.use("Agg")


def _long_games(n: int = 3000, cap: int = 2000) -> dict:
    """Games whose lengths spread over ``cap`` turns, a few of them capped unfinished (The Haunted Tower's shape)."""
    games = make_games(n, seed=3)
    rng = np.random.default_rng(4)
    games["turns"] = np.where(games["victory"] == 0, cap, rng.integers(5, cap, size=n)).astype(np.int32)
    games["rounds"] = ((games["turns"] + 2) // 3).astype(np.int32)
    return games


def _results(games, cap: int):
    agg = Aggregator(SPEC, LINEUP, cap)
    agg.update(games)
    return agg.finalize(seed=7, scenario={"players": len(LINEUP)})


def test_lengths_draw_each_kinds_histogram_as_one_artist_stacked_on_the_kinds_before():
    r = _results(_long_games(), 2000)
    fig = r.plot.lengths()
    for ax, which in zip(fig.axes, r.LENGTHS):
        x = r.length_histogram(which).length.to_numpy()
        kinds = [k for k in r.tallies.victory_names if r._hist(which, k).sum()]
        assert len(x) > 600 and len(kinds) == 3
        assert not ax.patches and len(ax.collections) == len(kinds)     # one artist a kind, not one a length
        below = np.zeros(len(x))
        for kind, bars in zip(kinds, ax.collections):
            h = r._hist(which, kind)[x]
            boxes = np.array([p.vertices[:4] for p in bars.get_paths()])    # (left, low) (left, high) ...
            at = np.searchsorted(x, boxes[:, 0, 0] + 0.5)
            assert np.array_equal(x[at], boxes[:, 0, 0] + 0.5) and np.all(boxes[:, 2, 0] - boxes[:, 0, 0] == 1)
            assert np.array_equal(at, np.nonzero(h)[0])                   # a bar at every length with games
            assert np.array_equal(boxes[:, 0, 1], below[at])              # on the kinds drawn before
            assert np.array_equal(boxes[:, 1, 1] - boxes[:, 0, 1], h[at])   # as high as the kind's games
            below += h
        legend = ax.get_legend()
        assert [t.get_text() for t in legend.get_texts()][1:] == kinds and legend.get_texts()[0].get_text() \
            .startswith("median")
        assert legend._loc != 0                 # a corner chosen from the data, not loc="best" over every bar


def test_lengths_legend_sits_in_the_upper_corner_over_the_lower_half():
    """Games mostly long (Climbing Tower's rounds pile up at the round limit): the legend goes left; mostly short
    (The Haunted Tower's turns, a few capped at 2,000): right."""
    games = make_games(3001, seed=42)
    games["victory"] = np.where(games["victory"] == 0, 1, games["victory"]).astype(np.int8)
    games["winner"] = np.where(games["winner"] < 0, 0, games["winner"]).astype(np.int8)
    for long, corner in ((38, 2), (8, 1)):              # 2: upper left, 1: upper right
        games["turns"] = np.where(np.arange(3001) % 5 == 0, 46 - long, long).astype(np.int32)
        games["rounds"] = ((games["turns"] + 2) // 3).astype(np.int32)
        assert [ax.get_legend()._loc for ax in aggregate(games, [3001]).plot.lengths().axes] == [corner] * 2


@pytest.mark.parametrize("width", [200, 450, 900])
def test_captions_break_where_matplotlib_wrap_breaks_them(width):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from balance.present.figure import caption, wrapped
    r = aggregate(GAMES, [3001])
    lines = []
    for name in r.plot.available():
        fig = Figure(figsize=(width / 100, 3))
        FigureCanvasAgg(fig)
        title = fig.suptitle(caption(r, name), fontsize="small", wrap=True)
        title._renderer = fig.canvas.get_renderer()     # as a draw sets it, for matplotlib's own wrapping
        assert wrapped(title, fig.bbox.width) == title._get_wrapped_text(), name
        lines.append(title._get_wrapped_text().count("\n") + 1)
    assert max(lines) > {200: 3, 450: 1, 900: 0}[width]


def test_each_figure_carries_its_caption_wrapped_to_its_width():
    from balance.present.figure import caption
    r = aggregate(GAMES, [3001])
    for name in r.plot.available():
        fig = getattr(r.plot, name)()
        reference = fig.text(0.5, 0.98, caption(r, name), fontsize="small", ha="center", wrap=True)
        reference._renderer = fig.canvas.get_renderer()
        assert fig._suptitle.get_text() == reference._get_wrapped_text(), name


def test_save_png_writes_what_savefig_writes():
    """The report lays a figure out once and draws it once; the PNG is the one savefig writes."""
    from balance.present.figure import save_png
    r = aggregate(GAMES, [3001])
    for name in r.plot.available():
        want, got = io.BytesIO(), io.BytesIO()
        getattr(r.plot, name)().savefig(want, format="png", dpi=100)
        save_png(getattr(r.plot, name)(), got)
        assert got.getvalue() == want.getvalue(), name


def test_group_bars_are_one_collection_per_counter_each_on_its_own_axis_at_the_tables_values():
    """Counters of other quantities (gold per game, cards at the end) are never drawn on one scale: each counter is a
    row of its own, over the row of win-rate differences, all on the labels' axis."""
    r = aggregate(GAMES, [3001])
    fig = r.plot.cards()
    df = r.cards
    shown = [c for c in r.tallies.counter_names if np.nansum(df[f"{c}_per_game"]) > 0]
    assert len(shown) == 3 and len(fig.axes) == len(shown) + 1
    for name, ax in zip(shown, fig.axes):
        assert not ax.patches and len(ax.collections) == 1 and ax.get_ylabel() == f"{name}\nper game"
        boxes = np.array([p.vertices[:4] for p in ax.collections[0].get_paths()])
        centre = (boxes[:, 0, 0] + boxes[:, 2, 0]) / 2
        assert centre == pytest.approx(np.arange(len(df)))
        assert boxes[:, 2, 0] - boxes[:, 0, 0] == pytest.approx(0.8)
        assert boxes[:, 1, 1] == pytest.approx(df[f"{name}_per_game"].to_numpy()) and not boxes[:, 0, 1].any()


def test_every_axis_label_of_every_figure_lies_inside_its_figure():
    """A label cut at the figure's edge (Climbing Tower's contrasts x label was) cannot be read."""
    import balance
    for r in (aggregate(GAMES, [3001]), balance.simulate("scenarios/climbing_tower.toml", games=300, progress=False)):
        for name in r.plot.available():
            fig = getattr(r.plot, name)()
            fig.canvas.draw()
            box = fig.bbox
            for ax in fig.axes:
                for label in (ax.xaxis.label, ax.yaxis.label):
                    if label.get_text():
                        b = label.get_window_extent()
                        assert b.x0 >= box.x0 - 1 and b.x1 <= box.x1 + 1 and b.y0 >= box.y0 - 1, \
                            (name, label.get_text())
