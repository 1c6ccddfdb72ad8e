"""Dask executor figures on this machine, in one run: games/s of two single-thread worker processes against one,
and the executor's overhead against the plain local run (all threads, no Dask) for the same games.

Games/s here is games over the simulation wall time the run reports (`timing.simulate_s`: from the first task
submitted to the last tally merged, compile and cluster start-up excluded); start-up is printed apart. Each figure is
the best of --repeats, the two sides alternating, so a burst of load on a shared machine hits both.

    python benchmarks/bench_dask.py [--games 2000000] [--overhead-games 10000000] [--repeats 2]
"""
from __future__ import annotations

import argparse
import os
import time


def _rate(results) -> float:
    return results.tallies.games / results.meta["timing"]["simulate_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000, help="games of the 1-against-2-workers figure")
    parser.add_argument("--overhead-games", type=int, default=10_000_000, help="games of the overhead figure")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    from balance.api import simulate
    from balance.cli.bench import machine
    from balance.run.executor import close, connect
    print(f"machine: {machine()}; load average at start {os.getloadavg()[0]:.1f}")
    simulate(games=1_000, progress=False)           # the kernel in the Numba cache before any worker starts
    clients = {}
    for n in (1, 2):
        t = time.perf_counter()
        clients[n] = connect("dask-local", workers=n)         # the cluster `--executor dask-local` starts
        simulate(games=1_000, progress=False, client=clients[n])     # each worker loads the kernel once
        print(f"local cluster of {n} worker{'s' if n > 1 else ''}: started and warm in {time.perf_counter() - t:.1f} s")
    best = {1: 0.0, 2: 0.0}
    for _ in range(args.repeats):
        for n in (1, 2):
            best[n] = max(best[n], _rate(simulate(games=args.games, seed=1, progress=False, client=clients[n])))
    print(f"1 worker  {best[1]:>11,.0f} games/s   ({args.games:,} games, 1 thread, best of {args.repeats})")
    print(f"2 workers {best[2]:>11,.0f} games/s   ({args.games:,} games, 1 thread each)   2 / 1 = "
          f"{best[2] / best[1]:.2f}x", flush=True)

    walls = {"local": float("inf"), "dask": float("inf")}
    rates = {"local": 0.0, "dask": 0.0}
    for _ in range(args.repeats):
        for name, kw in (("local", {}), ("dask", {"client": clients[2]})):
            t = time.perf_counter()
            r = simulate(games=args.overhead_games, seed=1, progress=False, **kw)
            walls[name] = min(walls[name], time.perf_counter() - t)
            rates[name] = max(rates[name], _rate(r))
    print(f"local run  {rates['local']:>11,.0f} games/s, {walls['local']:.1f} s wall   ({args.overhead_games:,} games, "
          f"all threads, no Dask)")
    print(f"dask-local {rates['dask']:>11,.0f} games/s, {walls['dask']:.1f} s wall   (2 workers of 1 thread)   "
          f"overhead {walls['dask'] / walls['local'] - 1:+.1%} of wall")
    print(f"load average at end {os.getloadavg()[0]:.1f}")
    for client in clients.values():
        close(client)


if __name__ == "__main__":
    main()
