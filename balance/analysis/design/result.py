"""What ``balance design`` found: the recommended setting (or that none could be confirmed), what it does to every
claim and to the main statistics, the candidates tried, and the scenario fragment that ``extends`` the original."""
from __future__ import annotations

import math
import os

import pandas as pd

from ...core.toml import dumps_toml
from ...stats.findings import Finding, said
from ..fragment import fragment_table, write_checked
from ..shown import Shown
from ..strength.measures import change as diff, measures
from ..studies.study import as_scenario, dotted
from .space import shown as _v




class Design(Shown):
    """``recommended`` (one row per varied key: the scenario's value and the recommended one; empty when none was
    confirmed), ``claims`` (each claim for the scenario as it is and as recommended, with anytime-valid intervals),
    ``effects`` (the main statistics before and after, with 95% intervals), ``candidates``, ``rounds``,
    ``confirmations``, ``scenario`` (the recommended one), ``fragment()``, ``write_fragment(path)``."""

    FINDINGS = "balance.analysis.design.result:findings"
    PLOTS = "balance.present.design_view:DesignPlots"
    SUMMARY = "balance.present.design_view:summary"
    MARKDOWN = "balance.present.design_view:markdown"

    def __init__(self, base, axes, candidates, rounds, confirmations, stronger, current, meta):
        self.base, self.axes, self._candidates = base, axes, candidates
        self.rounds = pd.DataFrame(rounds, columns=["round", "games", "candidates", "kept", "passing", "failing",
                                                    "leader"])
        self._confirmations, self.stronger, self.current, self.meta = confirmations, stronger, current, meta

    # --- what was found ------------------------------------------------------------------------------------------

    @property
    def confirmed(self) -> bool:
        ok = bool(self._confirmations) and self._confirmations[-1].outcome == "pass"
        return ok and (self.stronger is None or self.stronger.outcome == "pass")

    @property
    def chosen(self):
        if not self.confirmed:
            return None
        return next(c for c in self._candidates if c.index == self._confirmations[-1].candidate)

    @property
    def recommended(self) -> pd.DataFrame:
        c = self.chosen
        return pd.DataFrame({"key": [a.key for a in self.axes], "scenario's": [a.current for a in self.axes],
                             "recommended": list(c.values) if c else [math.nan] * len(self.axes),
                             "range": [a.text() for a in self.axes]})

    @property
    def sets(self) -> dict:
        c = self.chosen
        return {} if c is None else dict(zip((a.key for a in self.axes), c.values))

    @property
    def scenario(self):
        """The recommended scenario (the scenario's seed and games), or None when nothing was confirmed."""
        return as_scenario(self.base, **dotted(self.sets)) if self.confirmed else None

    @property
    def confirmations(self) -> pd.DataFrame:
        rows = [c.claims.assign(candidate=c.candidate, alpha=c.alpha, confirmation=c.outcome)
                for c in self._confirmations]
        if self.stronger is not None:
            rows.append(self.stronger.claims.assign(candidate=self._confirmations[-1].candidate,
                                                    alpha=self._confirmations[-1].alpha,
                                                    confirmation=f"{self.stronger.outcome} ({self.meta['strength']})"))
        return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()

    @property
    def candidates(self) -> pd.DataFrame:
        """Every setting tried: its values, its change from the scenario's, its status at the last round it played
        (every claim passing, one failing, or undecided, with the error rate split over that round's candidates), its
        slack, the games it played on the search seed, and whether it was confirmed."""
        done = {c.candidate: c.outcome for c in self._confirmations}
        rows = []
        for c in self._candidates:
            row = {"candidate": c.index, **{a.key: v for a, v in zip(self.axes, c.values)}, "change": c.change,
                   "status": c.status if c.looks else "not played", "slack": c.slack if c.looks else math.nan,
                   "games": c.stepper.played if c.stepper is not None else 0, "dropped_after_round": c.out_after,
                   "confirmation": done.get(c.index, "")}
            for look in c.looks:
                row[look.key] = look.estimate
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def claims(self) -> pd.DataFrame:
        """Each claim for the scenario as it is and as recommended (the recommendation's confirmation and the
        scenario's own values on the same games), estimate and anytime-valid interval."""
        if not self.confirmed:
            return pd.DataFrame()
        from ..checks.claims import evaluate
        after = self._confirmations[-1].claims
        n = int(after["games"].max())
        before = evaluate(self.current.tallies, self.base.checks, self._confirmations[-1].alpha, n)
        b = {look.key: look for look in before}
        return pd.DataFrame({"claim": after["claim"], "key": after["key"],
                             "before": [b[k].estimate for k in after["key"]],
                             "before_low": [b[k].low for k in after["key"]],
                             "before_high": [b[k].high for k in after["key"]],
                             "before_decision": [b[k].decision for k in after["key"]],
                             "after": after["estimate"], "after_low": after["ci_low"], "after_high": after["ci_high"],
                             "after_outcome": after["outcome"]})

    @property
    def effects(self) -> pd.DataFrame:
        """The main statistics of the scenario as it is (its findings as ``balance report --strength`` reads them)
        and as recommended, on the same games, with 95% intervals and the change."""
        if not self.confirmed:
            return pd.DataFrame()
        rows = []
        after = self._confirmations[-1].results
        for m in measures(self.current):
            a, b = m.read(self.current), m.read(after)
            d = diff(a, b)
            rows.append({"measure": m.what, "before": a[0], "before_low": a[1], "before_high": a[2], "after": b[0],
                         "after_low": b[1], "after_high": b[2], "change": d[0], "change_low": d[1],
                         "change_high": d[2]})
        return pd.DataFrame(rows)

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"recommended": self.recommended, "claims": self.claims, "effects": self.effects,
                "candidates": self.candidates, "rounds": self.rounds, "confirmations": self.confirmations}

    # --- the fragment --------------------------------------------------------------------------------------------

    def fragment(self, path: str | os.PathLike | None = None) -> str:
        """The recommended scenario as TOML: a file that ``extends`` the scenario's file with the recommended
        values (the whole scenario when it came from no file)."""
        if not self.confirmed:
            raise ValueError("nothing was confirmed: no recommended values to write")
        c = self._confirmations[-1]
        head = (f"# balance design: every claim confirmed at {1 - self.meta['alpha']:.0%} confidence on seed "
                f"{self.meta['seed']} ({int(c.claims['games'].max()):,} games; the search played seed "
                f"{self.meta['search_seed']}).\n# The claims: " + "; ".join(self._confirmations[-1].claims["claim"])
                + ".\n")
        table = fragment_table(self.base, self.scenario, f"{self.base.name}, designed", path, extra=self.sets)
        return head + dumps_toml(table)

    def write_fragment(self, path: str | os.PathLike):
        return write_checked(path, self.fragment(path), self.scenario, self.base)

    def to_json(self) -> str:
        import json
        return json.dumps(self.to_dict(), indent=2)

    def to_dict(self) -> dict:
        from ...stats.results import json_safe
        return json_safe({"kind": "design", "findings": list(self.findings["text"]), "confirmed": self.confirmed,
                          "values": self.sets, **{k: df.to_dict(orient="records")
                                                       for k, df in self.frames().items()},
                          "fragment": self.fragment(self.meta.get("fragment_path")) if self.confirmed else None,
                          "meta": self.meta})


def _inside(c) -> float:
    """How far the candidate's worst claim lies inside its bound, in the claim's own units (negative: outside)."""
    from .search import margin
    m = [margin(look) * max((look.high - look.low) / 2, 1e-12) for look in c.looks
         if look.decision != "not applicable"]
    return min(m) if m else 0.0


def closest(tried: list):
    """The setting to name when none is confirmed: of those the search kept longest (the most rounds, so the most
    games; the estimate of a setting dropped early is the noisiest, and the best of many noisy estimates flatters),
    the one whose worst claim lies furthest inside its bound."""
    last = max(c.rounds for c in tried)
    return max((c for c in tried if c.rounds == last), key=_inside)


def findings(d: Design) -> list[Finding]:
    alpha = d.meta["alpha"]
    tried = [c for c in d._candidates if c.looks]
    out = []
    if d.meta["interrupted"] and not d.confirmed:
        out.append(said("interrupted", "Interrupted before any setting was confirmed: nothing to recommend."))
    if d.confirmed:
        c, conf = d.chosen, d._confirmations[-1]
        what = "; ".join(f"{a.key} {_v(a.current)} -> {_v(v)}" for a, v in zip(d.axes, c.values)
                         if v != a.current) or "the scenario's own values"
        lines = [f"{r.claim}: {_fmt(r.key, r.estimate)} [{_fmt(r.key, r.ci_low)}, {_fmt(r.key, r.ci_high)}]"
                 for r in conf.claims.itertuples(index=False)]
        text = (f"Recommended: {what}. Every claim holds at {1 - alpha:.0%} confidence, confirmed on seed "
                f"{d.meta['seed']} (which no search round played; {int(conf.claims['games'].max()):,} games, "
                f"anytime-valid intervals): " + "; ".join(lines) + ".")
        if d.stronger is not None:
            text += f" It holds with {d.meta['strength']} players too."
        out.append(said("recommended", text))
        for r in d.effects.itertuples(index=False):
            if r.change == r.change and (r.change_low > 0 or r.change_high < 0):
                out.append(said("effect", f"{r.measure[0].upper()}{r.measure[1:]}: {100 * r.before:.1f} -> "
                                f"{100 * r.after:.1f} ({100 * r.change:+.1f} points, 95% CI {100 * r.change_low:+.1f} "
                                f"to {100 * r.change_high:+.1f}).", r.change, r.change_low, r.change_high))
    else:
        failing = [c for c in tried if c.status == "fail"]
        stronger = d.stronger is not None and d.stronger.outcome != "pass"
        text = ("The setting confirmed as written fails with stronger players: nothing is recommended. " if stronger
                else f"None of the {len(tried)} settings tried could be confirmed. ")
        if failing and len(failing) == len(tried) and not stronger:
            text += ("Each fails a claim outright at its last look (its interval beyond the bound, the error rate "
                     "split over the candidates of that round): none of the settings tried meets the claims"
                     f"{_of_space(d)}. ")
        best = closest(tried) if tried else None
        if best is not None:
            vals = ", ".join(f"{a.key}={_v(v)}" for a, v in zip(d.axes, best.values))
            worst = min(best.looks, key=lambda look: (look.decision != "fail", look.high - look.low))
            text += (f"The closest, {vals}: {worst.claim} at {_fmt(worst.key, worst.estimate)} "
                     f"[{_fmt(worst.key, worst.low)}, {_fmt(worst.key, worst.high)}].")
        out.append(said("none_confirmed", text))
    out.append(said("search", f"The search: {len(d._candidates)} settings on seed {d.meta['search_seed']}, raced by "
                    f"successive halving in {len(d.rounds)} rounds ({_games(d)} games in all); up to "
                    f"{d.meta['tries']} confirmed in order, each with {alpha / d.meta['tries']:.3g} of the error "
                    "rate."))
    return out


def _of_space(d: Design) -> str:
    sizes = [len(a.values) if a.values is not None else None for a in d.axes]
    if None in sizes:
        return ""
    total = math.prod(sizes)
    return " (every setting of the range)" if total == len([c for c in d._candidates if c.looks]) else \
        f" ({len(d._candidates)} of the {total:,} settings of the range)"


def _games(d: Design) -> str:
    return f"{sum(c.stepper.played for c in d._candidates if c.stepper is not None):,}"


def _fmt(key: str, x: float) -> str:
    return "-" if x != x else f"{x:.2f}" if key == "length_mean" else f"{100 * x:.1f}%"
