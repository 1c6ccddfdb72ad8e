"""``balance cards``: the causal value of each card or item. Each is taken out of the game (its effect replaced by
an empty one, as the game's ``GameSpec.remove_items`` says) and the same games are played again on common random
numbers; the paired change in every metric is that card's effect on the game.

This is a cause, not an association: ``balance run``'s "win flipped / win not flipped" lifts compare seats that
happened to use a card with seats that did not (strong seats may simply reach it more often); here the card alone
changes between the two runs."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats.extremes import pick_extreme, widen
from ...stats.findings import Finding, said
from .paired import STUDY_CHUNK, pair_rows, play_paired
from .study import Study, as_scenario, describe_metric, dotted, fmt_diff, fmt_value, is_rate, new_figure, notes

CAUSAL_NOTE = ("Causal: each card's effect was emptied and the same games replayed on common random numbers, so "
               "a change is what the card does (unlike the association lifts of `balance run`).")


def _sizes(lo, hi):
    """Intervals of |diff| from intervals of diff: a side of 0 is folded over, one that straddles 0 runs from 0."""
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    return (np.where(lo > 0, lo, np.where(hi < 0, -hi, 0.0)),
            np.where(lo > 0, hi, np.where(hi < 0, -lo, np.maximum(-lo, hi))))


class CardValues(Study):
    """``table``: one row per (card, metric): ``a`` (the unchanged scenario), ``b`` (without the card's effect),
    ``diff`` = b - a with its paired 95% interval, ``pairing_gain``, ``games``; ``plot.cards()``."""

    kind = "cards"

    def __init__(self, table: pd.DataFrame, item: str, meta: dict):
        self.table, self.item, self.meta = table, item, meta

    def frames(self) -> dict[str, pd.DataFrame]:
        return {"cards": self.table}

    @property
    def metrics(self) -> list[str]:
        """The metrics the table and plot show: the team win rate or the seat spread, the victory kinds that
        occur, and mean turns."""
        t = self.table
        first = ["win_rate"] if (t["kind"] == "team").any() else ["seat_spread"]
        kinds = t[(t["kind"] == "victory") & ((t["a"] > 0) | (t["b"] > 0))]["metric"].unique().tolist()
        kinds = [k for k in kinds if k != "share[unfinished]"] or kinds
        if len(kinds) == 2 and "team" not in set(t["kind"]):
            kinds = kinds[1:]                    # two ways to win: one share says both
        if first == ["win_rate"]:                # a co-operative game: the kind that is the team's win says nothing new
            win = t[t["metric"] == "win_rate"][["a", "b"]].to_numpy()
            kinds = [k for k in kinds if not np.array_equal(t[t["metric"] == k][["a", "b"]].to_numpy(), win)]
        return first + kinds + ["turns"]

    def display_tables(self) -> dict[str, pd.DataFrame]:
        rows = []
        for card, df in self.table.groupby("card", sort=False):
            row = {self.item: card}
            for m in self.metrics:
                r = df[df["metric"] == m]
                if r.empty:
                    continue
                r = r.iloc[0]
                row[f"{m} change"] = (f"{fmt_diff(r['kind'], r['diff'])} [{fmt_diff(r['kind'], r['diff_lo'])}, "
                                      f"{fmt_diff(r['kind'], r['diff_hi'])}]")
            rows.append(row)
        t = self.table[self.table["card"] == self.table["card"].iloc[0]]
        base = {m: fmt_value(t[t["metric"] == m]["kind"].iloc[0], t[t["metric"] == m]["a"].iloc[0])
                for m in self.metrics if (t["metric"] == m).any()}
        title = (f"Change when each {self.item}'s effect is removed (rates in points, 95% CI; unchanged scenario: "
                 + ", ".join(f"{m} {v}" for m, v in base.items()) + ")")
        return {title: pd.DataFrame(rows)}

    def _findings(self) -> list[Finding]:
        """Per metric, the card whose removal changes it the most. Every card's interval is widened for the number
        of cards (``stats.extremes``): "beyond chance" is beyond those intervals, and a card is said to change the
        metric the most (kind ``largest_change``) only when its interval of the size of the change lies above every
        other card's (else ``no_clear_extreme``; ``no_change`` when no card's removal changes it beyond chance). The
        estimate is the change, with its widened interval; the first finding (``note``) says what "causal" means."""
        out = [said("note", CAUSAL_NOTE)]
        for m in self.metrics:
            t = self.table[self.table["metric"] == m]
            if t.empty:
                continue
            kind = t["kind"].iloc[0]
            what = describe_metric(m, kind)
            u = " points" if is_rate(kind) else ""
            e = pick_extreme(t["diff"].abs(), lambda z: _sizes(*widen(t["diff"], t["diff_lo"], t["diff_hi"], z)))
            lo, hi = widen(t["diff"], t["diff_lo"], t["diff_hi"], e.z)
            moved = int(((lo > 0) | (hi < 0)).sum())
            family = f"95% intervals adjusted for the {e.k} {self.item}s"
            if not moved:
                out.append(said("no_change", f"No {self.item}'s removal changes {what} beyond chance ({family})."))
                continue
            r = t.iloc[e.index]
            i = e.index
            if not (lo[i] > 0 or hi[i] < 0):        # the largest estimate is not itself beyond chance
                out.append(said("no_clear_extreme", f"{moved} of {len(t)} {self.item}s change {what} beyond chance "
                                f"({family}); none is clearly the largest change."))
                continue
            names = [f"{c}: {fmt_diff(kind, d)}" for c, d in zip(t["card"], t["diff"])]
            head = (f"Removing {self.item} {r['card']} changes {what} the most" if e.clear else
                    f"Removing {self.item} {r['card']} changes {what} by the largest amount of the {e.k}")
            out.append(said("largest_change" if e.clear else "no_clear_extreme",
                            f"{head}: {fmt_value(kind, r['a'])} with it, {fmt_value(kind, r['b'])} without "
                            f"({fmt_diff(kind, r['diff'])}{u}; 95% CI adjusted for the {e.k} {self.item}s: "
                            f"{fmt_diff(kind, lo[i])} to {fmt_diff(kind, hi[i])})"
                            + ("" if e.clear else f", but {e.rivals_text(names)}")
                            + f"; {moved} of {len(t)} {self.item}s change it beyond chance ({family}).",
                            r["diff"], lo[i], hi[i]))
        return out

    def figures(self) -> dict:
        return {"cards": self.plot.cards}

    @property
    def plot(self):
        return _CardPlots(self)


class _CardPlots:
    def __init__(self, values: CardValues):
        self.v = values

    def cards(self, metrics=None):
        """Per card, the change in each metric when its effect is removed, with 95% error bars (rates in points)."""
        metrics = metrics or self.v.metrics
        names = list(dict.fromkeys(self.v.table["card"]))
        fig = new_figure(figsize=(3.8 * len(metrics), 0.3 * len(names) + 1.8))
        axes = fig.subplots(1, len(metrics), squeeze=False, sharey=True)
        y = np.arange(len(names))
        for ax, m in zip(axes[0], metrics):
            t = self.v.table[self.v.table["metric"] == m].set_index("card").reindex(names)
            scale = 100 if is_rate(t["kind"].iloc[0]) else 1
            err = scale * np.vstack([t["diff"] - t["diff_lo"], t["diff_hi"] - t["diff"]])
            ax.errorbar(scale * t["diff"], y, xerr=err, fmt="o", capsize=3)
            ax.axvline(0, color="grey", lw=0.8)
            ax.set_xlabel(f"{m} change ({'points' if scale == 100 else 'mean'})")
        axes[0][0].set_yticks(y, names)
        fig.suptitle(f"Each {self.v.item} removed, the same games replayed: change with 95% CI (causal)")
        fig.tight_layout()
        return fig


def cards(scenario=None, *, games: int | None = None, seed: int | None = None, players: int | None = None,
          threads: int | None = None, target_ci: float | None = None, max_games: int = 10_000_000,
          chunk_size: int = STUDY_CHUNK, progress=None, client=None) -> CardValues:
    """Each card (item) of the scenario removed in turn, against the unchanged scenario, on common random numbers.

    ``target_ci``: play until every paired win-rate difference's 95% interval is at most this wide. ``client``: a
    ``dask.distributed.Client`` whose workers play the games (the same numbers as here)."""
    if games is not None and target_ci is not None:
        raise ValueError(f"-n {games} with --target-ci {target_ci}: give one of them")
    base = as_scenario(scenario, games=games, seed=seed, players=players)
    spec = base.spec()
    if spec.remove_items is None:
        raise ValueError(f"{spec.name}: this game does not say how to remove a card (GameSpec.remove_items)")
    item, removals = spec.remove_items(base)
    variants = [as_scenario(base, **dotted(sets)) for _, sets in removals]
    played = play_paired(base, variants, games=base.games, threads=threads, chunk_size=chunk_size,
                         target_ci=target_ci, max_games=max_games, progress=progress, client=client)
    rows = []
    for (label, _), s in zip(removals, played.sums):
        rows += [{"card": label, **r} for r in pair_rows(s)]
    table = pd.DataFrame(rows)
    meta = {"title": f"{base.name}: value of each {item}", "scenario": base.name, "game": base.game,
            "seed": base.seed, "games": played.games, item + "s": len(removals), "target_ci": target_ci,
            "interrupted": played.interrupted, "timing": played.timing,
            "heading": f"{base.name}: each of {len(removals)} {item}s removed in turn, {played.games:,} games of "
                       f"each, seed {base.seed}, common random numbers", **notes([("the scenario", base)])}
    return CardValues(table, item, meta)
