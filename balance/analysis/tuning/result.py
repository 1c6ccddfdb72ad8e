"""What `balance tune` found: the tuned values, their confirmation, the search that chose them, and the scenario
fragment that `extends` the original with the tuned values."""
from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from ...core.toml import dumps_toml
from ...scenario.model import Scenario
from ..fragment import fragment_table, write_checked
from ...stats.findings import Finding, said
from ..shown import Shown
from .search import Candidate, Confirmation
from .target import Target



class Tuning(Shown):
    """``tuned`` (one row per parameter: before and after), ``confirmation`` (the final confirmation: win rates before
    and after with 95% intervals, the paired gain), ``confirmations`` (each round's new leader), ``candidates`` and
    ``rounds`` (the search), ``findings``, ``scenario`` (the tuned scenario), ``fragment()`` and
    ``write_fragment(path)``; ``summary()``, ``to_markdown()`` and ``plot.search()``."""

    FINDINGS = "balance.analysis.tuning.result:findings"
    PLOTS = "balance.present.tuning_view:TuningPlots"
    SUMMARY = "balance.present.tuning_view:summary"
    MARKDOWN = "balance.present.tuning_view:markdown"

    def __init__(self, target: Target, base: Scenario, candidates: list[Candidate], rounds: list[dict],
                 confirmations: list[Confirmation], meta: dict):
        self.target, self.base, self._candidates = target, base, candidates
        self.rounds = pd.DataFrame(rounds, columns=["stage", "round", "games", "candidates", "kept", "leader",
                                                    "leader_win_rate", "scenario_win_rate"])
        self.confirmations = pd.DataFrame([asdict(c) for c in confirmations],
                                          columns=list(Confirmation.__dataclass_fields__))
        self._last = confirmations[-1] if confirmations else None
        self.meta = meta

    # --- what was found ------------------------------------------------------------------------------------------

    @property
    def confirmed(self) -> bool:
        """Whether a leader was confirmed (False only when interrupted before the first round ended)."""
        return self._last is not None

    @property
    def chosen(self) -> Candidate | None:
        return self._candidates[self._last.candidate] if self._last is not None else None

    @property
    def confirmation(self) -> pd.DataFrame:
        """The confirmation reported: the last one (the final round's leader), one row."""
        return self.confirmations.tail(1).reset_index(drop=True)

    @property
    def tuned(self) -> pd.DataFrame:
        """One row per tuned parameter: its key (as --set names it), the scenario's value, the tuned value, its
        range."""
        after = self.chosen.values if self.chosen is not None else [np.nan] * len(self.target.params)
        return pd.DataFrame({"key": [p.key for p in self.target.params],
                             "strategy": [self.base.seats[int(p.key.split(".")[1])].strategy
                                          for p in self.target.params],
                             "parameter": [p.name for p in self.target.params],
                             "before": [p.default for p in self.target.params],
                             "after": [float(x) for x in after],
                             "low": [p.low for p in self.target.params], "high": [p.high for p in self.target.params]})

    @property
    def candidates(self) -> pd.DataFrame:
        """Every candidate: its values, where it came from, the rounds it played, its games and win rate in the
        search (biased upwards for the winners: chosen on those games)."""
        rows = []
        for c in self._candidates:
            n = c.search.n
            row = {"candidate": c.index, "source": c.source}
            row.update({p.key: float(v) for p, v in zip(self.target.params, c.values)})
            row.update(rounds=len(c.rounds), games=n, search_win_rate=c.search.mean(n),
                       dropped_after_round=c.out_after, chosen=self.chosen is not None and c is self.chosen)
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def scenario(self) -> Scenario | None:
        """The tuned scenario (the scenario's seed and games), or None when nothing was confirmed."""
        return self.target.scenario(self.base, self.chosen.values) if self.chosen is not None else None

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"tuned": self.tuned, "confirmations": self.confirmations, "candidates": self.candidates,
                "rounds": self.rounds}

    # --- the fragment --------------------------------------------------------------------------------------------

    def fragment(self, path: str | os.PathLike | None = None) -> str:
        """The tuned scenario as TOML: a file that `extends` the scenario's file (its path relative to ``path``'s
        folder, or to the working folder) with the command line's changes and the tuned lineup; the whole scenario
        when it came from no file. Its seed and games are the scenario's."""
        tuned = self.scenario
        if tuned is None:
            raise ValueError("nothing was confirmed: no tuned values to write")
        c = self._last
        head = (f"# {self.meta['target']} tuned for {self.meta['metric']}: confirmed on seed {c.seed}, {c.games:,} "
                f"games of each (the search played seed {self.meta['search_seed']}):\n# {_pct(c.before)} with the "
                f"scenario's values, {_pct(c.after)} tuned, a gain of {_pp(c.gain)} points (95% CI {_pp(c.gain_lo)} "
                f"to {_pp(c.gain_hi)}).\n")
        name = f"{self.base.name}, tuned ({self.meta['target']})"
        seats = [{"name": s.strategy, **s.params} for s in tuned.seats]
        return head + dumps_toml(fragment_table(self.base, tuned, name, path, seats=seats))

    def write_fragment(self, path: str | os.PathLike) -> Path:
        """Write :meth:`fragment` to ``path`` (beside it first, then moved over it), after checking that it loads back
        to the tuned scenario."""
        return write_checked(path, self.fragment(path), self.scenario, self.base)

    def to_dict(self) -> dict:
        from ...stats.results import json_safe
        return json_safe({"kind": "tune", "findings": list(self.findings["text"]), "confirmed": self.confirmed,
                          "confirmation": self.confirmation.to_dict(orient="records")[0] if self.confirmed else None,
                          "tuned": self.tuned.to_dict(orient="records"),
                          "fragment": self.fragment(self.meta.get("fragment_path")) if self.confirmed else None,
                          **{k: df.to_dict(orient="records") for k, df in self.frames().items() if k != "tuned"},
                          "meta": self.meta})

    def to_json(self) -> str:
        import json
        return json.dumps(self.to_dict(), indent=2)


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def _values(t: Tuning) -> str:
    rows = t.tuned
    return ", ".join(f"{r.key} {r.before:g} -> {r.after:g}" for r in rows.itertuples())


def findings(t: Tuning) -> list[Finding]:
    """The confirmed result (kind ``tuned``: the gain with its paired interval, or ``kept`` when the search kept the
    scenario's values, or ``none_confirmed``), the values (``values``), the search (``search``) and an interrupt
    (``interrupted``)."""
    m = t.meta
    out = []
    if m["interrupted"]:
        out.append(said("interrupted", "Interrupted: " + (
            f"the last leader confirmed is reported (after round {t._last.round + 1} of the search)."
            if t.confirmed else "no leader was confirmed before the interrupt; nothing is reported.")))
    if not t.confirmed:
        return out
    c = t._last
    what = f"{m['target'][0].upper()}{m['target'][1:]}"
    where = (f"on seed {c.seed} (which no search round played), {c.games:,} games of each"
             + (f" ({c.counted:,} of them count: {m['metric']})" if c.counted != c.games else ""))
    if c.identical:
        out.append(said("kept", f"{what}: no candidate beat the scenario's values in the search, so they are kept: "
                        f"{m['metric']} {_pct(c.before)} (95% CI {_pct(c.before_lo)} to {_pct(c.before_hi)}) {where}.",
                        0.0, 0.0, 0.0))
    else:
        sig = c.gain_lo > 0 or c.gain_hi < 0
        verdict = ("a confirmed gain" if c.gain_lo > 0 else "a confirmed loss" if c.gain_hi < 0 else
                   "no gain beyond chance")
        out.append(said("tuned", f"{what}, tuned: {m['metric']} {_pct(c.before)} with the scenario's values, "
                        f"{_pct(c.after)} tuned, {verdict}: {_pp(c.gain)} points (95% CI {_pp(c.gain_lo)} to "
                        f"{_pp(c.gain_hi)}, from the paired games) {where}."
                        + ("" if sig else " The tuned values are not shown to be better."), c.gain, c.gain_lo,
                        c.gain_hi))
        out.append(said("values", f"Tuned values: {_values(t)}."))
    chosen = t.chosen
    n = min(chosen.search.n, t._candidates[0].search.n)       # the games both played
    biased = chosen.search.mean(n) - t._candidates[0].search.mean(n)
    stages = t.rounds["stage"].nunique()
    text = (f"The search: {m['candidates']} candidates (the scenario's values; Sobol points of the whole parameter "
            f"box and of a box a quarter as wide around the scenario's values"
            + (f"; then {stages - 1} stage{'s' if stages > 2 else ''} of Sobol points in narrower boxes around the "
               "leader" if stages > 1 else "")
            + f"), raced by successive halving in {len(t.rounds)} rounds on seed {m['search_seed']}, "
            f"{m['first_round']:,} to {int(t.rounds['games'].max()):,} games each, {m['search_games']:,} games in "
            f"all; the confirmations played {m['confirm_played']:,}.")
    if chosen.index != 0:
        text += (f" The search's own estimate of the chosen values' gain, {_pp(biased)} points on the {n:,} games of "
                 "the search seed both played, is biased upwards by the choice; the confirmation is not.")
    out.append(said("search", text, biased))
    return out
