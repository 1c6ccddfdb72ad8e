"""``balance tournament`` in words and figures: findings first, the ranking, the win matrix, the tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .results import text_table


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(t) -> list[str]:
    r = t.ratings
    out = []
    if t.cooperative:
        best, worst = r.iloc[0], r.iloc[-1]
        out.append(f"{best.strategy} makes the strongest teams: its teams win {_pct(best.team_win_rate)} of games on "
                   f"average (95% CI {_pct(best.ci_low)} to {_pct(best.ci_high)}), against {_pct(worst.team_win_rate)} "
                   f"for {worst.strategy}'s.")
        tb = t.tables.sort_values("win_rate", ascending=False, kind="stable")
        top, low = tb.iloc[0], tb.iloc[-1]
        out.append(f"The best team is {top.table}: {_pct(top.win_rate)} (95% CI {_pct(top.ci_low)} to "
                   f"{_pct(top.ci_high)}; {top.games:,} games); the weakest is {low.table}: {_pct(low.win_rate)} "
                   f"(95% CI {_pct(low.ci_low)} to {_pct(low.ci_high)}).")
        return out
    best, second = r.iloc[0], r.iloc[1]
    apart = best.ci_low > second.ci_high
    out.append(f"{best.strategy} is the strongest: rating {best.rating:+.2f} (95% CI {best.ci_low:+.2f} to "
               f"{best.ci_high:+.2f}), winning {_pct(best.win_rate)} of its games; "
               + (f"its interval lies above that of {second.strategy} ({second.rating:+.2f})." if apart else
                  f"{second.strategy} ({second.rating:+.2f}, 95% CI {second.ci_low:+.2f} to {second.ci_high:+.2f}) "
                  "cannot be told apart from it with these games."))
    worst = r.iloc[-1]
    odds = float(np.exp(best.rating - worst.rating))
    out.append(f"{worst.strategy} is the weakest (rating {worst.rating:+.2f}): at a table with {best.strategy}, "
               f"{best.strategy} is {odds:.1f} times as likely to win as it (ratings are log strengths; a "
               "difference d means exp(d) times the chance).")
    m = t.matrix.to_numpy()
    if np.isfinite(m).any():
        i, j = np.unravel_index(np.nanargmax(m), m.shape)
        out.append(f"The most one-sided pairing: {t.matrix.index[i]} won {_pct(m[i, j])} of the games it played with "
                   f"{t.matrix.columns[j]}, which won {_pct(m[j, i])} of them.")
    if t.meta.get("ties") or t.meta.get("unfinished"):
        out.append(f"{t.meta['ties']:,} tied and {t.meta['unfinished']:,} unfinished games are left out of the "
                   "ratings.")
    return out


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
    lines = [heading(t), "", "Findings"] + [f"  {i}. {x}" for i, x in enumerate(t.findings, 1)]
    for title, df in sections(t):
        lines += ["", title, text_table(df)]
    return "\n".join(lines)


def markdown(t) -> str:
    from .checks.text import _md_table
    lines = [f"## Tournament: {t.meta['scenario']}", "", heading(t), "", "### Findings", ""]
    lines += [f"{i}. {x}" for i, x in enumerate(t.findings, 1)]
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

    def matrix(self) -> Figure:
        m = self.t.matrix
        fig = Figure(figsize=(1.5 + 1.1 * len(m), 1.2 + 0.9 * len(m)))
        ax = fig.add_subplot()
        im = ax.imshow(m.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=1)
        ax.set_xticks(range(len(m)), list(m.columns), rotation=30, ha="right")
        ax.set_yticks(range(len(m)), list(m.index))
        for (i, j), x in np.ndenumerate(m.to_numpy(dtype=float)):
            if x == x:
                ax.text(j, i, f"{100 * x:.0f}%", ha="center", va="center", fontsize=9)
        fig.colorbar(im, ax=ax, label="team win rate" if self.t.cooperative else "row's win share")
        ax.set_title("Team win rate by pairing" if self.t.cooperative else "Win matrix")
        fig.tight_layout()
        return fig
