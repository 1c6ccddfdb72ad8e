"""Tables of :class:`~balance.stats.results.Results` built from tallies: win rates with their intervals per key, a
counter group per label, means per seat or role."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .tallies import Tallies
from .intervals import diff_interval, mean_interval, wilson


def _rate_table(keys: dict[str, Any], wins, games) -> pd.DataFrame:
    wins = np.asarray(wins, dtype=np.int64)
    games = np.asarray(games, dtype=np.int64)
    lo, hi = wilson(wins, games)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = wins / games
    return pd.DataFrame(keys | {"games": games, "wins": wins, "win_rate": rate, "ci_low": lo, "ci_high": hi})


def _group_frame(t: Tallies, g) -> pd.DataFrame:
    """The table of one counter group (see :meth:`Results.group`). A group of the team (``per_team``: one seat a
    game) splits its counters by won and other games, and counts games, not seat-games, as "players"."""
    u = g.counter_names[g.used_counter]
    base = g.counter_names[g.ratio_base]
    tot = g.totals.astype(np.float64)
    df = pd.DataFrame({g.name: list(g.labels)})
    who, split = ("games", ("won_game", "other_game")) if g.per_team else ("players", ("winner", "other_seat"))
    with np.errstate(divide="ignore", invalid="ignore"):
        wins = int(t.seat_wins[0]) if g.per_team else int(t.seat_wins.sum())
        others = (t.games if g.per_team else int(t.seat_games.sum())) - wins
        won = g.totals_won.astype(np.float64)
        for c, name in enumerate(g.counter_names):
            df[f"{name}_per_game"] = tot[:, c] / t.games
        for c, name in enumerate(g.counter_names):   # the same counters split by whether the seat (team) won
            df[f"{name}_per_{split[0]}"] = won[:, c] / wins if wins else np.nan
            df[f"{name}_per_{split[1]}"] = (tot[:, c] - won[:, c]) / others if others else np.nan
        for c in range(g.ratio_base + 1, len(g.counter_names)):
            df[f"{g.counter_names[c]}_per_{base}"] = np.where(tot[:, g.ratio_base] > 0,
                                                              tot[:, c] / tot[:, g.ratio_base], np.nan)
        d, lo, hi = diff_interval(g.used_wins, g.used_pairs, g.unused_wins, g.unused_pairs)
        df[f"{u}_{who}"] = g.used_pairs
        df[f"win_rate_{u}"] = g.used_wins / g.used_pairs
        df[f"not_{u}_{who}"] = g.unused_pairs
        df[f"win_rate_not_{u}"] = g.unused_wins / g.unused_pairs
    df["win_rate_diff"], df["diff_ci_low"], df["diff_ci_high"] = d, lo, hi
    return df


def _means_frame(t: Tallies, keys: dict, sums, squares, games) -> pd.DataFrame:
    """Mean per game of every final counter (``<counter>_mean``), from sums over the rows' games; the points
    counter also gets its Student-t 95% interval (``points_ci_low``, ``points_ci_high``)."""
    df = pd.DataFrame(keys)
    if sums is None:
        return df
    games = np.asarray(games)
    with np.errstate(divide="ignore", invalid="ignore"):
        for k, name in enumerate(t.player_counter_names):
            df[f"{name}_mean"] = sums[:, k] / games
            if name == t.points_counter:
                ci = [mean_interval(n, s, q)[1:] for n, s, q in zip(games, sums[:, k], squares[:, k])]
                df[f"{name}_ci_low"] = [lo for lo, _ in ci]
                df[f"{name}_ci_high"] = [hi for _, hi in ci]
    return df
