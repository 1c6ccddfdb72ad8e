"""Findings: what a designer should read first, in plain words, each with its number and 95% interval.

Candidates come from every table a run has (seats, roles, strategies, victory kinds, lengths, each counter group);
each gets a weight from its size and how clearly its interval excludes "no effect", and the heaviest are shown
first. Nothing here is specific to one game: the names come from the :class:`~balance.stats.results.Results` tables,
which come from the game's ``GameSpec``. A finding that names the extreme of several groups (the largest gap between
seats, the thing with the largest lift, the deadliest monster) gives the interval adjusted for the groups it was picked
from, and calls it the extreme only when the data separate it (:mod:`.extremes`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .extremes import family_z, pairs, pick_extreme
from .intervals import diff_interval, exact, wilson

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Finding:
    kind: str           # seat_gap, role_gap, strategy_gap, rare_victory, dominant_victory, unfinished, length, lift,
    #                     never_used; a group with a threat counter: strongest_thing, strong_thing, no_clear_extreme;
    #                     co-operative (team_findings): team_rate, loss_reason, hardest_label, lowest_label,
    #                     easiest_label, highest_label, no_clear_extreme; any game with contrasts: contrast
    text: str
    estimate: float
    ci_low: float
    ci_high: float
    weight: float       # how strongly it asks to be read: size, times clarity


# The columns of every result's ``findings`` DataFrame (Results, Comparison, Sweep, CardValues, Tournament,
# CheckReport): what kind of finding, its sentence, the number it states with its 95% interval as the sentence gives
# it (adjusted for the groups it was picked from where it says so; NaN where it states none), and its weight (a
# run's findings are sorted by it; NaN where the findings come in the order to read them, as a study's do).
COLUMNS = ["kind", "text", "estimate", "ci_low", "ci_high", "weight"]
NAN = float("nan")


def said(kind: str, text: str, estimate: float = NAN, ci_low: float = NAN, ci_high: float = NAN) -> Finding:
    """A finding read in its place rather than by weight (a study's, a tournament's, a check's)."""
    return Finding(kind, text, float(estimate), float(ci_low), float(ci_high), NAN)


def frame(found: list[Finding]) -> pd.DataFrame:
    """Findings as every result's ``findings`` gives them: one row each, in order, the columns :data:`COLUMNS`."""
    return pd.DataFrame([vars(f) for f in found], columns=COLUMNS).astype(
        {"kind": object, "text": object, "estimate": float, "ci_low": float, "ci_high": float, "weight": float})


def _pp(x: float) -> str:
    return f"{100 * x:.1f}"


def _pct(x: float) -> str:
    """A share for a sentence: never rounds a non-zero share to 0."""
    if x == 0:
        return "0%"
    if x < 0.0001:
        return "< 0.01%"
    return f"{100 * x:.2f}%" if x < 0.1 else f"{100 * x:.1f}%"


def gap_interval(p1: float, n1: int, p2: float, n2: int, same_games: bool,
                 z: float = Z95) -> tuple[float, float, float]:
    """p1 - p2 with a Wald interval at the normal quantile z (95%: the default): for two seats of the same games (one
    winner a game: the covariance of a multinomial, -p1 p2 / n), or for two independent groups of games."""
    d = p1 - p2
    if same_games:
        var = (p1 * (1 - p1) + p2 * (1 - p2) + 2 * p1 * p2) / max(n1, 1)
    else:
        var = p1 * (1 - p1) / max(n1, 1) + p2 * (1 - p2) / max(n2, 1)
    half = z * math.sqrt(max(var, 0.0))
    return d, d - half, d + half


def _did(g, label) -> str:
    """What using a thing of counter group g means, in words: "flipped value 12", "killed a wraith"."""
    if g.used_phrase:
        return g.used_phrase.format(label)
    return f"had {g.counter_names[g.used_counter].replace('_', ' ')} of {g.name} {label}"


def plural(word: str) -> str:
    """hero -> heroes, strategy -> strategies, BOSS side -> BOSS sides, card removed -> cards removed."""
    words = word.split(" ")
    at = 0 if len(words) > 1 and words[-1].endswith("ed") else len(words) - 1
    w = words[at]
    if w.endswith("y") and w[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        words[at] = w[:-1] + "ies"
    else:
        words[at] = w + ("es" if w.endswith(("o", "s", "x", "ch", "sh")) else "s")
    return " ".join(words)


def _word(name: str) -> str:
    """A label as the start of a sentence: all_out -> All out."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:]


def _gap(df: pd.DataFrame, key: str, label, kind: str, same_games: bool, fix: str, noun: str) -> Finding | None:
    """The highest minus the lowest win rate of the rows: a pair picked from all pairs of rows after looking, so its
    interval is adjusted for every pair (``extremes.pairs``)."""
    df = df[df["games"] > 0]
    if len(df) < 2:
        return None
    hi_row = df.loc[df["win_rate"].idxmax()]
    lo_row = df.loc[df["win_rate"].idxmin()]
    m = pairs(len(df))
    d, lo, hi = gap_interval(float(hi_row["win_rate"]), int(hi_row["games"]), float(lo_row["win_rate"]),
                             int(lo_row["games"]), same_games, family_z(m) if m > 1 else Z95)
    a, b = label(hi_row[key]), label(lo_row[key])
    b = b[0].lower() + b[1:] if b.startswith(("Seat ", "The ")) else b
    family = "" if m == 1 else f"adjusted for the {m} pairs of {len(df)} {noun}"
    if lo <= 0:
        text = (f"No clear {kind.split('_')[0]} imbalance: the largest gap, {a} over {b}, is {_pp(d)} points "
                f"(95% CI {family + ': ' if family else ''}{_pp(lo)} to {_pp(hi)}).")
        return Finding(kind, text, d, lo, hi, 0.45 if kind == "seat_gap" else 0.1)
    text = (f"{a} wins {_pp(d)} points more often than {b} ({_pct(hi_row['win_rate'])} against "
            f"{_pct(lo_row['win_rate'])}; 95% CI of the gap{', ' + family + ',' if family else ''} {_pp(lo)} to "
            f"{_pp(hi)} points).{fix}")
    return Finding(kind, text, d, lo, hi, {"seat_gap": 1.0, "role_gap": 0.9}.get(kind, 0.8) + 10 * d)


def findings(r, limit: int = 8) -> list[Finding]:
    """The findings of a :class:`~balance.stats.results.Results`, heaviest first (at most `limit`)."""
    out: list[Finding] = []
    t = r.tallies
    if t.games == 0:
        return out
    from .team_findings import contrast_findings, team_findings
    out += contrast_findings(r)
    if t.cooperative:           # one outcome for the team: no seat, hero or strategy balance to find
        out += team_findings(r)
        for g in t.groups:
            out += _lifts(r, g) + _threats(r, g)
        out.sort(key=lambda f: -f.weight)
        return out[:limit]
    seats = r.seats
    if len(seats) > 1:
        f = _gap(seats, "seat", lambda s: f"Seat {int(s)}", "seat_gap", True,
                 " Rotating the first player, or a catch-up rule for the later seats, are the usual fixes."
                 if len(set(seats["strategy"])) == 1 or "mixed" in set(seats["strategy"]) else
                 " The seats play different strategies, so this gap is the strategies' as much as the seats'.",
                 "seats")
        if f:
            out.append(f)
    if t.role_name is not None and len(r.roles) > 1:
        f = _gap(r.roles, t.role_name, lambda x: f"The {x}", "role_gap", False,
                 f" The {plural(t.role_name)} are far from even.", plural(t.role_name))
        if f:
            out.append(f)
    strategies = r.strategies
    if len(strategies) > 1:
        f = _gap(strategies, "strategy", lambda x: f"{x}", "strategy_gap", False, "", "strategies")
        if f:
            out.append(f)
    out += _victories(r)
    out += _lengths(r)
    for g in t.groups:
        out += _lifts(r, g) + _threats(r, g)
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
    """The thing of a counter group whose use goes with the largest win-rate difference, and the one with the most
    negative, each picked from the group's things with its interval adjusted for them (``extremes.pick_extreme``);
    and things never used."""
    df = r.group(g.name)
    used = g.counter_names[g.used_counter]
    labels = [f"{g.name} {x}" for x in df[g.name]]
    out = []
    for highest, word in ((True, "more often"), (False, "less often")):
        e = pick_extreme(df["win_rate_diff"], lambda z: diff_interval(g.used_wins, g.used_pairs, g.unused_wins,
                                                                      g.unused_pairs, z)[1:], highest)
        if e is None or not (e.lo > 0 if highest else e.hi < 0):
            continue
        i, d = e.index, e.value
        near, far = sorted((abs(e.lo), abs(e.hi)))
        thing = df.at[i, g.name]
        text = (f"The team won games in which it {_did(g, thing)} {_pp(abs(d))} points {word} than those in which "
                "it did " if g.per_team else
                f"Seats that {_did(g, thing)} won {_pp(abs(d))} points {word} than seats that did ")
        text += (f"not ({_pct(df.at[i, f'win_rate_{used}'])} against {_pct(df.at[i, f'win_rate_not_{used}'])}; "
                 f"{e.ci_label(plural(g.name))} {_pp(near)} to {_pp(far)} points)")
        if e.k > 1:
            rivals = e.rivals_text(labels)
            text += (f", the {'largest' if highest else 'most negative'} difference of the {e.k:,}"
                     + (f", but {rivals}" if rivals else ""))
        text += (f". This is an association, not a cause: {'strong teams' if g.per_team else 'strong seats'} may "
                 "simply reach it more often.")
        out.append(Finding("lift", text, d, e.lo, e.hi, 0.2 + abs(d)))
    never = [str(x) for x, n in zip(df[g.name], g.used_pairs) if n == 0 and x not in g.cannot_use]
    if never and len(never) < len(df):
        text = (f"In {r.tallies.games:,} games {'the team never' if g.per_team else 'no seat'} "
                f"{_did(g, ', '.join(never))}: check that it is in play and can be used that way at all.")
        out.append(Finding("never_used", text, 0.0, 0.0, 0.0, 0.6))
    return out


def rate_extremes(labels, hits, trials, *, name: str, ends, measure: str, unit: str, played: str,
                  call=str, besides: tuple = ()) -> list[Finding]:
    """Findings on the extremes of a rate over the labels of a category or the things of a group: the win rate per
    tower, deaths per encounter per monster. ``ends``: per end, ``(highest, superlative, comparative, clear_kind,
    beyond_kind)``, e.g. ``(False, "hardest", "harder", "hardest_label", "lowest_label")``; ``call(label)`` names a
    label in a sentence; ``besides``: labels left out, said in the sentence.

    Each end's extreme is picked with every label's exact (Clopper-Pearson) interval adjusted for the k labels with
    trials (``extremes.pick_extreme``). When that interval lies wholly beyond the overall rate's (the hits over the
    trials of all k, Wilson 95%) it is a finding: called the superlative (``clear_kind``) only when it also lies
    apart from every other label's adjusted interval, else the lowest (highest) of k that others cannot be told
    apart from (``beyond_kind``). When no end lies beyond the overall rate, one finding says that no label is
    clearly different (``no_clear_extreme``, weight 0.1)."""
    hits = np.asarray(hits, dtype=np.int64)
    trials = np.asarray(trials, dtype=np.int64)
    keep = trials > 0
    labels = [call(x) for x, k in zip(labels, keep) if k]
    hits, trials = hits[keep], trials[keep]
    if len(labels) < 2:
        return []
    total_hits, total = int(hits.sum()), int(trials.sum())
    p_all = total_hits / total
    all_lo, all_hi = (float(x) for x in wilson(total_hits, total))
    names = plural(name)
    head = f"Of the {len(labels):,} {names} {played}" + (f" besides {', '.join(map(str, besides))}" if besides else "")
    out, quiet = [], []
    for highest, sup, comp, clear_kind, beyond_kind in ends:
        e = pick_extreme(hits / trials, lambda z: exact(hits, trials, z), highest)
        i, side, most = e.index, ("above" if highest else "below"), ("highest" if highest else "lowest")
        ci = f"{e.adjusted(_pct, names)}; {int(trials[i]):,} {unit}"
        if not e.beyond(all_lo, all_hi):
            quiet.append((e, comp, most, ci))
            continue
        if e.clear:
            text = (f"{head}, {labels[i]} is the {sup}: {measure} {_pct(e.value)} ({ci}), {side} every other "
                    f"{name}'s and the {_pct(p_all)} over all.")
            kind = clear_kind
        else:
            many = e.count_beyond(all_lo, all_hi)
            text = (f"{head}, {labels[i]} has the {most} {measure}: {_pct(e.value)} ({ci}), {side} the "
                    f"{_pct(p_all)} over all" + (f" ({many:,} of the {e.k:,} lie {side} it)" if many > 1 else "")
                    + f"; {e.rivals_text(labels)}, so none is clearly the {sup}.")
            kind = beyond_kind
        out.append(Finding(kind, text, e.value, e.lo, e.hi, 0.6 + 3 * abs(e.value - p_all)))
    if quiet and not out:
        parts = [f"the {most} {measure}, {labels[e.index]}'s {_pct(e.value)} ({ci})" for e, _, most, ci in quiet]
        text = (f"No {name} is clearly {' or '.join(c for _, c, _, _ in quiet)} than the rest. {head}, "
                + ", and ".join(parts) + f", {'reach' if len(parts) > 1 else 'reaches'} the {_pct(p_all)} over all.")
        e = quiet[0][0]
        out.append(Finding("no_clear_extreme", text, e.value, e.lo, e.hi, 0.1))
    return out


def _threats(r, g) -> list[Finding]:
    """The thing of a counter group that beats the players most often (``CounterGroup.threat``: The Haunted Tower's
    deaths per encounter, per monster), against all its things but those the threat leaves out."""
    if not g.threat:
        return []
    counter, sup, comp = g.threat
    keep = np.array([str(x) not in g.threat_besides for x in g.labels])
    base = g.counter_names[g.ratio_base]
    measure = f"{g.counter_names[counter]} per {base[:-1] if base.endswith('s') else base}"
    return rate_extremes([x for x, k in zip(g.labels, keep) if k], g.totals[keep, counter],
                         g.totals[keep, g.ratio_base], name=g.name, measure=measure, unit=base, played="met",
                         ends=((True, sup, comp, "strongest_thing", "strong_thing"),), call=lambda x: f"the {x}",
                         besides=g.threat_besides)


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
