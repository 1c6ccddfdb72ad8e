"""The main findings of a run as measures that can be read again at every strength of play, and what stronger play
did to each.

A measure is chosen once, from the run as written (which seats, heroes, cards or labels it compares), and then read
off every level's results by name, so that "the magic-user's deficit to the fighter" is the same two heroes at every
level. Two families:

- a *gap*, oriented so that it is positive as written (the top seat's lead over the bottom seat, the top role's over
  the bottom role, the strongest and the weakest thing of the first counter group by the win-rate difference of the
  seats that used it, the hardest label of each category against the other labels);
- a *rate* (the team's win rate; the share of the most common way to win, where there are several).

The verdict compares the strongest level played with the level as written: the change with its 95% interval, the
two levels' intervals combined as if independent. The levels play the same games (common random numbers), which
correlates them positively, so this interval is, if anything, too wide: a verdict it calls clear is clear.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...stats.findings import _did, gap_interval, plural
from ...stats.intervals import wilson

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Measure:
    key: str                    # a stable name: "role_gap", "seat_gap", "lift_high group", ...
    kind: str                   # "gap" or "rate"
    what: str                   # in words: "magic_user's deficit to fighter"
    read: Callable              # Results -> (estimate, ci_low, ci_high); NaN where the level cannot say
    unit: str = "points"        # how the change is said


def _nan3():
    return (math.nan, math.nan, math.nan)


def _row(df, col, label):
    hit = df.index[df[col].astype(str) == str(label)]
    return None if len(hit) == 0 else df.loc[hit[0]]


def _rate_gap(table: Callable, col: str, top, bottom, same_games: bool):
    def read(r):
        df = table(r)
        a, b = _row(df, col, top), _row(df, col, bottom)
        if a is None or b is None or not a["games"] or not b["games"]:
            return _nan3()
        return gap_interval(float(a["win_rate"]), int(a["games"]), float(b["win_rate"]), int(b["games"]), same_games)
    return read


def _extreme_pair(df, col: str):
    d = df[df["games"] > 0]
    if len(d) < 2:
        return None
    order = d.sort_values("win_rate", kind="stable")[col]
    return order.iloc[-1], order.iloc[0]


def _lift(group: str, label, sign: int):
    def read(r):
        df = r.group(group)
        row = _row(df, group, label)
        if row is None or not np.isfinite(row["diff_ci_low"]):
            return _nan3()
        e, lo, hi = float(row["win_rate_diff"]), float(row["diff_ci_low"]), float(row["diff_ci_high"])
        return (e, lo, hi) if sign > 0 else (-e, -hi, -lo)
    return read


def _label_deficit(name: str, label):
    """The other labels' win rate minus this label's (independent games)."""
    def read(r):
        df = r.categories[name]
        row = _row(df, name, label)
        if row is None:
            return _nan3()
        wins, games = int(df["wins"].sum()), int(df["games"].sum())
        a, n = int(row["wins"]), int(row["games"])
        if n == 0 or games == n:
            return _nan3()
        return gap_interval((wins - a) / (games - n), games - n, a / n, n, False)
    return read


def _share(kind: str):
    def read(r):
        v = r.victories
        row = _row(v, "kind", kind)
        n = int(v["games"].sum())
        if row is None or n == 0:
            return _nan3()
        lo, hi = wilson(int(row["games"]), n)
        return float(row["games"]) / n, float(lo), float(hi)
    return read


def _team_rate(r):
    t = r.seats
    n, w = int(t["games"].iloc[0]), int(t["wins"].iloc[0])
    lo, hi = wilson(w, n)
    return w / n, float(lo), float(hi)


def measures(r) -> list[Measure]:
    """The main findings of the run as written ``r`` (a Results), as measures."""
    t = r.tallies
    out: list[Measure] = []
    if t.cooperative:
        out.append(Measure("team_rate", "rate", "the team's win rate", _team_rate))
    else:
        pair = _extreme_pair(r.seats, "seat")
        if pair:
            out.append(Measure("seat_gap", "gap", f"seat {pair[0]}'s lead over seat {pair[1]}",
                               _rate_gap(lambda x: x.seats, "seat", *pair, True)))
    if t.role_name is not None and len(r.roles):
        role = t.role_name
        pair = _extreme_pair(r.roles, role)
        if pair:
            out.append(Measure("role_gap", "gap", f"the {pair[1]}'s deficit to the {pair[0]}",
                               _rate_gap(lambda x: x.roles, role, *pair, False)))
    wins = r.victories[(r.victories["kind"] != "unfinished") & (r.victories["games"] > 0)]
    if not t.cooperative and len(wins) > 1:     # a co-operative game's kinds are mostly ways to lose
        top = wins.sort_values("games", kind="stable").iloc[-1]["kind"]
        out.append(Measure("victory_share", "rate", f"the share of games won by \"{str(top).replace('_', ' ')}\"",
                           _share(top)))
    if t.groups:
        g = t.groups[0]
        df = r.group(g.name)
        d = df[np.isfinite(df["diff_ci_low"])]
        if len(d) >= 2:
            order = d.sort_values("win_rate_diff", kind="stable")
            who = "the team" if g.per_team else "a seat"
            for key, at, sign, word in (("lift_high", -1, 1, "lift"), ("lift_low", 0, -1, "drop")):
                if sign * order["win_rate_diff"].iloc[at] <= 0:   # no thing goes with winning (losing) more often
                    continue
                label = order[g.name].iloc[at]
                out.append(Measure(f"{key} {g.name}", "gap", f"the win-rate {word} when {who} {_did(g, label)}",
                                   _lift(g.name, label, sign)))
    for name, df in r.categories.items():
        d = df[df["games"] > 0]
        if len(d) >= 2:
            label = d.sort_values("ci_high", kind="stable")[name].iloc[0]      # the clearly hardest
            out.append(Measure(f"hardest {name}", "gap", f"the deficit of {name} {label} to the other {plural(name)}",
                               _label_deficit(name, label)))
    return out


def change(a: tuple, b: tuple) -> tuple[float, float, float]:
    """b - a with a 95% interval, each estimate's interval read as a normal one and the two as independent."""
    if any(not math.isfinite(x) for x in (*a, *b)):
        return _nan3()
    se = math.hypot((a[2] - a[1]) / (2 * Z95), (b[2] - b[1]) / (2 * Z95))
    d = b[0] - a[0]
    return d, d - Z95 * se, d + Z95 * se


def verdict(kind: str, written: tuple, strong: tuple, delta: tuple) -> str:
    """holds, grows, shrinks, vanishes, reverses, appears or none (a gap); holds, rises or falls (a rate); unknown
    where a level could not say."""
    if any(not math.isfinite(x) for x in delta):
        return "unknown"
    if kind == "rate":
        return "rises" if delta[1] > 0 else "falls" if delta[2] < 0 else "holds"
    clear = written[1] > 0
    if strong[2] < 0:
        return "reverses"
    if not clear:
        return "appears" if strong[1] > 0 else "none"
    if delta[2] < 0:
        return "shrinks" if strong[1] > 0 else "vanishes"
    return "grows" if delta[1] > 0 else "holds"


MEANING = {
    "holds": "it is in the game, not the bots",
    "grows": "it is in the game, and stronger players make more of it",
    "shrinks": "part of it was the bots, the rest is in the game",
    "vanishes": "it was the bots: with stronger play no clear gap is left",
    "reverses": "it was the bots: stronger play turns it around",
    "appears": "weak play hid it: stronger players open a gap",
    "none": "no clear gap at any strength",
    "rises": "stronger play moves it up",
    "falls": "stronger play moves it down",
    "holds_rate": "it does not depend on the strength of play",
    "unknown": "a level could not measure it",
}
