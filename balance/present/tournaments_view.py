"""``balance tournament`` in words and figures: findings first, the ranking, the win matrix, the tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from ..core.text import findings_first, findings_first_markdown


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ratings_display(t) -> pd.DataFrame:
    r = t.ratings
    if t.cooperative:
        return pd.DataFrame({"rank": r["rank"], "strategy": r["strategy"], "team win rate": r["team_win_rate"].map(
            pct), "95% CI": [f"[{pct(a)}, {pct(b)}]" for a, b in zip(r["ci_low"], r["ci_high"])],
            "teams": r["teams"]})
    return pd.DataFrame({
        "rank": r["rank"], "strategy": r["strategy"], "rating": r["rating"].map(lambda x: f"{x:+.3f}"),
        "95% CI": [f"[{a:+.3f}, {b:+.3f}]" for a, b in zip(r["ci_low"], r["ci_high"])],
        "games": r["games"].map(lambda x: f"{x:,}"), "win rate": r["win_rate"].map(pct),
        "win 95% CI": [f"[{pct(a)}, {pct(b)}]" for a, b in zip(r["win_ci_low"], r["win_ci_high"])]})


def matrix_display(t) -> pd.DataFrame:
    m = t.matrix
    df = m.apply(lambda col: col.map(lambda x: "-" if x != x else pct(x)))
    return df.reset_index()


def tables_display(t) -> pd.DataFrame:
    df = t.tables.copy().astype(object).where(t.tables.notna(), "-")
    for c in ["games", "wins", "ties", "unfinished"] + [c for c in df if c.startswith("wins ")]:
        if c in df:
            df[c] = df[c].map(lambda x: x if x == "-" else f"{int(x):,}")
    for c in ("win_rate", "ci_low", "ci_high"):
        if c in df:
            df[c] = df[c].map(pct)
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
    return findings_first(heading(t), t.findings["text"], sections(t))


def markdown(t) -> str:
    return findings_first_markdown(f"Tournament: {t.meta['scenario']}", heading(t), t.findings["text"], sections(t))


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
