"""Speed, measured in one run on the same seeds: the kernel against the reference engine and a no-rules floor.

The floor kernel makes, per game, exactly as many random draws (stream words) as the real kernel made for that game
and applies no rules, so `kernel / floor` says how much the rules cost beyond the random numbers. Compile time is
excluded: every path runs once untimed first. The timed kernel runs play into the output arrays of that first run,
as `balance run` plays each chunk into the arrays of the one before (fresh arrays cost the operating system zeroing
new pages, about 6% of a 2M-game chunk). The kernel and the floor report the fastest of REPEATS timed runs. Ratios
in one process are what to compare on a noisy machine.
"""
from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange

from .rng import PURPOSE_DICE, scale_nb, stream_key_nb, word32_nb
from .runner import play_chunk, set_threads
from .scenario import Scenario

REPEATS = 3


@njit(cache=True, parallel=True)
def floor_nb(draws, seed, game0, n_blocks, sink):
    """Speed floor: per game, as many random draws (stream words) as the real kernel made, and no rules.

    Each draw is computed straight from its counter (the kernel's streams compute the same words one draw ahead, to
    keep the mixer off its critical path); nothing carries from draw to draw, so this loop vectorises.
    """
    n_games = draws.shape[0]
    per_block = (n_games + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        acc = 0
        for i in range(b * per_block, min(n_games, (b + 1) * per_block)):
            key = stream_key_nb(seed, game0 + i, PURPOSE_DICE)
            for c in range(1, draws[i] + 1):
                acc += scale_nb(word32_nb(key, c), 6)
        sink[b] = acc


@dataclass
class BenchResult:
    scenario: str
    players: int
    lineup: list[str]
    threads: int
    games: int
    kernel_gps: float
    kernel_1t_gps: float
    floor_gps: float
    reference_games: int
    reference_gps: float
    machine: str
    cold_compile_s: float | None = None
    cold_statistics_s: float | None = None      # the statistics' compiled tallies, in the same process, after it

    @property
    def vs_reference(self) -> float:
        return self.kernel_gps / self.reference_gps

    @property
    def vs_floor(self) -> float:
        return self.floor_gps / self.kernel_gps

    def to_text(self) -> str:
        return "\n".join([
            f"benchmark: {self.scenario}, {self.players} players, lineup {', '.join(self.lineup)}",
            f"machine:   {self.machine}",
            f"kernel     {self.kernel_gps:>14,.0f} games/s  "
            f"({self.threads} thread{'' if self.threads == 1 else 's'}, {self.games:,} games, best of {REPEATS})",
            f"kernel     {self.kernel_1t_gps:>14,.0f} games/s  (1 thread, best of {REPEATS})",
            f"floor      {self.floor_gps:>14,.0f} games/s  (same draws per game, no rules, best of {REPEATS})",
            f"reference  {self.reference_gps:>14,.1f} games/s  (plain Python, {self.reference_games:,} games)",
            f"kernel / reference = {self.vs_reference:,.0f}x    "
            f"floor / kernel = {self.vs_floor:.1f}x (information only)",
        ] + ([f"cold compile {self.cold_compile_s:>10.1f} s        (the kernel compiled into a fresh Numba cache, in "
              "a new process)"] if self.cold_compile_s is not None else [])
          + ([f"             {self.cold_statistics_s:>10.1f} s more   (the statistics, compiled after it: a first run "
              "counts both as compile/load)"] if self.cold_statistics_s is not None else []))


def machine() -> str:
    return (f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {np.__version__}")


def _best_rate(work, items: int) -> float:
    """Items per second of the fastest of REPEATS timed calls of `work()`."""
    best = float("inf")
    for _ in range(REPEATS):
        t = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - t)
    return items / best


def _kernel(spec, compiled, scenario, games, threads):
    n_threads = set_threads(threads)
    # compile, and first touch of the outputs; then as a run plays its chunks (the counters only summed per block)
    out = play_chunk(spec, compiled, scenario, 0, games, n_threads, counter_rows=False)
    rate = _best_rate(lambda: play_chunk(spec, compiled, scenario, 0, games, n_threads, out=out, counter_rows=False),
                      games)
    return rate, out, n_threads


def cold_compile(scenario: Scenario) -> tuple[float, float]:
    """Seconds a new process takes to compile the scenario's kernel into an empty Numba cache and play one game, as
    a first `balance run` does; and the seconds it then takes to compile the statistics' tallies, which that run also
    counts as compile/load (``runner.warm_statistics``: the same for every game, once per cache)."""
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scenario.toml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(scenario.to_toml())
        env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(tmp, "cache")}
        code = ("import sys, time; from balance.scenario import load_scenario; from balance.chunks import set_threads; "
                "from balance.runner import warm_up; sc = load_scenario(sys.argv[1], games=1); spec = sc.spec(); "
                "t = time.perf_counter(); compiled = spec.compile_scenario(sc); c = time.perf_counter() - t; "
                "k, s = warm_up(spec, compiled, sc, set_threads(None)); "
                "print(c + k, s)")          # a first `balance run`'s compile/load: its warm-up, step by step
        done = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, check=True)
    kernel, statistics = done.stdout.strip().splitlines()[-1].split()
    return float(kernel), float(statistics)


def benchmark(scenario: Scenario, games: int = 2_000_000, reference_games: int = 300,
              threads: int | None = None, cold: bool = False) -> BenchResult:
    """Measure the kernel (all threads and one), the floor and the reference engine on the same seeds; with `cold`,
    also the kernel's compile time into a fresh cache (first, before anything else loads the machine)."""
    cold_s, stats_s = cold_compile(scenario) if cold else (None, None)
    spec = scenario.spec()
    compiled = spec.compile_scenario(scenario)
    kernel_gps, out, n_threads = _kernel(spec, compiled, scenario, games, threads)
    kernel_1t = kernel_gps if n_threads == 1 else _kernel(spec, compiled, scenario, max(games // 4, 1000), 1)[0]
    set_threads(n_threads)
    draws = out["draws"]
    sink = np.zeros(4 * n_threads, np.int64)
    floor_nb(draws[:100], np.uint64(scenario.seed), 0, 2, sink)
    floor_gps = _best_rate(lambda: floor_nb(draws, np.uint64(scenario.seed), 0, 4 * n_threads, sink), games)
    spec.reference(scenario, scenario.seed, 0)
    t = time.perf_counter()
    for g in range(reference_games):
        spec.reference(scenario, scenario.seed, g)
    reference_gps = reference_games / (time.perf_counter() - t)
    return BenchResult(scenario.name, scenario.players, [s.strategy for s in scenario.seats], n_threads, games,
                       kernel_gps, kernel_1t, floor_gps, reference_games, reference_gps, machine(), cold_s, stats_s)
