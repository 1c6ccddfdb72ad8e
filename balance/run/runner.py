"""Run a scenario's games in chunks on this machine's threads and stream them into the statistics.

Each chunk is a contiguous range of global game indices; every game draws only from its own (seed, game) random
streams, so the numbers do not depend on the chunk size or the thread count. Aggregation keeps integer tallies,
never a row per game (except the first ``keep_games``), so memory stays flat however many games run.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

from .chunks import play_chunk, set_threads
from ..games import ChunkBuffers
from ..core.notice import compile_notice, notice_mode, show_progress  # noqa: F401 - the CLI imports them from here
from ..stats.results import Results, package_version
from ..scenario.model import Scenario
from ..stats.aggregate import Aggregator

# Games a chunk holds at most (memory: about 300 bytes a game for Climbing Tower's arrays); chunks last about
# CHUNK_SECONDS at most, so that Ctrl-C is answered within about a second. Each chunk ends at a barrier where one
# thread waits for the other and then the tallies are added on one, so fewer, longer chunks keep the kernel's share
# of a run higher: 500,000 games (about 0.45 s of Spooky Tower on two idle cores) where 200,000 cost about 2% more.
from ..core.defaults import DEFAULT_CHUNK  # noqa: E402,F401 - kept here for its users
CHUNK_SECONDS = 0.5
LOOK_MAX = 200_000      # --target-ci looks at the precision at least every this many games (next_look)


@dataclass(frozen=True)
class RunOptions:
    """How to run (not what to run): none of these changes a number in the results."""

    threads: int | None = None        # default: every core Numba sees
    chunk_size: int = DEFAULT_CHUNK
    keep_games: int = 0
    target_ci: float | None = None    # play on until every seat's 95% win-rate interval is at most this wide
    max_games: int = 100_000_000      # the most --target-ci may play
    progress: bool | None = None      # default: only on an interactive terminal, never under CI
    checkpoint: str | None = None     # write the aggregates to this JSON file after every chunk
    resume: str | None = None         # go on from this checkpoint (of the same scenario and run options)
    contrasts: bool = True            # also play the game's contrast variants (co-operative games; analysis.contrasts)
    client: object = None             # a dask.distributed Client: play the chunks as tasks on its workers


class ExecutorError(RuntimeError):
    """A distributed run that cannot start (exit code 2: Dask missing, no scheduler) or cannot finish (1: workers
    lost); its message is one line, for the command line."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


class CheckpointError(ValueError):
    """A checkpoint that cannot be resumed: another scenario, another target, or an unreadable file."""


def _identity(scenario: Scenario, options: RunOptions) -> dict:
    """What a checkpoint must match to be resumed: the scenario (its hash) and what decides where the run stops."""
    return {"scenario_hash": scenario.hash(), "games": scenario.games, "target_ci": options.target_ci,
            "max_games": options.max_games}


def save_checkpoint(path: str, scenario: Scenario, options: RunOptions, agg: Aggregator, sim_s: float) -> None:
    """The aggregates so far, written to a temporary file beside `path` and moved over it (never half written)."""
    import json
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump({"balance_checkpoint": 1, **_identity(scenario, options), "simulate_s": sim_s,
                   **agg.state()}, fh)
    os.replace(tmp, path)


def load_checkpoint(path: str, scenario: Scenario, options: RunOptions) -> dict:
    import json
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as err:
        raise CheckpointError(f"--resume {path}: cannot read the checkpoint ({err})") from None
    if not isinstance(data, dict) or data.get("balance_checkpoint") != 1:
        raise CheckpointError(f"--resume {path}: not a balance checkpoint")
    want = _identity(scenario, options)
    for key, value in want.items():
        if data.get(key) != value:
            raise CheckpointError(f"--resume {path}: the checkpoint is of another run ({key} {data.get(key)!r}, "
                                  f"this run {value!r}; allowed: the same scenario, games and --target-ci)")
    return data


def next_look(agg: Aggregator, played: int, options: RunOptions) -> int:
    """With a target precision, games to play before the precision is looked at again: 1,000 first, then about what
    the interval width says is still missing (width shrinks as 1/sqrt(games)), at most LOOK_MAX, so a run stops
    close to the target rather than far past it. It depends on the games played so far and nothing else (not the
    chunk size or the thread count), so where a run stops, and so every number, is reproducible."""
    if played == 0:
        return 1_000
    width = agg.ci_width_max()
    needed = int(played * (width / options.target_ci) ** 2 * 1.02) - played
    return max(1_000, min(LOOK_MAX, needed))


class LocalPlayer:
    """Plays a run's games on this machine's threads, chunk by chunk, each chunk into the arrays of the one before.

    Each chunk is added to the tallies before the next one plays. Playing the next chunk on a second thread
    meanwhile (the kernel releasing the GIL) was measured slower on the 2-core machine, not faster: the aggregating
    thread then shares a core, and its caches, with one of the kernel's threads."""

    def __init__(self, spec, compiled, scenario: Scenario, threads: int, chunk_size: int):
        self.spec, self.compiled, self.scenario, self.threads, self.chunk_size = \
            spec, compiled, scenario, threads, chunk_size
        self.buffers = ChunkBuffers()   # arrays every chunk is played into: the aggregator copies what it keeps
        self.quick = 1_000      # games a chunk takes CHUNK_SECONDS to play, measured as it goes (changes no number)

    def warm(self) -> None:
        warm_up(self.spec, self.compiled, self.scenario, self.threads)

    def describe(self) -> dict:
        return {}

    def play(self, agg: Aggregator, start: int, stop: int):
        """Play games start .. stop-1 into `agg`; yields (games, seconds of simulation) after each chunk, which is
        added whole or, on Ctrl-C, not at all."""
        played = start
        while played < stop:
            n = min(self.chunk_size, self.quick, stop - played)
            t = time.perf_counter()
            chunk = play_chunk(self.spec, self.compiled, self.scenario, played, n, self.threads, out=self.buffers,
                               counter_rows=False)     # the aggregator adds the per-block sums, never the rows
            dt = time.perf_counter() - t
            self.quick = max(1_000, int(n / max(dt, 1e-6) * CHUNK_SECONDS))
            with interrupts_deferred() as interrupt:
                agg.update(chunk)
            played += n
            yield n, dt                 # the runner counts the chunk (time, checkpoint) before a Ctrl-C acts
            interrupt.deliver()


class DeferredInterrupt:
    """A Ctrl-C caught while a chunk was being added (:func:`interrupts_deferred`), delivered afterwards."""

    def __init__(self, previous=None):
        self.previous = previous        # the SIGINT handler before the deferral
        self.caught = None              # (signum, frame) of the first Ctrl-C caught

    def catch(self, *args) -> None:
        if self.caught is None:
            self.caught = args

    def deliver(self) -> None:
        """Act on a caught Ctrl-C as the handler before would have: Python's raises KeyboardInterrupt, the system's
        default ends the process, an ignored one is ignored."""
        import signal
        if self.caught is None:
            return
        args, self.caught = self.caught, None
        if callable(self.previous):
            self.previous(*args)
        elif self.previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


@contextmanager
def interrupts_deferred():
    """Hold back Ctrl-C inside the block, so that a chunk is added to the tallies whole or not at all; the caller
    delivers it (``.deliver()``) once the chunk is accounted for. Only the main thread receives signals, and a handler
    installed outside Python cannot be put back: there the block runs as it is."""
    import signal
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is None:
        yield DeferredInterrupt()
        return
    deferred = DeferredInterrupt()
    deferred.previous = signal.signal(signal.SIGINT, deferred.catch)
    try:
        yield deferred
    finally:
        signal.signal(signal.SIGINT, deferred.previous)


def warm_up(spec, compiled, scenario: Scenario, threads: int) -> tuple[float, float]:
    """What a player does before a run's games (``LocalPlayer``, and each Dask worker once): play one game as the
    run's chunks are played, compiling or loading the kernel, and add it to throwaway tallies
    (:func:`warm_statistics`). Returns the seconds of the two steps (``bench.cold_compile`` reports them)."""
    t = time.perf_counter()
    chunk = play_chunk(spec, compiled, scenario, 0, 1, threads, counter_rows=False)
    played = time.perf_counter() - t
    t = time.perf_counter()
    warm_statistics(spec, scenario, chunk)
    return played, time.perf_counter() - t


def warm_statistics(spec, scenario: Scenario, chunk: dict) -> None:
    """Add a chunk (the one game a player's warm-up plays) to throwaway tallies: the compiled tallies are compiled
    (a machine's first run: about 1.5 s for Spooky Tower) or loaded now, under the compile notice and counted as
    compile/load, not silently inside the first chunk of games."""
    Aggregator(spec, [seat.strategy for seat in scenario.seats], scenario.turn_cap, scenario=scenario).update(chunk)


def run(scenario: Scenario, options: RunOptions = RunOptions()) -> Results:
    """Play the scenario's games (or, with a target precision, as many as it takes) and aggregate them."""
    spec = scenario.spec()
    if options.resume and options.keep_games:
        raise CheckpointError(f"--resume {options.resume} with --keep-games {options.keep_games}: a checkpoint holds "
                              "the aggregates, not per-game rows (allowed: one of them)")
    saved = load_checkpoint(options.resume, scenario, options) if options.resume else None   # before the compile
    threads = set_threads(options.threads)
    lineup = [seat.strategy for seat in scenario.seats]
    agg = Aggregator(spec, lineup, scenario.turn_cap, keep_games=options.keep_games, scenario=scenario)
    t0 = time.perf_counter()
    compiled = spec.compile_scenario(scenario)
    if options.client is not None:
        from .executor import DaskPlayer
        player = DaskPlayer(options.client, scenario, compiled, options)
    else:
        player = LocalPlayer(spec, compiled, scenario, threads, options.chunk_size)
    with compile_notice(spec.title, notice_mode(options.progress)):
        player.warm()                                           # compiles or loads the kernel (on every worker)
    compile_s = time.perf_counter() - t0

    target = scenario.games if options.target_ci is None else options.max_games
    bar = None
    if show_progress(options.progress):
        from tqdm import tqdm
        import shutil
        room = max(20, shutil.get_terminal_size((100, 24)).columns - 60)    # the bar itself needs about 60
        name = scenario.name if len(scenario.name) <= room else scenario.name[:room - 3] + "..."
        bar = tqdm(total=None if options.target_ci else target, unit="games", unit_scale=True, file=sys.stderr,
                   desc=name)
    played = 0
    sim_s = 0.0                 # this run's seconds of simulation: a resumed run's speed is its own
    sim_before = 0.0            # a checkpoint's, carried on into the checkpoints this run writes
    if saved is not None:
        agg.restore(saved)
        played, sim_before = agg.games, float(saved.get("simulate_s", 0.0))
        if bar is not None:
            bar.update(played)
    resumed = played
    interrupted = False
    try:
        while played < target:
            look = target if options.target_ci is None else min(played + next_look(agg, played, options), target)
            for n, dt in player.play(agg, played, look):        # each chunk already added to agg, in game order
                sim_s += dt
                played += n
                if options.checkpoint:
                    save_checkpoint(options.checkpoint, scenario, options, agg, sim_before + sim_s)
                if bar is not None:
                    bar.update(n)
            if options.target_ci is not None:
                if bar is not None:
                    bar.set_postfix(ci_width=f"{agg.ci_width_max():.4f}")
                if agg.ci_width_max() <= options.target_ci:
                    break
    except KeyboardInterrupt:       # Ctrl-C: the games finished so far, marked interrupted
        interrupted = True
        played = agg.games
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    timing = {"compile_s": round(compile_s, 3), "simulate_s": round(sim_s, 3), "wall_s": round(wall, 3),
              "games_per_s": round((played - resumed) / sim_s) if sim_s > 0 else None, "threads": threads,
              **player.describe()}
    if saved is not None:
        timing.update(resumed_games=resumed, resumed_simulate_s=round(sim_before, 3))
    results = agg.finalize(
        scenario=scenario.to_dict(), scenario_toml=scenario.to_toml(), seed=scenario.seed, timing=timing,
        games_played=played, turn_cap=scenario.turn_cap, scenario_hash=scenario.hash(),
        package_version=package_version(), target_ci=options.target_ci,
        target_ci_reached=(agg.ci_width_max() <= options.target_ci) if options.target_ci else None,
        assumptions=[list(a) for a in spec.assumptions(scenario)], name=scenario.name,
        replay_args=replay_args(scenario), interrupted=interrupted,
        **({"notes": list(scenario.notes)} if scenario.notes else {}),
    )
    if options.contrasts and spec.contrasts:
        from .contrasts import play
        results = play(results, scenario, options)
    return results


def replay_args(scenario: Scenario) -> str | None:
    """The arguments that make `balance replay` and `balance show` load this scenario, as a shell reads them: its
    file (nothing for the embedded default) and the options of `run` that changed it (--players, --strategy,
    --rotate, --set), checked to give the same scenario; None when no such command does (a scenario made from a dict,
    or changed in a way those options cannot say). The number of games changes no game, and the seed is the
    command's own --seed."""
    import shlex

    from ..scenario.layers import parse_value
    from ..core.toml import toml_value
    from ..scenario.model import DEFAULT_GAME, ScenarioError, load_scenario
    source = scenario.source
    if source is None and scenario.game != DEFAULT_GAME:
        return None
    args: list[str] = [source] if source else []
    given: dict = {}                # what the command line gives load_scenario for those arguments

    def set_arg(key, value):        # --set KEY=VALUE, VALUE as `--set` reads it back
        text = value if isinstance(value, str) and parse_value(value) == value else toml_value(value)
        args.extend(["--set", f"{key.removesuffix('.')}={text}"])
        given[key] = parse_value(text)
    try:
        for key, value in scenario.overrides.items():
            if key in ("games", "seed"):
                continue
            if key == "players":
                args.extend(["--players", str(value)])
                given[key] = value
            elif key == "seat_rotation":
                args.append("--rotate" if value else "--no-rotate")
                given[key] = value
            elif key == "strategy" and (isinstance(value, str) or (isinstance(value, dict) and set(value) == {"name"})):
                given[key] = {"name": value} if isinstance(value, str) else value
                args.extend(["--strategy", given[key]["name"]])
            elif "." in key:
                set_arg(key, value)
            else:
                return None
    except TypeError:               # a value TOML cannot write
        return None
    try:
        again = load_scenario(source, **given)
    except ScenarioError:
        return None

    def settings(sc):
        return {k: v for k, v in sc.to_dict().items() if k not in ("games", "seed")}
    return shlex.join(args) if settings(again) == settings(scenario) else None
