"""Display formatting of a competitive game's :class:`~balance.stats.results.Results`: the tables as rounded strings
keyed by title, the aligned text table and file names. Every column is defined in docs/metrics.md; a co-operative game's
tables are in :mod:`balance.present.team_display`."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.text import ci, num, pct
from ..stats import findings as _findings


def display_tables(r) -> dict[str, pd.DataFrame]:
    t = r.tallies
    rates = lambda df: [pct(x) for x in df.win_rate]  # noqa: E731
    cis = lambda df: [ci(a, b) for a, b in zip(df.ci_low, df.ci_high)]  # noqa: E731
    count = lambda xs: [f"{n:,}" for n in xs]  # noqa: E731
    seats, strat, vic, lens = r.seats, r.strategies, r.victories, r.lengths
    seat_cols = {"seat": seats.seat.astype(str), "strategy": seats.strategy}
    if t.role_name is not None:
        seat_cols[t.role_name] = seats[t.role_name]
    seat_cols |= {"games": count(seats.games), "wins": count(seats.wins), "win rate": rates(seats),
                  "95% CI": cis(seats)}
    if t.points_counter:
        seat_cols |= _points_columns(seats, t.points_counter)
    out = {"Seats": pd.DataFrame(seat_cols)}
    if t.role_name is not None:
        roles = r.roles
        out[_findings.plural(t.role_name).capitalize()] = pd.DataFrame(
            {t.role_name: roles[t.role_name], "games": count(roles.games), "wins": count(roles.wins),
             "win rate": rates(roles), "95% CI": cis(roles)} | _points_columns(roles, t.points_counter))
    out |= {
        "Strategies": pd.DataFrame({"strategy": strat.strategy, "games": count(strat.games),
                                    "wins": count(strat.wins), "win rate": rates(strat), "95% CI": cis(strat)}),
    }
    if r.rotates:               # a mixed lineup sharing seats: each strategy at each seat
        out["Strategy x seat"] = strategy_seat_table(r.strategy_seats, len(t.lineup))
    out |= {
        "Victory kinds": pd.DataFrame({"kind": vic.kind, "games": count(vic.games),
                                       "share": [pct(x) for x in vic.share], "95% CI": cis(vic)}),
        "Lengths": _lengths_display(lens),
    }
    if t.score_lines:
        lines = r.score_lines
        out["Points by scoring line"] = pd.DataFrame({
            "line": lines.line, "points/seat-game": [num(x) for x in lines.points_per_seat_game],
            "share": [pct(x) for x in lines.share_of_points]})
    summary = t.summary_counters
    if t.role_name is not None and summary:
        out[f"Per {t.role_name} (means per game)"] = _means_display(r.roles, t.role_name, summary)
        out["Per seat (means per game)"] = _means_display(r.seat_means.assign(seat=r.seat_means.seat.astype(str)),
                                                          "seat", summary)
    for g in t.groups:
        out[f"Per {g.name}"] = _group_display(r.group(g.name), g)
    return out


def strategy_seat_table(ss: pd.DataFrame, seats: int) -> pd.DataFrame:
    """The strategy x seat table as a matrix: one row per strategy, one column per seat, each cell the strategy's
    win rate at that seat with its Wilson 95% interval ("-" where it never sat)."""
    cols: dict[str, list] = {"strategy": list(dict.fromkeys(ss.strategy))}
    at = {(a, int(b)): row for a, b, row in zip(ss.strategy, ss.seat, ss.itertuples(index=False))}
    for seat in range(seats):
        cells = []
        for name in cols["strategy"]:
            row = at.get((name, seat))
            cells.append("-" if row is None else f"{pct(row.win_rate)} {ci(row.ci_low, row.ci_high).rstrip('%')}")
        cols[f"seat {seat}"] = cells
    return pd.DataFrame(cols)


def _lengths_display(lens: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"measure": lens.measure, "mean": [num(x, 2) for x in lens["mean"]],
                         "95% CI": [f"[{num(a, 2)}, {num(b, 2)}]" for a, b in
                                    zip(lens.mean_ci_low, lens.mean_ci_high)],
                         "median": [num(x, 0) for x in lens["median"]],
                         "p10": [num(x, 0) for x in lens.p10], "p90": [num(x, 0) for x in lens.p90]})


def _points_columns(df: pd.DataFrame, points: str | None) -> dict:
    if not points:
        return {}
    return {f"mean {points}": [num(x, 2) for x in df[f"{points}_mean"]],
            f"95% CI ({points})": [f"[{num(a, 2)}, {num(b, 2)}]" for a, b in
                                   zip(df[f"{points}_ci_low"], df[f"{points}_ci_high"])]}


def _means_display(df: pd.DataFrame, key: str, counters) -> pd.DataFrame:
    cols = {key: [str(x) for x in df[key]]}
    for name in counters:
        cols[name] = [num(x, 2) for x in df[f"{name}_mean"]]
    return pd.DataFrame(cols)


def _group_display(df: pd.DataFrame, g) -> pd.DataFrame:
    u = g.counter_names[g.used_counter]
    base = g.counter_names[g.ratio_base]
    items = {g.name: [str(x) for x in df[g.name]]}
    for name in g.counter_names:
        items[f"{name}/game"] = [num(x) for x in df[f"{name}_per_game"]]
    for c in range(g.ratio_base + 1, len(g.counter_names)):
        name = g.counter_names[c]
        items[f"{name}/{base}"] = [num(x) for x in df[f"{name}_per_{base}"]]
    items[f"win {u}"] = [pct(x) for x in df[f"win_rate_{u}"]]
    items[f"win not {u}"] = [pct(x) for x in df[f"win_rate_not_{u}"]]
    items["diff (pp)"] = ["-" if not np.isfinite(x) else f"{100 * x:+.2f}" for x in df.win_rate_diff]
    items["95% CI (pp)"] = [ci(a, b).rstrip("%") for a, b in zip(df.diff_ci_low, df.diff_ci_high)]
    return pd.DataFrame(items)


