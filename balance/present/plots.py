"""Figures of a :class:`~balance.stats.results.Results`, behind ``results.plot``.

Each function returns a new :class:`matplotlib.figure.Figure` drawn on the Agg canvas: no pyplot, so no global
figure state leaks between calls, and nothing needs a display. Save one with ``fig.savefig(path)``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..core.text import file_name, pct
from .figure import add_caption, bar_patches, error_bars, new_figure
from ..stats.intervals import wilson

if TYPE_CHECKING:
    from ..stats.results import Results


def _fair_share(r: Results) -> float:
    """Win rate every seat would have if seats were equal: finished share of games over the number of seats."""
    t = r.tallies
    return (t.games - t.victory_games[0]) / t.games / len(t.lineup) if t.games else np.nan


def seats(r: Results) -> Figure:
    """Win rate of each seat and of each strategy, with Wilson 95% intervals and the equal-share line."""
    fig = new_figure(9, 3.6)
    ax_seat, ax_strat = fig.subplots(1, 2, sharey=True)
    for ax, df, labels, title in (
            (ax_seat, r.seats, [f"seat {s}\n{n}" for s, n in zip(r.seats.seat, r.seats.strategy)], "By seat"),
            (ax_strat, r.strategies, list(r.strategies.strategy), "By strategy")):
        y, err = error_bars(df)
        x = np.arange(len(df))
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=5, elinewidth=1.5)
        ax.axhline(100 * _fair_share(r), color="grey", ls="--", lw=1, label="equal share")
        ax.set_xticks(x, labels)
        ax.set_xlim(-0.6, len(df) - 0.4)
        ax.set_title(title)
    ax_seat.set_ylabel("win rate, % (95% CI)")
    ax_seat.legend(loc="best", title=f"seat test p = {r.seat_test.p_value:.3g}", fontsize="small")
    return add_caption(fig, r, "seats")


def lengths(r: Results) -> Figure:
    """Histograms of game length in turns and in rounds, stacked by victory kind, with the median marked."""
    fig = new_figure(9, 3.6)
    axes = fig.subplots(1, 2)
    for ax, which in zip(axes, r.LENGTHS):
        total = r.length_histogram(which)
        if len(total):
            x = total.length.to_numpy()
            bottom = np.zeros(len(x))
            fills = []
            for kind in r.tallies.victory_names:
                h = r._hist(which, kind)[x]
                if h.sum():
                    # a bar of width 1 per length with games of this kind, stacked on the kinds below: a game
                    # capped at 2,000 turns has that many lengths
                    at = np.nonzero(h)[0]
                    fills.append(bar_patches(ax, x[at] - 0.5, 1.0, bottom[at], bottom[at] + h[at], f"C{len(fills)}", kind))
                    bottom += h
            row = r.lengths.set_index("measure").loc[which]
            median = ax.axvline(row["median"], color="black", lw=1, ls=":", label=f"median {row['median']:.0f}")
            # in the upper corner over the lower bars: loc="best" weighs every bar against each place it tries
            right = x > (x[0] + x[-1]) / 2
            taller_right = bottom[right].max(initial=0) > bottom[~right].max(initial=0)
            ax.legend(handles=[median, *fills], fontsize="small", loc="upper left" if taller_right else "upper right")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(which)
        ax.set_ylabel("games")
    return add_caption(fig, r, "lengths")


def victories(r: Results) -> Figure:
    """Share of games ending in each victory kind (including unfinished), with Wilson 95% intervals."""
    df = r.victories
    df = df[df.games > 0]           # a way no game ended has no bar to draw
    fig = new_figure(max(5.0, 1.4 * len(df)), 3.8)
    ax = fig.subplots()
    y, err = error_bars(df)
    x = np.arange(len(df))
    ax.bar(x, y, color="tab:blue")
    ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", capsize=6, elinewidth=1.5)
    labels = [str(k).replace("_", " ") for k in df.kind]
    long = max((len(k) for k in labels), default=0) > 10
    ax.set_xticks(x, labels, rotation=20 if long else 0, ha="right" if long else "center")
    ax.set_ylabel("share of games, % (95% CI)")
    return add_caption(fig, r, "victories")


def cards(r: Results) -> Figure:
    """The first counter group (Spooky Tower: per Building value), see :func:`group`."""
    return group(r)


def group(r: Results, name: str | None = None) -> Figure:
    """Per thing of a counter group: mean of each counter per game, and the win-rate difference of seats that used
    it against the others (Newcombe 95% CI), in percentage points."""
    t = r.tallies
    g = t.groups[0] if name is None else next(x for x in t.groups if x.name == name)
    df = r.group(g.name)
    u = g.counter_names[g.used_counter]
    shown = [c for c in g.counter_names if np.nansum(df[f"{c}_per_game"]) > 0]   # a counter never counted: no bars
    # one row of bars per counter, each on its own scale (gold per game and cards at the end are not one quantity),
    # over the row of win-rate differences, all sharing the labels' axis
    fig = new_figure(max(10, 0.45 * len(df)), 1.4 * len(shown) + 3.2)
    axes = fig.subplots(len(shown) + 1, 1, sharex=True, height_ratios=[1.0] * len(shown) + [2.0], squeeze=False)
    rows, bottom = list(axes[:-1, 0]), axes[-1, 0]
    x = np.arange(len(df))
    for c, (ax, cname) in enumerate(zip(rows, shown)):
        bar_patches(ax, x - 0.4, 0.8, 0.0, df[f"{cname}_per_game"].to_numpy(), f"C{c}", cname)
        ax.set_ylabel(f"{cname}\nper game", fontsize="small")
    d = 100 * df.win_rate_diff.to_numpy()
    err = np.vstack([d - 100 * df.diff_ci_low.to_numpy(), 100 * df.diff_ci_high.to_numpy() - d])
    bottom.errorbar(x, d, yerr=np.nan_to_num(err), fmt="o", capsize=4, elinewidth=1.5)
    bottom.axhline(0, color="grey", lw=1)
    if not g.used_pairs.any():      # nothing to compare: say so rather than draw an empty panel
        bottom.text(0.5, 0.5, f"'{u}' never happened in these games: nothing to compare", ha="center",
                    va="center", transform=bottom.transAxes, color="grey")
        bottom.set_yticks([])
    bottom.set_ylabel(f"win {u} - win not {u},\npercentage points (95% CI)")
    labels = [str(v) for v in df[g.name]]
    rotate = max((len(s) for s in labels), default=0) > 3
    bottom.set_xticks(x, labels, rotation=60 if rotate else 0, ha="right" if rotate else "center")
    bottom.set_xlabel(g.name)
    return add_caption(fig, r, "cards" if g is t.groups[0] else f"group_{file_name(g.name)}")


def roles(r: Results) -> Figure:
    """Per role (hero): win rate with its Wilson 95% interval, and mean points with its t 95% interval."""
    t = r.tallies
    df = r.roles
    fig = new_figure(10, 3.8)
    ax_win, ax_pts = fig.subplots(1, 2)
    x = np.arange(len(df))
    labels = [str(v) for v in df[t.role_name]]
    y, err = error_bars(df)
    ax_win.errorbar(x, y, yerr=err, fmt="o", capsize=5, elinewidth=1.5)
    ax_win.set_xticks(x, labels, rotation=30, ha="right")
    ax_win.set_ylabel("win rate, % (95% CI)")
    ax_win.set_title(f"Wins by {t.role_name}")
    if t.points_counter:
        pts = f"{t.points_counter}_mean"
        m = df[pts].to_numpy()
        e = np.vstack([m - df[f"{t.points_counter}_ci_low"].to_numpy(), df[f"{t.points_counter}_ci_high"] - m])
        ax_pts.errorbar(x, m, yerr=np.nan_to_num(e), fmt="o", capsize=4, color="tab:orange")
        ax_pts.set_ylabel(f"mean {t.points_counter} (95% CI)")
        ax_pts.set_title(f"{t.points_counter.capitalize()} by {t.role_name}")
    ax_pts.set_xticks(x, labels, rotation=30, ha="right")
    return add_caption(fig, r, "roles")


def score_lines(r: Results) -> Figure:
    """Mean points per game by scoring line, stacked, for each role (or each seat in a game without roles)."""
    t = r.tallies
    names = list(t.player_counter_names)
    if t.role_name is not None:
        sums, games, labels = t.role_final_sum, t.role_games, [str(v) for v in t.role_labels]
    else:
        sums, games, labels = t.seat_final_sum, t.seat_games, [f"seat {s}" for s in range(len(t.lineup))]
    fig = new_figure(9, 4)
    ax = fig.subplots()
    x = np.arange(len(labels))
    bottom = np.zeros(len(labels))
    with np.errstate(divide="ignore", invalid="ignore"):
        for line in t.score_lines:
            h = np.nan_to_num(sums[:, names.index(line)] / games)
            ax.bar(x, h, bottom=bottom, label=line)
            bottom += h
    ax.set_xticks(x, labels, rotation=30, ha="right")
    ax.set_ylabel("mean points per game")
    ax.legend(fontsize="small")
    return add_caption(fig, r, "score_lines")


def win_rate_by_length(r: Results, which: str = "rounds", min_games: int = 1) -> Figure:
    """Each seat's share of wins among games of each length (Wilson 95% band); lengths with < min_games skipped."""
    df = r.win_rate_by_length(which)
    df = df[df.games >= min_games]
    fig = new_figure(8, 4)
    ax = fig.subplots()
    x = df.length.to_numpy()
    for s, name in zip(r.seats.seat, r.seats.strategy):
        k = df[f"seat{s}_wins"].to_numpy()
        lo, hi = wilson(k, df.games.to_numpy())
        ax.plot(x, 100 * df[f"seat{s}_share"], marker=".", label=f"seat {s} ({name})")
        ax.fill_between(x, 100 * lo, 100 * hi, alpha=0.15)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(which)
    ax.set_ylabel("share of games won, % (95% CI)")
    ax.set_ylim(0, 100)
    if len(df):
        ax.legend(fontsize="small")
    return add_caption(fig, r, "win_rate_by_length")


def category(r: Results, name: str) -> Figure:
    """A category's win rate per label (Climbing Tower: per tower), sorted from the lowest to the highest, with
    Wilson 95% intervals, against the overall win rate and its interval."""
    df = r.category(name)
    df = df[df.games > 0].sort_values(["win_rate", name], kind="stable")
    fig = new_figure(max(8, min(16, 0.3 * len(df))), 4.2)
    ax = fig.subplots()
    x = np.arange(len(df))
    y, err = error_bars(df)
    many = len(df) > 60
    ax.errorbar(x, y, yerr=err, fmt="." if many else "o", ms=3 if many else 5,
                elinewidth=0.8 if many else 1.5, capsize=0 if many else 4)
    wins, games = int(df.wins.sum()), int(df.games.sum())
    if games:
        lo, hi = wilson(wins, games)
        ax.axhline(100 * wins / games, color="grey", ls="--", lw=1, label=f"all games {pct(wins / games)}")
        ax.axhspan(100 * float(lo), 100 * float(hi), color="grey", alpha=0.15, lw=0)
        ax.legend(fontsize="small", loc="upper left")
    if len(df) <= 40:
        ax.set_xticks(x, list(df[name]), rotation=60, ha="right")
        ax.set_xlabel(name)
    else:
        ax.set_xlabel(f"{name}, from the lowest win rate to the highest ({len(df)} played)")
    ax.set_ylim(0, 100)
    ax.set_ylabel("team win rate, % (95% CI)")
    return add_caption(fig, r, f"category_{file_name(name)}")


def contrasts(r: Results) -> Figure:
    """Each contrast variant's win rate minus the scenario's, in percentage points, with its 95% interval (Newcombe,
    unpaired), and each variant's win rate with its Wilson 95% interval."""
    df = r.contrasts
    fig = new_figure(10, 1.6 + 0.5 * len(df))
    ax_rate, ax_diff = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(df))[::-1]
    labels = [f"scenario\n({v})" if c == "scenario" else f"{v}\n({s})"
              for c, v, s in zip(df.contrast, df.variant, df.sets)]
    rate, err = error_bars(df)
    ax_rate.errorbar(rate, y, xerr=err, fmt="o", capsize=5, elinewidth=1.5)
    ax_rate.set_yticks(y, labels)
    ax_rate.set_xlabel("team win rate, % (95% CI)")
    ax_rate.set_title("Win rate", fontsize="medium")
    d = df["diff"].to_numpy()
    derr = np.vstack([d - df.diff_ci_low.to_numpy(), df.diff_ci_high.to_numpy() - d])
    ax_diff.errorbar(100 * d, y, xerr=100 * np.nan_to_num(derr), fmt="o", capsize=5, elinewidth=1.5,
                     color="tab:orange")
    ax_diff.axvline(0, color="grey", lw=1)
    ax_diff.set_xlabel("difference from the scenario,\npercentage points (95% CI)")
    ax_diff.set_title("Variant - scenario", fontsize="medium")
    return add_caption(fig, r, "contrasts")


class ResultPlots:
    """The ``Results.plot`` namespace: each method returns a new matplotlib Figure (Agg, no pyplot)."""

    def __init__(self, results: Results):
        self._r = results

    def available(self) -> list[str]:
        """The figures this run's game has, in report order (``group_<name>`` for each counter group after the
        first, ``category_<name>`` for each category, names as :func:`file_name` writes them; ``cards`` is the
        first group)."""
        t = self._r.tallies
        if t.cooperative:           # no seat balance: the team's figures
            names = ["lengths", "victories", "cards"] + [f"group_{file_name(g.name)}" for g in t.groups[1:]]
            names += [f"category_{file_name(c.name)}" for c in t.categories]
            return names + (["contrasts"] if len(self._r.contrasts) else [])
        names = ["seats"] + (["roles"] if t.role_name else []) + ["lengths", "victories"]
        names += (["score_lines"] if t.score_lines else []) + ["cards"]
        names += [f"group_{file_name(g.name)}" for g in t.groups[1:]] + ["win_rate_by_length"]
        return names

    def __getattr__(self, name: str):
        t = self._r.tallies
        for prefix, things, draw in (("group_", t.groups, self.group), ("category_", t.categories, self.category)):
            if name.startswith(prefix):
                wanted = name[len(prefix):]
                found = next((x.name for x in things if wanted in (x.name, file_name(x.name))), wanted)
                return lambda **kw: draw(found, **kw)
        raise AttributeError(name)

    def category(self, name: str, **kw):
        return category(self._r, name, **kw)

    def contrasts(self, **kw):
        return contrasts(self._r, **kw)

    def seats(self, **kw):
        return seats(self._r, **kw)

    def roles(self, **kw):
        return roles(self._r, **kw)

    def lengths(self, **kw):
        return lengths(self._r, **kw)

    def victories(self, **kw):
        return victories(self._r, **kw)

    def cards(self, **kw):
        return cards(self._r, **kw)

    def group(self, name: str | None = None, **kw):
        return group(self._r, name, **kw)

    def score_lines(self, **kw):
        return score_lines(self._r, **kw)

    def win_rate_by_length(self, **kw):
        return win_rate_by_length(self._r, **kw)
