"""Display formatting of a competitive game's :class:`~balance.present.results.Results`: the tables as rounded strings
keyed by title, the aligned text table and file names. Every column is defined in docs/metrics.md; a co-operative game's
tables are in :mod:`balance.present.team_display`."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..analysis.stats import findings as _findings

def _p2(x) -> str:
    """A share in percent with two decimals, never rounded to 0.00 or 100.00 unless it is exactly that."""
    text = f"{100 * x:.2f}"
    if x != 0 and text in ("0.00", "-0.00"):
        return "<0.01" if x > 0 else ">-0.01"
    if abs(x) != 1 and text in ("100.00", "-100.00"):
        return ">99.99" if x > 0 else "<-99.99"
    return text


def _pct(x) -> str:
    return "-" if not np.isfinite(x) else f"{_p2(x)}%"


def _ci(lo, hi) -> str:
    return "-" if not (np.isfinite(lo) and np.isfinite(hi)) else f"[{_p2(lo)}, {_p2(hi)}]%"


def _num(x, digits: int = 3) -> str:
    """A mean or ratio with ``digits`` decimals; one that is not 0 but would read 0.000 is "<0.001"."""
    if not np.isfinite(x):
        return "-"
    text = f"{x:.{digits}f}"
    if x != 0 and float(text) == 0 and digits > 0:
        return ("<" if x > 0 else ">-") + f"{10.0 ** -digits:.{digits}f}"
    return text


def display_tables(r) -> dict[str, pd.DataFrame]:
    t = r.tallies
    rates = lambda df: [_pct(x) for x in df.win_rate]  # noqa: E731
    cis = lambda df: [_ci(a, b) for a, b in zip(df.ci_low, df.ci_high)]  # noqa: E731
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
                                       "share": [_pct(x) for x in vic.share], "95% CI": cis(vic)}),
        "Lengths": _lengths_display(lens),
    }
    if t.score_lines:
        lines = r.score_lines
        out["Points by scoring line"] = pd.DataFrame({
            "line": lines.line, "points/seat-game": [_num(x) for x in lines.points_per_seat_game],
            "share": [_pct(x) for x in lines.share_of_points]})
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
            cells.append("-" if row is None else f"{_pct(row.win_rate)} {_ci(row.ci_low, row.ci_high).rstrip('%')}")
        cols[f"seat {seat}"] = cells
    return pd.DataFrame(cols)


def _lengths_display(lens: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"measure": lens.measure, "mean": [_num(x, 2) for x in lens["mean"]],
                         "95% CI": [f"[{_num(a, 2)}, {_num(b, 2)}]" for a, b in
                                    zip(lens.mean_ci_low, lens.mean_ci_high)],
                         "median": [_num(x, 0) for x in lens["median"]],
                         "p10": [_num(x, 0) for x in lens.p10], "p90": [_num(x, 0) for x in lens.p90]})


def _points_columns(df: pd.DataFrame, points: str | None) -> dict:
    if not points:
        return {}
    return {f"mean {points}": [_num(x, 2) for x in df[f"{points}_mean"]],
            f"95% CI ({points})": [f"[{_num(a, 2)}, {_num(b, 2)}]" for a, b in
                                   zip(df[f"{points}_ci_low"], df[f"{points}_ci_high"])]}


def _means_display(df: pd.DataFrame, key: str, counters) -> pd.DataFrame:
    cols = {key: [str(x) for x in df[key]]}
    for name in counters:
        cols[name] = [_num(x, 2) for x in df[f"{name}_mean"]]
    return pd.DataFrame(cols)


def _group_display(df: pd.DataFrame, g) -> pd.DataFrame:
    u = g.counter_names[g.used_counter]
    base = g.counter_names[g.ratio_base]
    items = {g.name: [str(x) for x in df[g.name]]}
    for name in g.counter_names:
        items[f"{name}/game"] = [_num(x) for x in df[f"{name}_per_game"]]
    for c in range(g.ratio_base + 1, len(g.counter_names)):
        name = g.counter_names[c]
        items[f"{name}/{base}"] = [_num(x) for x in df[f"{name}_per_{base}"]]
    items[f"win {u}"] = [_pct(x) for x in df[f"win_rate_{u}"]]
    items[f"win not {u}"] = [_pct(x) for x in df[f"win_rate_not_{u}"]]
    items["diff (pp)"] = ["-" if not np.isfinite(x) else f"{100 * x:+.2f}" for x in df.win_rate_diff]
    items["95% CI (pp)"] = [_ci(a, b).rstrip("%") for a, b in zip(df.diff_ci_low, df.diff_ci_high)]
    return pd.DataFrame(items)


def file_name(name: str) -> str:
    """A table's or figure's name as part of a file name: lower case, each run of other characters than a-z and 0-9
    one '_' ("BOSS side" -> "boss_side")."""
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_") or "x"


_NUMBER = re.compile(r"^[-+<>]?[\d,.]+%?$|^[-+<>\d.,%\[\] ]*\d[-+<>\d.,%\[\] ]*$")


def is_number_column(values) -> bool:
    """Whether a display column holds numbers (and intervals, "-" for none): those align right, text aligns left."""
    cells = [str(v) for v in values if str(v) not in ("-", "")]
    return bool(cells) and all(_NUMBER.match(v) for v in cells)


def text_table(df: pd.DataFrame, indent: str = "  ") -> str:
    """A DataFrame of strings as an aligned text table (text columns left-aligned, numbers right-aligned)."""
    cols = [str(c) for c in df.columns]
    cells = [[str(v) for v in df[c]] for c in df.columns]
    widths = [max([len(c)] + [len(v) for v in vals]) for c, vals in zip(cols, cells)]
    just = [(str.rjust if is_number_column(vals) else str.ljust) for vals in cells]
    lines = [indent + "  ".join(j(c, w) for j, c, w in zip(just, cols, widths))]
    lines.append(indent + "  ".join("-" * w for w in widths))
    for i in range(len(df)):
        lines.append(indent + "  ".join(j(vals[i], w) for j, vals, w in zip(just, cells, widths)))
    return "\n".join(lines)


