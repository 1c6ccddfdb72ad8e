"""A scenario played a step at a time: games 0..n-1, then on to any larger n, as one run would play them.

``balance check`` looks at its claims after each step and ``balance tournament`` plays many seatings side by side;
both need to go on from where they stopped. Games are played in chunks of at most ``chunk_size`` from the same
(seed, game index) streams as :func:`balance.runner.run`, so every number is the same on any thread count or chunk
size, and the same as ``balance run -n`` with as many games.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .results import Results
from .runner import DEFAULT_CHUNK, play_chunk, set_threads
from .scenario import Scenario
from .stats.aggregate import Aggregator


class Stepper:
    """Plays ``scenario`` on ``threads`` threads; :meth:`play_to` adds games, :meth:`results` gives the tallies so
    far. ``on_chunk(chunk)`` sees every chunk's per-game arrays (the tournament's single-winner counts)."""

    def __init__(self, scenario: Scenario, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                 on_chunk: Callable[[dict], None] | None = None):
        self.scenario = scenario
        self.spec = scenario.spec()
        self.threads = set_threads(threads)
        self.chunk_size = int(chunk_size)
        self.on_chunk = on_chunk
        self.agg = Aggregator(self.spec, [s.strategy for s in scenario.seats], scenario.turn_cap, scenario=scenario)
        self.compiled = self.spec.compile_scenario(scenario)
        self.played = 0

    def play_to(self, n: int) -> None:
        """Play on until ``n`` games have been played in all."""
        while self.played < n:
            k = min(self.chunk_size, n - self.played)
            chunk = play_chunk(self.spec, self.compiled, self.scenario, self.played, k, self.threads)
            self.agg.update(chunk)
            if self.on_chunk is not None:
                self.on_chunk(chunk)
            self.played += k

    def results(self, **meta) -> Results:
        """The games so far as :class:`~balance.results.Results` (a copy: playing on does not change it)."""
        from .stats.aggregate import Tallies
        tallies = Tallies.from_dict(self.agg.tallies.to_dict())
        sc = self.scenario
        return Results(tallies, meta={"scenario": sc.to_dict(), "scenario_toml": sc.to_toml(), "seed": sc.seed,
                                      "turn_cap": sc.turn_cap, "scenario_hash": sc.hash(), "name": sc.name, **meta})


def single_winner(chunk: dict, players: int) -> tuple[np.ndarray, int, int]:
    """Per seat, the games of this chunk it won alone; and the games won by several seats (ties) and by none."""
    winner = np.asarray(chunk["winner"])
    if "win_mask" in chunk:
        mask = np.asarray(chunk["win_mask"]).astype(np.int64)
    else:
        mask = np.where(winner >= 0, np.left_shift(1, np.maximum(winner, 0).astype(np.int64)), 0)
    bits = np.array([(mask >> s) & 1 for s in range(players)])          # [P, G]
    count = bits.sum(axis=0)
    alone = (bits * (count == 1)).sum(axis=1).astype(np.int64)
    return alone, int((count > 1).sum()), int((count == 0).sum())
