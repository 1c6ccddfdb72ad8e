"""Game-level tallies and tables: the team's result in a co-operative game, and per-label (category) win rates.

A co-operative game's players win or lose together (``GameSpec.cooperative``): the chunk's ``win_mask`` holds every
seat or none, so "the team won" is ``win_mask != 0``. The same test, "some seat won", is what a category tallies for
any game. A :class:`CategoryTallies` counts, per label of a ``CategorySpec`` (Climbing Tower: the tower built), the
games, the games won, the finished games and the rounds they lasted; its update is one compiled pass over the
chunk, in integers, so any chunking gives the same counts.

Chunk arrays read here (see :mod:`balance.stats.aggregate` for the rest)::

    <category chunk_key>  int16[G]   label index of each game, -1 when the game has none
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pandas as pd
from numba import njit

from .intervals import diff_interval, histogram_moments, histogram_quantile, mean_interval, wilson

_CATEGORY_ARRAYS = ("games", "wins", "finished", "rounds_sum", "won_rounds_sum")


@njit(cache=True, nogil=True)
def _tally_category_nb(index, mask, victory, rounds, games, wins, finished, rounds_sum, won_rounds_sum):
    """Add one chunk's games to the per-label tallies in one pass (a game is won when its win mask is not 0,
    finished when its victory kind is not 0); returns the games without a label (index -1)."""
    unlabelled = 0
    for g in range(index.shape[0]):
        i = index[g]
        if i < 0:
            unlabelled += 1
            continue
        r = np.int64(rounds[g])
        games[i] += 1
        rounds_sum[i] += r
        finished[i] += victory[g] != 0
        if mask[g] != 0:
            wins[i] += 1
            won_rounds_sum[i] += r
    return unlabelled


@dataclass
class CategoryTallies:
    """Games, wins and rounds per label of one category (a label every game carries, such as the tower built)."""

    name: str                   # what the label is ("tower")
    labels: tuple               # label names, in index order
    chunk_key: str              # the chunk's int16[G] array of label indices (-1: none)
    doc: str
    games: np.ndarray           # [L] games with this label
    wins: np.ndarray            # [L] ... won (win mask not 0: the team, or any seat)
    finished: np.ndarray        # [L] ... finished (victory not 0)
    rounds_sum: np.ndarray      # [L] rounds of those games, summed
    won_rounds_sum: np.ndarray  # [L] rounds of the won ones, summed
    unlabelled: int = 0         # games whose label index was -1

    @classmethod
    def empty(cls, name, labels, chunk_key, doc: str = "") -> CategoryTallies:
        L = len(labels)
        return cls(str(name), tuple(labels), str(chunk_key), str(doc), *(np.zeros(L, np.int64) for _ in range(5)))

    def update(self, index: np.ndarray, mask: np.ndarray, victory: np.ndarray, rounds: np.ndarray) -> None:
        """Add one chunk: ``index`` int[G] label indices (-1 none), the games' ``win_mask``, ``victory`` and
        ``rounds`` arrays."""
        L = len(self.labels)
        index = np.asarray(index)
        if index.size and (index.min() < -1 or index.max() >= L):
            raise ValueError(f"{self.chunk_key}: label index outside -1 .. {L - 1} ({self.name}, {L} labels)")
        self.unlabelled += int(_tally_category_nb(index, np.asarray(mask), np.asarray(victory), np.asarray(rounds),
                                                  self.games, self.wins, self.finished, self.rounds_sum,
                                                  self.won_rounds_sum))

    def to_dict(self) -> dict:
        return {f.name: (getattr(self, f.name).tolist() if f.name in _CATEGORY_ARRAYS else
                         list(getattr(self, f.name)) if f.name == "labels" else getattr(self, f.name))
                for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict) -> CategoryTallies:
        return cls(**{f.name: np.asarray(d[f.name], dtype=np.int64) if f.name in _CATEGORY_ARRAYS
                      else (tuple(d[f.name]) if f.name == "labels" else d[f.name]) for f in fields(cls)})


def category_frame(c: CategoryTallies) -> pd.DataFrame:
    """One row per label, in label order: games, wins, win rate with its Wilson 95% interval, finished games, mean
    rounds of all its games and of its won games."""
    lo, hi = wilson(c.wins, c.games)
    with np.errstate(divide="ignore", invalid="ignore"):
        return pd.DataFrame({c.name: [str(x) for x in c.labels], "games": c.games, "wins": c.wins,
                             "win_rate": c.wins / c.games, "ci_low": lo, "ci_high": hi, "finished": c.finished,
                             "mean_rounds": c.rounds_sum / c.games,
                             "mean_rounds_won": c.won_rounds_sum / c.wins})


def team_frame(t) -> pd.DataFrame:
    """One row: the team's games, wins, win rate with its Wilson 95% interval, and the rounds of won games (mean with
    its Student-t 95% interval, median). In a co-operative game every seat's win is the team's, so seat 0's tallies
    are the team's."""
    wins = int(t.seat_wins[0]) if len(t.seat_wins) else 0
    lo, hi = wilson(wins, t.games)
    mean, mlo, mhi = mean_interval(*histogram_moments(t.seat_wins_by_rounds[:, 0]))
    median = histogram_quantile(t.seat_wins_by_rounds[:, 0], 0.5) if wins else np.nan
    return pd.DataFrame({"lineup": [", ".join(t.lineup)], "games": [t.games], "wins": [wins],
                         "win_rate": [wins / t.games if t.games else np.nan], "ci_low": [float(lo)],
                         "ci_high": [float(hi)], "rounds_won_mean": [mean], "rounds_won_ci_low": [mlo],
                         "rounds_won_ci_high": [mhi], "rounds_won_median": [float(median)]})


def endings_frame(t) -> pd.DataFrame:
    """One row per victory kind: games, won and lost games of that kind, share of all games (Wilson 95%), and the
    kind's share of the lost games (Wilson 95%); "outcome" says whether games ending so were won, lost or both."""
    games = t.victory_games
    won = t.victory_wins if t.victory_wins is not None else np.zeros_like(games)
    lost = games - won
    lo, hi = wilson(games, t.games)
    llo, lhi = wilson(lost, lost.sum())
    outcome = ["both" if w and x else "won" if w else "lost" if x else "-" for w, x in zip(won, lost)]
    with np.errstate(divide="ignore", invalid="ignore"):
        return pd.DataFrame({"kind": list(t.victory_names), "outcome": outcome, "games": games, "won": won,
                             "lost": lost, "share": games / t.games, "ci_low": lo, "ci_high": hi,
                             "share_of_losses": lost / lost.sum() if lost.sum() else np.nan,
                             "losses_ci_low": llo, "losses_ci_high": lhi})


def won_rounds_histogram(t) -> np.ndarray:
    """Games won, by rounds played (index = rounds)."""
    return t.seat_wins_by_rounds[:, 0]


def contrast_frame(t, contrasts: list[dict]) -> pd.DataFrame:
    """The scenario (first row) and each contrast variant played beside it: games, wins, win rate (Wilson 95%), and
    the difference from the scenario in win rate with Newcombe's 95% interval for two independent proportions
    (unpaired: the per-game outcomes are not kept; on the same seed the variants share their random numbers, so the
    unpaired interval is conservative). ``contrasts`` are the records ``balance.run.contrasts`` keeps in the
    meta."""
    wins = int(t.seat_wins[0]) if len(t.seat_wins) else 0
    rows = [{"contrast": "scenario", "variant": "as given", "sets": "", "games": t.games, "wins": wins}]
    rows += [{"contrast": c["name"], "variant": c["label"],
              "sets": ", ".join(f"{k}={v}" for k, v in c["sets"].items()), "games": c["games"], "wins": c["wins"]}
             for c in contrasts]
    df = pd.DataFrame(rows)
    lo, hi = wilson(df.wins, df.games)
    d, dlo, dhi = diff_interval(df.wins, df.games, wins, t.games)
    with np.errstate(divide="ignore", invalid="ignore"):
        df["win_rate"] = df.wins / df.games
    df["ci_low"], df["ci_high"] = lo, hi
    df["diff"], df["diff_ci_low"], df["diff_ci_high"] = d, dlo, dhi
    df.loc[0, ["diff", "diff_ci_low", "diff_ci_high"]] = np.nan      # the scenario against itself: not a contrast
    return df
