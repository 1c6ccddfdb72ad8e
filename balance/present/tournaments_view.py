"""``balance tournament`` in words and figures: findings first, the ranking, the win matrix, the tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from .results import text_table
from ..analysis.stats.extremes import pick_extreme, widen
from ..analysis.stats.findings import Finding, said
from ..analysis.stats.intervals import exact


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(t) -> list[Finding]:
    """The tournament in sentences. The strongest and weakest variant, the best and worst team and the most
    one-sided pairing are each picked from many, so each is given with its interval adjusted for the number it was
    picked from and named the strongest (best, ...) only when that interval lies apart from every other's
    (``stats.extremes``). Kinds: ``strongest`` (``no_clear_extreme`` when the data do not separate it: the highest
    rating or team win rate, with its adjusted interval), ``weakest`` (likewise), ``teams`` (a co-operative game's
    best team), ``one_sided`` (the largest share of one pairing), ``left_out`` (tied and unfinished games)."""
    r = t.ratings
    k = len(r)
    if t.cooperative:
        rate = r["team_win_rate"].to_numpy(dtype=float)
        names = [f"{s}: {_pct(x)}" for s, x in zip(r["strategy"], rate)]
        e = pick_extreme(rate, lambda z: widen(rate, r["ci_low"], r["ci_high"], z))
        best, worst = r.iloc[e.index], r.iloc[-1]
        ci = e.adjusted(_pct, "strategies")
        if e.clear:
            text = (f"{best.strategy} makes the strongest teams: its teams win {_pct(best.team_win_rate)} of games on "
                    f"average ({ci}), against {_pct(worst.team_win_rate)} for {worst.strategy}'s.")
        else:
            text = (f"No strategy makes clearly the strongest teams: {best.strategy}'s teams win the most of the {k}, "
                    f"{_pct(best.team_win_rate)} of games on average ({ci}), but {e.rivals_text(names)}; "
                    f"{worst.strategy}'s win {_pct(worst.team_win_rate)}.")
        out = [said("strongest" if e.clear else "no_clear_extreme", text, e.value, e.lo, e.hi)]
        tb = t.tables
        labels = [f"{x}: {_pct(p)}" for x, p in zip(tb["table"], tb["win_rate"])]
        ends, extremes = [], []
        for highest, word in ((True, "best"), (False, "weakest")):
            e = pick_extreme(tb["win_rate"], lambda z: exact(tb["wins"], tb["games"], z), highest)
            row = tb.iloc[e.index]
            what = (f"{row.table}: {_pct(row.win_rate)} ({e.adjusted(_pct, 'teams')}; {int(row.games):,} games)")
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
                f"{best.strategy} is the strongest: rating {best.rating:+.2f} ({ci}), winning {_pct(best.win_rate)} "
                "of its games; its interval lies above every other's." if e.clear else
                f"{best.strategy} has the highest rating of the {k}: {best.rating:+.2f} ({ci}), winning "
                f"{_pct(best.win_rate)} of its games, but {e.rivals_text(names)} with these games: none is clearly "
                "the strongest.", e.value, e.lo, e.hi)]
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
    names = [f"{t.matrix.index[i]} over {t.matrix.columns[j]}: {_pct(m[i, j])}" for i, j in zip(rows, cols)]
    e = pick_extreme(share, lambda z: exact(won[rows, cols], together[rows, cols], z))
    i, j = rows[e.index], cols[e.index]
    a, b = t.matrix.index[i], t.matrix.columns[j]
    head = "The most one-sided" if e.clear else "The largest share"
    return [said("one_sided" if e.clear else "no_clear_extreme",
                 f"{head} of the {e.k} pairings: {a} won {_pct(m[i, j])} of the games it played with {b} "
                 f"({e.adjusted(_pct, 'pairings')}), which won {_pct(m[j, i])} of them"
                 + ("." if e.clear else f"; {e.rivals_text(names)}, so none is clearly the most one-sided."),
                 e.value, e.lo, e.hi)]


def ratings_display(t) -> pd.DataFrame:
    r = t.ratings
    if t.cooperative:
        return pd.DataFrame({"rank": r["rank"], "strategy": r["strategy"], "team win rate": r["team_win_rate"].map(
            _pct), "95% CI": [f"[{_pct(a)}, {_pct(b)}]" for a, b in zip(r["ci_low"], r["ci_high"])],
            "teams": r["teams"]})
    return pd.DataFrame({
        "rank": r["rank"], "strategy": r["strategy"], "rating": r["rating"].map(lambda x: f"{x:+.3f}"),
        "95% CI": [f"[{a:+.3f}, {b:+.3f}]" for a, b in zip(r["ci_low"], r["ci_high"])],
        "games": r["games"].map(lambda x: f"{x:,}"), "win rate": r["win_rate"].map(_pct),
        "win 95% CI": [f"[{_pct(a)}, {_pct(b)}]" for a, b in zip(r["win_ci_low"], r["win_ci_high"])]})


def matrix_display(t) -> pd.DataFrame:
    m = t.matrix
    df = m.apply(lambda col: col.map(lambda x: "-" if x != x else _pct(x)))
    return df.reset_index()


def tables_display(t) -> pd.DataFrame:
    df = t.tables.copy().astype(object).where(t.tables.notna(), "-")
    for c in ["games", "wins", "ties", "unfinished"] + [c for c in df if c.startswith("wins ")]:
        if c in df:
            df[c] = df[c].map(lambda x: x if x == "-" else f"{int(x):,}")
    for c in ("win_rate", "ci_low", "ci_high"):
        if c in df:
            df[c] = df[c].map(_pct)
    return df


def heading(t) -> str:
    m = t.meta
    kind = "co-operative teams" if t.cooperative else "tables"
    return (f"{m['title']} ({m['scenario']}): tournament of {', '.join(v.label for v in t.variants)}; "
            f"{m['players']} players, {m['seatings']} seatings of {kind}, {m['games']:,} games, seed {m['seed']}")


def sections(t) -> list[tuple[str, pd.DataFrame]]:
    title = "Ranking (mean team win rate)" if t.cooperative else "Ranking (Bradley-Terry rating, 95% CI)"
    out = [(title, ratings_display(t))]
    if t.matrix.notna().to_numpy().any():
        out.append(("Team win rate of each pairing" if t.cooperative else
                    "Win matrix (row's wins in the games it played with the column)", matrix_display(t)))
    out.append(("Tables", tables_display(t)))
    return out


def summary(t) -> str:
    lines = [heading(t), "", "Findings"] + [f"  {i}. {x}" for i, x in enumerate(t.findings["text"], 1)]
    for title, df in sections(t):
        lines += ["", title, text_table(df)]
    return "\n".join(lines)


def markdown(t) -> str:
    from ..analysis.checks.text import _md_table
    lines = [f"## Tournament: {t.meta['scenario']}", "", heading(t), "", "### Findings", ""]
    lines += [f"{i}. {x}" for i, x in enumerate(t.findings["text"], 1)]
    for title, df in sections(t):
        lines += ["", f"### {title}", ""] + _md_table(df)
    return "\n".join(lines) + "\n"


class TournamentPlots:
    """``t.plot.ratings()`` and ``t.plot.matrix()``: matplotlib Figures."""

    def __init__(self, t):
        self.t = t

    def available(self) -> list[str]:
        return ["ratings"] + (["matrix"] if self.t.matrix.notna().to_numpy().any() else [])

    def ratings(self) -> Figure:
        r = self.t.ratings
        value = r["team_win_rate"] if self.t.cooperative else r["rating"]
        fig = Figure(figsize=(7, 0.8 + 0.45 * len(r)))
        ax = fig.add_subplot()
        ys = np.arange(len(r))[::-1]
        ax.errorbar(value, ys, xerr=[value - r["ci_low"], r["ci_high"] - value], fmt="o", color="#1f4e79")
        ax.set_yticks(ys, list(r["strategy"]))
        ax.set_xlabel("mean team win rate (95% CI)" if self.t.cooperative else
                      "Bradley-Terry rating: log strength, mean 0 (95% CI)")
        ax.set_title("Ranking")
        fig.tight_layout()
        return fig

    def centre(self) -> float:
        """The matrix colours' neutral value: a competitive game's fair share of wins, 1 / players (33% at three
        players, not 50%); a co-operative game's mean team win rate over the pairings."""
        if self.t.cooperative:
            mean = float(np.nanmean(self.t.matrix.to_numpy(dtype=float)))
            return min(max(mean, 1e-3), 1 - 1e-3)
        return 1.0 / self.t.meta["players"]

    def matrix(self) -> Figure:
        m = self.t.matrix
        fig = Figure(figsize=(1.5 + 1.1 * len(m), 1.2 + 0.9 * len(m)))
        ax = fig.add_subplot()
        values = m.to_numpy(dtype=float)
        centre = self.centre()
        im = ax.imshow(values, cmap="RdYlGn", norm=TwoSlopeNorm(vcenter=centre, vmin=0.0, vmax=1.0))
        ax.set_xticks(range(len(m)), list(m.columns), rotation=30, ha="right")
        ax.set_yticks(range(len(m)), list(m.index))
        for (i, j), x in np.ndenumerate(m.to_numpy(dtype=float)):
            if x == x:
                ax.text(j, i, f"{100 * x:.0f}%", ha="center", va="center", fontsize=9)
        fig.colorbar(im, ax=ax, label=(f"team win rate (yellow: the mean team's, {100 * centre:.0f}%)"
                                       if self.t.cooperative else
                                       f"row's win share (yellow: the fair share, {100 * centre:.0f}%)"))
        ax.set_title("Team win rate by pairing" if self.t.cooperative else "Win matrix")
        fig.tight_layout()
        return fig
