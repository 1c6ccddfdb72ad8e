"""``balance sweep``: every combination of the listed values of scenario keys, on common random numbers across
cells, as one tidy DataFrame (cell settings x metric, with intervals) and line plots or a heatmap."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ...stats.extremes import family_z, pick_extreme, widen
from ...stats.findings import Finding, said
from .paired import STUDY_CHUNK, pair_rows, play_paired
from .sequential import fixed_bounds
from .groups import WIN
from .study import (MANY_LABELS, Study, as_scenario, dotted, fmt_diff, fmt_value, group_names, group_rows, is_rate,
                    new_figure, notes, plain_key)

MAX_CELLS = 400


class Sweep(Study):
    """``table``: one row per (cell, metric) with the cell's settings as columns, ``value`` with ``value_lo`` and
    ``value_hi`` (95%), ``diff`` from the first cell with its paired interval, and ``games``; ``plot.lines()``,
    ``plot.heatmap()``, ``write_report(dir)`` (also sweep.parquet and sweep.csv)."""

    kind = "sweep"

    def __init__(self, table: pd.DataFrame, keys: list[str], meta: dict):
        self.table, self.keys, self.meta = table, keys, meta

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"sweep": self.table}

    @property
    def primary(self) -> list[str]:
        """The metrics a designer reads first: the team win rate, or the seat spread, then mean turns."""
        kinds = set(self.table["kind"])
        return (["win_rate"] if "team" in kinds else ["seat_spread"]) + ["turns"]

    def wide(self, metrics=None) -> pd.DataFrame:
        metrics = metrics or self.primary
        t = self.table[self.table["metric"].isin(metrics)]
        return t.pivot_table(index=["cell"] + self.keys, columns="metric", values="value", sort=False).reset_index()

    @property
    def group_names(self) -> list[str]:
        """The game's own groups `balance run` reports (The Haunted Tower: "hero"; Climbing Tower: "tower", "BOSS
        side"); none for a game without them."""
        return group_names(self.table)

    def group(self, name: str) -> pd.DataFrame:
        """One group's rows: per cell, ``label`` and ``measure`` (the win rate, then each mean), the value with its
        95% interval and the paired difference from the first cell."""
        return group_rows(self.table, name)

    def _group_table(self, name: str) -> tuple[str, pd.DataFrame]:
        """Per cell, each label's win rate with its interval; a group of many labels: how many were played and the
        lowest and highest of them."""
        win = self.group(name)
        win = win[win["measure"] == WIN]
        labels = list(dict.fromkeys(win["label"]))
        rows = []
        for _, df in win.groupby("cell", sort=True):
            row = {k: df[k].iloc[0] for k in self.keys}
            shown = lambda r: fmt_value("group", r["value"]) + (   # noqa: E731
                "" if np.isnan(r["value_lo"]) else f" [{fmt_value('group', r['value_lo'])}, "
                                                   f"{fmt_value('group', r['value_hi'])}]")
            played = df[df["value"].notna()]
            if len(labels) <= MANY_LABELS:
                row.update({r["label"]: shown(r) for _, r in df.iterrows()})
            elif len(played):
                low, high = played.loc[played["value"].idxmin()], played.loc[played["value"].idxmax()]
                row.update({"labels played": len(played), "lowest": f"{low['label']}: {shown(low)}",
                            "highest": f"{high['label']}: {shown(high)}"})
            rows.append(row)
        if len(labels) <= MANY_LABELS:
            return f"Per {name}: win rate by cell (95% intervals; every {name} measure in --json and -o)", \
                pd.DataFrame(rows).fillna("-")
        return (f"Per {name}: win rate by cell, the lowest and highest of its {len(labels)} labels (extremes of "
                f"many small samples; every {name} in --json and -o)", pd.DataFrame(rows).fillna("-"))

    def display_tables(self) -> dict[str, pd.DataFrame]:
        """Per cell: the primary metrics and the victory kinds that occur (every metric: ``table``), then each of
        the game's own groups (per hero, per tower...)."""
        t = self.table[self.table["metric"].isin(self.primary) | (self.table["kind"] == "victory")]
        t = t[~((t["kind"] == "victory") & (t.groupby("metric")["value"].transform("max") == 0))]
        rows = []
        for cell, df in t.groupby("cell", sort=True):
            row = {k: df[k].iloc[0] for k in self.keys}
            for _, r in df.iterrows():
                ci = "" if np.isnan(r["value_lo"]) else f" [{fmt_value(r['kind'], r['value_lo'])}, " \
                                                           f"{fmt_value(r['kind'], r['value_hi'])}]"
                row[r["metric"]] = fmt_value(r["kind"], r["value"]) + ci
            row["games"] = f"{int(df['games'].iloc[0]):,}"
            rows.append(row)
        out = {"Cells (95% intervals; every metric in --json and -o)": pd.DataFrame(rows).fillna("-")}
        for name in self.group_names:
            title, df = self._group_table(name)
            out[title] = df
        return out

    def _findings(self) -> list[Finding]:
        """Per primary metric, the best cell (``best_cell`` when the data separate it from the rest, else
        ``no_clear_extreme``: its value with the interval adjusted for the cells) and how many cells differ from
        the first (``cells_differ``: the largest such change, if any); then each of the game's groups (``group``)."""
        out = []
        for metric in self.primary:
            t = self.table[self.table["metric"] == metric]
            if t.empty:
                continue
            kind = t["kind"].iloc[0]
            low_best = metric == "seat_spread"
            word = {"seat_spread": "smallest seat spread", "win_rate": "highest team win rate",
                    "turns": "longest games"}.get(metric, f"highest {metric}")
            ends = []
            for highest in (not low_best, low_best):
                e = pick_extreme(t["value"], lambda z: widen(t["value"], t["value_lo"], t["value_hi"], z), highest)
                row = t.iloc[e.index]
                ci = ("" if not np.isfinite(e.lo) else
                      f"; {e.adjusted(lambda x: fmt_value(kind, x), 'cells')}")
                names = [f"{self._cell(x)}: {fmt_value(kind, x['value'])}" for _, x in t.iterrows()]
                ends.append((e, f"{self._cell(row)} ({fmt_value(kind, row['value'])}{ci})", names))
            (e, best, names), (_, worst, _) = ends
            if e.clear:
                head = f"The {word}: {best}"
            elif not np.isfinite(e.lo):         # the seat spread of a cell has no interval of its own
                head = (f"The {word} of the {e.k} cells as played: {best}; a cell's own spread has no interval, so "
                        "no cell is called the smallest beyond chance")
            else:
                head = f"The {word} of the {e.k} cells as played: {best}, but {e.rivals_text(names)}"
            out.append(said("best_cell" if e.clear else "no_clear_extreme", f"{head}; at the other end {worst}.",
                            e.value, e.lo, e.hi))
            others = max(len(t) - 1, 1)
            lo, hi = (np.asarray(x, dtype=float) for x in widen(t["diff"], t["diff_lo"], t["diff_hi"],
                                                                family_z(others)))
            at = np.flatnonzero((t["cell"].to_numpy() > 0) & ((lo > 0) | (hi < 0)))     # the cells that moved
            u = " points" if is_rate(kind) else ""
            family = "" if others == 1 else f", adjusted for the {others} cells"
            text = (f"{len(at)} of {len(t) - 1} cells differ from the first ({self._cell(t.iloc[0])}) in {metric} "
                    f"beyond chance (paired 95% intervals of the difference{family})")
            if not len(at):
                out.append(said("cells_differ", text + "."))
                continue
            j = at[np.argmax(np.abs(t["diff"].to_numpy()[at]))]        # the largest change, with its interval
            out.append(said("cells_differ", f"{text}; the largest change is {fmt_diff(kind, t['diff'].iloc[j])}{u}.",
                            t["diff"].iloc[j], lo[j], hi[j]))
        for name in self.group_names:
            out.append(self._group_sentence(name))
        return out

    def _group_sentence(self, name: str) -> Finding:
        win = self.group(name)
        win = win[(win["measure"] == WIN) & (win["cell"] > 0)]
        n_labels = win["label"].nunique()
        moved = win[(win["diff_lo"] > 0) | (win["diff_hi"] < 0)]
        text = (f"Per {name}: {moved['label'].nunique()} of the {n_labels} win rates differ from the first cell's "
                f"in some cell beyond chance (paired 95% intervals"
                + (", and about 1 in 20 comparisons would by chance alone)" if len(win) >= 20 else ")"))
        if not len(moved):
            return said("group", text + ".")
        z = (moved["diff"] / (moved["diff_hi"] - moved["diff_lo"])).abs()       # in standard errors, halved
        r = moved.loc[z.idxmax()]
        text += (f"; the clearest: {r['label']} at {self._cell(r)}, {fmt_diff('group', r['diff'])} points "
                 f"(95% CI {fmt_diff('group', r['diff_lo'])} to {fmt_diff('group', r['diff_hi'])})")
        return said("group", text + ".", r["diff"], r["diff_lo"], r["diff_hi"])

    def _cell(self, row) -> str:
        return ", ".join(f"{k}={row[k]}" for k in self.keys)

    def figures(self) -> dict:
        return {"sweep": self.plot.heatmap if len(self.keys) == 2 else self.plot.lines}

    @property
    def plot(self):
        return _SweepPlots(self)


class _SweepPlots:
    def __init__(self, sweep: Sweep):
        self.s = sweep

    def lines(self, metrics=None):
        """Each metric against the first key's values (one line per combination of the other keys), with 95%
        error bars; rates in %."""
        metrics = metrics or self.s.primary
        keys = self.s.keys
        fig = new_figure(figsize=(5 * len(metrics), 3.6))
        axes = fig.subplots(1, len(metrics), squeeze=False)
        for ax, metric in zip(axes[0], metrics):
            t = self.s.table[self.s.table["metric"] == metric]
            scale = 100 if is_rate(t["kind"].iloc[0]) else 1
            groups = t.groupby(keys[1:], sort=False) if len(keys) > 1 else [((), t)]
            for label, df in groups:
                x = np.arange(len(df))
                y = scale * df["value"].to_numpy()
                err = scale * np.vstack([df["value"] - df["value_lo"], df["value_hi"] - df["value"]])
                ax.errorbar(x, y, yerr=np.nan_to_num(err), marker="o", capsize=3,
                            label=", ".join(f"{k}={v}" for k, v in zip(keys[1:], np.atleast_1d(label))) or None)
                ax.set_xticks(x, [str(v) for v in df[keys[0]]], rotation=30)
            ax.set_xlabel(keys[0])
            ax.set_ylabel(f"{metric} ({'%' if scale == 100 else 'mean'})")
            if len(keys) > 1:
                ax.legend(fontsize=7)
        fig.suptitle("Sweep: each cell on the same seeds (common random numbers); bars are 95% intervals")
        fig.tight_layout()
        return fig

    def heatmap(self, metric=None):
        """One metric over the two keys' values (rates in %)."""
        metric = metric or self.s.primary[0]
        k1, k2 = self.s.keys[:2]
        t = self.s.table[self.s.table["metric"] == metric]
        scale = 100 if is_rate(t["kind"].iloc[0]) else 1
        grid = t.pivot_table(index=k1, columns=k2, values="value", sort=False) * scale
        fig = new_figure(figsize=(1.2 * grid.shape[1] + 3, 0.8 * grid.shape[0] + 2))
        ax = fig.subplots()
        im = ax.imshow(grid.to_numpy(), cmap="viridis", aspect="auto")
        ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
        ax.set_yticks(range(grid.shape[0]), [str(i) for i in grid.index])
        ax.set_xlabel(k2)
        ax.set_ylabel(k1)
        for (i, j), v in np.ndenumerate(grid.to_numpy()):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", color="w", fontsize=8)
        fig.colorbar(im, label=f"{metric} ({'%' if scale == 100 else 'mean'})")
        ax.set_title(f"{metric} in each cell (common random numbers)")
        fig.tight_layout()
        return fig


def sweep(scenario=None, grid: dict | None = None, *, games: int | None = None, seed: int | None = None,
          players: int | None = None, threads: int | None = None, target_ci: float | None = None,
          max_games: int = 10_000_000, chunk_size: int = STUDY_CHUNK, progress=None, client=None) -> Sweep:
    """Play every combination of ``grid`` ({dotted key: [values]}) on the same seed and game indices.

    Each cell is played paired with the first cell (its differences get paired intervals): all in one pass, the
    first cell played once; with ``target_ci``, one cell at a time, each until its own seat (or team) win-rate
    intervals are at most that wide.
    ``progress(cells_done)`` is called after each cell (and as the one pass goes, in cells' worth of games). A
    Ctrl-C stops it marked interrupted: in one pass every cell has the games played so far. ``client``: a
    ``dask.distributed.Client`` whose workers play the games, every cell of a range in one task (the same numbers
    as here)."""
    if not grid:
        raise ValueError("sweep: give at least one --set key=v1,v2,... (allowed: any scenario key)")
    if games is not None and target_ci is not None:
        raise ValueError(f"-n {games} with --target-ci {target_ci}: give one of them")
    keys = list(grid)
    shared = [k for k in keys if plain_key(k) in ("seed", "games")]
    if shared:
        raise ValueError(f"sweep: --set {shared[0]}: every cell plays the same games on the same seed (allowed: "
                         "--seed and -n, shared by every cell)")
    values = [list(grid[k]) for k in keys]
    if any(not v for v in values):
        raise ValueError("sweep: a --set with no values (allowed: key=v1,v2,...)")
    combos = list(itertools.product(*values))
    if len(combos) > MAX_CELLS:
        raise ValueError(f"sweep: {len(combos)} cells (allowed: at most {MAX_CELLS})")
    base = as_scenario(scenario, games=games, seed=seed, players=players)
    common = {k: v for k, v in {"games": games, "seed": seed, "players": players}.items() if v is not None}
    # each cell from the scenario as given (a file, a dict, the default), as `run --players 2` reads it
    cells = [as_scenario(scenario, **(common | dotted(dict(zip(keys, combo))) | {"seed": base.seed}))
             for combo in combos]
    rows, timing, played_total = [], {"compile_s": 0.0, "simulate_s": 0.0}, 0
    interrupted = False
    # With a fixed number of games every cell plays in one pass beside the first cell, which is then played once
    # rather than once more for every cell (n + 1 cells' games instead of 2n); the same chunks are added in the same
    # order, so the numbers are the same. With target_ci each cell plays until its own intervals are narrow enough.
    passes = [list(range(len(cells)))] if target_ci is None else [[i] for i in range(len(cells))]
    for cells_now in passes:
        on_games = None
        if progress is not None and len(cells_now) > 1:     # cells' worth of games so far
            on_games = lambda n: progress(len(cells_now) * n // max(1, base.games))  # noqa: E731
        played = play_paired(cells[0], [cells[i] for i in cells_now], games=base.games, threads=threads,
                             chunk_size=chunk_size, target_ci=target_ci, max_games=max_games, target_on="value",
                             progress=on_games, client=client)
        for k in ("compile_s", "simulate_s"):
            timing[k] = round(timing[k] + played.timing[k], 3)
        timing.update({k: v for k, v in played.timing.items() if k in ("executor", "workers")})
        played_total += played.games * len(cells_now)
        for i, sums in zip(cells_now, played.sums):
            for r in pair_rows(sums):
                n = r["games"]
                lo, hi = fixed_bounds(r["b"], r["b_sd"] ** 2, n) if r["kind"] != "spread" else (np.nan, np.nan)
                rows.append({"cell": i, **dict(zip(keys, (str(v) for v in combos[i]))), "metric": r["metric"],
                             "kind": r["kind"], "value": r["b"], "value_lo": float(lo), "value_hi": float(hi),
                             "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "games": n,
                             **{k: r[k] for k in ("group", "label", "measure") if k in r}})
        if played.interrupted:
            interrupted = True
            break
        if progress is not None:
            progress(cells_now[-1] + 1)
    table = pd.DataFrame(rows)
    meta = {"title": f"{base.name}: sweep of {', '.join(keys)}", "scenario": base.name, "game": base.game,
            "seed": base.seed, "cells": len(cells), "games": played_total, "keys": keys, "target_ci": target_ci,
            "interrupted": interrupted, "timing": timing,
            "heading": f"{base.name}: {len(cells)} cells over {', '.join(keys)}, seed {base.seed}, common random "
                       "numbers across cells",
            **notes([(f"cell {i} ({', '.join(f'{k}={v}' for k, v in zip(keys, combo))})", sc)
                     for i, (combo, sc) in enumerate(zip(combos, cells))])}
    return Sweep(table, keys, meta)
