"""Figures of ``balance check``: each claim's interval against its bound, and what moved against the baseline."""
from __future__ import annotations

from matplotlib.figure import Figure

_COLOUR = {"pass": "#2a9d4b", "fail": "#c0392b", "inconclusive": "#d68910"}


class CheckPlots:
    """``report.plot.claims()`` and ``report.plot.baseline()`` give matplotlib Figures."""

    def __init__(self, report):
        self.report = report

    def available(self) -> list[str]:
        out = ["claims"] if len(self._decided()) else []
        base = self.report.baseline
        return out + (["baseline"] if len(base) and (base["moved"] != "").any() else [])

    def _decided(self):
        c = self.report.claims
        return c[c["outcome"] != "not applicable"]

    def claims(self) -> Figure:
        """Each claim's estimate and anytime 95% interval, scaled to its bound (1 = the bound; for a range, 0 and
        1 are its ends), coloured by outcome; a claim not applicable to the lineup has no interval to draw."""
        c = self._decided()
        fig = Figure(figsize=(8, 0.5 + 0.45 * max(len(c), 1)))
        ax = fig.add_subplot()
        for i, row in enumerate(c.itertuples()):
            lo_b, hi_b = row.bound_low, row.bound_high
            if hi_b != hi_b:                     # an order: every margin above 0; 1 is the widest end seen
                hi_b = max(abs(row.ci_low), abs(row.ci_high), 1e-9)
            scale = lambda x: (x - lo_b) / (hi_b - lo_b)     # noqa: E731
            y = len(c) - 1 - i
            ax.plot([scale(row.ci_low), scale(row.ci_high)], [y, y], color=_COLOUR[row.outcome], lw=3)
            ax.plot(scale(row.estimate), y, "o", color=_COLOUR[row.outcome])
        ax.axvline(0, color="#888", ls="--", lw=1)
        ax.axvline(1, color="#888", ls="--", lw=1)
        ax.set_yticks(range(len(c)), [f"{r.scenario[:28]}: {r.key}" for r in c.itertuples()][::-1], fontsize=8)
        ax.set_xlabel("estimate and anytime 95% interval, scaled so that the claim's bounds are 0 and 1")
        ax.set_title("Balance claims (green pass, red fail, orange inconclusive)")
        fig.tight_layout()
        return fig

    def baseline(self) -> Figure:
        """The metrics that moved significantly: the difference from the baseline with its 95% interval."""
        b = self.report.baseline
        b = b[b["moved"] != ""]
        fig = Figure(figsize=(8, 0.6 + 0.4 * max(len(b), 1)))
        ax = fig.add_subplot()
        ys = range(len(b))[::-1]
        ax.errorbar(b["diff"], list(ys), xerr=[b["diff"] - b["diff_ci_low"], b["diff_ci_high"] - b["diff"]],
                    fmt="o", color="#333")
        ax.axvline(0, color="#888", ls="--", lw=1)
        ax.set_yticks(list(ys), list(b["metric"]), fontsize=8)
        ax.set_xlabel("now - baseline (95% CI)")
        ax.set_title("Metrics that moved against the baseline")
        fig.tight_layout()
        return fig

