"""Play a run's games on a Dask cluster: each chunk of game indices is a task, its integer tallies merged exactly.

A task plays games game0 .. game0+n-1 on one worker and returns their :class:`~balance.stats.aggregate.Tallies`
(a few hundred kilobytes at most, whatever n is); the client adds them in game order, so every number, the games
worth watching included, is the one a local run of the same seed gives. Every game draws only from its own
(seed, game) streams, so it does not matter which worker plays which chunk, or how often a chunk is played again
after a worker dies (Dask reschedules its tasks on the others).

Each worker process prepares a scenario once: the first task (or :meth:`DaskPlayer.warm`) loads the kernel from the
Numba cache or compiles it, and later tasks of the same scenario find it in ``_PREPARED``. Dask itself is imported
only here, and this module only when a client is given, so ``import balance`` and the command line without the
``dask`` extra are as fast as before.
"""
from __future__ import annotations

import asyncio
import os
import time
import weakref
from collections import deque
from contextlib import closing

from ..games import ChunkBuffers
from .runner import ExecutorError, RunOptions, interrupts_deferred, play_chunk, set_threads, warm_up
from ..scenario.model import Scenario
from ..stats.aggregate import Aggregator

TASK_GAMES = 1_000_000      # the most games in one task (about 2 s on one thread); fewer when a run is short
TASK_SHARE = 3              # a task takes at most 1 / (TASK_SHARE x worker threads) of the games not yet handed out
_PREPARED: dict[tuple, tuple] = {}   # (scenario hash, counter rows) -> (spec, compiled), once per worker process
PREPARED_KEPT = 256         # scenarios a worker keeps prepared

QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}
"""Dask settings for the local clusters `balance` starts. Dask's worker profiler samples the task's Python stack every
10 ms (a kernel's native frames are invisible to it), and every scheduler, nanny and worker checks its event loop
every 20 ms. The kernels release Python's lock, so these threads run beside them: idle, a 2-worker cluster spent
0.22 s of CPU in 5 s in the scheduler's process and 0.18 s in each worker, 0.03 s and 0.01 s with these settings
(measured on a 2-core machine). On a machine with one worker per core that is CPU taken from the games. The tick only
measures the event loop's lag; heartbeats and failure detection keep their own intervals."""


def connect(executor: str, scheduler: str | None = None, workers: int | None = None):
    """A Dask client for ``--executor dask`` (the scheduler at ``scheduler``) or ``dask-local`` (a local cluster of
    ``workers`` single-thread worker processes, by default one per core). Close it with :func:`close`."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ExecutorError(f"--executor {executor} needs Dask, which is not installed "
                            "(allowed: pip install 'balance[dask]')") from None
    if executor == "dask":
        if not scheduler:
            raise ExecutorError("--executor dask needs --scheduler ADDRESS (such as tcp://host:8786)")
        try:
            return Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as err:
            raise ExecutorError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({err})") from None
    if executor == "dask-local":
        import dask
        n = workers or os.cpu_count() or 1
        with dask.config.set(QUIET_CLUSTER):       # the nannies hand the workers the settings at hand when they start
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            try:
                return Client(cluster)
            except BaseException:
                cluster.close()             # not left running behind a failed connection
                raise
    raise ExecutorError(f"--executor {executor}: unknown (allowed: local, dask, dask-local)")


WORKER_EXIT_S = 60
"""How long closing a local cluster waits for each worker process to end. A worker that compiled a kernel spends
seconds after its last task in Python's own shutdown (a garbage collection over the compiler's objects: 6 s for a
Climbing Tower worker on a busy 2-core machine). Dask's own close waits 4 s, then kills the process and logs
"Worker process still alive after 4.0 seconds, killing" under a successful run."""


def close(client) -> None:
    """Close a client from :func:`connect`, and the local cluster it started, if any: its workers first, each given
    WORKER_EXIT_S to end on its own, then the scheduler. After a run that stopped with tasks in flight (Ctrl-C, a
    failed task) the workers are still playing games nobody will read: Dask's own close ends them after 4 s."""
    cluster = getattr(client, "cluster", None)
    abandoned = client in _ABANDONED
    client.close()
    if cluster is None:
        return
    try:
        if not abandoned:
            cluster.sync(_end_workers, list(cluster.workers.values()), WORKER_EXIT_S)
    finally:
        cluster.close()


_ABANDONED: weakref.WeakSet = weakref.WeakSet()    # clients that cancelled tasks in flight (:func:`in_order`)


async def _end_workers(workers, timeout: float) -> None:
    await asyncio.gather(*(w.close(timeout=timeout, reason="balance-close") for w in workers))


def guided_tasks(start: int, stop: int, threads: int, smallest: int) -> list[tuple[int, int]]:
    """The (game0, n) tasks of games start .. stop-1, in game order and largest first: each takes 1 / (TASK_SHARE x
    threads) of the games not yet handed out, at most TASK_GAMES and at least `smallest` (the last one what is left).

    The last tasks are short, so that the workers finish together. With tasks of equal size, one worker could sit
    idle for most of a task at the end of a run while another played its last: 0.42 s of a 5.1 s run of eight
    500,000-game tasks on two workers (measured with Dask's task stream). Which worker plays which games, and
    in what pieces, changes no number (module docstring)."""
    tasks = []
    game0 = start
    while game0 < stop:
        left = stop - game0
        n = min(left, TASK_GAMES, max(smallest, -(-left // (TASK_SHARE * threads))))
        tasks.append((game0, n))
        game0 += n
    return tasks


def _prepare(scenario: Scenario, key: str, compiled, threads: int, rows: bool = False) -> tuple:
    """This worker's (spec, compiled) for the scenario, loaded or compiled on first use only: for a run's tasks the
    kernel and the statistics' tallies (``runner.warm_up``); with ``rows``, the kernel as the studies and the
    tournament play it, per-game counter rows kept.

    A worker forgets the oldest past PREPARED_KEPT: every sweep cell and tournament seating is a scenario of its own,
    and a `dask worker` process lives on from one run to the next (the kernels themselves stay loaded; only the
    scenario's own arrays go)."""
    entry = _PREPARED.get((key, rows))
    if entry is None:
        spec = scenario.spec()
        set_threads(threads)
        if rows:
            play_chunk(spec, compiled, scenario, 0, 1, threads)
        else:
            warm_up(spec, compiled, scenario, threads)
        entry = _PREPARED[(key, rows)] = (spec, compiled)
        while len(_PREPARED) > PREPARED_KEPT:
            del _PREPARED[next(iter(_PREPARED))]
    return entry


def _warm_payload(payload, threads: int) -> float:
    """A task on each worker before the games: prepare the scenario; returns the seconds it took there."""
    t = time.perf_counter()
    _prepare(*payload, threads)
    return time.perf_counter() - t


def play_task(scenario: Scenario, key: str, compiled, threads: int, game0: int, n_games: int, chunk_size: int,
              keep_games: int) -> tuple:
    """A task: play games game0 .. game0+n_games-1 on this worker in chunks of ``chunk_size`` and aggregate them.
    Returns (tallies, kept rows or None, seconds of simulation)."""
    spec, compiled = _prepare(scenario, key, compiled, threads)
    set_threads(threads)
    agg = Aggregator(spec, [seat.strategy for seat in scenario.seats], scenario.turn_cap, keep_games=keep_games,
                     scenario=scenario)
    buffers = ChunkBuffers()        # every chunk of the task played into the same arrays, as LocalPlayer does
    sim_s = 0.0
    for start in range(game0, game0 + n_games, chunk_size):
        n = min(chunk_size, game0 + n_games - start)
        t = time.perf_counter()
        chunk = play_chunk(spec, compiled, scenario, start, n, threads, out=buffers, counter_rows=False)
        sim_s += time.perf_counter() - t
        agg.update(chunk)
    return agg.tallies, (agg.kept_games() if keep_games else None), sim_s


class DaskPlayer:
    """Plays a run's games as tasks on a Dask client's workers (the runner's counterpart of ``LocalPlayer``).

    A few tasks per worker thread are in flight at a time, so an interrupt cancels little and a run of 100 million
    games holds a few tallies, not hundreds; their results are added in game order as they come."""

    def __init__(self, client, scenario: Scenario, compiled, options: RunOptions):
        self.client, self.scenario, self.options = client, scenario, options
        self.threads = options.threads or 1         # one worker thread per core: one Numba thread per task
        self.key = scenario.hash()
        [self.payload] = client.scatter([(scenario, self.key, compiled)], broadcast=True, hash=False)

    def n_threads(self) -> int:
        return worker_threads(self.client)

    def warm(self) -> None:
        """Prepare the scenario on every worker now (a task each, off the workers' event loops, which a compile of
        tens of seconds would stall), so that the compile is not counted as simulation."""
        on_every_worker(self.client, self.scenario.game, _warm_payload, self.payload, self.threads)

    def describe(self) -> dict:
        return {"executor": "dask", "workers": len(self.client.nthreads()), "worker_threads": self.n_threads()}

    def tasks(self, start: int, stop: int):
        """The (game0, n) tasks of games start .. stop-1 (:func:`task_ranges`)."""
        return task_ranges(self.n_threads(), start, stop, self.options.chunk_size)

    def _submit(self, game0: int, n: int):
        keep = max(0, self.options.keep_games - game0)     # only the first games' rows are kept
        return self.client.submit(_play_payload, self.payload, self.threads, game0, n, self.options.chunk_size,
                                  min(keep, n), pure=False)

    def play(self, agg: Aggregator, start: int, stop: int):
        """Play games start .. stop-1 into `agg`; yields (games, seconds since the last yield) after each task."""
        t = time.perf_counter()
        with closing(in_order(self.client, self._submit, self.tasks(start, stop), 3 * self.n_threads())) as done:
            for (game0, n), (tallies, kept, _) in done:
                with interrupts_deferred() as interrupt:
                    agg.add(tallies, game0, game0 + n - 1, kept)
                now = time.perf_counter()
                yield n, now - t
                interrupt.deliver()
                t = now


def on_every_worker(client, game: str, fn, *args) -> list:
    """Run ``fn(*args)`` once on every worker (a task each, off the workers' event loops, which a compile of tens of
    seconds would stall): how each worker prepares a kernel before the games. One line if a worker cannot."""
    try:
        return client.gather([client.submit(fn, *args, workers=[w], pure=False) for w in client.nthreads()])
    except Exception as err:        # a worker without balance, or another version of it
        raise ExecutorError(f"the Dask workers could not load the {game} kernel "
                            f"({type(err).__name__}: {_first_line(err)})", code=1) from None


def in_order(client, submit, tasks, window: int):
    """Yield (task, result) of each task in `tasks` ((game0, n, ...) tuples), in their order, submitting each through
    ``submit(*task)`` (a future) with at most `window` in flight; the tasks still in flight are cancelled when the
    caller stops early (an interrupt, a failed task). Close it (``contextlib.closing``) when not read to the end."""
    todo = deque(tasks)
    pending: deque = deque()
    try:
        while todo or pending:
            while todo and len(pending) < window:
                task = todo.popleft()
                pending.append((task, submit(*task)))
            task, future = pending[0]
            result = task_result(future, task[0], task[1])      # in flight (cancelled below) until it is in
            pending.popleft()
            yield task, result
    finally:
        if pending:
            _ABANDONED.add(client)
            client.cancel([f for _, f in pending])


def prepare_kernels(entries, threads: int) -> list:
    """On a worker: the (spec, compiled) of each (scenario, hash, compiled) entry, as the studies and the tournament
    play them (:func:`_prepare` with per-game counter rows)."""
    return [_prepare(sc, key, compiled, threads, rows=True) for sc, key, compiled in entries]


def worker_threads(client) -> int:
    """The worker threads of a client's cluster (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def task_ranges(threads: int, start: int, stop: int, chunk_size: int) -> list[tuple[int, int]]:
    """The :func:`guided_tasks` of games start .. stop-1 on workers of ``threads`` threads in all
    (:func:`worker_threads`), none under a tenth of a chunk (and 1,000 games)."""
    return guided_tasks(start, stop, threads, max(1_000, chunk_size // 10))


def task_result(future, game0: int, n: int):
    """A task's result, or one line (ExecutorError, exit code 1) when it failed or its workers kept dying."""
    try:
        return future.result()
    except KeyboardInterrupt:
        raise
    except Exception as err:
        name = type(err).__name__
        if name == "KilledWorker":
            raise ExecutorError(f"Dask workers died playing games {game0:,} to {game0 + n - 1:,} (KilledWorker: "
                                "each worker given the task was lost); no results: check the workers' memory "
                                "and logs, then run again", code=1) from None
        raise ExecutorError(f"the Dask task playing games {game0:,} to {game0 + n - 1:,} failed ({name}: "
                            f"{_first_line(err)})", code=1) from None


def _play_payload(payload, threads, game0, n_games, chunk_size, keep_games):
    scenario, key, compiled = payload
    return play_task(scenario, key, compiled, threads, game0, n_games, chunk_size, keep_games)


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else ""
