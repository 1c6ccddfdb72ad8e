"""``balance compare``: scenario A against a variant B on common random numbers, every metric with the paired
difference's interval and what the pairing saved; optionally until a named question is answered (sequentially)."""
from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from .paired import STUDY_CHUNK, pair_rows, play_paired
from .sequential import DEFAULT_ALPHA, SequentialTest, parse_question
from .study import (Study, as_scenario, describe_metric, dotted, fmt_diff, fmt_gain, fmt_value, is_rate,
                    new_figure)


class Comparison(Study):
    """A against B: ``table`` (one row per metric: a, b, diff, diff_lo, diff_hi, pairing_gain, ...), ``decision``
    (sequential mode), ``findings()``, ``summary()``, ``plot.differences()``, ``write_report(dir)``."""

    kind = "compare"

    def __init__(self, table: pd.DataFrame, meta: dict, decision: dict | None = None, looks: list | None = None):
        self.table, self.meta, self.decision, self.looks = table, meta, decision, looks or []

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"compare": self.table}

    @cached_property
    def core(self) -> pd.DataFrame:
        t = self.table[self.table["kind"] != "item"]
        return t[(t["kind"] != "victory") | (t["a"] > 0) | (t["b"] > 0)]       # no empty victory kinds

    def changed_items(self, top: int = 10) -> pd.DataFrame:
        """Per-item metrics whose interval excludes 0, the largest changes (in standard errors) first."""
        items = self.table[(self.table["kind"] == "item") & ((self.table["diff_lo"] > 0) | (self.table["diff_hi"] < 0))]
        z = (items["diff"] / (items["diff_sd"] / np.sqrt(items["games"]))).abs()
        return items.assign(_z=z).sort_values("_z", ascending=False).drop(columns="_z").head(top)

    def display_tables(self) -> dict[str, pd.DataFrame]:
        def show(df):
            return pd.DataFrame({
                "metric": df["metric"], "A": [fmt_value(k, x) for k, x in zip(df["kind"], df["a"])],
                "B": [fmt_value(k, x) for k, x in zip(df["kind"], df["b"])],
                "B - A": [fmt_diff(k, x) for k, x in zip(df["kind"], df["diff"])],
                "95% CI": [f"[{fmt_diff(k, lo)}, {fmt_diff(k, hi)}]"
                           for k, lo, hi in zip(df["kind"], df["diff_lo"], df["diff_hi"])],
                "pairing gain": [fmt_gain(g) for g in df["pairing_gain"]]})
        out = {"Metrics (rates in %, differences in points)": show(self.core)}
        items = self.changed_items()
        if len(items):
            out[f"Per-item counters that changed (the {len(items)} largest; all in --out/--json)"] = show(items)
        if self.decision:
            d = self.decision
            out["Question"] = pd.DataFrame([{"question": d["question"], "answer": d["answer"],
                                             "estimate": f"{d['estimate']:+.4f}",
                                             "confidence sequence": f"[{d['lo']:+.4f}, {d['hi']:+.4f}]",
                                             "games": f"{d['games']:,}"}])
        return out

    def findings(self) -> list[str]:
        out = []
        if self.decision:
            d = self.decision
            word = {"yes": "Yes", "no": "No", "inconclusive": "Not decided"}[d["answer"]]
            out.append(f"{word}: {d['question']} (estimate {d['estimate']:+.4f}, anytime-valid 95% bounds "
                       f"{d['lo']:+.4f} to {d['hi']:+.4f}, after {d['games']:,} games of each). {d['guarantee']}.")
        core = self.core
        if (core["diff"] == 0).all() and (core["diff_sd"] == 0).all():
            out.append("A and B played exactly the same games: every difference is 0.")
            return out
        for _, r in core.iterrows():
            if r["kind"] in ("team", "spread") or (r["diff_lo"] > 0 or r["diff_hi"] < 0):
                out.append(self._sentence(r))
        gains = core[(core["kind"].isin(["seat", "team"])) & np.isfinite(core["pairing_gain"])]["pairing_gain"]
        if len(gains):
            g, n = float(gains.median()), int(core["games"].iloc[0])
            out.append(f"Pairing A and B on common random numbers made the win-rate differences {g:.1f} times more "
                       f"precise (in variance) than independent runs: those would have needed about "
                       f"{int(round(g * n)):,} games of each scenario instead of {n:,}.")
        for _, r in self.changed_items(3).iterrows():
            out.append(self._sentence(r))
        return out

    def _sentence(self, r) -> str:
        k = r["kind"]
        what = describe_metric(r["metric"], k)
        sig = r["diff_lo"] > 0 or r["diff_hi"] < 0
        u = " points" if is_rate(k) else ""
        return (f"{what[0].upper()}{what[1:]}: {fmt_value(k, r['a'])} in A, {fmt_value(k, r['b'])} in B, a change "
                f"of {fmt_diff(k, r['diff'])}{u} (95% CI {fmt_diff(k, r['diff_lo'])} to {fmt_diff(k, r['diff_hi'])})"
                + ("" if sig else ", within what chance alone gives") + ".")

    def figures(self) -> dict:
        return {"differences": self.plot.differences}

    @property
    def plot(self):
        return _ComparePlots(self)


class _ComparePlots:
    def __init__(self, comparison: Comparison):
        self.c = comparison

    def differences(self):
        """B - A for every rate metric in points, with its 95% interval as an error bar."""
        df = self.c.core[self.c.core["kind"].isin(["seat", "team", "victory", "spread"])]
        df = df[(df["a"] > 0) | (df["b"] > 0)]          # no empty categories
        fig = new_figure(figsize=(7, 0.45 * len(df) + 1.5))
        ax = fig.subplots()
        y = np.arange(len(df))
        d = 100 * df["diff"].to_numpy()
        err = 100 * np.vstack([df["diff"] - df["diff_lo"], df["diff_hi"] - df["diff"]])
        ax.errorbar(d, y, xerr=err, fmt="o", capsize=4)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(y, df["metric"])
        ax.set_xlabel("B - A (percentage points), 95% CI from the paired games")
        ax.set_title("Rates in B against A (common random numbers)")
        fig.tight_layout()
        return fig


def compare(a=None, b=None, sets: dict | None = None, *, games: int | None = None, seed: int | None = None,
            players: int | None = None, threads: int | None = None, target_ci: float | None = None,
            max_games: int = 10_000_000, question: str | None = None, until_decided: bool = False,
            alpha: float = DEFAULT_ALPHA, chunk_size: int = STUDY_CHUNK, progress=None,
            client=None) -> Comparison:
    """Play scenario ``a`` and ``b`` (or ``a`` with ``sets``, dotted --set keys) on common random numbers.

    ``games`` (default A's), ``seed``, ``players`` override both. ``target_ci``: play until every seat's (or the
    team's) paired win-rate difference has a 95% interval at most this wide. ``question`` with ``until_decided``:
    look after each chunk with an anytime-valid confidence sequence (:mod:`.sequential`) and stop when answered or
    at ``max_games``; ``question`` alone is answered (with the same sequence) after the fixed games. ``client``: a
    ``dask.distributed.Client`` whose workers play the games (the same numbers as here)."""
    if b is None and not sets:
        raise ValueError("compare: give a second scenario or --set changes (allowed: compare A B, or compare A "
                         "--set key=value)")
    if games is not None and (target_ci is not None or until_decided):
        raise ValueError(f"-n {games} with {'--target-ci' if target_ci else '--until-decided'}: give one of them "
                         "(--max-games caps the adaptive modes)")
    if until_decided and not question:
        raise ValueError("--until-decided needs --question, e.g. \"seat_spread(B) < seat_spread(A)\"")
    common = {"games": games, "seed": seed, "players": players}
    sa = as_scenario(a, **common)
    sets = dotted(sets)
    if {"seed", "games"} & set(sets):
        raise ValueError("compare: --set seed or games for B (allowed: --seed and -n, shared by A and B: a paired "
                         "run plays the same games of each)")
    sb = as_scenario(b if b is not None else sa, **(sets | {"seed": sa.seed, "games": sa.games, "players": players}))
    test = None
    if question:
        from .paired import Layout, PairSums
        test = SequentialTest(parse_question(question), PairSums.empty(Layout.of(sa), Layout.of(sb)).resolve, alpha)
    played = play_paired(sa, [sb], games=sa.games, threads=threads, chunk_size=chunk_size, target_ci=target_ci,
                         max_games=max_games, until=test if until_decided else None, progress=progress,
                         client=client)
    s = played.sums[0]
    table = pd.DataFrame(pair_rows(s))
    decision = None
    if test is not None:
        look = test.look(s.core)
        decision = {"question": test.question.text, "answer": look.decision or "inconclusive",
                    "estimate": look.estimate, "lo": look.lo, "hi": look.hi, "games": played.games,
                    "alpha": alpha, "guarantee": test.guarantee(), "max_games": max_games if until_decided else None}
    b_name = sb.name if b is not None else f"{sa.name} with " + ", ".join(f"{k}={v}" for k, v in (sets or {}).items())
    meta = {"title": f"{sa.name} against {b_name}", "a": sa.name, "b": b_name, "game": sa.game, "seed": sa.seed,
            "games": played.games, "a_hash": sa.hash(), "b_hash": sb.hash(), "interrupted": played.interrupted,
            "target_ci": target_ci, "timing": played.timing,
            "heading": f"A: {sa.name}  |  B: {b_name}  |  {played.games:,} games of each, seed {sa.seed}, "
                       "common random numbers"}
    return Comparison(table, meta, decision, played.looks)
