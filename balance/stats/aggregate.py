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

import copy
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import njit

from ..games import SUMS_SUFFIX
from .intervals import wilson
from .tally import add_group_sums, tally_group, tally_rows  # noqa: F401 - tests import the group tally
from .team import CategoryTallies

_ARRAYS = ("seat_games", "seat_finished", "seat_wins", "seat_slot_games", "slot_games", "slot_wins",
           "victory_games", "turns_hist", "rounds_hist", "seat_wins_by_turns", "seat_wins_by_rounds",
           "seat_final_sum", "seat_final_sq", "role_games", "role_wins", "role_final_sum", "role_final_sq",
           "seat_role_games", "victory_wins", "seat_slot_wins")
_UNUSED = {"cooperative": False, "victory_wins": None, "categories": [], "seat_slot_wins": None,
           "unfinished_ends": {}}    # fields to_dict leaves out at these
_GROUP_ARRAYS = ("totals", "totals_won", "used_pairs", "used_wins", "unused_pairs", "unused_wins")
_LENGTH_AXIS = {"turns_hist": 1, "rounds_hist": 1, "seat_wins_by_turns": 0, "seat_wins_by_rounds": 0}
SPLIT_GAMES = 20_000    # a chunk of at least this many games is tallied in two halves at once (Aggregator._tally)


def _zeroed_like(t: Tallies) -> Tallies:
    """Tallies of the same shapes as ``t`` with every count zero (names and labels shared)."""
    half = copy.copy(t)
    for name in _ARRAYS:
        a = getattr(t, name)
        setattr(half, name, None if a is None else np.zeros_like(a))
    half.groups = []
    for grp in t.groups:
        g = copy.copy(grp)
        for name in _GROUP_ARRAYS:
            setattr(g, name, np.zeros_like(getattr(grp, name)))
        half.groups.append(g)
    return half


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


@dataclass
class GroupTallies:
    """Tallies of one counter group (a game's per-(seat, thing) counters): totals and the used/won pairs."""

    name: str                       # what the counters are per ("value", "monster", "item")
    labels: tuple
    counter_names: tuple[str, ...]
    used_counter: int               # a thing is "used" by a seat in a game when this counter is above zero
    ratio_base: int                 # counters after it are also shown per unit of this one
    chunk_key: str
    totals: np.ndarray              # [I, C] counter totals over all games and seats
    totals_won: np.ndarray          # [I, C] ... of the winning seats only
    used_pairs: np.ndarray          # [I] (game, seat) pairs that used the thing
    used_wins: np.ndarray           # [I] ... of which the seat won
    unused_pairs: np.ndarray        # [I]
    unused_wins: np.ndarray         # [I]
    used_phrase: str = ""           # "used" in words for findings ("flipped value {}")
    per_team: bool = False          # the chunk array has one seat: counters of the team, "used" per game
    cannot_use: tuple = ()          # labels the rules never let be used (CounterGroup.cannot_use)
    threat: tuple = ()              # (counter, superlative, comparative) of CounterGroup.threat; () for none
    threat_besides: tuple = ()      # labels its threat finding leaves out (Threat.besides)

    @classmethod
    def empty(cls, name, labels, counter_names, used_counter, chunk_key, ratio_base=None,
              used_phrase: str = "", cannot_use=(), threat=None, scenario=None) -> GroupTallies:
        I, C = len(labels), len(counter_names)
        if not 0 <= used_counter < C:
            raise ValueError(f"used_counter={used_counter} outside the {C} counters {tuple(counter_names)}")
        z = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
        th = () if threat is None else (int(threat.counter), *threat.words)
        besides = tuple(threat.besides(scenario)) if threat is not None and threat.besides else ()
        return cls(str(name), tuple(labels), tuple(counter_names), int(used_counter),
                   int(used_counter if ratio_base is None else ratio_base), str(chunk_key),
                   z(I, C), z(I, C), z(I), z(I), z(I), z(I), str(used_phrase), cannot_use=tuple(cannot_use),
                   threat=th, threat_besides=besides)

    def to_dict(self) -> dict:
        return {f.name: (getattr(self, f.name).tolist() if f.name in _GROUP_ARRAYS else
                         list(getattr(self, f.name)) if isinstance(getattr(self, f.name), tuple)
                         else getattr(self, f.name)) for f in fields(self)
                if not (f.name == "per_team" and not self.per_team)     # saved files of per-seat groups unchanged
                and not (f.name in ("cannot_use", "threat", "threat_besides") and not getattr(self, f.name))}
                # ... and of groups without them

    @classmethod
    def from_dict(cls, d: dict) -> GroupTallies:
        return cls(**{f.name: np.asarray(d[f.name], dtype=np.int64) if f.name in _GROUP_ARRAYS
                      else (tuple(d[f.name]) if isinstance(d[f.name], list) else d[f.name]) for f in fields(cls)
                      if f.name in d})


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
    turn_cap: int
    games: int
    seat_games: np.ndarray          # [P] games each seat sat in
    seat_finished: np.ndarray       # [P] finished games each seat sat in
    seat_wins: np.ndarray           # [P] (a tie counts for every tied seat)
    seat_slot_games: np.ndarray     # [P seats, P slots] how often each slot sat at each seat
    slot_games: np.ndarray          # [P] appearances of each lineup slot
    slot_wins: np.ndarray           # [P]
    victory_games: np.ndarray       # [V]
    turns_hist: np.ndarray          # [V, L]
    rounds_hist: np.ndarray         # [V, L]
    seat_wins_by_turns: np.ndarray  # [L, P]
    seat_wins_by_rounds: np.ndarray  # [L, P]
    groups: list[GroupTallies]      # one per counter group; the first is the game's main "items"
    tied_games: int = 0
    seat_final_sum: np.ndarray | None = None   # [P, K] sums of each seat's final counters
    seat_final_sq: np.ndarray | None = None    # [P, K] ... of their squares
    role_name: str | None = None               # what seats play besides a strategy ("hero"), for games with roles
    role_labels: tuple = ()
    role_games: np.ndarray | None = None       # [R] seat-games of each role
    role_wins: np.ndarray | None = None        # [R]
    role_final_sum: np.ndarray | None = None   # [R, K]
    role_final_sq: np.ndarray | None = None    # [R, K]
    seat_role_games: np.ndarray | None = None  # [P, R] how often each role sat at each seat
    points_counter: str | None = None          # the final counter that decides a points winner
    score_lines: tuple[str, ...] = ()          # final counters that add up to the points
    summary_counters: tuple[str, ...] = ()     # final counters the per-seat and per-role tables show
    # final counters that mark unfinished games ended otherwise than at the turn cap, with that end in words
    # (GameSpec.unfinished_ends): their sums over the seats count those games
    unfinished_ends: dict = field(default_factory=dict)
    # games worth watching, {"longest": [turns, game], "shortest": [...], "lopsided": [points margin, game]}: the
    # first game (lowest index) of the most of each, so the same in any chunking
    watch: dict | None = None
    # --- game-level tallies (stats.team); left out of to_dict when unused, so other games' files stay as they were
    cooperative: bool = False                  # the players win or lose together: seat 0's wins are the team's
    victory_wins: np.ndarray | None = None     # [V] games of each victory kind that were won (win mask not 0)
    categories: list = field(default_factory=list)   # [CategoryTallies] one per GameSpec category
    # [P seats, P slots] wins of each slot at each seat (the strategy x seat table); None in files saved before it
    seat_slot_wins: np.ndarray | None = None

    @classmethod
    def empty(cls, spec: Any, lineup, turn_cap: int, used_counter: int = 1, scenario: Any = None) -> Tallies:
        """Zero tallies for a run of ``spec`` with this lineup (one strategy name per seat slot)."""
        P, V, L = len(lineup), len(spec.victory_names), int(turn_cap) + 2
        K = len(spec.player_counter_names)
        z = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
        groups = [GroupTallies.empty(g.name, g.labels(scenario), g.counter_names, g.used_counter, g.chunk_key,
                                     getattr(g, "ratio_base", None), getattr(g, "used_phrase", ""),
                                     g.cannot_use(scenario) if getattr(g, "cannot_use", None) else (),
                                     getattr(g, "threat", None), scenario)
                  for g in _counter_groups(spec, scenario, used_counter)]
        role_name = getattr(spec, "role_name", None)
        roles = tuple(spec.role_labels(scenario)) if role_name else ()
        cats = [CategoryTallies.empty(c.name, c.labels(scenario), c.chunk_key, getattr(c, "doc", ""))
                for c in _categories(spec, scenario)]
        cooperative = bool(getattr(spec, "cooperative", False))
        R = len(roles)
        return cls(
            game=str(getattr(spec, "name", "game")), title=str(getattr(spec, "title", getattr(spec, "name", "game"))),
            lineup=tuple(str(s) for s in lineup), victory_names=tuple(spec.victory_names),
            player_counter_names=tuple(spec.player_counter_names), turn_cap=int(turn_cap), games=0,
            seat_games=z(P), seat_finished=z(P), seat_wins=z(P), seat_slot_games=z(P, P), slot_games=z(P),
            slot_wins=z(P), victory_games=z(V), turns_hist=z(V, L), rounds_hist=z(V, L),
            seat_wins_by_turns=z(L, P), seat_wins_by_rounds=z(L, P), groups=groups,
            seat_final_sum=z(P, K), seat_final_sq=z(P, K), role_name=role_name, role_labels=roles,
            role_games=z(R), role_wins=z(R), role_final_sum=z(R, K), role_final_sq=z(R, K),
            seat_role_games=z(P, R), points_counter=getattr(spec, "points_counter", None),
            score_lines=tuple(getattr(spec, "score_lines", ())),
            summary_counters=tuple(getattr(spec, "summary_counters", ())), cooperative=cooperative,
            unfinished_ends=dict(getattr(spec, "unfinished_ends", None) or {}),
            victory_wins=z(V) if cooperative or cats else None, categories=cats, seat_slot_wins=z(P, P))

    # --- the first counter group under its historical names (Spooky Tower's "Per value" table) -----------------
    @property
    def item_name(self) -> str:
        return self.groups[0].name

    @property
    def item_labels(self) -> tuple:
        return self.groups[0].labels

    @property
    def counter_names(self) -> tuple[str, ...]:
        return self.groups[0].counter_names

    @property
    def used_counter(self) -> int:
        return self.groups[0].used_counter

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

    def add(self, other: Tallies) -> None:
        """Add the tallies of the games that come right after these (another chunk of the same run, such as a Dask
        task's): integer sums, so the result is exactly that of aggregating both chunks here, in order."""
        if (other.lineup, other.victory_names, len(other.groups), len(other.categories)) != \
                (self.lineup, self.victory_names, len(self.groups), len(self.categories)):
            raise ValueError("tallies of another run cannot be added")
        n = max(self.n_lengths, other.n_lengths)
        self.grow_lengths(n)
        other.grow_lengths(n)
        self.add_counts(other)
        self.games += other.games
        self.tied_games += other.tied_games
        self.unfinished_ends = self.unfinished_ends or other.unfinished_ends
        for mine, theirs in zip(self.groups, other.groups):
            mine.per_team = mine.per_team or theirs.per_team
            mine.cannot_use = mine.cannot_use or theirs.cannot_use
            mine.threat = mine.threat or theirs.threat
            mine.threat_besides = mine.threat_besides or theirs.threat_besides
        for mine, theirs in zip(self.categories, other.categories):
            for name in ("games", "wins", "finished", "rounds_sum", "won_rounds_sum"):
                getattr(mine, name)[...] += getattr(theirs, name)
            mine.unlabelled += theirs.unlabelled
        if other.watch is not None:
            self.watch = {} if self.watch is None else self.watch
            for name, (value, game) in other.watch.items():     # a later game replaces a kept one only when more so
                kept = self.watch.get(name)
                if kept is None or (value < kept[0] if name == "shortest" else value > kept[0]):
                    self.watch[name] = [value, game]

    def add_counts(self, other: Tallies, clear: bool = False) -> None:
        """Add the count arrays of ``other`` (of the same shapes), the run's and each counter group's, to these;
        with ``clear``, zero ``other``'s afterwards."""
        for name in _ARRAYS:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is not None and theirs is not None:
                mine += theirs
                if clear:
                    theirs[...] = 0
        for mine, theirs in zip(self.groups, other.groups):
            for name in _GROUP_ARRAYS:
                getattr(mine, name)[...] += getattr(theirs, name)
                if clear:
                    getattr(theirs, name)[...] = 0

    def ci_width_max(self, z: float | None = None) -> float:
        """Width of the widest 95% Wilson interval among the seats' win rates (inf before any game); in a
        co-operative game every seat's is the team's."""
        if self.games == 0:
            return float("inf")
        lo, hi = wilson(self.seat_wins, self.seat_games) if z is None else wilson(self.seat_wins, self.seat_games, z)
        return float(np.max(hi - lo))

    def to_dict(self) -> dict:
        """JSON-safe dict (lists of ints); :meth:`from_dict` inverts it."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _UNUSED and (v is None or (not isinstance(v, np.ndarray) and v == _UNUSED[f.name])):
                continue
            if f.name in ("groups", "categories"):
                v = [g.to_dict() for g in v]
            out[f.name] = v.tolist() if isinstance(v, np.ndarray) else (list(v) if isinstance(v, tuple) else v)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> Tallies:
        d = dict(d)
        if "groups" not in d:                       # saved before counter groups: one group under the old names
            d["groups"] = [{"name": d.pop("item_name"), "labels": d.pop("item_labels"),
                            "counter_names": d.pop("counter_names"), "used_counter": d["used_counter"],
                            "ratio_base": d.pop("used_counter"), "chunk_key": "counters",
                            "totals": d.pop("item_totals"), "totals_won": d.pop("item_totals_won"),
                            **{k: d.pop(k) for k in ("used_pairs", "used_wins", "unused_pairs", "unused_wins")}}]
        kw = {}
        for f in fields(cls):
            if f.name not in d:
                continue
            v = d[f.name]
            if f.name == "groups":
                kw[f.name] = [GroupTallies.from_dict(g) for g in v]
            elif f.name == "categories":
                kw[f.name] = [CategoryTallies.from_dict(c) for c in v]
            elif f.name in _ARRAYS:
                kw[f.name] = None if v is None else np.asarray(v, dtype=np.int64)
            else:
                kw[f.name] = tuple(v) if isinstance(v, list) else v
        K = len(kw.get("player_counter_names", ()))
        for name in ("role_final_sum", "role_final_sq"):      # [R, K] with no roles comes back from JSON as []
            if kw.get(name) is not None and kw[name].size == 0:
                kw[name] = kw[name].reshape(0, K)
        return cls(**kw)


def _categories(spec: Any, scenario: Any):
    """The game's categories (``games.categories``); none for a spec that declares none."""
    return spec.categories(scenario) if getattr(spec, "categories", None) is not None else ()


def _counter_groups(spec: Any, scenario: Any, used_counter: int):
    """The game's counter groups (``games.counter_groups``); a spec without groups has one, its item counters."""
    from ..games import CounterGroup

    if getattr(spec, "groups", None) is not None:
        return spec.groups(scenario)
    return (CounterGroup(spec.item_name, tuple(spec.counter_names), used_counter, "counters",
                         labels=lambda _scenario: tuple(spec.item_labels),
                         used_phrase=getattr(spec, "item_used_phrase", "")),)


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
