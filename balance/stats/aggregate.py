"""Streaming aggregation of simulated games into integer sufficient statistics.

The runner yields chunks of per-game outcome arrays; :class:`Aggregator` folds each chunk into a :class:`Tallies`
of integer counts and histograms whose size does not depend on the number of games, so a 100-million-game run uses
the same memory as a thousand-game one. Every table in :class:`balance.results.Results` is computed from the
tallies alone, exactly as if it had been computed from all per-game rows.

Chunk layout (G games, P seats, I items, C per-item counters, K per-seat counters)::

    game          int64[G]        global game index, increasing across chunks
    winner        int8[G]         winning seat, -1 when unfinished
    victory       int8[G]         index into victory_names, 0 = unfinished
    turns, rounds int32[G]
    seat_strategy int8[G, P]      lineup slot sitting at each seat
    final         int16[G, P, K]  each seat's final per-player counters
    counters      int16[G, P, I, C]
"""
from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from .intervals import wilson

_ARRAYS = ("seat_games", "seat_finished", "seat_wins", "seat_slot_games", "slot_games", "slot_wins",
           "victory_games", "turns_hist", "rounds_hist", "seat_wins_by_turns", "seat_wins_by_rounds",
           "item_totals", "item_totals_won", "used_pairs", "used_wins", "unused_pairs", "unused_wins")
_LENGTH_AXIS = {"turns_hist": 1, "rounds_hist": 1, "seat_wins_by_turns": 0, "seat_wins_by_rounds": 0}


@njit(cache=True)
def _tally_nb(winner, victory, turns, rounds, slots, counters, used_counter,
              seat_wins, seat_slot_games, slot_games, slot_wins, victory_games, turns_hist, rounds_hist,
              seat_wins_by_turns, seat_wins_by_rounds, item_totals, item_totals_won,
              used_pairs, used_wins, unused_pairs, unused_wins):
    """Add one chunk's games to the tallies in place, in one pass over the games; returns the finished games.

    (The same sums as one bincount or reduction per table over the chunk, which took a quarter as long as
    simulating the games.)
    """
    G, P, I, C = counters.shape
    finished = 0
    for g in range(G):
        w, v, tu, ro = winner[g], victory[g], turns[g], rounds[g]
        finished += v != 0
        victory_games[v] += 1
        turns_hist[v, tu] += 1
        rounds_hist[v, ro] += 1
        for p in range(P):
            seat_slot_games[p, slots[g, p]] += 1
            slot_games[slots[g, p]] += 1
        if w >= 0:
            seat_wins[w] += 1
            slot_wins[slots[g, w]] += 1
            seat_wins_by_turns[tu, w] += 1
            seat_wins_by_rounds[ro, w] += 1
        for p in range(P):
            won = p == w
            for i in range(I):
                for c in range(C):
                    item_totals[i, c] += counters[g, p, i, c]
                    if won:
                        item_totals_won[i, c] += counters[g, p, i, c]
                if counters[g, p, i, used_counter] > 0:
                    used_pairs[i] += 1
                    used_wins[i] += won
                else:
                    unused_pairs[i] += 1
                    unused_wins[i] += won
    return finished


@dataclass
class Tallies:
    """Integer sufficient statistics of a run, plus the names needed to label them (no per-game rows).

    Lengths are histogram indices: ``turns_hist[v, t]`` counts games of victory kind v that lasted t turns.
    "Used" means counter ``used_counter`` of an item was > 0 for a (game, seat) pair; pairs from unfinished games
    count as not won, like every other win rate here.
    """

    game: str
    title: str
    lineup: tuple[str, ...]
    victory_names: tuple[str, ...]
    player_counter_names: tuple[str, ...]
    counter_names: tuple[str, ...]
    item_name: str
    item_labels: tuple
    turn_cap: int
    used_counter: int
    games: int
    seat_games: np.ndarray          # [P] games each seat sat in
    seat_finished: np.ndarray       # [P] finished games each seat sat in
    seat_wins: np.ndarray           # [P]
    seat_slot_games: np.ndarray     # [P seats, P slots] how often each slot sat at each seat
    slot_games: np.ndarray          # [P] appearances of each lineup slot
    slot_wins: np.ndarray           # [P]
    victory_games: np.ndarray       # [V]
    turns_hist: np.ndarray          # [V, L]
    rounds_hist: np.ndarray         # [V, L]
    seat_wins_by_turns: np.ndarray  # [L, P]
    seat_wins_by_rounds: np.ndarray  # [L, P]
    item_totals: np.ndarray         # [I, C] counter totals over all games and seats
    item_totals_won: np.ndarray     # [I, C] ... of the winning seat only
    used_pairs: np.ndarray          # [I] (game, seat) pairs that used the item
    used_wins: np.ndarray           # [I] ... of which the seat won
    unused_pairs: np.ndarray        # [I]
    unused_wins: np.ndarray         # [I]

    @classmethod
    def empty(cls, spec: Any, lineup, turn_cap: int, used_counter: int = 1) -> Tallies:
        """Zero tallies for a run of ``spec`` with this lineup (one strategy name per seat slot)."""
        P, V, L = len(lineup), len(spec.victory_names), int(turn_cap) + 2
        I, C = len(spec.item_labels), len(spec.counter_names)
        if not 0 <= used_counter < C:
            raise ValueError(f"used_counter={used_counter} outside the {C} counters {spec.counter_names}")
        z = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
        return cls(
            game=str(getattr(spec, "name", "game")), title=str(getattr(spec, "title", getattr(spec, "name", "game"))),
            lineup=tuple(str(s) for s in lineup), victory_names=tuple(spec.victory_names),
            player_counter_names=tuple(spec.player_counter_names), counter_names=tuple(spec.counter_names),
            item_name=str(spec.item_name), item_labels=tuple(spec.item_labels), turn_cap=int(turn_cap),
            used_counter=int(used_counter), games=0,
            seat_games=z(P), seat_finished=z(P), seat_wins=z(P), seat_slot_games=z(P, P), slot_games=z(P),
            slot_wins=z(P), victory_games=z(V), turns_hist=z(V, L), rounds_hist=z(V, L),
            seat_wins_by_turns=z(L, P), seat_wins_by_rounds=z(L, P), item_totals=z(I, C), item_totals_won=z(I, C),
            used_pairs=z(I), used_wins=z(I), unused_pairs=z(I), unused_wins=z(I))

    @property
    def n_lengths(self) -> int:
        return self.turns_hist.shape[1]

    def grow_lengths(self, n: int) -> None:
        """Widen every length-indexed histogram to at least ``n`` bins (a game longer than turn_cap + 1)."""
        for name, axis in _LENGTH_AXIS.items():
            a = getattr(self, name)
            if a.shape[axis] < n:
                pad = [(0, 0)] * a.ndim
                pad[axis] = (0, n - a.shape[axis])
                setattr(self, name, np.pad(a, pad))

    def ci_width_max(self, z: float | None = None) -> float:
        """Width of the widest 95% Wilson interval among the seats' win rates (inf before any game)."""
        if self.games == 0:
            return float("inf")
        lo, hi = wilson(self.seat_wins, self.seat_games) if z is None else wilson(self.seat_wins, self.seat_games, z)
        return float(np.max(hi - lo))

    def to_dict(self) -> dict:
        """JSON-safe dict (lists of ints); :meth:`from_dict` inverts it."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.tolist() if isinstance(v, np.ndarray) else (list(v) if isinstance(v, tuple) else v)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Tallies:
        kw = {}
        for f in fields(cls):
            v = d[f.name]
            kw[f.name] = np.asarray(v, dtype=np.int64) if f.name in _ARRAYS else (tuple(v) if isinstance(v, list) else v)
        return cls(**kw)


class Aggregator:
    """Folds chunks of per-game outcomes into :class:`Tallies`; :meth:`finalize` gives a :class:`Results`.

    ``keep_games=N`` also keeps the first N games as rows (for inspection and ``to_parquet``); nothing else grows
    with the number of games. ``used_counter`` is the per-item counter whose being > 0 marks an item as "used" by a
    seat (default 1, e.g. "flipped").
    """

    def __init__(self, spec: Any, lineup, turn_cap: int, keep_games: int = 0, used_counter: int = 1):
        self.spec = spec
        self.tallies = Tallies.empty(spec, lineup, turn_cap, used_counter)
        self.keep_games = int(keep_games)
        self._kept: list[pd.DataFrame] = []
        self._n_kept = 0
        self._last_game = -1
        self._started: float | None = None

    @property
    def games(self) -> int:
        return self.tallies.games

    def update(self, chunk: dict[str, np.ndarray]) -> None:
        """Add one chunk of games (see the module docstring for its arrays)."""
        if self._started is None:
            self._started = time.perf_counter()
        t = self.tallies
        P, I, C = len(t.lineup), len(t.item_labels), len(t.counter_names)
        game = np.asarray(chunk["game"], dtype=np.int64)
        G = game.size
        if G == 0:
            return
        winner, victory = np.asarray(chunk["winner"]), np.asarray(chunk["victory"])
        turns, rounds = np.asarray(chunk["turns"]), np.asarray(chunk["rounds"])
        slots, counters = np.asarray(chunk["seat_strategy"]), np.asarray(chunk["counters"])
        self._check(game, winner, victory, turns, rounds, slots, counters, P, I, C, len(t.victory_names))

        n_len = int(max(turns.max(), rounds.max())) + 1
        if n_len > t.n_lengths:
            t.grow_lengths(n_len)
        t.games += G
        t.seat_games += G
        t.seat_finished += _tally_nb(
            winner, victory, turns, rounds, slots, counters, t.used_counter,
            t.seat_wins, t.seat_slot_games, t.slot_games, t.slot_wins, t.victory_games, t.turns_hist,
            t.rounds_hist, t.seat_wins_by_turns, t.seat_wins_by_rounds, t.item_totals, t.item_totals_won,
            t.used_pairs, t.used_wins, t.unused_pairs, t.unused_wins)

        if self._n_kept < self.keep_games:
            n = min(G, self.keep_games - self._n_kept)
            self._kept.append(self._rows(chunk, n))
            self._n_kept += n

    def _check(self, game, winner, victory, turns, rounds, slots, counters, P, I, C, V) -> None:
        G = game.size
        if game[0] <= self._last_game or np.any(np.diff(game) <= 0):
            raise ValueError("chunks must arrive in increasing, non-overlapping game order")
        if slots.shape != (G, P) or counters.shape != (G, P, I, C):
            raise ValueError(f"chunk shapes {slots.shape}, {counters.shape} do not match P={P}, I={I}, C={C}")
        if winner.min() < -1 or winner.max() >= P or victory.min() < 0 or victory.max() >= V:
            raise ValueError("winner or victory index out of range")
        if np.any((winner >= 0) & (victory == 0)):
            raise ValueError("an unfinished game (victory 0) cannot have a winner")
        if slots.min() < 0 or slots.max() >= P or turns.min() < 0 or rounds.min() < 0:
            raise ValueError("seat_strategy, turns or rounds out of range")
        self._last_game = int(game[-1])

    def _rows(self, chunk: dict[str, np.ndarray], n: int) -> pd.DataFrame:
        """The first ``n`` games of a chunk as rows: game, winner, victory name, lengths, per-seat columns."""
        t = self.tallies
        names = np.asarray(t.victory_names, dtype=object)
        lineup = np.asarray(t.lineup, dtype=object)
        # np.array copies: the runner plays the next chunk into the same arrays.
        cols: dict[str, Any] = {
            "game": np.array(chunk["game"][:n], dtype=np.int64),
            "winner": np.array(chunk["winner"][:n], dtype=np.int64),
            "victory": names[np.asarray(chunk["victory"][:n], dtype=np.int64)],
            "turns": np.array(chunk["turns"][:n], dtype=np.int64),
            "rounds": np.array(chunk["rounds"][:n], dtype=np.int64),
        }
        final = np.array(chunk["final"][:n], dtype=np.int64)
        slots = np.asarray(chunk["seat_strategy"][:n], dtype=np.int64)
        for s in range(len(t.lineup)):
            cols[f"seat{s}_strategy"] = lineup[slots[:, s]]
            for k, name in enumerate(t.player_counter_names):
                cols[f"seat{s}_{name}"] = final[:, s, k]
        df = pd.DataFrame(cols)
        return df.astype({"victory": "string"} | {f"seat{s}_strategy": "string" for s in range(len(t.lineup))})

    def kept_games(self) -> pd.DataFrame:
        """The kept per-game rows so far (an empty DataFrame when none)."""
        if not self._kept:
            return pd.DataFrame()
        return pd.concat(self._kept, ignore_index=True)

    def ci_width_max(self, z: float | None = None) -> float:
        """Width of the widest 95% Wilson interval among the seats' win rates so far (inf before any game)."""
        return self.tallies.ci_width_max(z)

    def finalize(self, *, scenario: dict | None = None, scenario_toml: str | None = None, seed: int | None = None,
                 timing: dict | None = None, **meta: Any):
        """The :class:`~balance.results.Results` of everything aggregated so far, with run metadata attached.

        ``timing`` defaults to the wall time from the first chunk to now; extra keyword arguments go into the meta.
        """
        from ..results import Results  # results imports this package: import here to avoid the cycle

        if timing is None:
            wall = 0.0 if self._started is None else time.perf_counter() - self._started
            timing = {"aggregate_wall_s": wall, "games_per_s": (self.games / wall) if wall > 0 else None}
        meta = dict(meta, scenario=scenario, scenario_toml=scenario_toml, seed=seed, timing=timing)
        tallies = Tallies.from_dict(self.tallies.to_dict())  # a copy: further updates do not change the Results
        return Results(tallies, meta=meta, games=self.kept_games())
