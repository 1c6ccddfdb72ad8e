"""``balance report --strength`` in words and a figure: the verdicts first, then each finding at every level."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..core.text import findings_first, findings_first_markdown

COLOURS = {"as written": "#7f7f7f", "tuned": "#1f4e79", "lookahead": "#c0392b"}


def heading(s) -> str:
    m = s.meta
    return (f"{m['title']} ({m['scenario']}): each finding at {len(s.levels)} strengths of play, {m['games']:,} games "
            f"each on seed {m['seed']} (the same games)")


def levels_display(s) -> pd.DataFrame:
    f = s.level_frame
    return pd.DataFrame({"level": f["level"], "games": f["games"].map(lambda x: f"{x:,}"), "what was played": f["how"]})


def table_display(s) -> pd.DataFrame:
    t = s.table
    wide = {}
    for key, rows in t.groupby("finding", sort=False):
        wide[key] = {"finding": rows["what"].iloc[0]}
        for r in rows.itertuples(index=False):
            wide[key][r.level] = "-" if r.estimate != r.estimate else \
                f"{100 * r.estimate:.1f} [{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]"
    df = pd.DataFrame(list(wide.values()))
    v = s.verdicts.set_index("finding")
    df["verdict"] = [v.at[k, "verdict"] for k in wide]
    df["change (points)"] = [f"{100 * v.at[k, 'change']:+.1f} [{100 * v.at[k, 'change_ci_low']:+.1f}, "
                             f"{100 * v.at[k, 'change_ci_high']:+.1f}]" if v.at[k, "change"] == v.at[k, "change"]
                             else "-" for k in wide]
    return df


def sections(s):
    return [("Levels", levels_display(s)), ("Each finding at each level (points or percent, 95% CI)", table_display(s))]


def summary(s) -> str:
    return findings_first(heading(s), list(s.findings["text"]), sections(s),
                          tail=["", f"{s.meta['seconds']:.0f} s in all."])


def markdown(s) -> str:
    return findings_first_markdown("Under stronger play", heading(s), list(s.findings["text"]), sections(s))


class StrengthPlots:
    """``s.plot.levels()``: each finding's value at each level, with its 95% interval."""

    def __init__(self, s):
        self.s = s

    def available(self) -> list[str]:
        return ["levels"] if len(self.s.verdicts) else []

    def levels(self) -> Figure:
        t = self.s.table
        keys = list(dict.fromkeys(t["finding"]))
        names = [t[t["finding"] == k]["what"].iloc[0] for k in keys]
        levels = [lv.name for lv in self.s.levels]
        fig = Figure(figsize=(8, 1.0 + 0.55 * len(keys) * len(levels) / 2))
        ax = fig.add_subplot()
        for j, level in enumerate(levels):
            rows = t[t["level"] == level].set_index("finding").loc[keys]
            y = np.arange(len(keys)) + (j - (len(levels) - 1) / 2) * 0.22
            x = 100 * rows["estimate"].to_numpy()
            err = 100 * np.abs(np.vstack([x / 100 - rows["ci_low"], rows["ci_high"] - x / 100]))
            ax.errorbar(x, y, xerr=err, fmt="o", ms=4, capsize=2, color=COLOURS.get(level, "k"), label=level)
        ax.axvline(0, color="k", lw=0.6)
        ax.set_yticks(np.arange(len(keys)), [n if len(n) < 48 else n[:45] + "..." for n in names], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("points (a gap) or percent (a rate), 95% CI")
        ax.set_title("Each finding as play gets stronger")
        ax.legend(fontsize=8, loc="best")
        fig.tight_layout()
        return fig
