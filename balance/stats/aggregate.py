"""Streaming aggregation of simulated games into integer sufficient statistics.

The runner yields chunks of per-game outcome arrays; :class:`Aggregator` folds each chunk into a :class:`Tallies`
of integer counts and histograms whose size does not depend on the number of games, so a 100-million-game run uses
the same memory as a thousand-game one. Every table in :class:`balance.stats.results.Results` is computed from the
tallies alone, exactly as if it had been computed from all per-game rows.

Chunk layout (G games, P seats, K per-seat counters; each counter group g has I_g things and C_g counters)::

    game          int64[G]        global game index, increasing across chunks
    winner        int8[G]         a winning seat, -1 when unfinished
    win_mask      int8[G]         every winning seat as a bit (ties); optional: 1 << winner when absent
    victory       int8[G]         index into victory_names, 0 = unfinished
    turns, rounds int32[G]
    seat_strategy int8[G, P]      lineup slot sitting at each seat
    seat_role     int8[G, P]      role (hero) index each seat plays; only for games with roles
    final         int16[G, P, K]  each seat's final per-player counters
    <chunk_key>   int16[G, P, I_g, C_g] per counter group ("counters" for the first); a co-operative game's
                  group may have one seat, int16[G, 1, I_g, C_g]: counters of the team
    <chunk_key>_sums int64[B, 4, I_g * C_g] optional, per counter group: its rows summed by the kernel per block
                  of games (all rows, the winning seats' rows, and the same two for "above zero"; see
                  ``games.kernel_common.add_counter_sums_nb``); when present the aggregator adds these instead of
                  reading the group's rows again, and the rows may be left out (``<chunk_key>`` then holds no games,
                  int16[0, P, I_g, C_g])
    <category chunk_key> int16[G] per category (``GameSpec.categories``): label index, -1 none

A seat wins a game when its bit is in the win mask: with a tie, every tied seat wins (``tied_games`` counts them).
In a co-operative game (``GameSpec.cooperative``) the mask holds every seat (the team won) or none (lost, whatever
the victory kind); ``victory_wins`` and the categories then count the team's wins (see :mod:`.team`).
"""
from __future__ import annotations

import threading
import time
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import njit

from ..games import SUMS_SUFFIX
from .tally import add_group_sums, tally_rows

from .tallies import SPLIT_GAMES, Tallies, _zeroed_like


@njit(cache=True, nogil=True)
def _watch_nb(turns, victory, margin):
    """Indices of the longest game, of the shortest finished game and of the finished game with the widest points
    margin (``margin`` empty: none), each the first among equals; -1 when no game qualifies."""
    longest, shortest, lopsided = -1, -1, -1
    with_margin = margin.shape[0] > 0
    for g in range(turns.shape[0]):
        tu = turns[g]
        if longest < 0 or tu > turns[longest]:
            longest = g
        if victory[g] != 0:
            if shortest < 0 or tu < turns[shortest]:
                shortest = g
            if with_margin and (lopsided < 0 or margin[g] > margin[lopsided]):
                lopsided = g
    return longest, shortest, lopsided


_MASKS = np.array([0] + [1 << p for p in range(7)], np.int8)     # win mask of winner -1 (none), 0 .. 6


class Aggregator:
    """Folds chunks of per-game outcomes into :class:`Tallies`; :meth:`finalize` gives a :class:`Results`.

    ``keep_games=N`` also keeps the first N games as rows (for inspection and ``to_parquet``); nothing else grows
    with the number of games. ``used_counter`` is the per-item counter whose being > 0 marks an item as "used" by a
    seat (default 1, e.g. "flipped") for a game whose spec declares no counter groups of its own. ``scenario`` gives
    the labels of counter groups and roles that depend on it (The Haunted Tower's monsters, items and heroes).
    """

    def __init__(self, spec: Any, lineup, turn_cap: int, keep_games: int = 0, used_counter: int = 1,
                 scenario: Any = None):
        self.spec = spec
        self.tallies = Tallies.empty(spec, lineup, turn_cap, used_counter, scenario)
        self.keep_games = int(keep_games)
        self._kept: list[pd.DataFrame] = []
        self._n_kept = 0
        self._last_game = -1
        self._started: float | None = None
        self._half: Tallies | None = None     # zeroed tallies the second half of a long chunk is tallied into

    @property
    def games(self) -> int:
        return self.tallies.games

    def state(self) -> dict:
        """Everything needed to go on from here (for a checkpoint); kept rows are not part of it."""
        return {"tallies": self.tallies.to_dict(), "last_game": self._last_game}

    def restore(self, state: dict) -> None:
        """Go on from a :meth:`state`: the next chunk must start at game ``last_game + 1``. What a checkpoint saved
        before a group declared its unusable things (``cannot_use``) or its threat, or the game its ends of an unfinished
        game (``unfinished_ends``), lacks is taken from this run's own tallies."""
        fresh = self.tallies
        self.tallies = Tallies.from_dict(state["tallies"])
        self.tallies.unfinished_ends = self.tallies.unfinished_ends or fresh.unfinished_ends
        for mine, now in zip(self.tallies.groups, fresh.groups):
            if mine.name == now.name:
                mine.cannot_use = mine.cannot_use or now.cannot_use
                mine.threat = mine.threat or now.threat
                mine.threat_besides = mine.threat_besides or now.threat_besides
        self._last_game = int(state["last_game"])

    def update(self, chunk: dict[str, np.ndarray]) -> None:
        """Add one chunk of games (see the module docstring for its arrays)."""
        if self._started is None:
            self._started = time.perf_counter()
        t = self.tallies
        game = np.asarray(chunk["game"], dtype=np.int64)
        G = game.size
        if G == 0:
            return
        winner, victory = np.asarray(chunk["winner"]), np.asarray(chunk["victory"])
        turns, rounds = np.asarray(chunk["turns"]), np.asarray(chunk["rounds"])
        slots = np.asarray(chunk["seat_strategy"])
        # int8 like the games' own win masks (at most 7 seats fit), so the tallies compile for one mask type; a
        # winner out of range gets some mask here, and _check reports the winner before it looks at any mask
        if "win_mask" in chunk:
            mask = np.asarray(chunk["win_mask"])
        elif len(t.lineup) <= 7:
            mask = _MASKS[np.clip(winner, -1, 6).astype(np.intp) + 1]       # one gather instead of four passes
        else:
            mask = np.where(winner >= 0, np.left_shift(1, np.maximum(winner, 0).astype(np.int64)), 0)
        self._check(chunk, game, winner, mask, victory, turns, rounds, slots)

        n_len = int(max(turns.max(), rounds.max())) + 1
        if n_len > t.n_lengths:
            t.grow_lengths(n_len)
        t.games += G
        t.seat_games += G
        rows = {"game": game, "win_mask": mask, "victory": victory, "turns": turns, "rounds": rounds,
                "seat_strategy": slots}
        for grp in t.groups:            # a group summed by the kernel is added from its sums, below
            if grp.chunk_key + SUMS_SUFFIX not in chunk:
                rows[grp.chunk_key] = np.ascontiguousarray(chunk[grp.chunk_key])
        if "final" in chunk:
            rows["final"] = np.ascontiguousarray(chunk["final"])
            if t.role_name is not None:
                rows["seat_role"] = np.asarray(chunk["seat_role"])
        wins_before = t.seat_wins.copy()
        finished, tied = self._tally(t, rows, G)
        t.seat_finished += finished
        t.tied_games += tied
        won_pairs = np.cumsum(t.seat_wins - wins_before)      # (game, seat) pairs won among the first 1, 2, .. seats
        for grp in (g for g in t.groups if g.chunk_key + SUMS_SUFFIX in chunk):
            seats = 1 if grp.per_team else len(t.lineup)
            add_group_sums(grp, np.asarray(chunk[grp.chunk_key + SUMS_SUFFIX]), int(won_pairs[seats - 1]), G, seats)
        for cat in t.categories:
            cat.update(np.asarray(chunk[cat.chunk_key]), mask, victory, rounds)

        self._watch(chunk, game, victory, turns)

        if self._n_kept < self.keep_games:
            n = min(G, self.keep_games - self._n_kept)
            self._kept.append(self._rows(chunk, n))
            self._n_kept += n

    def _tally(self, t: Tallies, rows: dict, G: int) -> tuple[int, int]:
        """:func:`tally_rows` of a chunk; a long chunk, when the run has two threads or more, in two halves at once
        (the compiled passes release the GIL), the second into zeroed tallies of the same shapes that are then
        added: integer sums, so the tallies are exactly those of one pass, and the time between two chunks, in
        which the kernel's threads wait, is about halved."""
        if G < max(2, SPLIT_GAMES) or numba.get_num_threads() < 2:
            return tally_rows(t, rows)
        half = self._half
        if half is None or half.turns_hist.shape != t.turns_hist.shape:
            half = self._half = _zeroed_like(t)
        h = G // 2
        done: list = []

        def second() -> None:
            try:
                done.append(tally_rows(half, {k: v[h:] for k, v in rows.items()}))
            except BaseException as exc:        # noqa: BLE001 - raised again on the calling thread
                done.append(exc)

        worker = threading.Thread(target=second, name="balance-tally", daemon=True)
        worker.start()
        try:
            finished, tied = tally_rows(t, {k: v[:h] for k, v in rows.items()})
        finally:
            worker.join()
        if isinstance(done[0], BaseException):
            raise done[0]
        t.add_counts(half, clear=True)
        return finished + done[0][0], tied + done[0][1]

    def add(self, tallies: Tallies, first_game: int, last_game: int, kept: pd.DataFrame | None = None) -> None:
        """Add the tallies of games ``first_game`` .. ``last_game``, aggregated elsewhere (a Dask task), which must
        come right after the games aggregated so far; ``kept``: their first rows, when rows are kept."""
        if first_game != self._last_game + 1:
            raise ValueError(f"tallies of games {first_game}..{last_game} do not follow game {self._last_game}")
        if self._started is None:
            self._started = time.perf_counter()
        self.tallies.add(tallies)
        self._last_game = int(last_game)
        if kept is not None and self._n_kept < self.keep_games:
            n = min(len(kept), self.keep_games - self._n_kept)
            self._kept.append(kept.iloc[:n].reset_index(drop=True))
            self._n_kept += n

    def _watch(self, chunk, game, victory, turns) -> None:
        """Keep the longest game, the shortest finished game and, with a points winner, the finished game won by the
        widest margin (each the lowest game index among equals: chunks arrive in increasing game order, so a later
        chunk replaces a kept game only when strictly more so)."""
        t = self.tallies
        if t.watch is None:
            t.watch = {}
        margin = np.zeros(0, np.int64)
        if t.points_counter and "final" in chunk and len(t.lineup) > 1:
            pts = np.asarray(chunk["final"])[:, :, t.player_counter_names.index(t.points_counter)]
            top2 = -np.sort(-pts, axis=1)[:, :2]
            margin = (top2[:, 0] - top2[:, 1]).astype(np.int64)
        longest, shortest, lopsided = _watch_nb(turns, victory, margin)
        picks = [("longest", longest, turns), ("shortest", shortest, turns)]
        if margin.size:
            picks.append(("lopsided", lopsided, margin))
        for name, i, score in picks:
            if i < 0:
                continue
            value = int(score[i])
            kept = t.watch.get(name)
            better = kept is None or (value < kept[0] if name == "shortest" else value > kept[0])
            if better:
                t.watch[name] = [value, int(game[i])]

    def _check(self, chunk, game, winner, mask, victory, turns, rounds, slots) -> None:
        t = self.tallies
        G, P, V = game.size, len(t.lineup), len(t.victory_names)
        if game[0] <= self._last_game or np.any(np.diff(game) <= 0):
            raise ValueError("chunks must arrive in increasing, non-overlapping game order")
        for grp in t.groups:
            counters = np.asarray(chunk[grp.chunk_key])
            seats = 1 if t.cooperative and counters.ndim == 4 and counters.shape[1] == 1 else P
            if counters.dtype != np.int16:      # the group tally sums int16 rows in int32 (tally._group_sums_nb)
                raise ValueError(f"{grp.chunk_key}: counters are int16, not {counters.dtype} ({grp.name})")
            sums = chunk.get(grp.chunk_key + SUMS_SUFFIX)
            # no rows ([0, P, I, C]) when the kernel summed them and was asked not to keep them (play_chunk's
            # counter_rows): the sums are all this tally reads of them
            n_rows = 0 if sums is not None and counters.shape[:1] == (0,) else G
            if counters.shape != (n_rows, seats, len(grp.labels), len(grp.counter_names)) or (
                    self._last_game >= 0 and grp.per_team != (seats == 1 and P > 1)):
                raise ValueError(f"chunk shapes {slots.shape}, {counters.shape} do not match P={P}, "
                                 f"I={len(grp.labels)}, C={len(grp.counter_names)} ({grp.name})")
            grp.per_team = seats == 1 and P > 1
            width = len(grp.labels) * len(grp.counter_names)
            if sums is not None and (np.asarray(sums).dtype != np.int64 or np.shape(sums)[1:] != (4, width)
                                     or np.ndim(sums) != 3):
                raise ValueError(f"{grp.chunk_key}{SUMS_SUFFIX}: per-block sums are int64[B, 4, {width}], not "
                                 f"{np.asarray(sums).dtype}{list(np.shape(sums))} ({grp.name})")
        for cat in t.categories:
            if np.asarray(chunk[cat.chunk_key]).shape != (G,):
                raise ValueError(f"{cat.chunk_key}: a category's chunk array is int16[G] ({cat.name})")
        if slots.shape != (G, P):
            raise ValueError(f"chunk shapes {slots.shape} do not match P={P}")
        if winner.min() < -1 or winner.max() >= P or victory.min() < 0 or victory.max() >= V:
            raise ValueError("winner or victory index out of range")
        if np.any((mask != 0) & (victory == 0)) or np.any((winner >= 0) & (victory == 0)):
            raise ValueError("an unfinished game (victory 0) cannot have a winner")
        if t.cooperative:
            if np.any((mask != 0) & (mask != (1 << P) - 1)):
                raise ValueError("a co-operative game's win mask holds every seat (the team won) or none")
        elif np.any((mask == 0) & (victory != 0)) or np.any(mask >= (1 << P)) or np.any(mask < 0):
            raise ValueError("a finished game needs a winning seat, and only seats that exist win")
        if slots.min() < 0 or slots.max() >= P or turns.min() < 0 or rounds.min() < 0:
            raise ValueError("seat_strategy, turns or rounds out of range")
        if t.role_name is not None:
            roles = np.asarray(chunk["seat_role"])
            if roles.shape != (G, P) or roles.min() < 0 or roles.max() >= len(t.role_labels):
                raise ValueError(f"seat_role must be [G, P] indices into the {len(t.role_labels)} roles")
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
        if "win_mask" in chunk:
            cols["win_mask"] = np.array(chunk["win_mask"][:n], dtype=np.int64)
        final = np.array(chunk["final"][:n], dtype=np.int64)
        slots = np.asarray(chunk["seat_strategy"][:n], dtype=np.int64)
        roles = np.asarray(chunk["seat_role"][:n], dtype=np.int64) if t.role_name is not None else None
        role_names = np.asarray(t.role_labels, dtype=object)
        strings = {"victory": "string"}
        for s in range(len(t.lineup)):
            cols[f"seat{s}_strategy"] = lineup[slots[:, s]]
            strings[f"seat{s}_strategy"] = "string"
            if roles is not None:
                cols[f"seat{s}_{t.role_name}"] = role_names[roles[:, s]]
                strings[f"seat{s}_{t.role_name}"] = "string"
            for k, name in enumerate(t.player_counter_names):
                cols[f"seat{s}_{name}"] = final[:, s, k]
        return pd.DataFrame(cols).astype(strings)

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
        """The :class:`~balance.stats.results.Results` of everything aggregated so far, with run metadata attached.

        ``timing`` defaults to the wall time from the first chunk to now; extra keyword arguments go into the meta.
        """
        from .results import Results  # results imports this package: import here to avoid the cycle

        if timing is None:
            wall = 0.0 if self._started is None else time.perf_counter() - self._started
            timing = {"aggregate_wall_s": wall, "games_per_s": (self.games / wall) if wall > 0 else None}
        meta = dict(meta, scenario=scenario, scenario_toml=scenario_toml, seed=seed, timing=timing)
        tallies = Tallies.from_dict(self.tallies.to_dict())  # a copy: further updates do not change the Results
        return Results(tallies, meta=meta, games=self.kept_games())
