"""Cold compile of every game's kernel with and without Numba's compile patches (balance/core/numba_patches).

Run: `.venv/bin/python benchmarks/compile_patches.py [--rounds 3] [--game NAME ...]`.

Each round compiles each game's kernel twice, with the patches (BALANCE_NUMBA_PATCHES=1) and without (=0), the
order alternating from round to round, each in a new process with an empty Numba cache, as a first `balance run`
compiles it (one game of the game's embedded default scenario, as ``balance.run.warm`` plays it). It prints each
compile's wall seconds and the process's CPU seconds over the compile, and the ratio without / with the patches
within the round; then each game's median ratio and its range over the rounds. CPU seconds swing less than wall
seconds on a busy machine (the compile runs on one thread), but not by nothing: compare rounds, not single runs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from balance.run.chunks import play_chunk, set_threads
from balance.scenario import load_scenario
scenario = load_scenario(None, game=sys.argv[1])
spec = scenario.spec()
compiled = spec.compile_scenario(scenario)
threads = set_threads(1)
from balance.core import numba_patches as _numba_patches
wall, cpu = time.perf_counter(), time.process_time()
play_chunk(spec, compiled, scenario, 0, 1, threads)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "patches": _numba_patches.ACTIVE}))
"""


def compile_once(game: str, switch: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(tmp, "cache"), "BALANCE_NUMBA_PATCHES": switch,
               "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", CHILD, game], env=env, cwd=ROOT, capture_output=True,
                              text=True, check=True)
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["patches"] is (switch == "1"), got
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", action="append", help="a game's name (default: every game)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from balance.games import registry
    games = args.game or list(registry())
    ratios: dict[str, dict[str, list[float]]] = {g: {"wall": [], "cpu": []} for g in games}
    print(f"{'round':>5}  {'game':<15} {'with: wall':>10} {'cpu':>6} {'without: wall':>13} {'cpu':>6} "
          f"{'ratio: wall':>11} {'cpu':>5}")
    for r in range(args.rounds):
        for game in games:
            order = ("1", "0") if r % 2 == 0 else ("0", "1")
            got = {switch: compile_once(game, switch) for switch in order}
            for what in ("wall", "cpu"):
                ratios[game][what].append(got["0"][what] / got["1"][what])
            print(f"{r + 1:>5}  {game:<15} {got['1']['wall']:>10.1f} {got['1']['cpu']:>6.1f} "
                  f"{got['0']['wall']:>13.1f} {got['0']['cpu']:>6.1f} {ratios[game]['wall'][-1]:>11.2f} "
                  f"{ratios[game]['cpu'][-1]:>5.2f}", flush=True)
    print("\nwithout / with the patches, median [min, max] over the rounds:")
    for game in games:
        line = "  ".join(f"{what} {statistics.median(v):.2f} [{min(v):.2f}, {max(v):.2f}]"
                         for what, v in ratios[game].items())
        print(f"  {game:<15} {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
