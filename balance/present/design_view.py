"""``balance design`` in words and a figure: findings first, then the recommendation, its claims before and after,
the main statistics, and the candidates tried."""
from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from ..analysis.design.space import shown
from ..core.text import findings_first, findings_first_markdown

STATUS = {"pass": "#2e7d32", "undecided": "#b58900", "fail": "#c0392b", "not played": "#999999"}


def heading(d) -> str:
    m = d.meta
    keys = ", ".join(f"{a.key} ({a.text()})" for a in d.axes)
    goal = f"; minimising {m['minimise']}" if m.get("minimise") else "; preferring the smallest change"
    return (f"{m['title']} ({m['scenario']}): design of {keys} for {len(m['claims'])} claim(s){goal}; searched on "
            f"seed {m['search_seed']}, confirmed on seed {m['seed']}")


def _pct(key, x) -> str:
    return "-" if x != x else f"{x:.2f}" if key == "length_mean" else f"{100 * x:.1f}%"


def claims_display(d) -> pd.DataFrame:
    c = d.claims
    return pd.DataFrame({
        "claim": c["claim"],
        "scenario's values": [f"{_pct(k, a)} [{_pct(k, lo)}, {_pct(k, hi)}]" for k, a, lo, hi in
                              zip(c["key"], c["before"], c["before_low"], c["before_high"])],
        "decision": c["before_decision"],
        "recommended": [f"{_pct(k, a)} [{_pct(k, lo)}, {_pct(k, hi)}]" for k, a, lo, hi in
                        zip(c["key"], c["after"], c["after_low"], c["after_high"])],
        "outcome": c["after_outcome"]})


def effects_display(d) -> pd.DataFrame:
    e = d.effects
    f = lambda a, lo, hi: f"{100 * a:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"     # noqa: E731
    return pd.DataFrame({"measure": e["measure"],
                         "scenario's values": [f(*x) for x in zip(e["before"], e["before_low"], e["before_high"])],
                         "recommended": [f(*x) for x in zip(e["after"], e["after_low"], e["after_high"])],
                         "change (points)": [f"{100 * a:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" for a, lo, hi in
                                             zip(e["change"], e["change_low"], e["change_high"])]})


def candidates_display(d, limit: int = 12) -> pd.DataFrame:
    c = d.candidates.head(limit)
    keys = [a.key for a in d.axes]
    out = c[["candidate"]].astype(str)
    for k in keys:
        out[k] = c[k].map(shown)
    out["change"] = c["change"].map(lambda x: f"{x:.2f}")
    out["status"] = c["status"]
    out["slack"] = c["slack"].map(lambda x: "-" if x != x else f"{x:+.2f}")
    out["games"] = c["games"].map(lambda x: f"{x:,}")
    out["confirmation"] = c["confirmation"]
    return out


def sections(d) -> list[tuple[str, pd.DataFrame]]:
    out = []
    if d.confirmed:
        out += [("Recommended", d.recommended.map(shown)), ("Claims (anytime-valid intervals)", claims_display(d)),
                ("Main statistics (95% CI, the same games)", effects_display(d))]
    out.append(("Candidates (best first; status and slack at the last round each played)", candidates_display(d)))
    return out


def summary(d) -> str:
    return findings_first(heading(d), list(d.findings["text"]), sections(d),
                          tail=["", f"{d.meta['seconds']:.0f} s in all."])


def markdown(d) -> str:
    return findings_first_markdown("balance design", heading(d), list(d.findings["text"]), sections(d))


class DesignPlots:
    """``d.plot.tradeoff()``: every candidate's change from the scenario's values against its slack (how far its
    claims lie inside their bounds, in half-widths), coloured by its status; the recommendation ringed."""

    def __init__(self, d):
        self.d = d

    def available(self) -> list[str]:
        return ["tradeoff"]

    def tradeoff(self) -> Figure:
        c = self.d.candidates
        fig = Figure(figsize=(7, 4))
        ax = fig.add_subplot()
        for status, rows in c.groupby("status"):
            ax.scatter(rows["change"], rows["slack"], s=12 + 6 * rows["games"].rank(), color=STATUS.get(status, "k"),
                       label=status, alpha=0.8)
        chosen = self.d.chosen
        if chosen is not None:
            row = c[c["candidate"] == chosen.index].iloc[0]
            ax.scatter([row["change"]], [row["slack"]], s=200, facecolors="none", edgecolors="k", lw=1.5,
                       label="recommended")
        ax.axhline(0, color="k", lw=0.6)
        ax.set_xlabel("change from the scenario's values (sum over keys, in widths of each range)")
        ax.set_ylabel("slack (claims inside their bounds, in half-widths)")
        ax.set_title("Candidates: the trade-off between change and margin")
        ax.legend(fontsize=8)
        fig.tight_layout()
        return fig
