"""Each ``[checks]`` claim decided at one look: its estimate and anytime-valid interval from a run's tallies, and
whether the interval already lies on one side of the claimed bound (docs/scenarios.md, "Checks").

A claim made of several parts (every pair of seats, every item, every victory kind) splits its error rate over
them (Bonferroni), so the claim as a whole keeps it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import confseq

PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"
NOT_APPLICABLE = "not applicable"       # a claim this lineup cannot test (``reason`` says why); decided at once


@dataclass(frozen=True)
class Look:
    """One claim at one look: ``estimate`` and its interval [``low``, ``high``]; ``decision`` pass, fail, undecided
    or not applicable (``reason`` then says why, and the numbers are NaN); ``games`` the games it rests on."""

    key: str
    claim: str
    estimate: float
    low: float
    high: float
    decision: str
    games: int
    bound_low: float = 0.0          # the claimed range [bound_low, bound_high]; a maximum has bound_low 0
    bound_high: float = float("nan")  # an order (every margin above 0) has none
    reason: str = ""                  # why a claim is not applicable


def _within(key, claim, est, lo, hi, bounds, games) -> Look:
    a, b = bounds
    decision = PASS if a <= lo and hi <= b else FAIL if hi < a or lo > b else UNDECIDED
    return Look(key, claim, est, lo, hi, decision, games, a, b)


def _at_most(key, claim, est, lo, hi, bound, games) -> Look:
    decision = PASS if hi <= bound else FAIL if lo > bound else UNDECIDED
    return Look(key, claim, est, lo, hi, decision, games, 0.0, bound)


def _abs_interval(lo: float, hi: float) -> tuple[float, float]:
    """The interval of |x| from that of x."""
    return (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))


def length_mean(t, bounds, alpha, n_star) -> Look:
    h = t.turns_hist.sum(axis=0).astype(np.float64)
    n = h.sum()
    x = np.arange(h.size, dtype=np.float64)
    mean = float((h * x).sum() / n)
    sd = math.sqrt(max(float((h * x * x).sum() / n) - mean * mean, 0.0) * n / max(n - 1, 1))
    lo, hi = confseq.interval(mean, sd, n, alpha, n_star)
    claim = f"mean length {bounds[0]:g} to {bounds[1]:g} turns"
    return _within("length_mean", claim, mean, lo, hi, bounds, int(n))


def victory_share(t, shares: dict, alpha, n_star) -> list[Look]:
    out = []
    names = list(t.victory_names)
    for kind, bounds in shares.items():
        est, lo, hi = confseq.proportion(float(t.victory_games[names.index(kind)]), t.games, alpha / len(shares),
                                         n_star)
        claim = f"{kind} ends {bounds[0]:.0%} to {bounds[1]:.0%} of games"
        out.append(_within(f"victory_share.{kind}", claim, est, lo, hi, bounds, t.games))
    return out


def win_rate(t, bounds, alpha, n_star) -> Look:
    est, lo, hi = confseq.proportion(float(t.seat_wins[0]), t.games, alpha, n_star)
    claim = f"the team wins {bounds[0]:.0%} to {bounds[1]:.0%} of games"
    return _within("win_rate", claim, est, lo, hi, bounds, t.games)


def seat_gap(t, bound, alpha, n_star) -> Look:
    """The largest |p_i - p_j| over seat pairs, each pair's difference from its per-game differences (a game's win
    for seat i minus its win for seat j; ties, rare, are left out of the variance, which only widens it)."""
    n = t.games
    p = t.seat_wins / n
    pairs = [(i, j) for i in range(p.size) for j in range(i + 1, p.size)]
    est = low = high = 0.0
    for i, j in pairs:
        d = float(p[i] - p[j])
        sd = math.sqrt(max(p[i] + p[j] - d * d, 1.0 / n))
        a, b = _abs_interval(*confseq.interval(d, sd, n, alpha / len(pairs), n_star))
        est, low, high = max(est, abs(d)), max(low, a), max(high, b)
    claim = f"no two seats' win rates differ by more than {bound:.1%}"
    return _at_most("seat_gap_max", claim, est, low, high, bound, n)


def role_gap(t, bound, alpha, n_star) -> Look:
    """The largest |p_r - mean of the roles' p| over the roles played, each role's share with its seat-games as its
    own sample and the roles' shares read as independent; each role's deviation gets its part of the error rate.
    Its standard deviation is written per game played (a role seen in n_r of N games contributes
    c^2 p (1 - p) N / n_r), so the interval is the confidence sequence of N games."""
    if t.role_name is None:
        nan = math.nan
        return Look("role_gap_max", "role gap", nan, nan, nan, NOT_APPLICABLE, t.games, nan, nan,
                    "this game has no roles")
    games = np.asarray(t.role_games, dtype=np.float64)
    seen = np.nonzero(games > 0)[0]
    n = float(t.games)
    p = np.asarray(t.role_wins, dtype=np.float64)[seen] / games[seen]
    q = (np.asarray(t.role_wins, dtype=np.float64)[seen] + 0.5) / (games[seen] + 1.0)     # never a zero variance
    var_each = q * (1 - q) * n / games[seen]
    k = p.size
    est = low = high = 0.0
    which = None
    for i in range(k):
        c = np.full(k, -1.0 / k)
        c[i] += 1.0
        d = float(c @ p)
        sd = math.sqrt(float((c * c) @ var_each))
        a, b = _abs_interval(*confseq.interval(d, sd, n, alpha / k, n_star))
        if abs(d) > est:
            est, which = abs(d), t.role_labels[seen[i]]
        low, high = max(low, a), max(high, b)
    claim = (f"no {t.role_name}'s win rate further than {bound:.1%} from the mean"
             + (f" (furthest: {which})" if which is not None else ""))
    return _at_most("role_gap_max", claim, est, low, high, bound, t.games)


def item_lift(t, bound, alpha, n_star) -> Look:
    """The largest |win rate used - win rate not used| over the items of the first counter group that were both
    used and not used: two shares, each with half the item's error rate."""
    g = t.groups[0]
    ok = [i for i in range(len(g.labels)) if g.used_pairs[i] > 0 and g.unused_pairs[i] > 0]
    est = low = high = 0.0
    which = None
    a2 = alpha / (2 * max(len(ok), 1))
    for i in ok:
        pu, lu, hu = confseq.proportion(float(g.used_wins[i]), float(g.used_pairs[i]), a2, n_star)
        pn, ln, hn = confseq.proportion(float(g.unused_wins[i]), float(g.unused_pairs[i]), a2, n_star)
        a, b = _abs_interval(lu - hn, hu - ln)
        if abs(pu - pn) > est:
            est, which = abs(pu - pn), g.labels[i]
        low, high = max(low, a), max(high, b)
    claim = f"no {g.name}'s win-rate lift beyond {bound:.0%}" + (f" (largest: {which})" if which is not None else "")
    return _at_most("item_lift_max", claim, est, low, high, bound, t.games)


def strategy_order(t, order: list[str], alpha, n_star) -> Look:
    """Each strategy wins more often (per appearance) than the next: the smallest margin between neighbours, its
    interval from the two shares' intervals, each with its part of the error rate. Not applicable to a lineup
    that lacks one of them (the scenario's seats changed by --strategy, --players, --set or a file that extends it)."""
    lineup = list(t.lineup)
    claim = " > ".join(order) + " (win rate per appearance)"
    missing = [s for s in order if s not in lineup]
    if missing:
        nan = math.nan
        reason = (f"{', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not play in this lineup "
                  f"({', '.join(dict.fromkeys(lineup))})")
        return Look("strategy_order", claim, nan, nan, nan, NOT_APPLICABLE, t.games, nan, nan, reason)
    wins = {s: sum(int(t.slot_wins[i]) for i, x in enumerate(lineup) if x == s) for s in order}
    games = {s: sum(int(t.slot_games[i]) for i, x in enumerate(lineup) if x == s) for s in order}
    a2 = alpha / (2 * (len(order) - 1))
    est = low = high = math.inf
    for a, b in zip(order, order[1:]):
        pa, la, ha = confseq.proportion(wins[a], games[a], a2, n_star)
        pb, lb, hb = confseq.proportion(wins[b], games[b], a2, n_star)
        if pa - pb < est:
            est, low, high = pa - pb, la - hb, ha - lb
    decision = PASS if low > 0 else FAIL if high < 0 else UNDECIDED
    # a failure of any neighbour pair fails the claim, even if it is not the smallest margin
    for a, b in zip(order, order[1:]):
        pa, la, ha = confseq.proportion(wins[a], games[a], a2, n_star)
        pb, lb, hb = confseq.proportion(wins[b], games[b], a2, n_star)
        if ha - lb < 0:
            decision = FAIL
    return Look("strategy_order", claim, est, low, high, decision, t.games)


def evaluate(t, checks, alpha: float, n_star: float) -> list[Look]:
    """Every claim of ``checks`` (a :class:`~balance.scenario.claims.Checks`) at this look, in the table's
    order."""
    out: list[Look] = []
    if checks.seat_gap_max is not None:
        out.append(seat_gap(t, checks.seat_gap_max, alpha, n_star))
    if checks.role_gap_max is not None:
        out.append(role_gap(t, checks.role_gap_max, alpha, n_star))
    if checks.win_rate is not None:
        out.append(win_rate(t, checks.win_rate, alpha, n_star))
    if checks.length_mean is not None:
        out.append(length_mean(t, checks.length_mean, alpha, n_star))
    if checks.victory_share:
        out += victory_share(t, checks.victory_share, alpha, n_star)
    if checks.item_lift_max is not None:
        out.append(item_lift(t, checks.item_lift_max, alpha, n_star))
    if checks.strategy_order:
        out.append(strategy_order(t, checks.strategy_order, alpha, n_star))
    return out
