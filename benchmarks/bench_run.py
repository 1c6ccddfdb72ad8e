"""Is aggregation off the critical path? The kernel's games/s (as `balance bench` measures it) against the marginal
games/s of whole `balance run` processes, in one run of this script on this machine.

The marginal rate is (large - small games) / (wall of `balance run -n large` - wall of `balance run -n small`),
each a whole process (import, kernel load from the Numba cache, every chunk aggregated, the JSON printed), so
start-up cancels out. The kernel and the two runs alternate REPEATS times; the best of each is compared, as
`balance bench` reports its best of 3. On a shared machine the ratio is what to read, with the load beside it.

The two sizes are SECONDS of kernel time apart (10 by default, about 20 chunks of `runner.CHUNK_SECONDS`). A whole
process's start-up (imports, the kernel loaded from the cache, the tables printed) swings by a few tenths of a second
from one process to the next: over the 3 seconds this script used to take, that alone moved a repeat's ratio from
0.67 to 1.40 (Spooky Tower, idle 2-core machine); over 10 seconds they read 0.87 to 1.01 in one run
and 0.955 to 0.997 in the next (all three games).

It also prints the kernel's share of the large run's loop (its median over the repeats, from the run's own timing):
what is missing from 1.000 went to aggregating and bookkeeping between chunks. And each repeat's own ratio, from
its three measurements taken back to back, with their median: steadier than the ratio of the bests where the
machine's speed drifts from minute to minute.

    python benchmarks/bench_run.py [--seconds 10] [--repeats 5] [--game spooky_tower ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

SCENARIOS = {"spooky_tower": None, "haunted_tower": "scenarios/haunted_tower.toml",
             "climbing_tower": "scenarios/climbing_tower.toml"}


def kernel_rate(scenario, games: int) -> float:
    """Games/s of the kernel alone, the fastest of `balance bench`'s 3 runs of one chunk of `games`."""
    from balance.cli.bench import _kernel
    spec = scenario.spec()
    return _kernel(spec, spec.compile_scenario(scenario), scenario, games, None)[0]


def run_wall(path: str | None, games: int, extra: list[str]) -> tuple[float, dict]:
    """Seconds a whole `balance run` process takes, and the run's own timing (its JSON ``meta.timing``)."""
    import json
    cmd = [sys.executable, "-m", "balance", "run", *([path] if path else []), "-n", str(games), "--json",
           "--no-contrasts", *extra]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    return time.perf_counter() - t, json.loads(out)["meta"]["timing"]


def measure(game: str, seconds: float, repeats: int, extra: list[str]) -> dict:
    from balance.scenario import load_scenario
    path = SCENARIOS[game]
    scenario = load_scenario(path)
    probe = kernel_rate(scenario, 20_000)
    small = max(1_000, int(probe * 0.1))
    large = small + int(probe * seconds)
    run_wall(path, 1_000, extra)        # the Numba cache warm for the run processes
    best = {"kernel": 0.0, "small": float("inf"), "large": float("inf")}
    shares, ratios = [], []
    for _ in range(repeats):
        kernel = kernel_rate(scenario, min(large, 2_000_000))
        small_wall = run_wall(path, small, extra)[0]
        wall, timing = run_wall(path, large, extra)
        best["kernel"] = max(best["kernel"], kernel)
        best["small"] = min(best["small"], small_wall)
        best["large"] = min(best["large"], wall)
        # the same ratio from this repeat's three measurements alone, taken back to back: on a machine whose speed
        # drifts between minutes, their median is steadier than the ratio of the bests, which may come from
        # different minutes
        ratios.append((large - small) / (wall - small_wall) / kernel)
        # the share of the large run's loop (its wall after the compile) that the kernel was playing: the rest went
        # to aggregation and bookkeeping between chunks
        shares.append(timing["simulate_s"] / (timing["wall_s"] - timing["compile_s"]))
    marginal = (large - small) / (best["large"] - best["small"])
    return {"game": game, "kernel": best["kernel"], "marginal": marginal, "ratio": marginal / best["kernel"],
            "small": small, "large": large, "kernel_share": sorted(shares)[len(shares) // 2],
            "ratios": sorted(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(SCENARIOS))
    parser.add_argument("--seconds", type=float, default=10.0, help="kernel seconds between the two run sizes")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--executor-args", default="", help="extra `balance run` arguments (an executor)")
    args = parser.parse_args()
    from balance.cli.bench import machine
    print(f"machine: {machine()}; load average at start {os.getloadavg()[0]:.1f}")
    for game in args.game or list(SCENARIOS):
        r = measure(game, args.seconds, args.repeats, args.executor_args.split())
        print(f"{r['game']:15s} kernel {r['kernel']:>11,.0f} games/s   run marginal {r['marginal']:>11,.0f} games/s "
              f"({r['small']:,} to {r['large']:,} games)   run / kernel = {r['ratio']:.3f}   kernel share of the run's "
              f"loop {r['kernel_share']:.3f}", flush=True)
        print(f"{'':15s} run / kernel of each repeat, back to back: "
              f"{', '.join(f'{x:.3f}' for x in r['ratios'])} (median {r['ratios'][len(r['ratios']) // 2]:.3f})",
              flush=True)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
