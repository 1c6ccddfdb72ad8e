"""Playing tuning candidates: ranges of game indices of several scenarios (the candidates, on one seed), each game
reduced to the objective's 0/1 value and whether it counts, kept per game (one byte a game and candidate) so that
any two candidates can be paired on the games both played.

On this machine each range is played chunk by chunk on every thread; with a Dask client every range is split into
tasks (``executor.task_ranges``) that the workers play, all candidates' tasks in one queue, their values put back in
game order. Every game draws only from its own (seed, game) streams, so the values are the same either way.
"""
from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass, field

import numpy as np

from ...run.runner import interrupts_deferred, play_chunk, set_threads
from ...scenario.model import Scenario

TUNE_CHUNK = 20_000         # games per chunk (memory: one chunk's per-game arrays)
KEPT = 64                   # compiled candidates kept (each a few arrays)


@dataclass
class Values:
    """One candidate's per-game values on one seed, games 0 .. n-1: ``y`` (won) and ``counted``."""

    y: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))
    counted: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))

    @property
    def n(self) -> int:
        return len(self.y)

    def extend(self, y: np.ndarray, counted: np.ndarray) -> None:
        self.y = np.concatenate([self.y, y])
        self.counted = np.concatenate([self.counted, counted])

    def mean(self, n: int) -> float:
        """The win rate over the counted games among the first n."""
        c = self.counted[:n]
        return float(self.y[:n][c].mean()) if c.any() else float("nan")


def _values(spec, compiled, scenario: Scenario, objective, game0: int, n: int, chunk_size: int, threads: int):
    ys, cs = [], []
    for start in range(game0, game0 + n, chunk_size):
        k = min(chunk_size, game0 + n - start)
        y, c = objective(play_chunk(spec, compiled, scenario, start, k, threads))
        ys.append(y[:k].copy())
        cs.append(c[:k].copy())
    return np.concatenate(ys), np.concatenate(cs)


class LocalPlay:
    """Plays ranges on this machine's threads."""

    def __init__(self, threads: int | None, chunk_size: int = TUNE_CHUNK):
        self.threads, self.chunk_size = set_threads(threads), chunk_size
        self.compiled: dict[str, tuple] = {}
        self.describe = {"executor": "local", "threads": self.threads}

    def _compiled(self, sc: Scenario):
        key = sc.hash()
        if key not in self.compiled:
            self.compiled[key] = (sc.spec(), sc.spec().compile_scenario(sc))
            while len(self.compiled) > KEPT:
                del self.compiled[next(iter(self.compiled))]
        return self.compiled[key]

    def __call__(self, jobs: list[tuple[Values, Scenario, int]], objective, progress=None) -> None:
        """Play each job (values, scenario, stop): the scenario's games values.n .. stop-1, added to values."""
        for values, sc, stop in jobs:
            spec, compiled = self._compiled(sc)
            for start in range(values.n, stop, self.chunk_size):
                k = min(self.chunk_size, stop - start)
                y, c = objective(play_chunk(spec, compiled, sc, start, k, self.threads))
                with interrupts_deferred() as interrupt:
                    values.extend(y, c)
                if progress is not None:
                    progress(k)
                interrupt.deliver()


def _task(payload, threads: int, game0: int, n: int, chunk_size: int, objective):
    from ...run.executor import prepare_kernels
    [(spec, compiled)] = prepare_kernels([payload], threads)
    set_threads(threads)
    return _values(spec, compiled, payload[0], objective, game0, n, chunk_size, threads)


def _warm(payload, threads: int) -> None:
    from ...run.executor import prepare_kernels
    prepare_kernels([payload], threads)


class DaskPlay:
    """Plays ranges as tasks on a Dask client's workers, every candidate's tasks in one queue."""

    def __init__(self, client, threads: int | None = None, chunk_size: int = TUNE_CHUNK):
        from ...run.executor import worker_threads
        self.client, self.threads, self.chunk_size = client, threads or 1, chunk_size
        self.payloads: dict[str, object] = {}
        self.workers = worker_threads(client)
        self.describe = {"executor": "dask", "workers": len(client.nthreads()), "worker_threads": self.workers}

    def _payload(self, sc: Scenario):
        from ...run.executor import on_every_worker
        key = sc.hash()
        if key not in self.payloads:
            [self.payloads[key]] = self.client.scatter([(sc, key, sc.spec().compile_scenario(sc))], broadcast=True,
                                                       hash=False)
            if len(self.payloads) == 1:         # the kernel compiled (or loaded) on every worker, off the loop
                on_every_worker(self.client, sc.game, _warm, self.payloads[key], self.threads)
        return self.payloads[key]

    def __call__(self, jobs: list[tuple[Values, Scenario, int]], objective, progress=None) -> None:
        from ...run.executor import in_order, task_ranges
        tasks = [(game0, k, j) for j, (values, sc, stop) in enumerate(jobs)
                 for game0, k in task_ranges(self.workers, values.n, stop, self.chunk_size)]
        payloads = [self._payload(sc) for _, sc, _ in jobs]

        def submit(game0, k, j):
            return self.client.submit(_task, payloads[j], self.threads, game0, k, self.chunk_size, objective,
                                      pure=False)

        with closing(in_order(self.client, submit, tasks, 3 * self.workers)) as done:
            for (game0, k, j), (y, c) in done:
                with interrupts_deferred() as interrupt:
                    jobs[j][0].extend(y, c)
                if progress is not None:
                    progress(k)
                interrupt.deliver()
