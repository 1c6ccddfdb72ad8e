"""Speed, measured in one run on the same seeds: the kernel against the reference engine and a no-rules floor.

The floor kernel makes, per game, exactly as many random draws (stream words) as the real kernel made for that game
and applies no rules, so `kernel / floor` says how much the rules cost beyond the random numbers. Compile time is
excluded: every path runs once untimed first. The timed kernel runs play into the output arrays of that first run,
as `balance run` plays each chunk into the arrays of the one before (fresh arrays cost the operating system zeroing
new pages, about 6% of a 2M-game chunk). The kernel and the floor report the fastest of REPEATS timed runs. Ratios
in one process are what to compare on a noisy machine.

Two measurements say what a user waits for around the kernel (:func:`run_speed`, :func:`report_speed`): the marginal
games/s of a whole run (``runner.run``: chunks, tallies, results) against the kernel alone on the same games, and the
seconds of a report (``balance report``) split into its games and what follows them: tables, figures and files.
"""
from __future__ import annotations

import os
import platform
import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange

from ..core.rng import PURPOSE_DICE, scale_nb, stream_key_nb, word32_nb
from ..run.runner import play_chunk, set_threads
from ..scenario.model import Scenario
from .bench_lookahead import GAMES as LOOKAHEAD_GAMES
from .bench_lookahead import LookaheadSpeed, lookahead_speed

REPEATS = 3
RUN_SHARE = 4               # the run measurement's larger run plays this share of the kernel's games (-n), at least
RUN_MIN = 1_000             # ... this many; its smaller run a tenth of that
REPORT_GAMES = 20_000       # games of the timed report


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
class RunSpeed:
    """A whole run (``runner.run``) against the kernel alone on the same games, measured back to back REPEATS
    times: the kernel playing games small .. games-1 in one chunk, a run of ``small`` games, a run of ``games``."""

    games: int                  # the larger run's games
    small: int                  # the smaller run's games
    kernel_gps: float           # the kernel alone on the games the larger run plays beyond the smaller, best
    run_gps: float              # marginal games/s of a whole run, (games - small) / (best wall - best wall)
    ratios: tuple               # each repeat's run / kernel from its own three measurements (the wall times)
    cpu_ratio: float            # the same in this process's CPU seconds, the median of the repeats
    loop_share: float           # the kernel's share of the larger run's loop (its own timing), median of the repeats
    contrasts: int = 0          # contrast variants a run also plays (co-operative games), as many games each
    with_contrasts_gps: float | None = None     # marginal scenario games/s of a whole run that plays them too

    @property
    def ratio(self) -> float:
        """The median of the repeats' run / kernel: each from three measurements taken back to back, steadier than
        the ratio of the bests where the machine's speed drifts from minute to minute."""
        return sorted(self.ratios)[len(self.ratios) // 2]

    def lines(self) -> list[str]:
        spread = ", ".join(f"{r:.2f}" for r in self.ratios)
        out = [f"run        {self.run_gps:>14,.0f} games/s  (marginal: a whole run of {self.games:,} games against "
               f"{self.small:,}, best of {len(self.ratios)})",
               f"run / kernel = {self.ratio:.2f}    (the kernel alone on the same games, median of the repeats "
               f"{spread}; in CPU time {self.cpu_ratio:.2f}; the kernel's share of the run's loop "
               f"{self.loop_share:.3f})"]
        if self.contrasts and self.with_contrasts_gps:
            out.append(f"           with its {self.contrasts} contrast variant{'s' if self.contrasts > 1 else ''}, "
                       f"as many games each: {self.with_contrasts_gps:,.0f} scenario games/s = "
                       f"{self.with_contrasts_gps / self.kernel_gps:.2f} of the kernel's games/s (once)")
        return out


@dataclass
class ReportSpeed:
    """``balance report``'s time: its games (``runner.run`` with the contrast variants, the kernel loaded from the
    cache), then everything after them (the summary it prints, the tables, figures and files it writes)."""

    games: int
    play_s: float
    write_s: float
    figures: dict               # seconds of each figure (drawn, written, embedded), by name

    def lines(self) -> list[str]:
        name, slowest = max(self.figures.items(), key=lambda kv: kv[1], default=("-", 0.0))
        return [f"report     {self.play_s:>10.1f} s games ({self.games:,}) + {self.write_s:.1f} s tables, "
                f"figures and files ({len(self.figures)} figures, {sum(self.figures.values()):.1f} s; slowest "
                f"{name} {slowest:.1f} s)"]


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
    run: RunSpeed | None = None
    report: ReportSpeed | None = None
    startup: tuple[float, float] | None = None      # seconds: `balance --help`, and a bad scenario file's error
    lookahead: LookaheadSpeed | None = None         # a game with a lookahead strategy: its decisions per second

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
        ] + (self.lookahead.lines() if self.lookahead is not None else [])
          + (self.run.lines() if self.run is not None else [])
          + (self.report.lines() if self.report is not None else [])
          + ([f"start-up   {self.startup[0]:>10.2f} s --help, {self.startup[1]:.2f} s a bad scenario file's one-line "
              f"error (new processes, best of {REPEATS})"] if self.startup is not None else [])
          + ([f"cold compile {self.cold_compile_s:>10.1f} s        (the kernel compiled into a fresh Numba cache, in "
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


def _timed(work) -> tuple[float, float]:
    """Seconds of wall time and of this process's CPU time (every thread) that ``work()`` took."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def run_speed(scenario: Scenario, games: int, threads: int | None = None) -> RunSpeed:
    """A whole run against its kernel (:class:`RunSpeed`): runs of ``games`` and of a tenth of them (start-up,
    compile/load and the results cancel in the difference), and the kernel alone on the games between, REPEATS
    times back to back; then, for a game with contrast variants, both runs once more playing them too."""
    from dataclasses import replace

    from ..run.contrasts import variants
    from ..run.runner import RunOptions, run
    from ..scenario.model import load_scenario
    small = max(games // 10, 1)
    sized = {n: load_scenario(scenario.to_dict(), games=n) for n in (small, games)}
    options = RunOptions(threads=threads, progress=False, contrasts=False)

    done = []

    def whole(n: int, contrasts: bool = False) -> tuple[float, float]:
        return _timed(lambda: done.append(run(sized[n], replace(options, contrasts=contrasts))))

    def loop_share(results) -> float:
        """The kernel's share of a run's loop: its seconds playing chunks over the loop's (compile/load out)."""
        t = results.meta["timing"]
        return t["simulate_s"] / max(t["wall_s"] - t["compile_s"], 1e-9)

    spec = scenario.spec()
    compiled = spec.compile_scenario(scenario)
    n_threads = set_threads(threads)
    out = play_chunk(spec, compiled, scenario, small, games - small, n_threads, counter_rows=False)
    whole(small)                    # the statistics' tallies loaded (or compiled) before anything is timed
    kernel, smalls, larges, ratios, cpu, shares = [], [], [], [], [], []
    for _ in range(REPEATS):
        k = _timed(lambda: play_chunk(spec, compiled, scenario, small, games - small, n_threads, out=out,
                                      counter_rows=False))
        a, b = whole(small), whole(games)
        kernel.append(k[0])
        smalls.append(a[0])
        larges.append(b[0])
        ratios.append(k[0] / max(b[0] - a[0], 1e-9))
        cpu.append(k[1] / max(b[1] - a[1], 1e-9))
        shares.append(loop_share(done[-1]))
    n = len(variants(scenario))
    with_contrasts = None
    if n:
        a, b = whole(small, True)[0], whole(games, True)[0]
        with_contrasts = (games - small) / max(b - a, 1e-9)
    return RunSpeed(games, small, (games - small) / min(kernel), (games - small) / max(min(larges) - min(smalls), 1e-9),
                    tuple(ratios), sorted(cpu)[len(cpu) // 2], sorted(shares)[len(shares) // 2], n,
                    with_contrasts)


def report_speed(scenario: Scenario, games: int = REPORT_GAMES, threads: int | None = None) -> ReportSpeed:
    """A report's seconds (:class:`ReportSpeed`) as ``balance report`` spends them, written into a temporary
    folder: the run (with its contrast variants), then the summary it prints and the report it writes."""
    import tempfile
    from pathlib import Path

    from ..present.report import write_report
    from ..run.runner import RunOptions, run
    from ..scenario.model import load_scenario
    sized = load_scenario(scenario.to_dict(), games=games)
    done = []
    play_s = _timed(lambda: done.append(run(sized, RunOptions(threads=threads, progress=False))))[0]
    results, figures = done[0], {}
    with tempfile.TemporaryDirectory() as tmp:
        def write() -> None:
            results.summary()
            write_report(results, Path(tmp) / "report", [tuple(a) for a in results.meta.get("assumptions", [])],
                         timings=figures)
        write_s = _timed(write)[0]
    return ReportSpeed(games, play_s, write_s, figures)


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
        code = ("import sys, time; from balance.scenario import load_scenario; "
                "from balance.run.chunks import set_threads; "
                "from balance.run.runner import warm_up; sc = load_scenario(sys.argv[1], games=1); spec = sc.spec(); "
                "t = time.perf_counter(); compiled = spec.compile_scenario(sc); c = time.perf_counter() - t; "
                "k, s = warm_up(spec, compiled, sc, set_threads(None)); "
                "print(c + k, s)")          # a first `balance run`'s compile/load: its warm-up, step by step
        done = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, check=True)
    kernel, statistics = done.stdout.strip().splitlines()[-1].split()
    return float(kernel), float(statistics)


def start_up(scenario: Scenario) -> tuple[float, float]:
    """Best-of-REPEATS seconds of a new `balance --help` process, and of a `balance run` of a file of the scenario's
    game whose player count is out of range (the one-line error a typo gets): what a user waits before anything
    is simulated."""
    import subprocess
    import sys
    import tempfile

    def best(args) -> float:
        times = []
        for _ in range(REPEATS):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "balance", *args], capture_output=True)
            times.append(time.perf_counter() - t)
        return min(times)

    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.toml")
        with open(bad, "w", encoding="utf-8") as fh:
            fh.write(f'game = "{scenario.game}"\nplayers = 99\n')
        return best(["--help"]), best(["run", bad])


def benchmark(scenario: Scenario, games: int = 2_000_000, reference_games: int = 300,
              threads: int | None = None, cold: bool = False, report_games: int = REPORT_GAMES,
              lookahead_games: int = LOOKAHEAD_GAMES) -> BenchResult:
    """Measure the kernel (all threads and one), the floor and the reference engine on the same seeds, a whole run
    against the kernel (runs of games / RUN_SHARE games, at least RUN_MIN) and a report of ``report_games`` games
    (none: 0); for a game with a lookahead strategy, its decisions per second over ``lookahead_games`` games (none:
    0; ``bench_lookahead``); with `cold`, also the kernel's compile time into a fresh cache (first, before anything
    else loads the machine)."""
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
    lookahead = lookahead_speed(scenario, lookahead_games)
    run = run_speed(scenario, max(games // RUN_SHARE, RUN_MIN), threads)
    report = report_speed(scenario, report_games, threads) if report_games else None
    return BenchResult(scenario.name, scenario.players, [s.strategy for s in scenario.seats], n_threads, games,
                       kernel_gps, kernel_1t, floor_gps, reference_games, reference_gps, machine(), cold_s, stats_s,
                       run, report, start_up(scenario), lookahead)
