"""The display tables of a co-operative game (``GameSpec.cooperative``): the team's result instead of seat balance.

Rounded strings, keyed by title, as :func:`balance.present.display.display_tables` gives them for a competitive game:
Team, Endings (why games end, won or lost), Lengths (with the rounds of won games), Per player (means per game), each
category, each counter group, Contrasts. Every column is defined in docs/metrics_cooperative.md.
"""
from __future__ import annotations

import pandas as pd

from .display import ci, _group_display, _lengths_display, _means_display, num, pct

SHORT_LABELS = 20       # a category of more labels shows its SHORT_SHOWN lowest and highest win rates on a terminal
SHORT_SHOWN = 10


def display_tables(r, short: bool = False) -> dict[str, pd.DataFrame]:
    """The tables of a co-operative game's :class:`~balance.stats.results.Results`, keyed by title."""
    t = r.tallies
    count = lambda xs: [f"{n:,}" for n in xs]  # noqa: E731
    team, end = r.team, r.endings
    out = {
        "Team": pd.DataFrame({
            "lineup": team.lineup, "games": count(team.games), "wins": count(team.wins),
            "win rate": [pct(x) for x in team.win_rate], "95% CI": [ci(a, b) for a, b in
                                                                     zip(team.ci_low, team.ci_high)],
            "rounds to win": [num(x, 2) for x in team.rounds_won_mean],
            "95% CI (rounds)": [f"[{num(a, 2)}, {num(b, 2)}]" for a, b in
                                zip(team.rounds_won_ci_low, team.rounds_won_ci_high)]}),
        "Endings": pd.DataFrame({
            "kind": end.kind, "outcome": end.outcome, "games": count(end.games), "share": [pct(x) for x in end.share],
            "95% CI": [ci(a, b) for a, b in zip(end.ci_low, end.ci_high)],
            "share of losses": [pct(x) for x in end.share_of_losses],
            "95% CI (losses)": [ci(a, b) for a, b in zip(end.losses_ci_low, end.losses_ci_high)]}),
        "Lengths": _lengths_display(r.lengths),
    }
    counters = t.summary_counters or t.player_counter_names
    if counters and t.seat_final_sum is not None:
        means = r.seat_means
        out["Per player (means per game)"] = _means_display(means.assign(seat=means.seat.astype(str)), "seat",
                                                            counters)
    for name, df in r.categories.items():
        out |= category_tables(name, df, short)
    for g in t.groups:
        if short and not g.used_pairs.any():
            continue        # nothing was ever used: the terminal skips a table with no lift (the report keeps it)
        out[f"Per {g.name}"] = _group_display(r.group(g.name), g)
    if len(r.contrasts):
        out["Contrasts"] = contrast_table(r.contrasts)
    return out


def category_table(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """One category's rows as display strings."""
    return pd.DataFrame({
        name: list(df[name]), "games": [f"{n:,}" for n in df.games], "wins": [f"{n:,}" for n in df.wins],
        "win rate": [pct(x) for x in df.win_rate], "95% CI": [ci(a, b) for a, b in zip(df.ci_low, df.ci_high)],
        "mean rounds": [num(x, 2) for x in df.mean_rounds],
        "mean rounds (won)": [num(x, 2) for x in df.mean_rounds_won]})


def category_tables(name: str, df: pd.DataFrame, short: bool) -> dict[str, pd.DataFrame]:
    """"Per <name>" in label order; with ``short`` and more than SHORT_LABELS labels, the SHORT_SHOWN lowest win
    rates (lowest first) and the SHORT_SHOWN highest (highest first) instead, among labels that were played. They are
    the lowest and highest as played, not the hardest and easiest: the findings say when the data separate those."""
    if not short or len(df) <= SHORT_LABELS:
        return {f"Per {name}": category_table(name, df)}
    played = df[df.games > 0].sort_values(["win_rate", name], kind="stable")
    n = f"{len(played):,} played of {len(df):,}"
    return {f"Per {name}: the {SHORT_SHOWN} lowest win rates ({n})": category_table(name, played.head(SHORT_SHOWN)),
            f"Per {name}: the {SHORT_SHOWN} highest win rates": category_table(name,
                                                                               played.tail(SHORT_SHOWN).iloc[::-1])}


def contrast_table(df: pd.DataFrame) -> pd.DataFrame:
    """The contrasts as display strings: the scenario first, then each variant with its difference from it."""
    pp = lambda x: "-" if pd.isna(x) else f"{100 * x:+.2f}"  # noqa: E731
    return pd.DataFrame({
        "contrast": list(df.contrast), "variant": list(df.variant), "games": [f"{n:,}" for n in df.games],
        "win rate": [pct(x) for x in df.win_rate], "95% CI": [ci(a, b) for a, b in zip(df.ci_low, df.ci_high)],
        "diff (pp)": [pp(x) for x in df["diff"]],
        "95% CI (pp)": [ci(a, b).rstrip("%") for a, b in zip(df.diff_ci_low, df.diff_ci_high)]})
