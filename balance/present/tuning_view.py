"""``balance tune`` in words and figures: findings first, then the tuned values, the confirmation and the search."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..core.text import findings_first, findings_first_markdown


def _pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.2f}%"


def _pp(x: float) -> str:
    return "-" if x != x else f"{100 * x:+.2f}"


def heading(t) -> str:
    m = t.meta
    return (f"{m['title']} ({m['scenario']}): {m['target']} tuned for {m['metric']}; confirmed on seed {m['seed']}, "
            f"searched on seed {m['search_seed']}")


def tuned_display(t) -> pd.DataFrame:
    d = t.tuned
    return pd.DataFrame({"key": d["key"], "strategy": d["strategy"], "scenario's": d["before"].map(lambda x: f"{x:g}"),
                         "tuned": d["after"].map(lambda x: "-" if x != x else f"{x:g}"),
                         "range": [f"{lo:g} to {hi:g}" for lo, hi in zip(d["low"], d["high"])]})


def confirmations_display(t) -> pd.DataFrame:
    c = t.confirmations
    return pd.DataFrame({
        "after round": c["round"] + 1, "candidate": c["candidate"], "seed": c["seed"],
        "games": c["games"].map(lambda x: f"{x:,}"),
        "before": [f"{_pct(a)} [{_pct(lo)}, {_pct(hi)}]" for a, lo, hi in zip(c["before"], c["before_lo"],
                                                                                 c["before_hi"])],
        "after": [f"{_pct(a)} [{_pct(lo)}, {_pct(hi)}]" for a, lo, hi in zip(c["after"], c["after_lo"], c["after_hi"])],
        "gain (points)": c["gain"].map(_pp),
        "95% CI": [f"[{_pp(lo)}, {_pp(hi)}]" for lo, hi in zip(c["gain_lo"], c["gain_hi"])]})


def rounds_display(t) -> pd.DataFrame:
    r = t.rounds
    return pd.DataFrame({"stage": r["stage"] + 1, "round": r["round"] + 1,
                         "games each": r["games"].map(lambda x: f"{x:,}"),
                         "candidates": r["candidates"], "kept": r["kept"], "leader": r["leader"],
                         "leader's win rate": r["leader_win_rate"].map(_pct),
                         "scenario's values": r["scenario_win_rate"].map(_pct)})


def sections(t) -> list[tuple[str, pd.DataFrame]]:
    out = [("Tuned values", tuned_display(t))]
    if len(t.confirmations):
        out.append(("Confirmations on the scenario's seed (win rates with 95% Wilson intervals; the gain's interval "
                    "from the paired games; the last is the result)", confirmations_display(t)))
    if len(t.rounds):
        out.append(("Search rounds (successive halving; win rates on the search seed, biased upwards for leaders)",
                    rounds_display(t)))
    return out


def summary(t) -> str:
    timing = t.meta.get("timing", {})
    return findings_first(heading(t), t.findings["text"], sections(t),
                          ["", f"Wall time {timing.get('wall_s', 0):.1f} s ({timing.get('executor', 'local')})."])


def markdown(t) -> str:
    return findings_first_markdown(f"Tuning: {t.meta['scenario']}", heading(t), t.findings["text"], sections(t))


class TuningPlots:
    """``t.plot.search()``: each candidate's win rate in each round it played; ``t.plot.gain()``: the confirmed
    win rates before and after with their intervals."""

    def __init__(self, t):
        self.t = t

    def available(self) -> list[str]:
        return ["search"] + (["gain"] if self.t.confirmed else [])

    def search(self) -> Figure:
        fig = Figure(figsize=(7, 4))
        ax = fig.add_subplot()
        games = list(self.t.rounds["games"])
        for c in self.t._candidates:
            xs = [r + 1 for r in c.rounds]
            ys = [100 * c.search.mean(games[r]) for r in c.rounds]
            style = dict(color="#c0392b", lw=2, zorder=3) if c is self.t.chosen else \
                dict(color="#1f4e79" if c.index == 0 else "grey", lw=1.5 if c.index == 0 else 0.7)
            ax.plot(xs, ys, marker="o", ms=3, **style)
        ax.set_xlabel("round (each doubles the games of the candidates kept; search seed)")
        ax.set_ylabel(f"{self.t.meta['metric']} (%)")
        ax.set_title("Successive halving: red the chosen values, blue the scenario's")
        fig.tight_layout()
        return fig

    def gain(self) -> Figure:
        c = self.t.confirmation.iloc[0]
        fig = Figure(figsize=(5, 3))
        ax = fig.add_subplot()
        x = np.array([c["before"], c["after"]]) * 100
        err = np.array([[c["before"] - c["before_lo"], c["after"] - c["after_lo"]],
                        [c["before_hi"] - c["before"], c["after_hi"] - c["after"]]]) * 100
        ax.errorbar(x, [1, 0], xerr=err, fmt="o", capsize=4)
        ax.set_yticks([1, 0], ["scenario's values", "tuned"])
        ax.set_xlabel(f"{self.t.meta['metric']} (%), seed {c['seed']}, 95% CI")
        ax.set_title(f"Gain {_pp(c['gain'])} points [{_pp(c['gain_lo'])}, {_pp(c['gain_hi'])}]")
        fig.tight_layout()
        return fig
