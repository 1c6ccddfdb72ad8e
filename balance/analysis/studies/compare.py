"""``balance compare``: scenario A against a variant B on common random numbers, every metric with the paired
difference's interval and what the pairing saved; optionally until a named question is answered (sequentially)."""
from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from ...stats.extremes import family_z, widen
from ...stats.findings import Finding, said
from .paired import STUDY_CHUNK, pair_rows, play_paired
from .sequential import DEFAULT_ALPHA, SequentialTest, parse_question
from .groups import WIN
from .study import (GROUP_KINDS, MANY_LABELS, Study, as_scenario, describe_metric, dotted, fmt_diff, fmt_gain,
                    fmt_value, group_names, group_rows, is_rate, new_figure, notes,
                    plain_key)


class Comparison(Study):
    """A against B: ``table`` (one row per metric: a, b, diff, diff_lo, diff_hi, pairing_gain, ...), ``decision``
    (sequential mode), ``findings``, ``summary()``, ``plot.differences()``, ``write_report(dir)``."""

    kind = "compare"

    def __init__(self, table: pd.DataFrame, meta: dict, decision: dict | None = None, looks: list | None = None):
        self.table, self.meta, self.decision, self.looks = table, meta, decision, looks or []

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"compare": self.table}

    @cached_property
    def core(self) -> pd.DataFrame:
        t = self.table[~self.table["kind"].isin(("item", *GROUP_KINDS))]
        return t[(t["kind"] != "victory") | (t["a"] > 0) | (t["b"] > 0)]       # no empty victory kinds

    @cached_property
    def item_family(self) -> int:
        """How many per-item metrics there are: the changed ones are picked from all of them, so their intervals
        are adjusted for that many (``stats.extremes``)."""
        return int((self.table["kind"] == "item").sum())

    @property
    def group_names(self) -> list[str]:
        """The game's own groups `balance run` reports (The Haunted Tower: "hero"; Climbing Tower: "tower", "BOSS
        side"); none for a game without them."""
        return group_names(self.table)

    def group(self, name: str) -> pd.DataFrame:
        """One group's rows: per ``label`` and ``measure`` (the win rate, then each mean), A, B, the paired
        difference with its 95% interval and the pairing's gain."""
        return group_rows(self.table, name)

    def _group_wins(self, name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        """A group's win rates, and those whose paired interval excludes 0, the largest in standard errors first."""
        win = self.group(name)
        win = win[win["measure"] == WIN]
        moved = win[(win["diff_lo"] > 0) | (win["diff_hi"] < 0)]
        z = (moved["diff"] / (moved["diff_sd"] / np.sqrt(moved["games"]))).abs()
        return win, moved.assign(_z=z).sort_values("_z", ascending=False).drop(columns="_z")

    def changed_items(self, top: int = 10) -> pd.DataFrame:
        """Per-item metrics whose 95% interval, adjusted for the number of per-item metrics, excludes 0; the largest
        changes (in standard errors) first. The rows keep their plain intervals."""
        items = self.table[self.table["kind"] == "item"]
        lo, hi = widen(items["diff"], items["diff_lo"], items["diff_hi"], family_z(self.item_family))
        items = items[(lo > 0) | (hi < 0)]
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
        for name in self.group_names:
            win, moved = self._group_wins(name)
            if len(win) <= MANY_LABELS:
                title, rows = f"Per {name}: win rate (every {name} measure in --out/--json)", win
            elif len(moved):
                title = (f"Per {name}: the {min(len(moved), 10)} win rates that changed most beyond chance, of "
                         f"{len(win)} compared (about 1 in 20 would by chance alone; all in --out/--json)")
                rows = moved.head(10)
            else:
                continue
            out[title] = show(rows).assign(metric=list(rows["label"])).rename(columns={"metric": name})
        items = self.changed_items()
        if len(items):
            out[f"Per-item counters that changed (beyond 95% intervals adjusted for the {self.item_family:,} per-item "
                f"counters; the {len(items)} largest; all in --out/--json)"] = show(items)
        if self.decision:
            d = self.decision
            out["Question"] = pd.DataFrame([{"question": d["question"], "answer": d["answer"],
                                             "estimate": f"{d['estimate']:+.4f}",
                                             "confidence sequence": f"[{d['lo']:+.4f}, {d['hi']:+.4f}]",
                                             "games": f"{d['games']:,}"}])
        return out

    def _findings(self) -> list[Finding]:
        """The answer to the question (kind ``question``), each metric that changed beyond chance and the team's and
        the spread's (``difference``: B minus A with its interval), what the pairing saved (``pairing_gain``: the
        variance ratio), each of the game's groups (``group``: its clearest change) and the item counters that
        changed most (``item_difference``)."""
        out = []
        if self.decision:
            d = self.decision
            word = {"yes": "Yes", "no": "No", "inconclusive": "Not decided"}[d["answer"]]
            out.append(said("question", f"{word}: {d['question']} (estimate {d['estimate']:+.4f}, anytime-valid 95% "
                            f"bounds {d['lo']:+.4f} to {d['hi']:+.4f}, after {d['games']:,} games of each). "
                            f"{d['guarantee']}.", d["estimate"], d["lo"], d["hi"]))
        core = self.core
        if (core["diff"] == 0).all() and (core["diff_sd"] == 0).all():
            out.append(said("identical", "A and B played exactly the same games: every difference is 0.", 0, 0, 0))
            return out
        for _, r in core.iterrows():
            if r["kind"] in ("team", "spread") or (r["diff_lo"] > 0 or r["diff_hi"] < 0):
                out.append(self._sentence(r))
        gains = core[(core["kind"].isin(["seat", "team"])) & np.isfinite(core["pairing_gain"])]["pairing_gain"]
        if len(gains):
            g, n = float(gains.median()), int(core["games"].iloc[0])
            out.append(said("pairing_gain", f"Pairing A and B on common random numbers made the win-rate differences "
                            f"{g:.1f} times more precise (in variance) than independent runs: those would have "
                            f"needed about {int(round(g * n)):,} games of each scenario instead of {n:,}.", g))
        for name in self.group_names:
            out.append(self._group_sentence(name))
        for _, r in self.changed_items(3).iterrows():
            out.append(self._sentence(r, self.item_family))
        return out

    def _group_sentence(self, name: str) -> Finding:
        win, moved = self._group_wins(name)
        text = (f"Per {name}: {len(moved)} of {len(win)} win rates changed beyond chance (paired 95% intervals"
                + (", and about 1 in 20 would by chance alone)" if len(win) >= 20 else ")"))
        if not len(moved):
            return said("group", text + ".")
        r = moved.iloc[0]
        text += (f"; the clearest: {r['label']}, {fmt_value('group', r['a'])} in A and "
                 f"{fmt_value('group', r['b'])} in B ({fmt_diff('group', r['diff'])} points, 95% CI "
                 f"{fmt_diff('group', r['diff_lo'])} to {fmt_diff('group', r['diff_hi'])})")
        return said("group", text + ".", r["diff"], r["diff_lo"], r["diff_hi"])

    def _sentence(self, r, family: int = 1) -> Finding:
        """One metric in words; ``family``: the metrics it was picked from (its interval is adjusted for them)."""
        k = r["kind"]
        what = describe_metric(r["metric"], k)
        lo, hi = (float(x) for x in widen(r["diff"], r["diff_lo"], r["diff_hi"], family_z(family)))
        sig = lo > 0 or hi < 0
        u = " points" if is_rate(k) else ""
        ci = "95% CI" if family == 1 else f"95% CI adjusted for the {family:,} item counters:"
        return said("difference" if family == 1 else "item_difference",
                    f"{what[0].upper()}{what[1:]}: {fmt_value(k, r['a'])} in A, {fmt_value(k, r['b'])} in B, a "
                    f"change of {fmt_diff(k, r['diff'])}{u} ({ci} {fmt_diff(k, lo)} to {fmt_diff(k, hi)})"
                    + ("" if sig else ", within what chance alone gives") + ".", r["diff"], lo, hi)

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
            client=None, both: dict | None = None) -> Comparison:
    """Play scenario ``a`` and ``b`` (or ``a`` with ``sets``, dotted --set keys) on common random numbers.

    ``games`` (default A's), ``seed``, ``players`` override both; so do ``both`` (--both-set keys, laid under
    ``sets``: "with three collectors, what does the 12's worth change?" is ``both={"players": 3, "strategy":
    "collector"}, sets={"components.buildings.12.ghost_worth": 1}``). ``target_ci``: play until every seat's (or the
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
    both = dotted(both)
    sa = as_scenario(a, **(common | both))
    sets = dotted(sets)
    if {"seed", "games"} & {plain_key(k) for k in sets}:
        raise ValueError("compare: --set seed or games for B (allowed: --seed and -n, shared by A and B: a paired "
                         "run plays the same games of each)")
    shared = {"seed": sa.seed, "games": sa.games, "players": players}
    sb = as_scenario(b if b is not None else sa, **((both if b is not None else {}) | sets | shared))
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
    def changed(name: str, keys: dict) -> str:
        return name + (" with " + ", ".join(f"{plain_key(k)}={v}" for k, v in keys.items()) if keys else "")
    a_name = changed(sa.name, both)
    b_name = changed(sb.name, both) if b is not None else changed(sa.name, both | sets)
    meta = {"title": f"{a_name} against {b_name}", "a": a_name, "b": b_name, "game": sa.game, "seed": sa.seed,
            "games": played.games, "a_hash": sa.hash(), "b_hash": sb.hash(), "interrupted": played.interrupted,
            "target_ci": target_ci, "timing": played.timing,
            "heading": f"A: {a_name}  |  B: {b_name}  |  {played.games:,} games of each, seed {sa.seed}, "
                       "common random numbers", **notes([("A", sa), ("B", sb)])}
    return Comparison(table, meta, decision, played.looks)
