"""Paired studies (`compare`, `sweep`, `cards`) on a Dask cluster: each task plays one range of game indices for the
base and every variant on one worker and returns the pairs' sums, which the client adds in game order.

The sums are of integers and exact in float64 (:mod:`balance.analysis.studies.paired`), so adding them per task instead
of per chunk gives the same numbers as a local run, whichever worker played which range. Each worker prepares each
scenario once (compiles or loads its kernel); the tasks are sized as a run's are (:func:`executor.task_ranges`).
"""
from __future__ import annotations

from contextlib import closing

from ...run.executor import in_order, on_every_worker, prepare_kernels, task_ranges, worker_threads
from ...run.runner import interrupts_deferred, set_threads
from .paired import PairSums, play_range


def _warm(payload, threads: int) -> None:
    prepare_kernels(payload[0], threads)


def _play(payload, threads: int, game0: int, n: int, chunk_size: int) -> list[PairSums]:
    """A task: games game0 .. game0+n-1 of every scenario, into fresh sums of each (base, variant) pair."""
    entries, layouts = payload
    compiled = prepare_kernels(entries, threads)
    set_threads(threads)
    sums = [PairSums.empty(layouts[0], lay) for lay in layouts[1:]]
    for _ in play_range(compiled, [sc for sc, _, _ in entries], layouts, sums, game0, game0 + n, chunk_size, threads):
        pass
    return sums


class DaskRanges:
    """Plays ranges of games as tasks on a client's workers; called as ``play_paired`` calls ``_LocalRanges``."""

    def __init__(self, client, compiled, scenarios, layouts, chunk_size: int, threads: int):
        self.client, self.chunk_size, self.threads = client, chunk_size, threads
        entries = [(sc, sc.hash(), comp) for sc, (_, comp) in zip(scenarios, compiled)]
        [self.payload] = client.scatter([(entries, layouts)], broadcast=True, hash=False)
        self.workers = worker_threads(client)
        on_every_worker(client, scenarios[0].game, _warm, self.payload, threads)

    def _submit(self, game0: int, n: int):
        return self.client.submit(_play, self.payload, self.threads, game0, n, self.chunk_size, pure=False)

    def __call__(self, sums, start: int, stop: int):
        """Play games start .. stop-1 into `sums`; yields each task's games once they are added."""
        tasks = task_ranges(self.workers, start, stop, self.chunk_size)
        with closing(in_order(self.client, self._submit, tasks, 3 * self.workers)) as done:
            for (_, n), got in done:
                with interrupts_deferred() as interrupt:
                    for s, g in zip(sums, got):
                        s.merge(g)
                yield n
                interrupt.deliver()
