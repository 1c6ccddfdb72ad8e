"""Findings: what a designer should read first, in plain words, each with its number and 95% interval.

Candidates come from every table a run has (seats, roles, strategies, victory kinds, lengths, each counter group);
each gets a weight from its size and how clearly its interval excludes "no effect", and the heaviest are shown
first. Nothing here is specific to one game: the names come from the :class:`~balance.results.Results` tables, which
come from the game's ``GameSpec``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Finding:
    kind: str           # seat_gap, role_gap, strategy_gap, rare_victory, dominant_victory, unfinished, length, lift,
    #                     never_used; co-operative (team_findings): team_rate, loss_reason, hardest_label,
    #                     easiest_label; any game with contrasts: contrast
    text: str
    estimate: float
    ci_low: float
    ci_high: float
    weight: float       # how strongly it asks to be read: size, times clarity


def _pp(x: float) -> str:
    return f"{100 * x:.1f}"


def _pct(x: float) -> str:
    """A share for a sentence: never rounds a non-zero share to 0."""
    if x == 0:
        return "0%"
    if x < 0.0001:
        return "< 0.01%"
    return f"{100 * x:.2f}%" if x < 0.1 else f"{100 * x:.1f}%"


def gap_interval(p1: float, n1: int, p2: float, n2: int, same_games: bool) -> tuple[float, float, float]:
    """p1 - p2 with a Wald 95% interval: for two seats of the same games (one winner a game: the covariance of a
    multinomial, -p1 p2 / n), or for two independent groups of games."""
    d = p1 - p2
    if same_games:
        var = (p1 * (1 - p1) + p2 * (1 - p2) + 2 * p1 * p2) / max(n1, 1)
    else:
        var = p1 * (1 - p1) / max(n1, 1) + p2 * (1 - p2) / max(n2, 1)
    half = Z95 * math.sqrt(max(var, 0.0))
    return d, d - half, d + half


def _did(g, label) -> str:
    """What using a thing of counter group g means, in words: "flipped value 12", "killed a wraith"."""
    if g.used_phrase:
        return g.used_phrase.format(label)
    return f"had {g.counter_names[g.used_counter].replace('_', ' ')} of {g.name} {label}"


def plural(word: str) -> str:
    return word + ("es" if word.endswith(("o", "s", "x", "ch", "sh")) else "s")


def _word(name: str) -> str:
    """A label as the start of a sentence: all_out -> All out."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:]


def _gap(df: pd.DataFrame, key: str, label, kind: str, same_games: bool, fix: str) -> Finding | None:
    df = df[df["games"] > 0]
    if len(df) < 2:
        return None
    hi_row = df.loc[df["win_rate"].idxmax()]
    lo_row = df.loc[df["win_rate"].idxmin()]
    d, lo, hi = gap_interval(float(hi_row["win_rate"]), int(hi_row["games"]), float(lo_row["win_rate"]),
                             int(lo_row["games"]), same_games)
    a, b = label(hi_row[key]), label(lo_row[key])
    b = b[0].lower() + b[1:] if b.startswith(("Seat ", "The ")) else b
    if lo <= 0:
        text = (f"No clear {kind.split('_')[0]} imbalance: the largest gap, {a} over {b}, is {_pp(d)} points "
                f"(95% CI {_pp(lo)} to {_pp(hi)}).")
        return Finding(kind, text, d, lo, hi, 0.45 if kind == "seat_gap" else 0.1)
    text = (f"{a} wins {_pp(d)} points more often than {b} ({_pct(hi_row['win_rate'])} against "
            f"{_pct(lo_row['win_rate'])}; 95% CI of the gap {_pp(lo)} to {_pp(hi)} points).{fix}")
    return Finding(kind, text, d, lo, hi, {"seat_gap": 1.0, "role_gap": 0.9}.get(kind, 0.8) + 10 * d)


def findings(r, limit: int = 8) -> list[Finding]:
    """The findings of a :class:`~balance.results.Results`, heaviest first (at most `limit`)."""
    out: list[Finding] = []
    t = r.tallies
    if t.games == 0:
        return out
    from .team_findings import contrast_findings, team_findings
    out += contrast_findings(r)
    if t.cooperative:           # one outcome for the team: no seat, hero or strategy balance to find
        out += team_findings(r)
        for g in t.groups:
            out += _lifts(r, g)
        out.sort(key=lambda f: -f.weight)
        return out[:limit]
    seats = r.seats
    if len(seats) > 1:
        f = _gap(seats, "seat", lambda s: f"Seat {int(s)}", "seat_gap", True,
                 " Rotating the first player, or a catch-up rule for the later seats, are the usual fixes."
                 if len(set(seats["strategy"])) == 1 or "mixed" in set(seats["strategy"]) else
                 " The seats play different strategies, so this gap is the strategies' as much as the seats'.")
        if f:
            out.append(f)
    if t.role_name is not None and len(r.roles) > 1:
        f = _gap(r.roles, t.role_name, lambda x: f"The {x}", "role_gap", False,
                 f" The {plural(t.role_name)} are far from even.")
        if f:
            out.append(f)
    strategies = r.strategies
    if len(strategies) > 1:
        f = _gap(strategies, "strategy", lambda x: f"{x}", "strategy_gap", False, "")
        if f:
            out.append(f)
    out += _victories(r)
    out += _lengths(r)
    for g in t.groups:
        out += _lifts(r, g)
    out.sort(key=lambda f: -f.weight)
    return out[:limit]


def unfinished_ends(t, games: int) -> list[tuple[str, int]]:
    """How a run's `games` unfinished games ended: (the end in words, games), the turn cap first, then each end the
    game declares besides it (``GameSpec.unfinished_ends``), counted by its per-seat final counter."""
    names = list(t.player_counter_names)
    other = [(words, int(t.seat_final_sum[:, names.index(counter)].sum()))
             for counter, words in (t.unfinished_ends or {}).items()
             if counter in names and t.seat_final_sum is not None]
    return [("at the turn cap", games - sum(n for _, n in other))] + other


def _ends_in_words(ends: list[tuple[str, int]]) -> str | None:
    """"12 at the turn cap, 3 at the fight cap (...)"; None when every unfinished game ended at the turn cap."""
    if all(n == 0 for _, n in ends[1:]):
        return None
    return ", ".join(f"{n:,} {words}" for words, n in ends if n)


def _victories(r) -> list[Finding]:
    out = []
    v = r.victories
    for _, row in v.iterrows():
        share, lo, hi, kind = float(row["share"]), float(row["ci_low"]), float(row["ci_high"]), row["kind"]
        if kind == "unfinished":
            if row["games"] > 0:
                split = _ends_in_words(unfinished_ends(r.tallies, int(row["games"])))
                what = ("reached the turn cap unfinished" if split is None else "ended unfinished")
                out.append(Finding("unfinished", f"{_pct(share)} of games {what} "
                                   f"({int(row['games']):,} games; 95% CI {_pct(lo)} to {_pct(hi)})"
                                   + (f": {split}" if split else "") + "; they have no winner.",
                                   share, lo, hi, 0.5 + share * 20))
            continue
        finished = v[v["kind"] != "unfinished"]
        if len(finished) < 2:
            continue
        if share < 0.10:
            out.append(Finding("rare_victory", f"{_word(kind)} victories are rare: {_pct(share)} of games (95% CI "
                               f"{_pct(lo)} to {_pct(hi)}).", share, lo, hi, 0.5 + (0.10 - share) * 3))
        elif share > 0.85:
            out.append(Finding("dominant_victory", f"{_word(kind)} victories crowd out the others: {_pct(share)} "
                               f"of games (95% CI {_pct(lo)} to {_pct(hi)}).", share, lo, hi, 0.5 + (share - 0.85) * 3))
    return out


def _lengths(r) -> list[Finding]:
    out = []
    for _, row in r.lengths.iterrows():
        if row["games"] == 0 or row["measure"] != "turns":
            continue
        unfinished = int(r.victories.loc[r.victories["kind"] == "unfinished", "games"].sum())
        split = _ends_in_words(unfinished_ends(r.tallies, unfinished)) if unfinished else None
        text = (f"Games last {row['mean']:.1f} turns on average (95% CI {row['mean_ci_low']:.1f} to "
                f"{row['mean_ci_high']:.1f}); 8 games in 10 take {row['p10']:.0f} to {row['p90']:.0f}"
                + (f" (the {unfinished:,} unfinished games included, at the turn cap)." if unfinished and not split
                   else f" (the {unfinished:,} unfinished games included: {split})." if unfinished else "."))
        out.append(Finding("length", text, float(row["mean"]), float(row["mean_ci_low"]), float(row["mean_ci_high"]),
                           0.45))
    return out


def _lifts(r, g) -> list[Finding]:
    """The thing of a counter group whose use goes with the largest win-rate difference, either way, and things
    never used at all."""
    df = r.group(g.name)
    used = g.counter_names[g.used_counter]
    out = []
    ok = df[np.isfinite(df["win_rate_diff"])]
    if len(ok):
        for i, word in ((ok["win_rate_diff"].idxmax(), "more often"), (ok["win_rate_diff"].idxmin(), "less often")):
            row = ok.loc[i]
            d, lo, hi = float(row["win_rate_diff"]), float(row["diff_ci_low"]), float(row["diff_ci_high"])
            if (d > 0 and lo <= 0) or (d <= 0 and hi >= 0) or (word == "more often") != (d > 0):
                continue
            who = ("The team won games in which it", "in which it", "strong teams") if g.per_team else \
                ("Seats that", "than seats that", "strong seats")
            text = (f"{who[0]} {_did(g, df.at[i, g.name])} {_pp(abs(d))} points {word} than those {who[1]} did "
                    if g.per_team else
                    f"Seats that {_did(g, df.at[i, g.name])} won {_pp(abs(d))} points {word} than seats that did ")
            text += (f"not ({_pct(row[f'win_rate_{used}'])} against {_pct(row[f'win_rate_not_{used}'])}; 95% CI "
                     f"{_pp(abs(lo) if d > 0 else abs(hi))} to {_pp(abs(hi) if d > 0 else abs(lo))} points). This is "
                     f"an association, not a cause: {who[2]} may simply reach it more often.")
            out.append(Finding("lift", text, d, lo, hi, 0.2 + abs(d)))
    never = [str(x) for x, n in zip(df[g.name], g.used_pairs) if n == 0 and x not in g.cannot_use]
    if never and len(never) < len(df):
        text = (f"In {r.tallies.games:,} games {'the team never' if g.per_team else 'no seat'} "
                f"{_did(g, ', '.join(never))}: check that it is in play and can be used that way at all.")
        out.append(Finding("never_used", text, 0.0, 0.0, 0.0, 0.6))
    return out


def watch_lines(r, replay_hint: str) -> list[str]:
    """Games worth watching, each with the command that narrates it."""
    w = r.tallies.watch or {}
    seed = r.meta.get("seed")
    cap = r.tallies.turn_cap
    what = {"longest": "the longest game: {v:,} turns" + (" (stopped at the turn cap)" if w.get("longest", [0])[0]
                                                          >= cap else ""),
            "shortest": "the shortest finished game: {v:,} turns",
            "lopsided": "the most lopsided win: by {v:,} points"}
    out = []
    for name in ("longest", "shortest", "lopsided"):
        if name in w:
            value, game = w[name]
            out.append(f"{what[name].format(v=value)}: balance replay {replay_hint} --seed {seed} --game {game}"
                       .replace("  ", " "))
    return out
