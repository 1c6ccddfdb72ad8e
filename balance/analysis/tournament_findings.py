"""A tournament's findings in sentences: the strongest and weakest variant, the best and worst team, the most
one-sided pairing, each with its interval (:attr:`balance.analysis.tournaments.Tournament.findings`)."""
from __future__ import annotations

import numpy as np

from ..stats.extremes import pick_extreme, widen
from ..stats.findings import Finding, said
from ..stats.intervals import exact


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(t) -> list[Finding]:
    """The tournament in sentences. The strongest and weakest variant, the best and worst team and the most
    one-sided pairing are each picked from many, so each is given with its interval adjusted for the number it was
    picked from and named the strongest (best, ...) only when that interval lies apart from every other's
    (``stats.extremes``). Kinds: ``strongest`` (``no_clear_extreme`` when the data do not separate it: the highest
    rating or team win rate, with its adjusted interval), ``next_gap`` (the first against the second, with the
    gap's interval), ``weakest`` (likewise), ``teams`` (a co-operative game's best team), ``one_sided`` (the largest
    share of one pairing), ``left_out`` (tied and unfinished games)."""
    r = t.ratings
    k = len(r)
    if t.cooperative:
        rate = r["team_win_rate"].to_numpy(dtype=float)
        names = [f"{s}: {pct(x)}" for s, x in zip(r["strategy"], rate)]
        e = pick_extreme(rate, lambda z: widen(rate, r["ci_low"], r["ci_high"], z))
        best, worst = r.iloc[e.index], r.iloc[-1]
        ci = e.adjusted(pct, "strategies")
        if e.clear:
            text = (f"{best.strategy} makes the strongest teams: its teams win {pct(best.team_win_rate)} of games on "
                    f"average ({ci}), against {pct(worst.team_win_rate)} for {worst.strategy}'s.")
        else:
            text = (f"No strategy makes clearly the strongest teams: {best.strategy}'s teams win the most of the {k}, "
                    f"{pct(best.team_win_rate)} of games on average ({ci}), but {e.rivals_text(names)}; "
                    f"{worst.strategy}'s win {pct(worst.team_win_rate)}.")
        out = [said("strongest" if e.clear else "no_clear_extreme", text, e.value, e.lo, e.hi)] + _next_gap(t, lambda x: f"{100 * x:.1f} points")
        tb = t.tables
        labels = [f"{x}: {pct(p)}" for x, p in zip(tb["table"], tb["win_rate"])]
        ends, extremes = [], []
        for highest, word in ((True, "best"), (False, "weakest")):
            e = pick_extreme(tb["win_rate"], lambda z: exact(tb["wins"], tb["games"], z), highest)
            row = tb.iloc[e.index]
            what = (f"{row.table}: {pct(row.win_rate)} ({e.adjusted(pct, 'teams')}; {int(row.games):,} games)")
            ends.append(f"the {word} team is {what}" if e.clear else
                        f"the {'highest' if highest else 'lowest'} win rate is {what}, but {e.rivals_text(labels)}")
            extremes.append(e)
        best_team = extremes[0]
        out.append(said("teams", f"Of the {len(tb):,} teams, {ends[0]}; {ends[1]}.", best_team.value, best_team.lo,
                        best_team.hi))
        return out
    rating = r["rating"].to_numpy(dtype=float)
    names = [f"{s}: {x:+.2f}" for s, x in zip(r["strategy"], rating)]
    e = pick_extreme(rating, lambda z: widen(rating, r["ci_low"], r["ci_high"], z))
    best = r.iloc[e.index]
    ci = e.adjusted(lambda x: f"{x:+.2f}", "strategies")
    out = [said("strongest" if e.clear else "no_clear_extreme",
                f"{best.strategy} is the strongest: rating {best.rating:+.2f} ({ci}), winning {pct(best.win_rate)} "
                "of its games; its interval lies above every other's." if e.clear else
                f"{best.strategy} has the highest rating of the {k}: {best.rating:+.2f} ({ci}), winning "
                f"{pct(best.win_rate)} of its games, but {e.rivals_text(names)} with these games: none is clearly "
                "the strongest.", e.value, e.lo, e.hi)]
    out += _next_gap(t, lambda x: f"{x:.2f}")
    w = pick_extreme(rating, lambda z: widen(rating, r["ci_low"], r["ci_high"], z), highest=False)
    worst = r.iloc[w.index]
    odds = float(np.exp(best.rating - worst.rating))
    out.append(said("weakest" if w.clear else "no_clear_extreme",
                    (f"{worst.strategy} is the weakest (rating {worst.rating:+.2f})" if w.clear else
                     f"{worst.strategy} has the lowest rating ({worst.rating:+.2f}), but {w.rivals_text(names)}")
                    + f": at a table with {best.strategy}, {best.strategy} is {odds:.1f} times as likely to win as it "
                    "(ratings are log strengths; a difference d means exp(d) times the chance).", w.value, w.lo, w.hi))
    out += _one_sided(t)
    if t.meta.get("ties") or t.meta.get("unfinished"):
        out.append(said("left_out", f"{t.meta['ties']:,} tied and {t.meta['unfinished']:,} unfinished games are "
                        "left out of the ratings.", t.meta["ties"] + t.meta["unfinished"]))
    return out


def _one_sided(t) -> list[Finding]:
    """The pairing in which one variant won the largest share of the games it played with another, picked from
    every ordered pair that shared a table (exact binomial intervals adjusted for them)."""
    m = t.matrix.to_numpy(dtype=float)
    if not np.isfinite(m).any():
        return []
    together = t.pair_games.to_numpy(dtype=float) if t.pair_games is not None else np.zeros_like(m)
    won = np.rint(np.nan_to_num(m) * together)
    rows, cols = np.nonzero(np.isfinite(m))
    share = m[rows, cols]
    names = [f"{t.matrix.index[i]} over {t.matrix.columns[j]}: {pct(m[i, j])}" for i, j in zip(rows, cols)]
    e = pick_extreme(share, lambda z: exact(won[rows, cols], together[rows, cols], z))
    i, j = rows[e.index], cols[e.index]
    a, b = t.matrix.index[i], t.matrix.columns[j]
    head = "The most one-sided" if e.clear else "The largest share"
    return [said("one_sided" if e.clear else "no_clear_extreme",
                 f"{head} of the {e.k} pairings: {a} won {pct(m[i, j])} of the games it played with {b} "
                 f"({e.adjusted(pct, 'pairings')}), which won {pct(m[j, i])} of them"
                 + ("." if e.clear else f"; {e.rivals_text(names)}, so none is clearly the most one-sided."),
                 e.value, e.lo, e.hi)]


def _next_gap(t, fmt) -> list[Finding]:
    """The first-ranked variant against the second: the gap of their ratings (team win rates) with its interval, for
    that one pair (the question "is the leader ahead of the next?", asked of the ranking's top two)."""
    g = t.gaps
    if not len(g):
        return []
    top = g.iloc[0]
    what = "team win rate" if t.cooperative else "rating"
    verdict = "clearly above" if top.clear else "not clearly above (the interval reaches zero)"
    return [said("next_gap", f"{top.higher}'s {what} is {fmt(top.gap)} above {top.lower}'s, the next (95% CI "
                 f"{fmt(top.ci_low)} to {fmt(top.ci_high)}, for this pair alone): {verdict}.", top.gap, top.ci_low,
                 top.ci_high)]
