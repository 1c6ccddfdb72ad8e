"""Whether a finding holds as play gets stronger (``balance report --strength``, :func:`balance.strength`).

The scenario is played at up to three strengths (:mod:`.levels`: as written, tuned, lookahead players) on the same
seed and game indices, so every level sees the same deals and dice at the start of every game (common random
numbers). The main findings of the run as written become measures (:mod:`.measures`) read off every level, and each
gets a verdict: holds, grows, shrinks, vanishes or reverses (a gap), holds, rises or falls (a rate), with the change
and its 95% interval between the level as written and the strongest level played.
"""
from __future__ import annotations

import time

import pandas as pd

from ...run.runner import RunOptions, run
from ...scenario.model import ScenarioError
from ...stats.findings import Finding, said
from ..shown import Shown
from ..studies.study import as_scenario, dotted
from .levels import AS_WRITTEN, LOOKAHEAD, TUNED, Level, lookahead_level, lookahead_name, tuned_level
from .measures import MEANING, change, measures, verdict

DEFAULT_GAMES = 2_000

__all__ = ["AS_WRITTEN", "DEFAULT_GAMES", "LOOKAHEAD", "TUNED", "Strength", "lookahead_name", "strength"]


class Strength(Shown):
    """``table`` (one row per finding and level: estimate and 95% interval), ``verdicts`` (one row per finding: the
    level as written, the strongest level, the change with its interval, the verdict), ``levels`` (what each level
    played), ``results`` (each level's Results), ``tunings`` (the tunings run for the tuned level), ``findings``."""

    FINDINGS = "balance.analysis.strength:findings"
    PLOTS = "balance.present.strength_view:StrengthPlots"
    SUMMARY = "balance.present.strength_view:summary"
    MARKDOWN = "balance.present.strength_view:markdown"

    def __init__(self, levels: list[Level], results: dict, table: pd.DataFrame, verdicts: pd.DataFrame,
                 tunings: list, meta: dict):
        self.levels, self.results, self.table, self.verdicts = levels, results, table, verdicts
        self.tunings, self.meta = tunings, meta

    @property
    def level_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"level": [lv.name for lv in self.levels], "how": [lv.how for lv in self.levels],
                             "games": [self.results[lv.name].tallies.games for lv in self.levels]})

    def to_dict(self) -> dict:
        from ...stats.results import json_safe
        return json_safe({"findings": list(self.findings["text"]), "levels": self.level_frame.to_dict("records"),
                          "table": self.table.to_dict("records"), "verdicts": self.verdicts.to_dict("records"),
                          **self.meta})


def strength(scenario=None, *, games: int | None = None, seed: int | None = None, players: int | None = None,
             sets: dict | None = None, tuned=None, lookahead: bool = True, playouts: int | None = None,
             threads: int | None = None, progress=None) -> Strength:
    """Play ``scenario`` as written, with its strategies tuned and with lookahead players, on the same games, and say
    for each main finding whether it holds as play gets stronger.

    ``games``: games of each level (default 2,000: lookahead players are slow); ``tuned``: None to tune each seat's
    strategy here (``levels.tuned_level``), a scenario tuned before (a ``balance tune -o`` file), or False to leave
    the level out; ``lookahead``: False leaves that level out; ``playouts``: the lookahead's playouts per choice
    (default: its own); ``progress(line)``: told what is being played."""
    t0 = time.perf_counter()
    base = as_scenario(scenario, seed=seed, players=players, **dotted(sets))
    base = as_scenario(base, games=games or DEFAULT_GAMES)
    say = progress or (lambda line: None)
    levels = [Level(AS_WRITTEN, base, "the scenario's strategies")]
    level, tunings = tuned_level(base, tuned, threads, say)
    notes = []
    if level is not None:
        levels.append(level)
    elif tunings:
        notes.append(f"No tuned level: tuning ({', '.join(t.meta['target'] for t in tunings)}) confirmed no gain on "
                     "fresh seeds, so the strategies as written are as strong as tuning found them.")
    if lookahead:
        level = lookahead_level(base, playouts)
        if level is not None:
            levels.append(level)
    if len(levels) == 1:
        raise ScenarioError("--strength", f"{base.name}: no stronger play to compare with (no strategy parameter "
                            "to tune and no lookahead strategy in this game)")
    results = {}
    for lv in levels:
        say(f"playing {base.games:,} games {lv.name}")
        results[lv.name] = run(lv.scenario, RunOptions(threads=threads, progress=False, contrasts=False))
    table, verdicts = _compare(levels, results)
    meta = {"scenario": base.name, "game": base.spec().name, "title": base.spec().title, "seed": base.seed,
            "games": base.games, "players": base.players, "notes": notes, "seconds": time.perf_counter() - t0}
    return Strength(levels, results, table, verdicts, tunings, meta)


def _compare(levels: list[Level], results: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    written = results[AS_WRITTEN]
    rows, out = [], []
    strongest = levels[-1].name
    for m in measures(written):
        got = {lv.name: m.read(results[lv.name]) for lv in levels}
        for lv in levels:
            e, lo, hi = got[lv.name]
            rows.append({"finding": m.key, "what": m.what, "level": lv.name, "estimate": e, "ci_low": lo,
                         "ci_high": hi})
        d = change(got[AS_WRITTEN], got[strongest])
        out.append({"finding": m.key, "kind": m.kind, "what": m.what, "as_written": got[AS_WRITTEN][0],
                    "strongest_level": strongest, "strongest": got[strongest][0], "change": d[0],
                    "change_ci_low": d[1], "change_ci_high": d[2],
                    "verdict": verdict(m.kind, got[AS_WRITTEN], got[strongest], d)})
    return pd.DataFrame(rows), pd.DataFrame(out)


def _level_words(s: Strength, key: str) -> str:
    t = s.table[s.table["finding"] == key]
    parts = []
    for lv, (e, lo, hi) in zip(t["level"], t[["estimate", "ci_low", "ci_high"]].itertuples(index=False)):
        where = {AS_WRITTEN: "with the strategies as written", TUNED: "with tuned ones",
                 LOOKAHEAD: "with lookahead players"}[lv]
        parts.append(f"{100 * e:.1f} (95% CI {100 * lo:.1f} to {100 * hi:.1f}) {where}" if e == e
                     else f"not measured {where}")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def findings(s: Strength) -> list[Finding]:
    """One sentence per finding, in the order the measures come: its value at each level and the verdict."""
    out = []
    for v in s.verdicts.itertuples(index=False):
        unit = "points" if v.kind == "gap" else "percent"
        meaning = MEANING["holds_rate" if v.kind == "rate" and v.verdict == "holds" else v.verdict]
        head = f"{v.what[0].upper()}{v.what[1:]} is {_level_words(s, v.finding)} ({unit})"
        if v.verdict in ("unknown", "none"):
            text = f"{head}: {meaning}."
        else:
            text = (f"{head}: it {v.verdict} ({100 * v.change:+.1f} points from as written to {v.strongest_level}, "
                    f"95% CI {100 * v.change_ci_low:+.1f} to {100 * v.change_ci_high:+.1f}): {meaning}.")
        out.append(said(f"strength_{v.verdict}", text, v.change, v.change_ci_low, v.change_ci_high))
    return out + [said("strength_note", note) for note in s.meta.get("notes", [])]
