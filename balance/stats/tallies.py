"""The integer tallies of a run: counts and histograms whose size does not depend on the number of games, from which
every table of :class:`balance.stats.results.Results` is computed (the chunk layout they count is in
:mod:`balance.stats.aggregate`). Tallies add (two halves of a run give the whole run's) and round-trip through JSON."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .intervals import wilson
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
