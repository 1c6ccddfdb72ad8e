"""A scenario played a step at a time: games 0..n-1, then on to any larger n, as one run would play them.

``balance check`` looks at its claims after each step and ``balance tournament`` plays many seatings side by side;
both need to go on from where they stopped. Games are played in chunks of at most ``chunk_size`` from the same
(seed, game index) streams as :func:`balance.run.runner.run`, so every number is the same on any thread count or chunk
size, and the same as ``balance run -n`` with as many games. :func:`play_together` plays several steppers on a
Dask cluster, each range of a stepper's games a task, with the same numbers.
"""
from __future__ import annotations

from contextlib import closing
from typing import Callable

import numpy as np

from ..stats.results import Results
from .runner import DEFAULT_CHUNK, play_chunk, set_threads
from ..scenario.model import Scenario
from ..stats.aggregate import Aggregator


class Stepper:
    """Plays ``scenario`` on ``threads`` threads; :meth:`play_to` adds games, :meth:`results` gives the tallies so
    far. ``reduce(chunk)`` (a module-level function, so that a Dask worker can run it) turns every chunk's per-game
    arrays into an integer array, summed over the games played into ``reduced`` (the tournament's single-winner
    counts)."""

    def __init__(self, scenario: Scenario, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                 reduce: Callable[[dict], np.ndarray] | None = None):
        self.scenario = scenario
        self.spec = scenario.spec()
        self.threads = set_threads(threads)
        self.task_threads = threads or 1     # Numba threads of each Dask task: one per worker thread, as a run's
        self.chunk_size = int(chunk_size)
        self.reduce = reduce
        self.reduced: np.ndarray | None = None
        self.agg = Aggregator(self.spec, [s.strategy for s in scenario.seats], scenario.turn_cap, scenario=scenario)
        self.compiled = self.spec.compile_scenario(scenario)
        self.played = 0
        self.payload = None             # the scenario on a Dask cluster's workers, once sent

    def play_to(self, n: int) -> None:
        """Play on until ``n`` games have been played in all."""
        for k, reduced in play_range(self.spec, self.compiled, self.scenario, self.agg, self.played, n,
                                     self.chunk_size, self.threads, self.reduce):
            self._add(reduced, k)

    def _add(self, reduced: np.ndarray | None, n: int) -> None:
        if reduced is not None:
            self.reduced = reduced if self.reduced is None else self.reduced + reduced
        self.played += n

    def results(self, **meta) -> Results:
        """The games so far as :class:`~balance.stats.results.Results` (a copy: playing on does not change it)."""
        from ..stats.tallies import Tallies
        tallies = Tallies.from_dict(self.agg.tallies.to_dict())
        sc = self.scenario
        return Results(tallies, meta={"scenario": sc.to_dict(), "scenario_toml": sc.to_toml(), "seed": sc.seed,
                                      "turn_cap": sc.turn_cap, "scenario_hash": sc.hash(), "name": sc.name, **meta})


def play_range(spec, compiled, scenario, agg, start: int, stop: int, chunk_size: int, threads: int, reduce):
    """Play games start .. stop-1 chunk by chunk into `agg`; yields each chunk's games and ``reduce`` of it (None
    without it) once the chunk is in `agg`."""
    for game0 in range(start, stop, chunk_size):
        k = min(chunk_size, stop - game0)
        chunk = play_chunk(spec, compiled, scenario, game0, k, threads)
        agg.update(chunk)
        yield k, (reduce(chunk) if reduce is not None else None)


def _task(payload, threads: int, game0: int, n: int, chunk_size: int, reduce):
    """A Dask task: games game0 .. game0+n-1 of one stepper's scenario; (tallies, reduced)."""
    from .executor import prepare_kernels
    [(spec, compiled)] = prepare_kernels([payload], threads)
    scenario = payload[0]
    set_threads(threads)
    agg = Aggregator(spec, [s.strategy for s in scenario.seats], scenario.turn_cap, scenario=scenario)
    reduced = None
    for _, r in play_range(spec, compiled, scenario, agg, game0, game0 + n, chunk_size, threads, reduce):
        reduced = r if reduced is None else reduced + r
    return agg.tallies, reduced


def _warm(payloads, threads: int) -> None:
    from .executor import prepare_kernels
    prepare_kernels(payloads, threads)


def play_together(plays: list[tuple[Stepper, int]], client=None) -> None:
    """Play each (stepper, n) on until n games; with a Dask ``client``, every range of every stepper's games is a
    task (the steppers' ranges in one queue, a few tasks per worker thread in flight), its tallies added to its
    stepper in game order."""
    if client is None:
        for stepper, n in plays:
            stepper.play_to(n)
        return
    from .executor import in_order, on_every_worker, task_ranges, worker_threads
    from .runner import interrupts_deferred
    new = [st for st, _ in plays if st.payload is None]
    if new:
        futures = client.scatter([(st.scenario, st.scenario.hash(), st.compiled) for st in new], broadcast=True,
                                 hash=False)
        for st, f in zip(new, futures):
            st.payload = f
        on_every_worker(client, new[0].scenario.game, _warm, futures, new[0].task_threads)
    workers = worker_threads(client)
    tasks = [(game0, k, i) for i, (st, n) in enumerate(plays)
             for game0, k in task_ranges(workers, st.played, n, st.chunk_size)]

    def submit(game0, k, i):
        st = plays[i][0]
        return client.submit(_task, st.payload, st.task_threads, game0, k, st.chunk_size, st.reduce, pure=False)

    with closing(in_order(client, submit, tasks, 3 * workers)) as done:
        for (game0, k, i), (tallies, reduced) in done:
            st = plays[i][0]
            with interrupts_deferred() as interrupt:
                st.agg.add(tallies, game0, game0 + k - 1)
                st._add(reduced, k)
            interrupt.deliver()


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


def winner_counts(chunk: dict, players: int) -> np.ndarray:
    """:func:`single_winner` as one integer array: the games each seat won alone, then ties, then none."""
    alone, ties, none = single_winner(chunk, players)
    return np.concatenate([alone, [ties, none]]).astype(np.int64)
