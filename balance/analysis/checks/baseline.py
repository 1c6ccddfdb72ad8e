"""What moved between a saved earlier run (``balance run --out DIR``) and this one: every metric the run reports
that the two runs share, with the difference, its 95% interval and a Holm-adjusted p-value over all of them."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...stats.results import Results

Z95 = 1.959963984540054


def metrics(r: Results) -> pd.DataFrame:
    """One row per metric: metric, estimate and its 95% interval (as the run's own tables give them)."""
    rows = []

    def add(name, est, lo, hi):
        if np.isfinite(est) and np.isfinite(lo) and np.isfinite(hi):
            rows.append({"metric": name, "estimate": float(est), "ci_low": float(lo), "ci_high": float(hi)})

    if r.tallies.cooperative:
        for row in r.team.itertuples():
            add("team win rate", row.win_rate, row.ci_low, row.ci_high)
    else:
        for row in r.seats.itertuples():
            add(f"seat {row.seat} win rate", row.win_rate, row.ci_low, row.ci_high)
        for row in r.strategies.itertuples():
            add(f"strategy {row.strategy} win rate", row.win_rate, row.ci_low, row.ci_high)
    for row in r.victories.itertuples():
        add(f"victory share {row.kind}", row.share, row.ci_low, row.ci_high)
    for row in r.lengths.itertuples():
        add(f"mean {row.measure}", row.mean, row.mean_ci_low, row.mean_ci_high)
    first = r.tallies.groups[0].name
    for row in r.cards.itertuples(index=False):
        label = getattr(row, first)
        add(f"{first} {label} win-rate difference", row.win_rate_diff, row.diff_ci_low, row.diff_ci_high)
    return pd.DataFrame(rows, columns=["metric", "estimate", "ci_low", "ci_high"])


def compare(now: Results, before: Results, alpha: float = 0.05) -> pd.DataFrame:
    """Metrics of both runs side by side: baseline, now, diff (now - baseline) with its 95% interval from the two
    runs' intervals as independent (a standard error of each from its interval's width), p, p_holm, and moved:
    "up" or "down" where p_holm < alpha, else "". Metrics only one run has are left out."""
    a, b = metrics(before).set_index("metric"), metrics(now).set_index("metric")
    common = [m for m in b.index if m in a.index]
    se_a = (a.loc[common, "ci_high"] - a.loc[common, "ci_low"]) / (2 * Z95)
    se_b = (b.loc[common, "ci_high"] - b.loc[common, "ci_low"]) / (2 * Z95)
    se = np.sqrt(se_a.to_numpy() ** 2 + se_b.to_numpy() ** 2)
    diff = b.loc[common, "estimate"].to_numpy() - a.loc[common, "estimate"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, 2 * stats.norm.sf(np.abs(diff) / se), np.where(diff == 0, 1.0, 0.0))
    holm = _holm(p)
    moved = np.where(holm < alpha, np.where(diff > 0, "up", "down"), "")
    return pd.DataFrame({"metric": common, "baseline": a.loc[common, "estimate"].to_numpy(),
                         "now": b.loc[common, "estimate"].to_numpy(), "diff": diff, "diff_ci_low": diff - Z95 * se,
                         "diff_ci_high": diff + Z95 * se, "p": p, "p_holm": holm, "moved": moved})


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: family-wise error at most alpha over all metrics."""
    m = p.size
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj
