"""Benchmark the Spooky Tower kernel for 2, 3 and 4 players and every shipped strategy (same seeds, one process).

Run: `.venv/bin/python benchmarks/bench_spooky.py [--games N]`. Compile time is excluded; see balance/cli/bench.py.
"""
from __future__ import annotations

import argparse

from balance import load_scenario
from balance.cli.bench import benchmark


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--reference-games", type=int, default=200)
    args = ap.parse_args()
    for players in (2, 3, 4):
        for strategy in ("random", "ghost_hunter", "collector", "clock_rusher"):
            sc = load_scenario(None, players=players, strategy={"name": strategy})
            r = benchmark(sc, games=args.games, reference_games=args.reference_games)
            print(f"{players}p {strategy:<13} kernel {r.kernel_gps:>11,.0f}/s  1-thread {r.kernel_1t_gps:>11,.0f}/s  "
                  f"floor {r.floor_gps:>12,.0f}/s  reference {r.reference_gps:>7,.0f}/s  "
                  f"x{r.vs_reference:>6,.0f} vs reference  floor/kernel {r.vs_floor:4.1f}")
    print(r.machine)


if __name__ == "__main__":
    main()
