"""Findings of a co-operative game, and of contrast variants: the team's win rate, why games are lost, the easiest
and hardest labels of each category (when the data can tell them apart), how long won games take, and what each
contrast changes.

Each finding carries its number and 95% interval and a weight, as in :mod:`.findings`; nothing here knows a game:
kinds, categories, labels and variants come from the :class:`~balance.stats.results.Results` tables.
"""
from __future__ import annotations

import numpy as np

from .findings import Finding, _pct, _pp, _word, rate_extremes
from .intervals import wilson


def team_findings(r) -> list[Finding]:
    """The co-operative findings of a Results (its categories, losses and lengths), unsorted."""
    out = [_team_rate(r)]
    out += _losses(r)
    for name, df in r.categories.items():
        out += _extremes(r, name, df)
    out += _won_length(r)
    return out


def _team_rate(r) -> Finding:
    row = r.team.iloc[0]
    p, lo, hi = float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"])
    text = (f"The team wins {_pct(p)} of games (95% CI {_pct(lo)} to {_pct(hi)}; {int(row['wins']):,} of "
            f"{int(row['games']):,}).")
    return Finding("team_rate", text, p, lo, hi, 2.0)


def _losses(r) -> list[Finding]:
    """Each way of losing, as a share of all games (games the team won never count as a loss)."""
    out = []
    end = r.endings
    lost_total = int(end["lost"].sum())
    for _, row in end.iterrows():
        lost = int(row["lost"])
        if lost == 0:
            continue
        share = lost / r.tallies.games
        lo, hi = (float(x) for x in wilson(lost, r.tallies.games))
        how = ("unfinished, at the turn cap" if row["kind"] == "unfinished"
               else f"lost by \"{str(row['kind']).replace('_', ' ')}\"")
        text = (f"{_pct(share)} of games end {how} (95% CI {_pct(lo)} to {_pct(hi)}): "
                f"{_pct(lost / lost_total)} of all losses.")
        out.append(Finding("loss_reason", text, share, lo, hi, 0.5 + share))
    return out


def _extremes(r, name: str, df) -> list[Finding]:
    """The hardest and the easiest label of a category (``findings.rate_extremes``): each end's label with its
    interval adjusted for the labels played, named the hardest (easiest) only when the data separate it from every
    other label, and said at all only when it lies apart from the rate over all labelled games."""
    return rate_extremes(df[name], df["wins"], df["games"], name=name, measure="win rate", unit="games",
                         played="played", call=lambda x: f"{name} {x}",
                         ends=((False, "hardest", "harder", "hardest_label", "lowest_label"),
                               (True, "easiest", "easier", "easiest_label", "highest_label")))


def _won_length(r) -> list[Finding]:
    rows = r.lengths[r.lengths["measure"] == "rounds_won"]
    if not len(rows) or rows.iloc[0]["games"] == 0:
        return []
    row = rows.iloc[0]
    text = (f"Won games take {row['mean']:.1f} rounds on average (95% CI {row['mean_ci_low']:.1f} to "
            f"{row['mean_ci_high']:.1f}); 8 won games in 10 take {row['p10']:.0f} to {row['p90']:.0f}.")
    return [Finding("length", text, float(row["mean"]), float(row["mean_ci_low"]), float(row["mean_ci_high"]), 0.45)]


def contrast_findings(r) -> list[Finding]:
    """Each contrast variant whose difference from the scenario has a 95% interval that excludes 0."""
    out = []
    df = r.contrasts
    for _, row in df.iloc[1:].iterrows():
        d, lo, hi = float(row["diff"]), float(row["diff_ci_low"]), float(row["diff_ci_high"])
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo <= 0 <= hi:
            continue
        way = "raises" if d > 0 else "lowers"
        text = (f"{_word(row['variant'])} ({row['sets']}) {way} the win rate by {_pp(abs(d))} points, to "
                f"{_pct(row['win_rate'])} from {_pct(df.iloc[0]['win_rate'])} (95% CI of the difference "
                f"{_pp(lo)} to {_pp(hi)} points; the same seed and games).")
        out.append(Finding("contrast", text, d, lo, hi, 0.9 + 5 * abs(d)))
    return out
